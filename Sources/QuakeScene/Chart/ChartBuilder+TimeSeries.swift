import Foundation
import QuakeModel
import QuakeQuery
import QuakeGeo

/// Mc and b over time in sliding windows of events (``SlidingWindows``), with ±σ error bars.
extension ChartBuilder {
    /// Mc of each window of `window` events (every `step`) at its last event's time, ± its
    /// bootstrap σ from `resamples` resamples (none for the KS method or a fixed Mc).
    package func completenessOverTime(_ events: [SeismicEvent], window: Int, step: Int, binning: MagnitudeBinning,
                                      completeness: CompletenessMethod, resamples: Int = 100, seed: UInt64 = 0) -> MapScene {
        let windows = windowEstimates(events, window: window, step: step, binning: binning, completeness: completeness,
                                      settings: nil, resamples: resamples, seed: seed)
        let points = windows.compactMap { estimate -> (Double, Double, Double)? in
            guard case .success(let mc) = estimate.mc else { return nil }
            return (estimate.last + Date.timeIntervalBetween1970AndReferenceDate, mc, estimate.mcStd ?? 0)
        }
        return series(points, events: events, title: "Completeness magnitude over time", yTitle: "Mc",
                      note: "\(points.count) windows of \(window) events, every \(step); \(completeness.name)"
                          + (resamples > 1 ? ", ±σ of \(resamples) bootstrap resamples" : ""),
                      minimumStep: binning.width)
    }

    /// b (by `settings.bMethod`) of each window of `window` events (every `step`), at the
    /// window's own Mc, at its last event's time, ± the estimator's σ.
    package func bValueOverTime(_ events: [SeismicEvent], window: Int, step: Int, binning: MagnitudeBinning,
                                completeness: CompletenessMethod, settings: EstimationSettings) -> MapScene {
        let windows = windowEstimates(events, window: window, step: step, binning: binning, completeness: completeness,
                                      settings: settings, resamples: 0, seed: settings.seed)
        let points = windows.compactMap { estimate -> (Double, Double, Double)? in
            guard case .success(let result)? = estimate.estimate, result.std.isFinite else { return nil }
            return (estimate.last + Date.timeIntervalBetween1970AndReferenceDate, result.b, result.std)
        }
        return series(points, events: events, title: "b-value over time (\(settings.bMethod.title))", yTitle: "b",
                      note: "\(points.count) windows of \(window) events, every \(step); Mc by \(completeness.name); ±σ",
                      minimumStep: 0.01)
    }

    private func windowEstimates(_ events: [SeismicEvent], window: Int, step: Int, binning: MagnitudeBinning,
                                 completeness: CompletenessMethod, settings: EstimationSettings?, resamples: Int,
                                 seed: UInt64) -> [WindowEstimate] {
        var magnitudes: [Double] = [], times: [Double] = []
        for event in events {
            guard let magnitude = event.magnitude, magnitude.isFinite else { continue }
            magnitudes.append(magnitude)
            times.append(event.time.timeIntervalSinceReferenceDate)
        }
        return SlidingWindows.estimates(magnitudes: magnitudes, times: times, window: window, step: step, binning: binning,
                                        completeness: completeness, settings: settings, mcResamples: resamples)
    }

    /// Values with error bars against time: a line through the values, a bar of ±σ at each.
    private func series(_ points: [(time: Double, value: Double, std: Double)], events: [SeismicEvent], title: String,
                        yTitle: String, note: String, minimumStep: Double) -> MapScene {
        let times = events.map(\.time.timeIntervalSince1970)
        let range = TimeTicks.range(first: times.min() ?? 0, last: times.max() ?? 3600)
        let low = points.map { $0.value - $0.std }.min() ?? 0, high = points.map { $0.value + $0.std }.max() ?? 1
        let pad = max((high - low) * 0.08, minimumStep)
        let frame = ChartFrame(
            options: options, metrics: textMetrics(), title: title, xTitle: "Time (UTC)", yTitle: yTitle,
            note: points.isEmpty ? "no window has an estimate (too few events at or above Mc)" : note,
            makeX: { TimeTicks.axis(lower: range.lower, upper: range.upper, fits: $0) },
            makeY: { AxisTicks.linear(lower: low - pad, upper: high + pad, minimumStep: minimumStep, fits: $0) })
        let s = options.scale
        var marks = ChartMarks()
        if points.count > 1 {
            marks.lines.append(SceneLine(points: points.map { frame.point($0.time, $0.value) }, stroke: frame.palette.line,
                                         width: 1.2 * s))
        }
        for point in points where point.std > 0 {
            let x = frame.x(point.time), cap = 3 * s
            let top = frame.y(point.value + point.std), bottom = frame.y(point.value - point.std)
            marks.lines.append(SceneLine(points: [PixelPoint(x: x, y: top), PixelPoint(x: x, y: bottom)],
                                         stroke: frame.palette.accent, width: 1 * s))
            for y in [top, bottom] {
                marks.lines.append(SceneLine(points: [PixelPoint(x: x - cap, y: y), PixelPoint(x: x + cap, y: y)],
                                             stroke: frame.palette.accent, width: 1 * s))
            }
        }
        for point in points {
            marks.circles.append(SceneCircle(center: frame.point(point.time, point.value), diameter: 5 * s,
                                             fill: frame.palette.line, eventID: ""))
        }
        return frame.scene(marks, empty: points.isEmpty)
    }
}
