import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeGeo

/// The charts of the statistics stage: the frequency–magnitude distribution and a depth cross-section.
extension ChartBuilder {
    /// The frequency–magnitude distribution on a log count axis: the number of events in each
    /// magnitude bin (squares) and at or above it (dots); the completeness magnitude Mc as a
    /// vertical line, the Gutenberg–Richter law log10 N = a − b·M drawn from Mc up, and a box
    /// with Mc, b ± σ and the count at or above Mc (``GutenbergRichterFit``, with `binning` and
    /// `method`). With too few events for a fit the counts are drawn and the box says why.
    package func frequencyMagnitude(_ events: [SeismicEvent], binning: MagnitudeBinning = .tenth,
                                   method: CompletenessMethod = .standard) -> MapScene {
        let magnitudes = events.compactMap(\.magnitude).filter(\.isFinite)
        let distribution = FrequencyMagnitudeDistribution(magnitudes: magnitudes, binning: binning)
        let fit: Result<GutenbergRichterFit, StatisticsError>
        do {
            fit = .success(try GutenbergRichterFit(magnitudes: magnitudes, binning: binning, method: method))
        } catch {
            fit = .failure(error)
        }
        let low = (distribution.bins.first?.magnitude ?? 0) - binning.width
        let high = (distribution.bins.last?.magnitude ?? 5) + binning.width
        let missing = events.count - magnitudes.count
        let frame = ChartFrame(
            options: options, metrics: textMetrics(), title: "Frequency–magnitude distribution", xTitle: "Magnitude",
            yTitle: "Number of events", note: missing > 0 ? "\(missing) without magnitude not counted" : nil,
            makeX: { AxisTicks.linear(lower: low, upper: high, minimumStep: binning.width, fits: $0) },
            makeY: { fits in
                // Below 1, so that a bin of one event is not drawn on the frame.
                var axis = AxisTicks.logarithmic(maximum: Double(max(distribution.total, 1)) * 1.5, fits: fits)
                axis.lower = 0.7
                return axis
            })
        let s = options.scale
        var marks = ChartMarks()
        let square = 6 * s
        for bin in distribution.bins where bin.count > 0 {
            let center = frame.point(bin.magnitude, Double(bin.count))
            marks.bars.append(frame.rectangle(center.x - square / 2, center.y - square / 2, center.x + square / 2,
                                              center.y + square / 2, fill: frame.palette.bar))
        }
        for bin in distribution.bins where bin.cumulativeCount > 0 {
            marks.circles.append(SceneCircle(center: frame.point(bin.magnitude, Double(bin.cumulativeCount)), diameter: 5.5 * s,
                                             fill: frame.palette.line, eventID: ""))
        }
        let decimals = binning.decimals
        var box: [String]
        switch fit {
        case .success(let fit):
            let mc = frame.x(fit.completeness)
            marks.lines.append(SceneLine(points: [PixelPoint(x: mc, y: frame.top), PixelPoint(x: mc, y: frame.bottom)],
                                         stroke: frame.palette.accent, width: 1.2 * s))
            marks.texts.append(SceneText(text: "Mc", position: PixelPoint(x: mc + 4 * s, y: frame.bottom - 6 * s),
                                         size: frame.noteSize, bold: true, color: frame.palette.accent))
            // From Mc to where the law predicts a single event, or the axis's end.
            let end = min(high, fit.a / fit.b)
            if end > fit.completeness {
                let points = stride(from: 0, through: 20, by: 1).map { step -> PixelPoint in
                    let m = fit.completeness + (end - fit.completeness) * Double(step) / 20
                    return frame.point(m, fit.expectedCount(atOrAbove: m))
                }
                marks.lines.append(SceneLine(points: points, stroke: frame.palette.accent, width: 1.6 * s))
            }
            box = ["Mc \(AxisTicks.label(fit.completeness, decimals: decimals)) · b \(AxisTicks.label(fit.b, decimals: 2))"
                   + " ± \(AxisTicks.label(fit.bUncertainty, decimals: fit.bUncertainty < 0.01 ? 3 : 2)) · N≥Mc \(fit.countAboveCompleteness)",
                   "a \(AxisTicks.label(fit.a, decimals: 2)) · \(fit.method.name)"]
        case .failure(let error):
            box = [error.message]
        }
        box.append("■ per bin   ● at or above")
        if distribution.total > 0 { placeBox(box, in: frame, marks: &marks) }
        return frame.scene(marks, empty: magnitudes.isEmpty)
    }

    /// Events within `profile`'s half-width of the great-circle segment A → B, at their distance
    /// along it (km) against depth (km, growing downwards), each the symbol it has on a map.
    /// Events without a depth or magnitude are left out.
    package func crossSection(_ events: [SeismicEvent], profile: CrossSectionProfile) -> MapScene {
        var located: [(event: MapEvent, along: Double, depth: Double)] = []
        var withoutDepth = 0
        for event in events {
            guard let located1 = profile.locate(longitude: event.longitude, latitude: event.latitude),
                  let mapEvent = MapEvent(event), mapEvent.magnitude.isFinite else { continue }
            guard let depth = event.depth, depth.isFinite else { withoutDepth += 1; continue }
            located.append((mapEvent, located1.along, depth))
        }
        let depths = located.map(\.depth)
        func coordinates(_ point: GeoPoint) -> String {
            "\(AxisTicks.label(point.longitude, decimals: 2)), \(AxisTicks.label(point.latitude, decimals: 2))"
        }
        let title = "A → B: (\(coordinates(profile.start))) → (\(coordinates(profile.end))), ±\(AxisTicks.label(profile.halfWidth, decimals: profile.halfWidth.rounded() == profile.halfWidth ? 0 : 1)) km"
        var notes = ["\(located.count) \(located.count == 1 ? "event" : "events") within the band"]
        if withoutDepth > 0 { notes.append("\(withoutDepth) without depth not shown") }
        var frame = ChartFrame(
            options: options, metrics: textMetrics(), title: title, xTitle: "Distance along the profile (km)",
            yTitle: "Depth (km)", note: notes.joined(separator: " · "), yDown: true,
            makeX: { AxisTicks.linear(lower: 0, upper: profile.length, widened: false, fits: $0) },
            makeY: { fits in
                var axis = AxisTicks.linear(lower: 0, upper: max(depths.max() ?? 10, 1), fits: fits)
                // Events above sea level (a few km at most) get room at the top, not a whole step of it.
                if let shallowest = depths.min(), shallowest < 0 {
                    axis.lower = shallowest - 0.02 * (axis.upper - shallowest)
                    axis.ticks.removeAll { $0.value < axis.lower }
                }
                return axis
            })
        frame.legend = colorBands
        var marks = ChartMarks()
        marks.circles = symbols(for: located.map(\.event)) { index in frame.point(located[index].along, located[index].depth) }
        marks.lines = marks.circles.map { outline(of: $0) }
        // The ends named in the plot's top corners.
        let s = options.scale
        for (name, x, alignment) in [("A", frame.left + 6 * s, SceneText.Alignment.left), ("B", frame.right - 6 * s, .right)] {
            marks.texts.append(SceneText(text: name, position: PixelPoint(x: x, y: frame.top + 6 * s + frame.axisTitleSize),
                                         size: frame.axisTitleSize, bold: true, color: frame.palette.accent, alignment: alignment))
        }
        return frame.scene(marks, empty: located.isEmpty)
    }

    /// Lines of text in a white box at the plot's top right.
    private func placeBox(_ lines: [String], in frame: ChartFrame, marks: inout ChartMarks) {
        let s = options.scale, padding = 6 * s, size = frame.noteSize, lineHeight = size * 1.35
        let room = frame.right - frame.left - 2 * padding - 8 * s
        let fitted = lines.map { SceneBuilder.fitting($0, into: room) { frame.metrics.width($0, size: size) } }
        let width = (fitted.map { frame.metrics.width($0, size: size) }.max() ?? 0) + 2 * padding
        let height = Double(fitted.count) * lineHeight + 2 * padding - (lineHeight - size)
        let right = frame.right - 8 * s, top = frame.top + 8 * s
        marks.panels.append(frame.rectangle(right - width - s, top - s, right + s, top + height + s, fill: frame.palette.panelEdge))
        marks.panels.append(frame.rectangle(right - width, top, right, top + height, fill: frame.palette.panel))
        for (index, line) in fitted.enumerated() {
            marks.texts.append(SceneText(text: line, position: PixelPoint(x: right - width + padding, y: top + padding + size * 0.8 + Double(index) * lineHeight),
                                         size: size, color: frame.palette.text))
        }
    }
}
