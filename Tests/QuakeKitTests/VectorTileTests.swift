import Foundation
import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeWrite

@Suite("Vector tiles: clusters that drop no event", .timeLimit(.minutes(10)))
struct VectorTileTests {
    /// A catalogue's shape: most events in a few swarms (some at one position), the rest
    /// scattered, and events on the antimeridian and beyond Web Mercator's latitudes.
    static func points(seed: UInt64 = 11) -> [TilePoint] {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var points: [TilePoint] = []
        let swarms = [(35.7, -117.5), (61.2, -150.0), (19.4, -155.3), (-33.4, -70.6), (37.9, 142.2)]
        for index in 0..<3000 {
            let time = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
            let magnitude = (next() * next() * 7 * 10).rounded() / 10
            if index % 3 == 0 {
                points.append(TilePoint(latitude: next() * 170 - 85, longitude: next() * 360 - 180, magnitude: magnitude, time: time))
            } else {
                let (latitude, longitude) = swarms[index % swarms.count]
                let spread = index % 7 == 0 ? 0 : 0.5
                points.append(TilePoint(latitude: latitude + (next() - 0.5) * spread, longitude: longitude + (next() - 0.5) * spread,
                                        magnitude: index % 11 == 0 ? nil : magnitude, time: time))
            }
        }
        points += [TilePoint(latitude: 89.9, longitude: 180, magnitude: 5, time: Date(timeIntervalSince1970: 0)),
                   TilePoint(latitude: -89.9, longitude: -180, magnitude: 5, time: Date(timeIntervalSince1970: 0)),
                   TilePoint(latitude: 0, longitude: 179.99999, magnitude: 2, time: Date(timeIntervalSince1970: 0))]
        return points
    }

    /// The tile a point lies in, from the projection in doubles.
    static func tile(of point: TilePoint, zoom: Int) -> TileID {
        let side = Double(1 << zoom)
        let latitude = min(max(point.latitude, -WebMercator.maximumLatitude), WebMercator.maximumLatitude) * .pi / 180
        let x = (point.longitude + 180) / 360 * side
        let y = (1 - log(tan(.pi / 4 + latitude / 2)) / .pi) / 2 * side
        func clamp(_ value: Double) -> Int { min(max(Int(value.rounded(.down)), 0), (1 << zoom) - 1) }
        return TileID(unchecked: zoom, clamp(x), clamp(y))
    }

    static func count(_ features: [TileFeature]) -> Int {
        features.reduce(0) { total, feature in
            if case .cluster(let count, _, _, _, _) = feature.kind { return total + count }
            return total + 1
        }
    }

    @Test func everyEventIsCountedOnceInItsTile() {
        let points = Self.points()
        let index = ClusterIndex(points, budget: 40)
        var clusters = 0
        for zoom in 0...10 {
            var expected: [TileID: Int] = [:]
            for point in points { expected[Self.tile(of: point, zoom: zoom), default: 0] += 1 }
            var found: [TileID: Int] = [:]
            for tile in index.tilesWithFeatures(zoom: zoom, buffer: TilePyramid.vectorBuffer) {
                let own = index.features(for: tile, buffer: TilePyramid.vectorBuffer).filter { !$0.buffered }
                #expect(own.count <= 40, "tile \(tile) over the budget")
                for feature in own {
                    #expect((0..<ClusterIndex.extent).contains(feature.x) && (0..<ClusterIndex.extent).contains(feature.y))
                    if case .cluster = feature.kind { clusters += 1 }
                }
                if !own.isEmpty { found[tile] = Self.count(own) }
                #expect(index.count(in: tile) == (found[tile] ?? 0))
            }
            #expect(found == expected, "zoom \(zoom)")
        }
        #expect(clusters > 0)
    }

    @Test func aClusterHoldsTogetherUntilItsSplitZoom() {
        let points = Self.points()
        let index = ClusterIndex(points, budget: 40)
        func feature(at zoom: Int, of largest: Int) -> TileFeature? {
            index.features(for: Self.tile(of: points[largest], zoom: zoom)).first { feature in
                switch feature.kind {
                case .event(let event): return event == largest
                case .cluster(_, _, _, let representative, _): return representative == largest
                }
            }
        }
        var checked = 0
        for tile in index.tiles(zoom: 2) {
            for case let .cluster(count, _, _, largest, splitZoom?) in index.features(for: tile).map(\.kind) where splitZoom <= 12 {
                for zoom in 3..<splitZoom {
                    guard case .cluster(let still, _, _, _, _)? = feature(at: zoom, of: largest)?.kind else {
                        Issue.record("the cluster of \(largest) came apart at zoom \(zoom), before \(splitZoom)")
                        continue
                    }
                    #expect(still == count)
                }
                // At its split zoom the largest event is alone or in a smaller cluster.
                switch feature(at: splitZoom, of: largest)?.kind {
                case .cluster(let smaller, _, _, _, _)?: #expect(smaller < count)
                case .event?: break
                case nil: Issue.record("the largest event of a cluster is missing at zoom \(splitZoom)")
                }
                checked += 1
            }
        }
        #expect(checked > 0)
    }

    @Test func theBufferRepeatsTheNeighboursOwnFeatures() {
        let points = Self.points()
        let index = ClusterIndex(points, budget: 40)
        let buffer = TilePyramid.vectorBuffer
        let extent = ClusterIndex.extent
        var copies = 0
        for zoom in [0, 3, 6] {
            let side = 1 << zoom
            for tile in index.tilesWithFeatures(zoom: zoom, buffer: buffer) {
                for copy in index.features(for: tile, buffer: buffer) where copy.buffered {
                    copies += 1
                    // Which neighbour it came from follows from where it lies.
                    let dx = copy.x < 0 ? -1 : copy.x >= extent ? 1 : 0
                    let dy = copy.y < 0 ? -1 : copy.y >= extent ? 1 : 0
                    #expect(dx != 0 || dy != 0)
                    #expect(copy.x >= -buffer && copy.x < extent + buffer && copy.y >= -buffer && copy.y < extent + buffer)
                    let neighbour = TileID(unchecked: zoom, ((tile.x + dx) % side + side) % side, tile.y + dy)
                    let original = index.features(for: neighbour).contains {
                        $0.x == copy.x - Int32(dx) * extent && $0.y == copy.y - Int32(dy) * extent && $0.kind == copy.kind
                    }
                    #expect(original, "a buffered copy in \(tile) with no original in \(neighbour)")
                }
            }
        }
        #expect(copies > 0)
    }

    @Test func pmtilesIDsFollowTheHilbertCurve() {
        // The specification's first tiles: zoom 0, then zoom 1 along the curve.
        let ids = [(0, 0, 0), (1, 0, 0), (1, 0, 1), (1, 1, 1), (1, 1, 0)].map { PMTilesWriter.tileID(TileID(unchecked: $0.0, $0.1, $0.2)) }
        #expect(ids == [0, 1, 2, 3, 4])
        // Every tile of zoom 3 once, after the 21 tiles above it.
        let zoom3 = Set((0..<8).flatMap { x in (0..<8).map { y in PMTilesWriter.tileID(TileID(unchecked: 3, x, y)) } })
        #expect(zoom3 == Set(21..<85))
    }

    @Test func gzipRoundTrips() throws {
        let data = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7 / 13) })
        let compressed = Gzip.compress(data)
        #expect(Gzip.isCompressed(compressed) && compressed.count < data.count)
        #expect(Gzip.decompress(compressed) == data)
        #expect(Gzip.decompress(Data("not gzip".utf8)) == nil)
    }

    @Test func abbreviatedCountsReadAsLabels() {
        #expect([2, 999, 1000, 1234, 9999, 10_000, 34_567, 1_234_567].map(VectorTileEncoder.abbreviated)
                == ["2", "999", "1.0k", "1.2k", "9.9k", "10k", "34k", "1.2M"])
    }
}

@Suite("Vector tiles of the land and the plates")
struct BasemapVectorTileTests {
    /// Twice the signed area, y down: MVT 2.1 wants exterior rings positive and holes negative.
    static func area(_ ring: [(Int32, Int32)]) -> Int64 {
        ring.indices.reduce(0) { sum, index in
            let a = ring[index], b = ring[(index + 1) % ring.count]
            return sum + Int64(a.0) * Int64(b.1) - Int64(b.0) * Int64(a.1)
        }
    }

    @Test(arguments: [(0, 0, 0), (2, 2, 1), (5, 28, 12), (8, 226, 100)])
    func ringsWindAsTheSpecificationSaysAndStayInTheBuffer(_ tile: (Int, Int, Int)) {
        let id = TileID(unchecked: tile.0, tile.1, tile.2)
        let land = BasemapVectorTiles.shared.land(for: id)
        #expect(!land.isEmpty, "tile \(id) has land")
        let low = Int32(-BasemapVectorTiles.buffer), high = Int32(BasemapVectorTiles.extent + BasemapVectorTiles.buffer)
        for polygon in land {
            for (index, ring) in polygon.enumerated() {
                #expect(ring.count >= 3)
                #expect(index == 0 ? Self.area(ring) > 0 : Self.area(ring) < 0, "tile \(id): ring \(index) winds the wrong way")
                #expect(ring.allSatisfy { (low...high).contains($0.0) && (low...high).contains($0.1) })
            }
        }
        for (_, runs) in BasemapVectorTiles.shared.plates(for: id) {
            #expect(runs.allSatisfy { $0.count >= 2 && $0.allSatisfy { (low...high).contains($0.0) && (low...high).contains($0.1) } })
        }
    }
}
