import Foundation
import Testing
import QuakeKit

/// Mc and b in sliding windows of events, and their charts.
@Suite("Mc and b over time", .timeLimit(.minutes(10)))
struct TimeSeriesChartTests {
    /// 2000 events a minute apart: b = 1 for the first 1000, 1.5 after, both above 1.95
    /// (quantiles of the law, interleaved so that each window holds the whole range).
    static let magnitudes: [Double] = {
        func law(_ b: Double) -> [Double] {
            let quantiles = MagnitudeStatisticsTests.gutenbergRichter(count: 1000, b: b, minimum: 1.95)
            // A stride coprime to 1000 scatters the quantiles: every long run spans the distribution.
            return (0..<1000).map { quantiles[($0 * 387) % 1000] }
        }
        return law(1.0) + law(1.5)
    }()
    static let events = magnitudes.enumerated().map { index, magnitude in
        SeismicEvent(id: "e\(index)", time: Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 60),
                     latitude: 0, longitude: 0, depth: 10, magnitude: magnitude)
    }

    @Test func windowsStepThroughTheEventsAndTheLastEndsWithTheLatest() {
        let times = Self.magnitudes.indices.map(Double.init)
        let windows = SlidingWindows.estimates(magnitudes: Self.magnitudes, times: times, window: 500, step: 300,
                                               binning: .tenth, completeness: .fixed(2.0), settings: nil)
        #expect(windows.map(\.first) == [0, 300, 600, 900, 1200, 1500])
        #expect(windows.last?.last == 1999 && windows.allSatisfy { $0.count == 500 })
        #expect(SlidingWindows.estimates(magnitudes: [1, 2], times: [0, 1], window: 5, step: 1, binning: .tenth,
                                         completeness: .standard, settings: nil).isEmpty)
    }

    @Test func bOverTimeSeesTheChange() throws {
        let times = Self.magnitudes.indices.map(Double.init)
        let windows = SlidingWindows.estimates(magnitudes: Self.magnitudes, times: times, window: 500, step: 500,
                                               binning: .tenth, completeness: .fixed(2.0), settings: EstimationSettings())
        let b = try windows.map { try #require($0.estimate).get().b }
        #expect(b.count == 4)
        #expect(abs(b[0] - 1.0) < 0.1 && abs(b[1] - 1.0) < 0.1, "\(b)")
        #expect(abs(b[2] - 1.5) < 0.15 && abs(b[3] - 1.5) < 0.15, "\(b)")
    }

    @Test func mcOverTimeHasBootstrapBarsAndRepeatsWithItsSeed() throws {
        let times = Self.magnitudes.indices.map(Double.init)
        func run() -> [WindowEstimate] {
            SlidingWindows.estimates(magnitudes: Self.magnitudes, times: times, window: 1000, step: 1000, binning: .tenth,
                                     completeness: .standard, settings: nil, mcResamples: 50)
        }
        let windows = run()
        #expect(windows.count == 2)
        #expect(try windows.allSatisfy { try $0.mc.get() >= 2.0 })
        #expect(windows.allSatisfy { ($0.mcStd ?? -1) >= 0 })
        #expect(run() == windows)
    }

    @Test func theChartsDrawAPointPerWindow() {
        let builder = ChartBuilderTests.builder
        let b = builder.bValueOverTime(Self.events, window: 500, step: 250, binning: .tenth, completeness: .fixed(2.0),
                                       settings: EstimationSettings())
        #expect(b.circles.count == 7)
        ChartBuilderTests.expectFinite(b)
        let mc = builder.completenessOverTime(Self.events, window: 500, step: 500, binning: .tenth, completeness: .standard,
                                              resamples: 20)
        #expect(mc.circles.count == 4)
        ChartBuilderTests.expectFinite(mc)
        // Too few events for any window: the chart says so instead of drawing nothing.
        let none = builder.bValueOverTime(Array(Self.events.prefix(100)), window: 500, step: 100, binning: .tenth,
                                          completeness: .standard, settings: EstimationSettings())
        #expect(none.circles.isEmpty)
    }
}
