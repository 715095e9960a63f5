import Foundation
import Testing
import QuakeKit

/// Rendered maps compared with reviewed references (see README, "Golden images").
@Suite("Golden images", .timeLimit(.minutes(10)))
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
            let depths = [5.0, 40, 100, 200, 400, 600]
            // Spread over weeks so that every age band shows; the newest is the reference.
            events.append(SeismicEvent(
                id: "synthetic\(index)",
                time: Date(timeIntervalSince1970: 1_700_000_000 - Double(index * index) * 3_000),
                latitude: place.0, longitude: place.1, depth: depths[index % depths.count], magnitude: magnitude))
        }
        return events
    }()

    static let feedGenerated = Date(timeIntervalSince1970: 1_700_000_600)

    /// `options` crediting the data as a USGS feed's read does (the references show the credit).
    static func credited(_ options: MapOptions) -> MapOptions {
        var options = options
        options.dataSources = [Credits.usgs]
        return options
    }

    func check(_ options: MapOptions, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let scene = SceneBuilder(options: Self.credited(options)).scene(for: Self.events, feedGenerated: Self.feedGenerated)
        try GoldenFiles.check(try MapRenderer().image(for: scene), named: name, sourceLocation: sourceLocation)
    }

    /// The default map: land, coastline, title, magnitude legend, footer.
    @Test func worldDefault() throws {
        try check(MapOptions(width: 720), "world-default-720")
    }

    @Test func pacificRegionAcrossTheAntimeridian() throws {
        try check(MapOptions(width: 720, region: try GeoBox(west: 120, south: -60, east: -60, north: 60), graticuleSpacing: 30),
                  "region-pacific-720")
    }

    @Test func pacificCentredWorld() throws {
        try check(MapOptions(width: 720, centerLongitude: 150), "world-center150-720")
    }

    @Test func depthColours() throws {
        try check(MapOptions(width: 720, coloring: .depth), "world-depth-720")
    }

    @Test func ageColours() throws {
        try check(MapOptions(width: 720, coloring: .age(reference: nil)), "world-age-720")
    }

    @Test func doubleScaleForHiDPI() throws {
        try check(MapOptions(width: 480, scale: 2), "world-480-scale2")
    }

    @Test func transparentWithoutBasemapAtDoubleSymbolScale() throws {
        let options = MapOptions(width: 720, style: MagnitudeStyle(symbolScale: 2, minimumDiameter: 0), basemap: .none, showsLegend: false)
        let image = try MapRenderer().image(for: SceneBuilder(options: options).scene(for: Self.events))
        try GoldenFiles.check(image, named: "world-none-720-scale2")
    }

    /// With plates, labels and panels off, plate carrée is exactly what it was
    /// before they existed: `frozen-*` references were drawn by that code and
    /// are never re-recorded; the comparison is byte for byte, no tolerance.
    @Test(arguments: [("frozen-world-bare-720", 0.0, nil as Double?), ("frozen-world-bare-center150-720", 150, 30)])
    func plateCarreeUnchangedWithTheNewLayersOff(_ name: String, center: Double, graticule: Double?) throws {
        let options = MapOptions(width: 720, centerLongitude: center, showsLegend: false, graticuleSpacing: graticule,
                                 plateBoundaries: nil, labelCount: 0)
        let actual = try MapRenderer().image(for: SceneBuilder(options: options).scene(for: Self.events, feedGenerated: Self.feedGenerated))
        let expected = try RasterImage(png: Data(contentsOf: GoldenFiles.references.appendingPathComponent(name + ".png")))
        #expect(actual.width == expected.width && actual.height == expected.height)
        #expect(actual.rgba == expected.rgba, "\(name) differs from the frozen plate carrée")
    }

    /// A quiet day's feed: no circles; land, legend, footer, and a title that says so and names the feed.
    @Test func emptyCatalogue() throws {
        let scene = SceneBuilder(options: Self.credited(MapOptions(width: 720)))
            .scene(for: [SeismicEvent](), feedGenerated: Self.feedGenerated, feedTitle: "USGS Significant Earthquakes, Past Day")
        try GoldenFiles.check(try MapRenderer().image(for: scene), named: "world-empty-720")
    }

    /// The comparison must notice a real change: moving one big circle is caught.
    @Test func aMovedCircleIsCaught() throws {
        let options = MapOptions(width: 360, basemap: .none, showsLegend: false)
        var moved = Self.events
        moved[8].longitude += 3
        let original = try MapRenderer().image(for: SceneBuilder(options: options).scene(for: Self.events))
        let changed = try MapRenderer().image(for: SceneBuilder(options: options).scene(for: moved))
        let result = try #require(ImageComparison.compare(original, changed))
        #expect(!result.matches)
        #expect(result.differingPixels > 50)
        // And the same map through a PNG file and back still matches.
        #expect(try ImageComparison.compare(original, RasterImage(png: original.pngData()))?.matches == true)
    }
}
