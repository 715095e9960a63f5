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

@Suite("Legend, title and footer", .timeLimit(.minutes(10)))
struct OverlayTests {
    let events = [
        Fixtures.event("a", time: "2026-11-20T23:59:21.000Z", magnitude: 4),
        Fixtures.event("b", time: "2026-11-21T23:56:34.000Z", magnitude: 6),
    ]

    @Test func legendCirclesHaveTheMapsExactSymbolSizes() {
        for (style, scale) in [(MagnitudeStyle(), 1.0), (MagnitudeStyle(symbolScale: 1.5, minimumDiameter: 0), 2.0)] {
            let scene = SceneBuilder(options: MapOptions(width: 600, style: style, scale: scale)).scene(for: events)
            let legend = scene.overlay.circles.map(\.diameter)
            #expect(legend == [3.0, 5, 7].map { style.diameter(magnitude: $0) * scale })
            #expect(scene.circles.map(\.diameter) == [6.0, 4].map { style.diameter(magnitude: $0) * scale })
        }
    }

    @Test func titleAndFooterSayWhatIsShown() {
        let generated = Fixtures.date("2026-11-21T23:58:00.000Z")
        let scene = SceneBuilder(options: MapOptions(width: 1200)).scene(for: events, feedGenerated: generated)
        let texts = scene.overlay.texts.map(\.text)
        #expect(texts.first == "2 earthquakes, 2026-11-20 23:59 – 2026-11-21 23:56 UTC")
        // Events with no known source: no data credit (a feed's sources are credited: AttributionTests).
        #expect(texts.contains("Feed generated 2026-11-21 23:58 UTC · 2 events · Made with Natural Earth · Plate boundaries: Bird (2003)"))
        #expect(texts.contains("Magnitude") && texts.contains("M7"))
        let custom = SceneBuilder(options: MapOptions(width: 1200, basemap: .none, title: "Nightly")).scene(for: events)
        #expect(custom.overlay.texts.first?.text == "Nightly")
        #expect(custom.overlay.texts.map(\.text).contains("2 events"), "no Natural Earth credit without its land")
        #expect(SceneBuilder(options: MapOptions(showsLegend: false, labelCount: 0)).scene(for: events).overlay == SceneOverlay())
        #expect(SceneBuilder(options: MapOptions(showsLegend: false)).scene(for: events).overlay.texts.count == 2,
                "labels are asked for apart from the legend")
    }

    @Test func colourLegendsListTheirBands() {
        let depth = SceneBuilder(options: MapOptions(width: 1000, coloring: .depth)).scene(for: events)
        #expect(depth.overlay.texts.map(\.text).contains("≥ 500 km"))
        #expect(depth.overlay.circles.count == SymbolColoring.depthBands.count + 3)
        let age = SceneBuilder(options: MapOptions(width: 1000, coloring: .age(reference: nil))).scene(for: events)
        #expect(age.overlay.texts.map(\.text).contains("past hour"))
    }

    @Test func depthAndAgeColoursFollowTheBands() {
        var shallow = MapEvent(events[0])!, deep = shallow, above = shallow
        shallow.depth = 10; deep.depth = 620; above.depth = -2
        let reference = Fixtures.date("2026-11-21T23:59:00.000Z")
        #expect(SymbolColoring.depth.fill(for: shallow, style: MagnitudeStyle(), reference: reference) == SymbolColoring.depthBands[0].fill)
        #expect(SymbolColoring.depth.fill(for: deep, style: MagnitudeStyle(), reference: reference) == SymbolColoring.depthBands[5].fill)
        #expect(SymbolColoring.depth.fill(for: above, style: MagnitudeStyle(), reference: reference) == SymbolColoring.depthBands[0].fill)
        let age = SymbolColoring.age(reference: reference)
        #expect(age.fill(for: MapEvent(events[1])!, style: MagnitudeStyle(), reference: reference) == SymbolColoring.ageBands[0].fill)
        #expect(age.fill(for: MapEvent(events[0])!, style: MagnitudeStyle(), reference: reference) == SymbolColoring.ageBands[1].fill)
    }

    @Test func longTitlesShrinkInsteadOfOverflowing() {
        let title = String(repeating: "A very long title ", count: 10)
        let scene = SceneBuilder(options: MapOptions(width: 400, title: title)).scene(for: events)
        let label = scene.overlay.texts[0]
        let width = TextMeasurer().width(label.text, size: label.size, bold: true)
        #expect(label.position.x + width <= 400)
    }

    /// The scene measures labels only through the metrics it is handed (the
    /// public initializer hands it the renderer's): with made-up ones, the
    /// title's panel is exactly as wide as they say, plus its padding.
    @Test func labelsAreMeasuredByTheMetricsHandedIn() throws {
        struct Monospaced: TextMetrics {
            func width(_ text: String, size: Double, bold: Bool) -> Double { Double(text.count) * size }
        }
        let options = MapOptions(width: 800, title: "Quakes")
        let scene = SceneBuilder(options: options, textMetrics: { Monospaced() }).scene(for: events)
        let title = try #require(scene.overlay.texts.first)
        let corners = try #require(scene.overlay.panels.first?.rings.first).map(\.x)
        #expect(title.text == "Quakes" && title.size == 15)
        #expect(corners.max()! - corners.min()! == 6 * 15 + 2 * 8)
    }
}
