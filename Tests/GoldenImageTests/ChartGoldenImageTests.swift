import Foundation
import Testing
import QuakeKit

/// Charts compared with reviewed references (see README, "Golden images").
@Suite("Chart golden images", .timeLimit(.minutes(10)))
struct ChartGoldenImageTests {
    /// A synthetic sequence, the same on every run: a background of small events over four weeks,
    /// a M6.4 mainshock on day 10 and its aftershocks (magnitudes Gutenberg–Richter-like, b ≈ 1,
    /// from a fixed linear congruential generator), a few quarry blasts, one event without a
    /// magnitude and one without a depth.
    static let events: [SeismicEvent] = {
        var state: UInt64 = 20_200_601
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let start = 1_590_969_600.0 // 2020-06-01T00:00:00Z
        let mainshock = start + 10 * 86_400 + 5 * 3600 + 17 * 60
        var events: [SeismicEvent] = []
        func magnitude() -> Double { ((1.0 - log10(max(uniform(), 1e-6))) * 10).rounded() / 10 }
        for index in 0..<150 {
            let time = start + uniform() * 28 * 86_400
            events.append(SeismicEvent(id: "bg\(index)", time: Date(timeIntervalSince1970: time),
                                       latitude: 35.5 + uniform(), longitude: -117.9 + uniform(),
                                       depth: (uniform() * uniform() * 30 * 10).rounded() / 10, magnitude: magnitude()))
        }
        events.append(SeismicEvent(id: "main", time: Date(timeIntervalSince1970: mainshock), latitude: 35.77, longitude: -117.6,
                                   depth: 8.0, magnitude: 6.4))
        for index in 0..<250 {
            // Omori-like: most aftershocks in the first days.
            let delay = 60 * pow(10, uniform() * 4.6)
            events.append(SeismicEvent(id: "as\(index)", time: Date(timeIntervalSince1970: mainshock + delay),
                                       latitude: 35.6 + uniform() * 0.4, longitude: -117.75 + uniform() * 0.3,
                                       depth: (2 + uniform() * 12 * 10).rounded() / 10, magnitude: magnitude() + 0.3))
        }
        for index in 0..<6 {
            events.append(SeismicEvent(id: "qb\(index)", time: Date(timeIntervalSince1970: start + Double(index) * 4.5 * 86_400 + 50_000),
                                       latitude: 35.1, longitude: -117.2, depth: 0, magnitude: 1.8 + Double(index) / 10,
                                       eventType: "quarry blast"))
        }
        events.append(SeismicEvent(id: "nomag", time: Date(timeIntervalSince1970: start + 86_400), latitude: 35.5, longitude: -117.5, depth: 5))
        events.append(SeismicEvent(id: "nodepth", time: Date(timeIntervalSince1970: start + 2 * 86_400), latitude: 35.5,
                                   longitude: -117.5, magnitude: 2.2))
        return events
    }()

    func check(_ scene: MapScene, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try GoldenFiles.check(try MapRenderer().image(for: scene), named: name, sourceLocation: sourceLocation)
    }

    @Test func magnitudeTime() throws {
        try check(ChartBuilder(options: ChartOptions(width: 720, height: 420)).magnitudeTime(Self.events), "chart-magnitude-time-720")
    }

    @Test func magnitudeTimeByDepthAtDoubleScale() throws {
        let options = ChartOptions(width: 480, height: 300, scale: 2, symbols: SymbolStyle(coloring: .depth))
        try check(ChartBuilder(options: options).magnitudeTime(Self.events), "chart-magnitude-time-depth-480-scale2")
    }

    @Test func cumulative() throws {
        try check(ChartBuilder(options: ChartOptions(width: 720, height: 420)).cumulative(Self.events), "chart-cumulative-720")
    }

    @Test func ratePerDay() throws {
        try check(ChartBuilder(options: ChartOptions(width: 720, height: 420)).rate(Self.events), "chart-rate-day-720")
    }

    @Test func ratePerHour() throws {
        let mainshock = try #require(Self.events.first { $0.id == "main" }).time
        let firstDay = Self.events.filter { $0.time >= mainshock && $0.time.timeIntervalSince(mainshock) < 86_400 }
        try check(ChartBuilder(options: ChartOptions(width: 720, height: 420)).rate(firstDay), "chart-rate-hour-720")
    }

    @Test func depthHistogram() throws {
        try check(ChartBuilder(options: ChartOptions(width: 720, height: 420)).depthHistogram(Self.events), "chart-depth-720")
    }

    @Test func emptyMagnitudeTime() throws {
        try check(ChartBuilder(options: ChartOptions(width: 480, height: 300)).magnitudeTime([]), "chart-magnitude-time-empty-480")
    }
}

extension ChartGoldenImageTests {
    @Test func frequencyMagnitude() throws {
        try check(ChartBuilder(options: ChartOptions(width: 720, height: 420)).frequencyMagnitude(Self.events), "chart-fmd-720")
    }

    /// Too few events for a fit: the counts and a box saying why.
    @Test func frequencyMagnitudeWithoutAFit() throws {
        try check(ChartBuilder(options: ChartOptions(width: 480, height: 300)).frequencyMagnitude(Array(Self.events.prefix(30))),
                  "chart-fmd-nofit-480")
    }

    @Test func crossSection() throws {
        let profile = try CrossSectionProfile(start: GeoPoint(longitude: -118.0, latitude: 35.4),
                                              end: GeoPoint(longitude: -117.0, latitude: 36.2), halfWidth: 30)
        try check(ChartBuilder(options: ChartOptions(width: 720, height: 420)).crossSection(Self.events, profile: profile),
                  "chart-cross-section-720")
    }
}
