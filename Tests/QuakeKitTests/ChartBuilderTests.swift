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

@Suite("Charts", .timeLimit(.minutes(10)))
struct ChartBuilderTests {
    static func event(_ id: String, _ seconds: Double, magnitude: Double? = 3, depth: Double? = 10,
                      type: String = "earthquake") -> SeismicEvent {
        SeismicEvent(id: id, time: Date(timeIntervalSince1970: 1_591_000_000 + seconds), latitude: 35, longitude: -117,
                     depth: depth, magnitude: magnitude, eventType: type)
    }

    static let builder = ChartBuilder(options: ChartOptions(width: 600, height: 400))

    static func charts(_ events: [SeismicEvent]) -> [MapScene] {
        [builder.magnitudeTime(events), builder.cumulative(events), builder.rate(events), builder.depthHistogram(events)]
    }

    /// Every coordinate in the scene is a finite number inside (or near) the image.
    static func expectFinite(_ scene: MapScene, sourceLocation: SourceLocation = #_sourceLocation) {
        let points = scene.lines.flatMap(\.points) + scene.overlay.lines.flatMap(\.points)
            + scene.lineMarks.flatMap { $0.rings.flatMap { $0 } } + scene.circles.map(\.center) + scene.overlay.texts.map(\.position)
        #expect(!points.isEmpty, sourceLocation: sourceLocation)
        for point in points {
            #expect(point.x.isFinite && point.y.isFinite, sourceLocation: sourceLocation)
            #expect(point.x >= -50 && point.x <= Double(scene.width) + 50 && point.y >= -50 && point.y <= Double(scene.height) + 50,
                    "\(point) outside the \(scene.width)×\(scene.height) chart", sourceLocation: sourceLocation)
        }
    }

    /// No two texts' boxes overlap (measured with the renderer's font).
    static func expectNoOverlap(_ scene: MapScene, sourceLocation: SourceLocation = #_sourceLocation) {
        let measurer = TextMeasurer()
        let boxes = scene.overlay.texts.map { text -> (Double, Double, Double, Double, String) in
            let width = measurer.width(text.text, size: text.size, bold: text.bold)
            let left: Double
            switch text.alignment {
            case .left: left = text.position.x
            case .center: left = text.position.x - width / 2
            case .right: left = text.position.x - width
            }
            return (left, text.position.y - text.size * 0.75, left + width, text.position.y + text.size * 0.2, text.text)
        }
        for i in boxes.indices {
            let a = boxes[i]
            #expect(a.0 >= 0 && a.2 <= Double(scene.width) && a.1 >= 0 && a.3 <= Double(scene.height),
                    "'\(a.4)' is cut by the image's edge", sourceLocation: sourceLocation)
            for j in boxes.indices where j > i {
                let b = boxes[j]
                let overlaps = a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
                #expect(!overlaps, "'\(a.4)' overlaps '\(b.4)'", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func noEventsGiveAxesAndANote() {
        for scene in Self.charts([]) {
            Self.expectFinite(scene)
            Self.expectNoOverlap(scene)
            #expect(scene.overlay.texts.contains { $0.text == "No events" })
            #expect(scene.circles.isEmpty && scene.lineMarks.isEmpty)
        }
    }

    static let degenerate: [[SeismicEvent]] = {
        let one = [event("a", 0)]
        let sameMoment = [event("a", 0), event("b", 0), event("c", 0)]
        let sameMagnitude: [SeismicEvent] = (0..<20).map { event("e\($0)", Double($0) * 3600, magnitude: 4.5, depth: 7) }
        let decades: [SeismicEvent] = (0..<50).map { index in
            event("y\(index)", Double(index) * 86_400 * 400, magnitude: Double(index % 9), depth: Double(index * 13))
        }
        return [one, sameMoment, sameMagnitude, decades]
    }()

    @Test(arguments: degenerate)
    func degenerateCataloguesGiveSensibleAxes(_ events: [SeismicEvent]) {
        for scene in Self.charts(events) {
            Self.expectFinite(scene)
            Self.expectNoOverlap(scene)
            #expect(!scene.overlay.texts.contains { $0.text == "No events" })
        }
    }

    @Test func symbolsAreTheMapsAndEventsWithoutMagnitudeAreCounted() throws {
        let events = [Self.event("a", 0, magnitude: 2), Self.event("b", 600, magnitude: 6),
                      Self.event("q", 1200, magnitude: 2.5, type: "quarry blast"), Self.event("n", 1800, magnitude: nil)]
        let scene = Self.builder.magnitudeTime(events)
        let style = MagnitudeStyle()
        #expect(scene.circles.count == 3)
        let big = try #require(scene.circles.first { $0.eventID == "b" })
        #expect(big.diameter == style.diameter(magnitude: 6) && big.fill == style.fill(magnitude: 6))
        #expect(scene.circles.first { $0.eventID == "q" }?.shape == .diamond)
        #expect(scene.circles.first?.eventID == "b", "largest drawn first, as on the map")
        #expect(scene.overlay.texts.contains { $0.text == "1 without magnitude not shown" })
        // Higher magnitude, higher on the chart; later, further right.
        let small = try #require(scene.circles.first { $0.eventID == "a" })
        #expect(big.center.y < small.center.y && big.center.x > small.center.x)
    }

    @Test func cumulativeStepsUpByOnePerEvent() throws {
        let events = [Self.event("a", 0), Self.event("b", 3600), Self.event("c", 3600), Self.event("d", 7200)]
        let scene = Self.builder.cumulative(events)
        let line = try #require(scene.overlay.lines.first)
        let ys = line.points.map(\.y)
        #expect(zip(ys, ys.dropFirst()).allSatisfy { $1 <= $0 }, "never falls")
        #expect(Set(ys).count == 4, "0, 1, 3 and 4 events: equal times rise in one step")
    }

    static let bins: [(Double, ChartBuilder.RateBin)] = [(3600, .hour), (2 * 86_400, .hour), (2 * 86_400 + 1, .day),
                                                          (120 * 86_400, .day), (121 * 86_400, .week)]

    @Test(arguments: bins)
    func rateBinFollowsTheSpan(_ span: Double, _ bin: ChartBuilder.RateBin) {
        #expect(ChartBuilder.RateBin(span: span) == bin)
    }

    @Test func rateBarsCountEveryEventOnce() {
        let events = (0..<30).map { Self.event("e\($0)", Double($0 * $0) * 150) }
        let scene = Self.builder.rate(events)
        #expect(scene.overlay.texts.contains { $0.text == "Events per hour" })
        // Bars stand on the zero line; their heights add up to the count in pixels.
        let bars = scene.lineMarks.map { ring in (ring.rings[0].map(\.y).min()!, ring.rings[0].map(\.y).max()!) }
        let zero = bars.map(\.1).max()!
        #expect(bars.allSatisfy { abs($0.1 - zero) < 1e-9 })
        #expect(bars.count <= 30 && !bars.isEmpty)
    }

    @Test func weeksBinFromMonday() {
        // 2020-06-03 was a Wednesday: its week began on Monday 1 June.
        let wednesday = Double(CivilTime.daysSinceEpoch(year: 2020, month: 6, day: 3)) * 86_400 + 5000
        let monday = Double(CivilTime.daysSinceEpoch(year: 2020, month: 6, day: 1)) * 86_400
        #expect(ChartBuilder.RateBin.week.start(wednesday) == monday)
    }

    @Test func depthBarsGrowDownwardsAndMissingDepthsAreCounted() throws {
        let events = [Self.event("a", 0, depth: 3), Self.event("b", 1, depth: 3.5), Self.event("c", 2, depth: 95),
                      Self.event("d", 3, depth: nil)]
        let scene = Self.builder.depthHistogram(events)
        #expect(scene.lineMarks.count == 2)
        let tops = scene.lineMarks.map { $0.rings[0].map(\.y).min()! }
        #expect(tops[0] < tops[1], "the shallow bin is above the deep one")
        let widths = scene.lineMarks.map { ring in ring.rings[0].map(\.x).max()! - ring.rings[0].map(\.x).min()! }
        #expect(abs(widths[0] - 2 * widths[1]) < 1e-6, "two events, one event")
        #expect(scene.overlay.texts.contains { $0.text.contains("1 without depth not shown") })
    }

    @Test func optionsAreChecked() {
        #expect(throws: ChartOptionsError.sideOutOfRange(width: 100, height: 500)) { try ChartOptions(width: 100).validate() }
        #expect(throws: ChartOptionsError.scaleOutOfRange(0)) { try ChartOptions(scale: 0).validate() }
        #expect(throws: Never.self) { try ChartOptions().validate() }
    }
}

@Suite("Charts of statistics", .timeLimit(.minutes(10)))
struct StatisticsChartTests {
    /// 1000 magnitudes, b = 1 above 2.0 exactly by construction (counts 10^(a − bM) per bin).
    static let events: [SeismicEvent] = {
        var events: [SeismicEvent] = []
        for bin in 0..<30 {
            let magnitude = 1.0 + Double(bin) / 10
            let count = magnitude < 2 ? 40 : Int((1000 * pow(10, -(magnitude - 2)) - 1000 * pow(10, -(magnitude - 1.9))).rounded())
            for index in 0..<max(count, 0) {
                events.append(ChartBuilderTests.event("m\(bin)-\(index)", Double(bin * 100 + index), magnitude: magnitude))
            }
        }
        return events
    }()

    @Test func theBoxShowsTheLibrarysFit() throws {
        let scene = ChartBuilderTests.builder.frequencyMagnitude(Self.events)
        let fit = try GutenbergRichterFit(magnitudes: Self.events.compactMap(\.magnitude))
        let box = try #require(scene.overlay.texts.first { $0.text.hasPrefix("Mc ") })
        #expect(box.text == "Mc \(AxisTicks.label(fit.completeness, decimals: 1)) · b \(AxisTicks.label(fit.b, decimals: 2))"
                + " ± \(AxisTicks.label(fit.bUncertainty, decimals: fit.bUncertainty < 0.01 ? 3 : 2)) · N≥Mc \(fit.countAboveCompleteness)")
        // Squares for non-empty bins, a dot for every bin with events at or above it.
        let distribution = FrequencyMagnitudeDistribution(magnitudes: Self.events.compactMap(\.magnitude))
        #expect(scene.lineMarks.count == distribution.bins.filter { $0.count > 0 }.count)
        #expect(scene.circles.count == distribution.bins.filter { $0.cumulativeCount > 0 }.count)
        // The Gutenberg–Richter line falls: more events at smaller magnitudes.
        let line = try #require(scene.overlay.lines.first { $0.points.count == 21 })
        #expect(line.points.first!.x < line.points.last!.x && line.points.first!.y < line.points.last!.y)
        ChartBuilderTests.expectNoOverlap(scene)
    }

    @Test func tooFewEventsSayWhy() {
        let scene = ChartBuilderTests.builder.frequencyMagnitude(Array(Self.events.prefix(10)))
        #expect(scene.overlay.texts.contains { $0.text.hasPrefix("not enough events") })
        ChartBuilderTests.expectFinite(ChartBuilderTests.builder.frequencyMagnitude([]))
    }

    @Test func crossSectionKeepsTheBandAndPlacesEventsAlongIt() throws {
        // A profile along the equator from 0° to 10° E; 1° of longitude there is 111.19 km.
        let profile = try CrossSectionProfile(start: GeoPoint(longitude: 0, latitude: 0), end: GeoPoint(longitude: 10, latitude: 0),
                                              halfWidth: 50)
        func at(_ id: String, _ longitude: Double, _ latitude: Double, depth: Double?) -> SeismicEvent {
            SeismicEvent(id: id, time: Date(timeIntervalSince1970: 0), latitude: latitude, longitude: longitude, depth: depth, magnitude: 5)
        }
        let events = [at("near", 1, 0.2, depth: 10), at("far", 5, 0, depth: 300), at("outside", 5, 1, depth: 20),
                      at("beyond", 11, 0, depth: 20), at("nodepth", 3, 0, depth: nil)]
        let scene = ChartBuilderTests.builder.crossSection(events, profile: profile)
        #expect(Set(scene.circles.map(\.eventID)) == ["near", "far"])
        let near = try #require(scene.circles.first { $0.eventID == "near" }), far = try #require(scene.circles.first { $0.eventID == "far" })
        #expect(near.center.x < far.center.x && near.center.y < far.center.y, "farther along, deeper down")
        #expect(scene.overlay.texts.contains { $0.text.contains("2 events within the band · 1 without depth not shown") })
        #expect(scene.overlay.texts.contains { $0.text.hasPrefix("A → B: (0.00, 0.00) → (10.00, 0.00), ±50 km") })
        ChartBuilderTests.expectNoOverlap(scene)
    }
}

