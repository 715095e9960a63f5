import Foundation
import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

/// A small seeded generator, so property tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Regions and the antimeridian", .timeLimit(.minutes(10)))
struct RegionTests {
    @Test func parsesBoxesAndExplainsBadOnes() throws {
        let pacific = try GeoBox(parsing: "120,-60,-60,60")
        #expect(pacific.crossesAntimeridian && pacific.longitudeSpan == 180 && pacific.latitudeSpan == 120)
        #expect(try GeoBox(parsing: " -10, 35, 30 ,60 ").longitudeSpan == 40)
        let cases: [(String, String)] = [
            ("1,2,3", "'1,2,3' is not W,S,E,N (four numbers separated by commas)"),
            ("a,0,10,10", "W 'a' is not a number"),
            ("0,0,190,10", "east edge 190.0 is outside -180…180"),
            ("0,10,10,-10", "south 10.0 must be below north -10.0"),
            ("5,0,5,10", "west and east are both 5.0: the box has no width"),
            ("0x10,0,10,10", "W '0x10' is not a number"),
            // Found by fuzz-arguments:
            ("180,-90,-180,90", "west 180 and east -180 are the same meridian: the box has no width"),
        ]
        for (text, message) in cases {
            #expect(throws: GeoBoxError(message: message)) { try GeoBox(parsing: text) }
        }
    }

    @Test func containsIsInclusiveAndCrossesTheAntimeridian() throws {
        let pacific = try GeoBox(west: 120, south: -60, east: -60, north: 60)
        #expect(pacific.contains(latitude: 0, longitude: 180))
        #expect(pacific.contains(latitude: 0, longitude: -180))
        #expect(pacific.contains(latitude: 60, longitude: 120))
        #expect(pacific.contains(latitude: -60, longitude: -60))
        #expect(!pacific.contains(latitude: 0, longitude: 0))
        #expect(!pacific.contains(latitude: 60.01, longitude: 150))
        #expect(GeoBox.world.contains(latitude: 90, longitude: -180) && GeoBox.world.contains(latitude: -90, longitude: 180))
    }

    /// For random boxes (a third crossing 180°) and random events inside them,
    /// the circle lands where the plate carrée formula says.
    @Test func everyEventLandsWhereTheFormulaSays() throws {
        var random = SplitMix64(state: 2026)
        for _ in 0..<200 {
            let west = Double.random(in: -180...179, using: &random)
            let span = Double.random(in: 1...359, using: &random)
            var east = west + span
            if east > 180 { east -= 360 }
            let south = Double.random(in: -90...80, using: &random)
            let north = Double.random(in: (south + 1)...90, using: &random)
            let box = try GeoBox(west: west, south: south, east: east, north: north)
            let width = Int.random(in: 100...2000, using: &random)
            let options = MapOptions(width: width, region: box, basemap: .none, showsLegend: false)
            var events: [SeismicEvent] = []
            for index in 0..<20 {
                var longitude = west + Double.random(in: 0...span, using: &random)
                if longitude > 180 { longitude -= 360 }
                let latitude = Double.random(in: south...north, using: &random)
                events.append(SeismicEvent(id: "\(index)", time: Date(timeIntervalSince1970: Double(index)),
                                           latitude: latitude, longitude: longitude, magnitude: 3))
            }
            let scene = SceneBuilder(options: options).scene(for: events)
            #expect(scene.circles.count == events.count)
            for circle in scene.circles {
                let event = events[Int(circle.eventID)!]
                var offset = (event.longitude - west).truncatingRemainder(dividingBy: 360)
                if offset < 0 { offset += 360 }
                let x = offset / box.longitudeSpan * Double(options.pixelWidth)
                let y = (north - event.latitude) / (north - south) * Double(options.pixelHeight)
                #expect(abs(circle.center.x - x) < 1e-6 && abs(circle.center.y - y) < 1e-6)
                #expect((0...Double(options.pixelWidth)).contains(circle.center.x))
            }
        }
    }

    @Test func theRegionFiltersBeforeTheLimit() throws {
        let pacific = try GeoBox(parsing: "120,-60,-60,60")
        let events = [
            Fixtures.event("fiji-old", time: "2026-11-21T01:00:00.000Z", latitude: -17, longitude: 179),
            Fixtures.event("europe-new", time: "2026-11-21T05:00:00.000Z", latitude: 45, longitude: 10),
            Fixtures.event("tonga", time: "2026-11-21T02:00:00.000Z", latitude: -20, longitude: -175),
        ]
        #expect(EventSelection(limit: 2, region: pacific).select(events).map(\.id) == ["tonga", "fiji-old"])
        #expect(EventSelection(limit: 2).select(events).map(\.id) == ["europe-new", "tonga"])
    }

    @Test func aspectRatioFollowsTheBoxUnlessBothSizesAreGiven() throws {
        let box = try GeoBox(parsing: "120,-60,-60,60")
        #expect(MapOptions(width: 1800, region: box).height == 1200)
        #expect(MapOptions(width: 1800, height: 500, region: box).height == 500)
        // Found by fuzz-arguments: a box 2e-15° wide made the height overflow.
        let thin = try GeoBox(parsing: "10,-10,10.000000000000002,10")
        #expect(MapOptions(width: 2048, region: thin).height == 1_000_000_000)
        #expect(MapOptions(width: 1000, scale: 2).pixelWidth == 2000)
        #expect(MapOptions(width: 1000, scale: 2).pixelHeight == 1000)
    }

    @Test func landCrossesTheAntimeridianWithoutASeam() throws {
        let box = try GeoBox(parsing: "150,-50,-150,0")
        let scene = SceneBuilder(options: MapOptions(width: 600, region: box, showsLegend: false)).scene(for: [SeismicEvent]())
        let xs = scene.polygons.flatMap { $0.rings.flatMap { $0.map(\.x) } }
        // Land on both sides of 180° (Fiji, New Zealand, Tonga) is drawn inside the image.
        #expect(xs.contains { (0..<300).contains($0) } && xs.contains { (300...600).contains($0) })
        // No coastline runs along the ±180° cut (x = 300 here).
        for line in scene.lines {
            for (a, b) in zip(line.points, line.points.dropFirst()) {
                #expect(!(abs(a.x - 300) < 1e-9 && abs(b.x - 300) < 1e-9), "a coastline segment on the cut")
            }
        }
    }

    @Test func coastlinesSkipTheCutsNaturalEarthMadeAt180AndTheSouthPole() {
        let ring = [GeoPoint(longitude: 170, latitude: -10), GeoPoint(longitude: 180, latitude: -10),
                    GeoPoint(longitude: 180, latitude: -20), GeoPoint(longitude: 170, latitude: -20),
                    GeoPoint(longitude: 170, latitude: -90), GeoPoint(longitude: 160, latitude: -90),
                    GeoPoint(longitude: 170, latitude: -10)]
        #expect(SceneBuilder.coastalRuns(ring) == [0...1, 2...4, 5...6])
    }
}
