import Foundation
import Testing
import QuakeKit

/// Rendered maps compared with reviewed references (see README, "Golden images").
@Suite("Golden images")
struct GoldenImageTests {
    /// A synthetic catalogue: every magnitude from −1 to 9, the antimeridian, the poles' rows.
    static let events: [SeismicEvent] = {
        var events: [SeismicEvent] = []
        let places: [(Double, Double)] = [
            (35.7, 139.7), (-33.4, -70.6), (61.2, -149.9), (-17.7, 178.1), (-15.5, -179.8),
            (38.3, 142.4), (19.4, -155.3), (37.9, 23.7), (28.2, 84.7), (-6.2, 106.8), (64.1, -21.9),
            (89.0, 0), (-89.0, 45), (0, 179.9), (0, -179.95),
        ]
        for (index, place) in places.enumerated() {
            let magnitude = Double(index % 11) - 1 + Double(index) / 20
            events.append(SeismicEvent(
                id: "synthetic\(index)",
                time: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60),
                latitude: place.0, longitude: place.1, depth: 10, magnitude: magnitude))
        }
        return events
    }()

    @Test func worldWithLand() throws {
        let image = try MapRenderer().image(for: SceneBuilder(options: MapOptions(width: 720)).scene(for: Self.events))
        try GoldenFiles.check(image, named: "world-land-720")
    }

    @Test func transparentWithoutBasemapAtDoubleSymbolScale() throws {
        let options = MapOptions(width: 720, style: MagnitudeStyle(symbolScale: 2, minimumDiameter: 0), basemap: nil)
        let image = try MapRenderer().image(for: SceneBuilder(options: options).scene(for: Self.events))
        try GoldenFiles.check(image, named: "world-none-720-scale2")
    }

    /// The comparison must notice a real change: moving one big circle is caught.
    @Test func aMovedCircleIsCaught() throws {
        let options = MapOptions(width: 360, basemap: nil)
        var moved = Self.events
        moved[8].longitude += 3
        let original = try MapRenderer().image(for: SceneBuilder(options: options).scene(for: Self.events))
        let changed = try MapRenderer().image(for: SceneBuilder(options: options).scene(for: moved))
        let result = try #require(ImageComparison.compare(original, changed))
        #expect(!result.matches)
        #expect(result.differingPixels > 50)
        #expect(ImageComparison.compare(original, original)?.differingPixels == 0)
    }
}
