import Foundation
import Testing
@testable import QuakeKit

@Suite("Rendering")
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

    @Test func embeddedLandIsTheBundledGeoJSON() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("Data/basemap/land_110m.geojson"), encoding: .utf8)
        #expect(EmbeddedLand.land110mGeoJSON + "\n" == file)
        let detailed = try String(contentsOf: root.appendingPathComponent("Data/basemap/land_10m_simplified.geojson"), encoding: .utf8)
        #expect(EmbeddedLand.land10mGeoJSON + "\n" == detailed)
        #expect(Basemap.naturalEarthDetailed.land.count == 1_648)
        let land = Basemap.naturalEarth110m.land
        #expect(land.count == 127)
        #expect(land.reduce(0) { $0 + $1.rings.count } == 128) // the Caspian is the one hole
    }

    @Test func basemapRejectsWhatIsNotGeoJSONPolygons() {
        #expect(throws: BasemapError.notGeoJSON(source: "b", reason: "not valid JSON")) {
            try Basemap(geoJSON: Data("{".utf8), name: "b")
        }
        #expect(throws: BasemapError.self) {
            try Basemap(geoJSON: Data(#"{"type":"Polygon","coordinates":[[["a","b"]]]}"#.utf8), name: "b")
        }
        #expect((try? Basemap(geoJSON: Data(#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]}"#.utf8), name: "b"))?.land.count == 1)
    }
}

@Suite("Concurrent renders")
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
