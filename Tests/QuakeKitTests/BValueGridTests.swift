import Foundation
import Testing
import QuakeKit

/// The b-value map: nearest events found as a brute-force search finds them, each node
/// estimated as `GutenbergRichterFit` does on its own events, nodes without enough left
/// clear, and a catalogue of two halves drawn with its boundary where it is.
/// (SeismoStats checks each node's b in Tests/Interop/test_bvalue_map.py.)
@Suite("b-value maps")
struct BValueGridTests {
    static func haversine(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.0 - a.0) * rad, dLon = (b.1 - a.1) * rad
        let h = pow(sin(dLat / 2), 2) + cos(a.0 * rad) * cos(b.0 * rad) * pow(sin(dLon / 2), 2)
        return 2 * BValueGrid.earthRadius * asin(min(1, h.squareRoot()))
    }

    @Test("the tree finds the nearest events a search of all finds, across the antimeridian and at the poles")
    func nearestMatchesBruteForce() {
        var random = SplitMix64(state: 42)
        // Clumps at the antimeridian, near a pole and in the open, as catalogues are clumped.
        var positions: [(latitude: Double, longitude: Double)] = []
        for (latitude, longitude) in [(-20.0, 179.5), (88.5, 10.0), (35.0, -118.0)] {
            for _ in 0..<700 {
                var lon = longitude + Double.random(in: -3...3, using: &random)
                if lon > 180 { lon -= 360 }
                positions.append((min(89.9, latitude + Double.random(in: -2...1.3, using: &random)), lon))
            }
        }
        let tree = EventTree(positions)
        var search = EventTree.Search()
        for probe in [(-20.0, -179.8), (-20.0, 180.0), (89.9, -170.0), (35.2, -118.1), (0.0, 0.0)] {
            for count in [1, 25, 200] {
                let found = tree.nearest(latitude: probe.0, longitude: probe.1, count: count, within: 20_000, search: &search)
                let expected = positions.indices
                    .map { (index: $0, distance: Self.haversine(probe, (positions[$0].latitude, positions[$0].longitude))) }
                    .sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.index < $1.index }
                    .prefix(count)
                #expect(found.map(\.index) == expected.map(\.index), "\(probe), \(count)")
                for (got, want) in zip(found, expected) { #expect(abs(got.kilometres - want.distance) < 1e-6) }
            }
            // A radius takes exactly the events within it.
            let within = tree.nearest(latitude: probe.0, longitude: probe.1, count: .max, within: 150, search: &search)
            let expected = positions.indices.filter { Self.haversine(probe, (positions[$0].latitude, positions[$0].longitude)) <= 150 }
            #expect(Set(within.map(\.index)) == Set(expected), "\(probe) within 150 km")
        }
        #expect(EventTree([]).nearest(latitude: 0, longitude: 0, count: 5, within: 100, search: &search).isEmpty)
    }

    /// `count` events scattered over the box, with magnitudes of a Gutenberg–Richter law whose b
    /// is `b(longitude)`, drawn at their quantiles in a shuffled order.
    static func catalogue(count: Int, box: (west: Double, south: Double, east: Double, north: Double),
                          b: (Double) -> Double) -> [MapEvent] {
        var random = SplitMix64(state: 7)
        return (0..<count).map { index in
            let longitude = Double.random(in: box.west...box.east, using: &random)
            let latitude = Double.random(in: box.south...box.north, using: &random)
            let quantile = Double.random(in: 0..<1, using: &random)
            let magnitude = ((0.95 - log10(1 - quantile) / b(longitude)) * 100).rounded() / 100
            return MapEvent(id: "e\(index)", time: Date(timeIntervalSince1970: Double(index) * 600),
                            latitude: latitude, longitude: longitude, magnitude: magnitude)
        }
    }

    @Test("each node's fit is GutenbergRichterFit on its nearest events; far nodes stay clear")
    func nodesAreFitsOfTheirOwnEvents() throws {
        let events = Self.catalogue(count: 4000, box: (-120, 34, -117, 36)) { _ in 1.0 }
        let region = try GeoBox(west: -121, south: 34, east: -116, north: 36)
        let options = BValueGridOptions(spacing: 0.5, neighbourhood: .nearest(150), maximumRadius: 60, completeness: .fixed(1.0))
        let grid = try QuakeMap.bValueGrid(events, grid: options, region: region)
        #expect(grid.columns == 11 && grid.rows == 5 && grid.nodes.count == 55)
        #expect(grid.nodes.first?.latitude == 34 && grid.nodes.first?.longitude == -121)
        #expect(grid.nodes.last?.latitude == 36 && grid.nodes.last?.longitude == -116)
        let reach = 60.0
        for node in grid.nodes {
            let nearest = events.map { (event: $0, distance: Self.haversine((node.latitude, node.longitude), ($0.latitude, $0.longitude))) }
                .filter { $0.distance <= reach }.sorted { $0.distance < $1.distance }.prefix(150)
            #expect(node.count == nearest.count)
            let expected = try? GutenbergRichterFit(magnitudes: nearest.map(\.event.magnitude), method: .fixed(1.0))
            #expect(node.fit == expected, "\(node.latitude), \(node.longitude)")
        }
        // Another estimator: each node's fit is the public initializer's with that estimator, in time order.
        var positive = options
        positive.estimation.bMethod = .positive
        let positiveGrid = try QuakeMap.bValueGrid(events, grid: positive, region: region)
        var compared = 0
        for (node, utsu) in zip(positiveGrid.nodes, grid.nodes) {
            let nearest = events.map { (event: $0, distance: Self.haversine((node.latitude, node.longitude), ($0.latitude, $0.longitude))) }
                .filter { $0.distance <= reach }.sorted { $0.distance < $1.distance }.prefix(150)
            let expected = try? GutenbergRichterFit(magnitudes: nearest.map(\.event.magnitude), method: .fixed(1.0),
                                                    estimator: .positive, times: nearest.map(\.event.time))
            #expect(node.fit == expected, "\(node.latitude), \(node.longitude)")
            if let b = node.fit?.b, let other = utsu.fit?.b {
                #expect(b != other)
                compared += 1
            }
        }
        #expect(compared > 20)
        // The columns at −121 and −116 are a degree (over 90 km) from every event: clear.
        #expect(grid.nodes.filter { $0.longitude == -121 || $0.longitude == -116 }.allSatisfy { $0.fit == nil && $0.count == 0 })
        #expect(grid.nodes.filter { (-120)...(-117) ~= $0.longitude }.allSatisfy { $0.fit != nil })
        #expect(grid.csv.split(separator: "\n").count == 56)
        #expect(grid.csv.hasPrefix("latitude,longitude,events,radius_km,mc,events_above_mc,b,b_sigma,a\n"))
    }

    @Test("two halves of b 0.8 and 1.2 are drawn with their boundary where it is")
    func splitCatalogueBoundary() throws {
        let events = Self.catalogue(count: 20_000, box: (-121, 33, -115, 37)) { $0 < -118 ? 0.8 : 1.2 }
        let region = try GeoBox(west: -121, south: 33, east: -115, north: 37)
        let grid = try QuakeMap.bValueGrid(events, grid: BValueGridOptions(spacing: 0.25, neighbourhood: .nearest(200),
                                                                          completeness: .fixed(1.0)), region: region)
        // Each column's mean b: below 1 west of the boundary, above it east, more than two spacings away.
        for column in 0..<grid.columns {
            let nodes = stride(from: column, to: grid.nodes.count, by: grid.columns).map { grid.nodes[$0] }
            let longitude = nodes[0].longitude
            let bs = nodes.compactMap { $0.fit?.b }
            #expect(bs.count == nodes.count)
            let mean = bs.reduce(0, +) / Double(bs.count)
            if longitude < -118.5 { #expect(mean < 0.9, "mean b \(mean) at \(longitude)") }
            if longitude > -117.5 { #expect(mean > 1.1, "mean b \(mean) at \(longitude)") }
        }
        // The drawn cells, in the nodes' order, each in the scale's colour of its b over 0.5…1.5.
        var options = MapOptions(width: 600, region: region, basemap: .none, plateBoundaries: nil)
        options.title = ""
        let scene = SceneBuilder(options: options).scene(for: grid, events: events)
        #expect(scene.circles.count == 0)
        let estimated = grid.nodes.filter { $0.fit != nil }
        #expect(scene.polygons.count == estimated.count)
        let projection = options.projection
        for (cell, node) in zip(scene.polygons, estimated) {
            #expect(cell.fill == ColorScale.diverging.color(at: node.fit!.b - 0.5))
            let corners = cell.rings[0].dropLast()
            let center = projection.project(latitude: node.latitude, longitude: node.longitude)
            #expect(abs(corners.map(\.x).reduce(0, +) / 4 - center.x) < 1e-6 && abs(corners.map(\.y).reduce(0, +) / 4 - center.y) < 1e-6)
            #expect(abs(corners.map(\.x).max()! - corners.map(\.x).min()! - 0.25 * projection.width / 6 - 0.8) < 1e-6)
        }
        // The colour bar takes the legend's place.
        #expect(scene.overlay.texts.contains { $0.text == "b-value" })
        #expect(scene.overlay.texts.contains { $0.text == "clear: under 50 events ≥ Mc" })
    }

    @Test("options out of range are refused with what is wrong", arguments: [
        (BValueGridOptions(spacing: 0), "node spacing 0.0° is outside 0.001…30"),
        (BValueGridOptions(neighbourhood: .nearest(1)), "nearest 1 events: give 2…100000"),
        (BValueGridOptions(neighbourhood: .radius(-5)), "radius -5.0 km is outside 0…5000"),
        (BValueGridOptions(minimumEvents: 1), "minimum events 1: give 2 or more"),
        (BValueGridOptions(range: 1...1), "colour range 1.0...1.0 must run from a lower to a higher value"),
    ])
    func refusals(options: BValueGridOptions, reason: String) {
        #expect(throws: StatisticsError.invalidGrid(reason)) { try options.validate() }
    }

    @Test func tooManyNodesAreRefusedBeforeAnyWork() throws {
        #expect(throws: StatisticsError.self) {
            try QuakeMap.bValueGrid([], grid: BValueGridOptions(spacing: 0.1), region: nil)
        }
        // A grid of no events is a grid of clear nodes.
        let empty = try QuakeMap.bValueGrid([], grid: BValueGridOptions(spacing: 10), region: try GeoBox(west: 0, south: 0, east: 20, north: 20))
        #expect(empty.nodes.count == 9 && empty.nodes.allSatisfy { $0.fit == nil && $0.count == 0 })
    }

    @Test("a world grid has its seam's meridian once, and its cells stay on their side of a world map's seam")
    func worldGridsAndTheSeam() throws {
        // Events along the antimeridian and the prime meridian, so nodes at both have estimates.
        let events = Self.catalogue(count: 6000, box: (-10, -20, 10, 20)) { _ in 1 }
            + Self.catalogue(count: 6000, box: (170, -20, 190, 20)) { _ in 1 }.map { event in
                var wrapped = event
                if wrapped.longitude > 180 { wrapped.longitude -= 360 }
                return wrapped
            }
        let grid = try QuakeMap.bValueGrid(events, grid: BValueGridOptions(spacing: 10, maximumRadius: 1500, completeness: .fixed(1)),
                                           region: .world)
        #expect(grid.columns == 36 && grid.rows == 19)
        #expect(grid.nodes.filter { abs($0.longitude) == 180 }.count == 19, "180° once a row")
        for projection in [MapProjection.equalEarth, .robinson, .plateCarree] {
            var options = MapOptions(width: 800, mapProjection: projection, basemap: .none, plateBoundaries: nil)
            options.centerLongitude = projection == .plateCarree ? 0 : 150
            let scene = SceneBuilder(options: options).scene(for: grid, events: events)
            #expect(!scene.polygons.isEmpty)
            for cell in scene.polygons {
                let xs = cell.rings[0].map(\.x)
                #expect(xs.max()! - xs.min()! < 800 / 8, "\(projection): a cell \(xs.max()! - xs.min()!) px wide")
            }
        }
    }

    @Test func defaultSpacingIsRound() {
        #expect(BValueGridOptions.spacing(across: 11) == 0.2)
        #expect(BValueGridOptions.spacing(across: 10) == 0.1)
        #expect(BValueGridOptions.spacing(across: 360) == 5)
        #expect(BValueGridOptions.spacing(across: 2.4) == 0.025)
    }
}
