import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeGeo

/// Builds charts of a catalogue as ``MapScene``s, so ``MapRenderer`` draws them to PNG, PDF or
/// SVG and ``PlacedMap`` puts them on a report page, in the maps' font and colours.
///
/// Every chart takes the events as they are (no selection is made here), and draws a valid
/// chart with a "No events" note when none can be shown.
public struct ChartBuilder: Sendable {
    /// The options every chart of this builder uses.
    package let options: ChartOptions
    package let textMetrics: @Sendable () -> any TextMetrics

    /// A builder whose labels are measured by what `textMetrics` makes.
    package init(options: ChartOptions, textMetrics: @escaping @Sendable () -> any TextMetrics) {
        self.options = options
        self.textMetrics = textMetrics
    }

    /// The bin of ``rate(_:)``, chosen from the span of the events: hours up to 2 days,
    /// days up to 120 days, weeks (from Monday 00:00 UTC) beyond.
    package enum RateBin: String, Sendable, Hashable {
        /// One hour.
        case hour
        /// One UTC day.
        case day
        /// One week, Monday to Sunday (UTC).
        case week

        /// The bin for events spanning `span` seconds.
        package init(span: TimeInterval) {
            if span <= 2 * 86_400 { self = .hour } else if span <= 120 * 86_400 { self = .day } else { self = .week }
        }

        /// The bin's length in seconds.
        package var seconds: Double {
            switch self {
            case .hour: 3600
            case .day: 86_400
            case .week: 7 * 86_400
            }
        }

        /// The start of the bin holding `t` (seconds since 1970).
        package func start(_ t: Double) -> Double {
            switch self {
            case .hour, .day: return (t / seconds).rounded(.down) * seconds
            case .week:
                // Weeks counted from Monday 1970-01-05 (day 4).
                let offset = 4 * 86_400.0
                return ((t - offset) / seconds).rounded(.down) * seconds + offset
            }
        }
    }

    /// Magnitude against time: each event the symbol it has on a map (size from its magnitude,
    /// colour from ``ChartOptions/symbols``, a diamond when it is not an earthquake), with a thin
    /// outline so that pale symbols read on white. Events without a magnitude are left out,
    /// and counted in a note.
    package func magnitudeTime(_ events: [SeismicEvent]) -> MapScene {
        let drawn = events.compactMap { MapEvent($0) }.filter { $0.magnitude.isFinite }
        let missing = events.count - drawn.count
        let times = drawn.map(\.time.timeIntervalSince1970)
        let range = TimeTicks.range(first: times.min() ?? 0, last: times.max() ?? 3600)
        let magnitudes = drawn.map(\.magnitude)
        var frame = ChartFrame(
            options: options, metrics: textMetrics(), title: "Magnitude over time", xTitle: "Time (UTC)",
            yTitle: "Magnitude", note: missing > 0 ? "\(missing) without magnitude not shown" : nil,
            makeX: { TimeTicks.axis(lower: range.lower, upper: range.upper, fits: $0) },
            // A quarter unit to spare, so that no symbol sits on the frame.
            makeY: { AxisTicks.linear(lower: (magnitudes.min() ?? 0) - 0.25, upper: (magnitudes.max() ?? 5) + 0.25,
                                      minimumStep: 0.1, fits: $0) })
        frame.legend = colorBands
        var marks = ChartMarks()
        marks.circles = symbols(for: drawn) { frame.point(drawn[$0].time.timeIntervalSince1970, drawn[$0].magnitude) }
        marks.lines = marks.circles.map { outline(of: $0) }
        return frame.scene(marks, empty: drawn.isEmpty)
    }

    /// The number of events up to each moment, as a step line rising by one at each event's time.
    package func cumulative(_ events: [SeismicEvent]) -> MapScene {
        let times = events.map(\.time.timeIntervalSince1970).sorted()
        let range = TimeTicks.range(first: times.first ?? 0, last: times.last ?? 3600)
        let frame = ChartFrame(
            options: options, metrics: textMetrics(), title: "Cumulative number of events", xTitle: "Time (UTC)",
            yTitle: "Number of events",
            makeX: { TimeTicks.axis(lower: range.lower, upper: range.upper, fits: $0) },
            makeY: { AxisTicks.linear(lower: 0, upper: Self.headroom(times.count), minimumStep: 1, fits: $0) })
        var marks = ChartMarks()
        if !times.isEmpty {
            var points = [frame.point(range.lower, 0)]
            var count = 0
            var index = 0
            while index < times.count {
                // Events at the same moment rise in one step.
                let t = times[index]
                while index < times.count, times[index] == t { index += 1 }
                points.append(frame.point(t, Double(count)))
                count = index
                points.append(frame.point(t, Double(count)))
            }
            points.append(frame.point(range.upper, Double(count)))
            marks.lines = [SceneLine(points: points, stroke: frame.palette.line, width: 1.6 * options.scale)]
        }
        return frame.scene(marks, empty: times.isEmpty)
    }

    /// The number of events per hour, day or week (``RateBin``, chosen from the span), as bars.
    package func rate(_ events: [SeismicEvent]) -> MapScene {
        let times = events.map(\.time.timeIntervalSince1970)
        let first = times.min() ?? 0, last = times.max() ?? 0
        let bin = RateBin(span: last - first)
        var counts: [Double: Int] = [:]
        for t in times { counts[bin.start(t), default: 0] += 1 }
        let firstBin = bin.start(first), lastBin = bin.start(last) + bin.seconds
        let pad = (lastBin - firstBin) * 0.02
        let maximum = counts.values.max() ?? 0
        let frame = ChartFrame(
            options: options, metrics: textMetrics(), title: "Events per \(bin.rawValue)", xTitle: "Time (UTC)",
            yTitle: "Events per \(bin.rawValue)", note: bin == .week ? "weeks from Monday 00:00 UTC" : nil,
            makeX: { TimeTicks.axis(lower: firstBin - pad, upper: lastBin + pad, fits: $0) },
            makeY: { AxisTicks.linear(lower: 0, upper: Self.headroom(maximum), minimumStep: 1, fits: $0) })
        var marks = ChartMarks()
        let binWidth = frame.x(firstBin + bin.seconds) - frame.x(firstBin)
        // A gap between bars while they are wide enough to spare one.
        let gap = binWidth >= 5 * options.scale ? max(binWidth * 0.12, 0.5 * options.scale) : 0
        for (start, count) in counts.sorted(by: { $0.key < $1.key }) {
            marks.bars.append(frame.rectangle(frame.x(start) + gap / 2, frame.y(0), frame.x(start + bin.seconds) - gap / 2,
                                              frame.y(Double(count)), fill: frame.palette.bar))
        }
        return frame.scene(marks, empty: times.isEmpty)
    }

    /// How many events lie at each depth: horizontal bars, depth growing downwards from 0, bins of
    /// a nice width (1, 2, 5 × 10^k km, about 40 over the deepest depth). Depths above sea level
    /// (negative) count in the top bin; events without a depth are left out and counted in a note.
    package func depthHistogram(_ events: [SeismicEvent]) -> MapScene {
        let depths = events.compactMap(\.depth).filter(\.isFinite)
        let missing = events.count - depths.count
        let high = max(depths.max() ?? 10, 1)
        let width = AxisTicks.niceStep(atLeast: max(high / 40, 0.1))
        var counts: [Int: Int] = [:]
        for depth in depths { counts[max(0, Int((depth / width).rounded(.down))), default: 0] += 1 }
        let lastEdge = ((high / width).rounded(.down) + 1) * width
        let maximum = counts.values.max() ?? 0
        var notes = ["bins of \(AxisTicks.label(width, decimals: max(0, -Int(floor(log10(width) + 1e-9))))) km"]
        if depths.contains(where: { $0 < 0 }) { notes.append("above sea level in the top bin") }
        // A global catalogue's few deep events vanish beside its shallow ones on a linear axis.
        let logarithmic = maximum >= 100 && Double(maximum) >= 50 * Double(counts.values.min() ?? maximum)
        if logarithmic { notes.append("count axis logarithmic") }
        if missing > 0 { notes.append("\(missing) without depth not shown") }
        let frame = ChartFrame(
            options: options, metrics: textMetrics(), title: "Depth distribution", xTitle: "Number of events",
            yTitle: "Depth (km)", note: notes.joined(separator: " · "), yDown: true,
            makeX: { fits in
                logarithmic ? AxisTicks.logarithmic(maximum: Double(maximum), fits: fits)
                    : AxisTicks.linear(lower: 0, upper: Self.headroom(maximum), minimumStep: 1, fits: fits)
            },
            makeY: { AxisTicks.linear(lower: 0, upper: lastEdge, fits: $0) })
        var marks = ChartMarks()
        let barHeight = abs(frame.y(width) - frame.y(0))
        let gap = barHeight >= 5 * options.scale ? max(barHeight * 0.12, 0.5 * options.scale) : 0
        for (index, count) in counts.sorted(by: { $0.key < $1.key }) {
            let top = Double(index) * width
            let start = frame.left, end = logarithmic ? max(frame.x(Double(count)), start + 2 * options.scale) : frame.x(Double(count))
            marks.bars.append(frame.rectangle(start, frame.y(top) + gap / 2, end, frame.y(top + width) - gap / 2,
                                              fill: frame.palette.bar))
        }
        return frame.scene(marks, empty: depths.isEmpty)
    }

    /// The top of a count axis for counts up to `count`: 4 % above it, so that the tallest bar
    /// or the last step never runs into the frame.
    package static func headroom(_ count: Int) -> Double {
        Double(max(count, 1)) * 1.04
    }

    /// The bands of the symbols' colouring, for a legend; none when colour tells the magnitude (the size does too).
    package var colorBands: [SymbolColoring.Band] { options.symbols.coloring.bands }

    /// The events' map symbols, the `index`th at `place(index)`, in the maps' drawing order (largest first).
    package func symbols(for events: [MapEvent], at place: (_ index: Int) -> PixelPoint) -> [SceneCircle] {
        let reference = options.symbols.coloring.referenceTime(for: events, feedGenerated: nil)
        let diameters = events.map { options.symbols.diameter(magnitude: $0.magnitude, scale: options.scale) }
        let order = DrawingOrder.indices(diameters: diameters, times: events.map(\.time.timeIntervalSince1970))
        return order.map { index in
            let event = events[Int(index)]
            return SceneCircle(center: place(Int(index)), diameter: diameters[Int(index)],
                               fill: options.symbols.fill(for: event, reference: reference), eventID: event.id,
                               shape: SymbolShape(event))
        }
    }

    /// A thin closed line around a symbol.
    package func outline(of circle: SceneCircle) -> SceneLine {
        // The fill's own colour, darker: an outline of one colour for all would
        // turn the smallest symbols into dark dots.
        let fill = circle.fill
        // Fainter on the smallest symbols, which would otherwise be all outline.
        let alpha = 0.3 + 0.55 * min(1, max(0, (circle.diameter - 2 * options.scale) / (6 * options.scale)))
        let stroke = RGBA(red: fill.red * 0.55, green: fill.green * 0.55, blue: fill.blue * 0.55, alpha: alpha)
        let width = max(0.6 * options.scale, 0.4)
        switch circle.shape {
        case .circle:
            let radius = circle.diameter / 2
            let count = max(8, min(48, Int(radius * 2)))
            let points = (0...count).map { step -> PixelPoint in
                let angle = Double(step) / Double(count) * 2 * Double.pi
                return PixelPoint(x: circle.center.x + radius * cos(angle), y: circle.center.y + radius * sin(angle))
            }
            return SceneLine(points: points, stroke: stroke, width: width)
        case .diamond:
            let corners = SymbolShape.diamondCorners(center: circle.center, diameter: circle.diameter)
            return SceneLine(points: corners + [corners[0]], stroke: stroke, width: width)
        }
    }
}
