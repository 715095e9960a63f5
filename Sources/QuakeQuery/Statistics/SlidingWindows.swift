import Foundation

/// Mc, or b and a, in one window of a time series.
package struct WindowEstimate: Sendable, Hashable {
    /// The window's first and last event's times (seconds since 2001).
    package var first: Double
    package var last: Double
    /// Events with a magnitude in the window.
    package var count: Int
    /// The window's Mc, or why there is none.
    package var mc: Result<Double, StatisticsError>
    /// The bootstrap σ of Mc, when asked for and the method allows it.
    package var mcStd: Double?
    /// b ± σ at the window's Mc, when asked for.
    package var estimate: Result<MagnitudeEstimate, StatisticsError>?
}

/// Mc and b over time (as ZMAP draws them): windows of a fixed number of events in time
/// order, moved on by `step` events, each with its own Mc (``GutenbergRichterFit``'s
/// method and floor of events at or above Mc) and, when `settings` are given, b by
/// ``MagnitudeEstimate`` at that Mc.
package enum SlidingWindows {
    /// The windows of `magnitudes` at `times` (any order; sorted here, stably). The last window
    /// ends with the last event, so the latest events always count.
    ///
    /// - Parameters:
    ///   - mcResamples: bootstrap resamples for σ(Mc); 0 for none. Not for the KS method (a
    ///     Monte Carlo test per resample would take minutes), whose windows have no σ(Mc).
    package static func estimates(magnitudes: [Double], times: [Double], window: Int, step: Int,
                                  binning: MagnitudeBinning, completeness: CompletenessMethod,
                                  settings: EstimationSettings?, mcResamples: Int = 0,
                                  minimumEvents: Int = GutenbergRichterFit.minimumEvents) -> [WindowEstimate] {
        var order = magnitudes.indices.filter { magnitudes[$0].isFinite }
        order.sort { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
        guard window > 0, step > 0, order.count >= window else { return [] }
        var starts = Array(stride(from: 0, through: order.count - window, by: step))
        if let lastStart = starts.last, lastStart != order.count - window { starts.append(order.count - window) }
        return starts.map { start in
            let indices = order[start..<(start + window)]
            let sample = indices.map { magnitudes[$0] }
            let sampleTimes = indices.map { times[$0] }
            let mc = Result { () throws(StatisticsError) in
                try GutenbergRichterFit(magnitudes: sample, binning: binning, method: completeness,
                                        minimumEvents: minimumEvents).completeness
            }
            var mcStd: Double?
            switch completeness {
            case .fixed, .kolmogorovSmirnov: break
            case .maximumCurvature, .bStability:
                if mcResamples > 1 {
                    mcStd = Bootstrap.standardDeviation(count: sample.count, resamples: mcResamples,
                                                        seed: settings?.seed ?? 0) { picks in
                        var resample: [Double] = []
                        resample.reserveCapacity(sample.count)
                        for (index, copies) in picks.enumerated() where copies > 0 {
                            for _ in 0..<copies { resample.append(sample[index]) }
                        }
                        return try? GutenbergRichterFit(magnitudes: resample, binning: binning, method: completeness,
                                                        minimumEvents: 2).completeness
                    }
                }
            }
            let estimate: Result<MagnitudeEstimate, StatisticsError>? = settings.map { settings in
                Result { () throws(StatisticsError) in
                    try MagnitudeEstimate(magnitudes: sample, times: sampleTimes, mc: try mc.get(),
                                          width: binning.width, settings: settings)
                }
            }
            return WindowEstimate(first: sampleTimes[0], last: sampleTimes[sampleTimes.count - 1], count: sample.count,
                                  mc: mc, mcStd: mcStd, estimate: estimate)
        }
    }
}
