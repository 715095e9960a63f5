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

@Suite("Rendering", .timeLimit(.minutes(10)))
struct RenderTests {
    @Test func transparentBackgroundWithoutBasemapAndCircleColourAtItsCentre() throws {
        let options = MapOptions(width: 360, height: 180, style: MagnitudeStyle(), basemap: .none, showsLegend: false)
        let scene = SceneBuilder(options: options).scene(for: [Fixtures.event("x", latitude: 0, longitude: 0, magnitude: 5)])
        let image = try MapRenderer().image(for: scene)
        #expect(image.width == 360 && image.height == 180)
        #expect(image.pixel(x: 5, y: 5).alpha == 0)
        let centre = image.pixel(x: 180, y: 90)
        #expect(centre.alpha == 153)
        #expect(centre.red == 255)
        #expect(abs(Int(centre.green) - 159) <= 1) // 0.625 · 255
        #expect(abs(Int(centre.blue) - 54) <= 1)   // 0.211 · 255
    }

    @Test func pngRoundTripsToTheSamePixels() throws {
        let scene = SceneBuilder(options: MapOptions(width: 400)).scene(for: [Fixtures.event("x", magnitude: 6)])
        let renderer = MapRenderer()
        let decoded = try RasterImage(png: try renderer.pngData(for: scene))
        #expect(decoded == (try renderer.image(for: scene)))
        #expect(decoded.height == 200)
    }

    @Test func garbageIsNotAPNG() {
        #expect(throws: RenderError.self) { try RasterImage(png: Data("not a png".utf8)) }
    }

    @Test func impossibleSizesAreErrorsNotCrashes() {
        let scene = MapScene(width: 0, height: 10, background: nil, polygons: [], circles: [])
        #expect(throws: RenderError.invalidSize(width: 0, height: 10)) { try MapRenderer().pngData(for: scene) }
    }

    @Test func concurrentRendersGiveIdenticalBytes() async throws {
        let events: [SeismicEvent] = (0..<200).map { (index: Int) -> SeismicEvent in
            let latitude = Double(index % 150) - 75
            let longitude = Double(index * 7 % 360) - 180
            return Fixtures.event("e\(index)", latitude: latitude, longitude: longitude, magnitude: Double(index % 9))
        }
        let reference = try QuakeMap.pngData(for: events, options: MapOptions(width: 512))
        let results = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<8 {
                group.addTask { try QuakeMap.pngData(for: events, options: MapOptions(width: 512)) }
            }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == reference })
    }

    /// The compiled-in bytes decode to exactly what `--basemap` reads from the data files:
    /// every coordinate the same `Double`, so maps on the built-in land are the same pixels.
    @Test func builtInLandIsTheBundledGeoJSON() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = try Data(contentsOf: root.appendingPathComponent("Data/basemap/land_110m.geojson"))
        #expect(Basemap.naturalEarth110m == (try Basemap(geoJSON: file, name: "land_110m.geojson")))
        let detailed = try Data(contentsOf: root.appendingPathComponent("Data/basemap/land_10m_simplified.geojson"))
        #expect(Basemap.naturalEarthDetailed == (try Basemap(geoJSON: detailed, name: "land_10m_simplified.geojson")))
        #expect(Basemap.naturalEarthDetailed.land.count == 1_648)
        #expect(Basemap.naturalEarthDetailed.land.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count } } == 40_411)
        let land = Basemap.naturalEarth110m.land
        #expect(land.count == 127)
        #expect(land.reduce(0) { $0 + $1.rings.count } == 128) // the Caspian is the one hole
    }

    /// Damaged built-in bytes are an error with its place, never a shorter land.
    @Test func embeddedLandRejectsDamagedBytes() throws {
        func decode(_ bytes: [UInt8]) throws(EmbeddedLandError) -> [GeoPolygon] {
            try bytes.withUnsafeBufferPointer { buffer throws(EmbeddedLandError) in try EmbeddedLand.decode(buffer) }
        }
        let whole = Array(EmbeddedLand.land110m)
        #expect(try decode(whole).count == 127)
        let magic = Array("QMLAND1".utf8)
        // One polygon, one ring, two points: (1.5, -2.25) and (-180, 90).
        #expect(try decode(magic + [1, 1, 2, 0xB8, 0x17, 0x93, 0x23, 0xF7, 0x93, 0x16, 0xB4, 0xA1, 0x0B])
            == [GeoPolygon(rings: [[GeoPoint(longitude: 1.5, latitude: -2.25), GeoPoint(longitude: -180, latitude: 90)]])])
        #expect(throws: EmbeddedLandError(offset: 0, reason: "not QMLAND1 data")) { try decode(Array(whole.dropFirst())) }
        #expect(throws: EmbeddedLandError.self) { try decode(Array(whole.dropLast())) }
        #expect(throws: EmbeddedLandError(offset: whole.count, reason: "bytes after the last polygon")) { try decode(whole + [0]) }
        #expect(throws: EmbeddedLandError(offset: 7, reason: "a number over 32 bits")) { try decode(magic + [0xFF, 0xFF, 0xFF, 0xFF, 0x7F]) }
        #expect(throws: EmbeddedLandError(offset: 7, reason: "a count of 200 with 0 bytes left")) { try decode(magic + [0xC8, 0x01]) }
        // Longitude 180.001°: the first point's delta of 180,001 milli-degrees.
        #expect(throws: EmbeddedLandError(offset: 10, reason: "a coordinate of 180001 milli-degrees")) { try decode(magic + [1, 1, 1, 0xC2, 0xFC, 0x15, 0]) }
    }

    @Test func basemapRejectsWhatIsNotGeoJSONPolygons() {
        #expect(throws: BasemapError.notGeoJSON(source: "b", reason: "not valid JSON")) {
            try Basemap(geoJSON: Data("{".utf8), name: "b")
        }
        #expect(throws: BasemapError.self) {
            try Basemap(geoJSON: Data(#"{"type":"Polygon","coordinates":[[["a","b"]]]}"#.utf8), name: "b")
        }
        #expect((try? Basemap(geoJSON: Data(#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]}"#.utf8), name: "b"))?.land.count == 1)
        // A latitude past the pole is refused with the position, not projected into nonsense.
        #expect(throws: BasemapError.notGeoJSON(source: "b", reason: "position [10.0, 1e+300] is off the globe (latitude −90…90, longitude −540…540)")) {
            try Basemap(geoJSON: Data(#"{"type":"Polygon","coordinates":[[[0,0],[10,1e300],[1,1],[0,0]]]}"#.utf8), name: "b")
        }
        // Data in 0…360 stays readable.
        #expect((try? Basemap(geoJSON: Data(#"{"type":"Polygon","coordinates":[[[350,0],[359,0],[359,1],[350,0]]]}"#.utf8), name: "b"))?.land.count == 1)
    }
}

@Suite("Concurrent renders", .timeLimit(.minutes(10)))
struct ConcurrentRenderTests {
    /// Eight different feeds rendered at once from one process give exactly the
    /// bytes that eight renders one after another give.
    @Test func eightFeedsAtOnceMatchEightInTurn() async throws {
        let feeds: [[SeismicEvent]] = (0..<8).map { seed in
            (0..<150).map { index in
                let value = Double((index * 37 + seed * 101) % 997)
                return Fixtures.event("f\(seed)-\(index)", latitude: value.truncatingRemainder(dividingBy: 170) - 85,
                                      longitude: value.truncatingRemainder(dividingBy: 359) - 179.5,
                                      magnitude: Double((index + seed) % 9))
            }
        }
        let options = (0..<8).map { seed in
            MapOptions(width: 480, coloring: seed % 2 == 0 ? .magnitude : .depth, title: "Feed \(seed)")
        }
        let sequential = try (0..<8).map { try QuakeMap.pngData(for: feeds[$0], options: options[$0]) }
        let concurrent = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for index in 0..<8 {
                group.addTask { (index, try QuakeMap.pngData(for: feeds[index], options: options[index])) }
            }
            var results = [Data](repeating: Data(), count: 8)
            for try await (index, data) in group { results[index] = data }
            return results
        }
        #expect(concurrent == sequential)
        #expect(Set(sequential).count == 8)
    }
}
