import Foundation
import QuakeQuery
import QuakeGeo

/// Colours of a chart on a white page: the maps' text and land greys for text and axes, a
/// blue-grey from the maps' sea for bars and lines, so a chart sits beside its map.
package struct ChartPalette: Sendable, Hashable {
    package var background = RGBA(red: 1, green: 1, blue: 1)
    package var text = RGBA(hex: 0x1E2A38)
    package var secondaryText = RGBA(hex: 0x4B5563)
    package var axis = RGBA(hex: 0x4B5563)
    package var grid = RGBA(hex: 0xE3E7EC)
    package var bar = RGBA(hex: 0x4A6785, alpha: 0.85)
    package var line = RGBA(hex: 0x1E2A38)
    package var accent = RGBA(hex: 0xC0392B)
    package var panel = RGBA(red: 1, green: 1, blue: 1)
    package var panelEdge = RGBA(hex: 0xB8C0CA)
}

/// What a chart draws inside its frame, in pixels.
package struct ChartMarks {
    /// Bars and squares, drawn over the grid.
    package var bars: [ScenePolygon] = []
    /// Event symbols, in drawing order.
    package var circles: [SceneCircle] = []
    /// Data lines and outlines, drawn over the symbols.
    package var lines: [SceneLine] = []
    /// Boxes behind notes inside the plot.
    package var panels: [ScenePolygon] = []
    /// Notes inside the plot.
    package var texts: [SceneText] = []
}

/// The plot area, axes, ticks, labels and titles of a chart, laid out in pixels: the margins
/// are measured from the labels themselves (``TextMetrics``), and the axes' ticks are chosen
/// so that their labels fit the room they get.
package struct ChartFrame {
    package let options: ChartOptions
    package let palette = ChartPalette()
    package let metrics: any TextMetrics
    package var title: String
    package var xTitle: String
    package var yTitle: String
    /// A remark on the top right (events left out, the bin width).
    package var note: String?
    package var xAxis: ChartAxis
    package var yAxis: ChartAxis
    /// Whether y grows downwards (depth).
    package var yDown: Bool
    /// The colour scale of the symbols (depth or age bands), shown on the title's line; empty for none.
    package var legend: [SymbolColoring.Band] = []
    /// The plot area.
    package var left = 0.0, top = 0.0, right = 0.0, bottom = 0.0

    package var s: Double { options.scale }
    package var tickSize: Double { 10.5 * s }
    package var axisTitleSize: Double { 11.5 * s }
    package var titleSize: Double { 15 * s }
    package var noteSize: Double { 10 * s }

    /// Lays out a chart: `makeX` and `makeY` build an axis from a test of whether labels at
    /// given fractions of the axis overlap, so each axis gets the finest ticks its room allows.
    package init(options: ChartOptions, metrics: any TextMetrics, title: String, xTitle: String, yTitle: String,
         note: String? = nil, yDown: Bool = false,
         makeX: (_ fits: ([(fraction: Double, label: String)]) -> Bool) -> ChartAxis,
         makeY: (_ fits: ([(fraction: Double, label: String)]) -> Bool) -> ChartAxis) {
        self.options = options
        self.metrics = metrics
        self.title = options.title ?? title
        self.xTitle = xTitle
        self.yTitle = yTitle
        self.note = note
        self.yDown = yDown
        let width = Double(options.pixelWidth), height = Double(options.pixelHeight)
        let s = options.scale, padding = 12 * s
        let tickSize = 10.5 * s, axisTitleSize = 11.5 * s, titleSize = 15 * s
        top = padding + (self.title.isEmpty ? 0 : titleSize * 1.5) + axisTitleSize * 1.3 + 10 * s
        bottom = height - (padding + axisTitleSize * 1.3 + tickSize * 1.6 + 8 * s)
        let plotHeight = max(bottom - top, 10)
        // Labels stacked on y need a line's height each.
        let yAxis = makeY { placed in
            let ys = placed.map { $0.fraction * plotHeight }.sorted()
            return zip(ys, ys.dropFirst()).allSatisfy { $1 - $0 >= tickSize * 1.5 }
        }
        self.yAxis = yAxis
        let labelWidth = yAxis.labelled.map { metrics.width($0.label!, size: tickSize) }.max() ?? 0
        left = padding + max(labelWidth + 8 * s, 0)
        left = max(left, padding + 24 * s)
        right = width - max(padding + 8 * s, 28 * s)
        let plotWidth = max(right - left, 10)
        let leftEdge = left
        xAxis = makeX { placed in
            // Centred labels, at least a gap apart and inside the image.
            let spans = placed.map { item -> (Double, Double) in
                let center = leftEdge + item.fraction * plotWidth, half = metrics.width(item.label, size: tickSize) / 2
                return (center - half, center + half)
            }.sorted { $0.0 < $1.0 }
            guard spans.allSatisfy({ $0.0 >= 2 * s && $0.1 <= width - 2 * s }) else { return false }
            return zip(spans, spans.dropFirst()).allSatisfy { $1.0 - $0.1 >= 10 * s }
        }
    }

    /// The pixel x of a value on the x axis.
    package func x(_ value: Double) -> Double { left + xAxis.fraction(value) * (right - left) }
    /// The pixel y of a value on the y axis.
    package func y(_ value: Double) -> Double {
        let f = yAxis.fraction(value)
        return yDown ? top + f * (bottom - top) : bottom - f * (bottom - top)
    }
    /// The pixel point of (x, y) data values.
    package func point(_ xValue: Double, _ yValue: Double) -> PixelPoint { PixelPoint(x: x(xValue), y: y(yValue)) }

    /// A filled rectangle between two corners, in pixels.
    package func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, fill: RGBA) -> ScenePolygon {
        let (a, b) = (min(x0, x1), max(x0, x1)), (c, d) = (min(y0, y1), max(y0, y1))
        return ScenePolygon(rings: [[PixelPoint(x: a, y: c), PixelPoint(x: b, y: c), PixelPoint(x: b, y: d),
                                     PixelPoint(x: a, y: d), PixelPoint(x: a, y: c)]], fill: fill)
    }

    /// The chart: grid, marks, frame, ticks, labels, titles; `empty` writes "No events" in the plot.
    package func scene(_ marks: ChartMarks, empty: Bool = false) -> MapScene {
        let width = Double(options.pixelWidth), padding = 12 * s
        var grid: [SceneLine] = []
        var legendCircles: [SceneCircle] = []
        var frame: [SceneLine] = []
        var texts: [SceneText] = []
        let tick = 5 * s, minorTick = 3 * s, hairline = max(0.8 * s, 0.5)

        for item in xAxis.ticks where xAxis.contains(item.value) {
            let px = x(item.value)
            if item.label != nil {
                grid.append(SceneLine(points: [PixelPoint(x: px, y: top), PixelPoint(x: px, y: bottom)], stroke: palette.grid, width: hairline))
            }
            let length = item.label == nil ? minorTick : tick
            frame.append(SceneLine(points: [PixelPoint(x: px, y: bottom), PixelPoint(x: px, y: bottom + length)],
                                   stroke: palette.axis, width: hairline))
            if let label = item.label {
                texts.append(SceneText(text: label, position: PixelPoint(x: px, y: bottom + tick + 3 * s + tickSize),
                                       size: tickSize, color: palette.text, alignment: .center))
            }
        }
        for item in yAxis.ticks where yAxis.contains(item.value) {
            let py = y(item.value)
            if item.label != nil {
                grid.append(SceneLine(points: [PixelPoint(x: left, y: py), PixelPoint(x: right, y: py)], stroke: palette.grid, width: hairline))
            }
            let length = item.label == nil ? minorTick : tick
            frame.append(SceneLine(points: [PixelPoint(x: left - length, y: py), PixelPoint(x: left, y: py)],
                                   stroke: palette.axis, width: hairline))
            if let label = item.label {
                texts.append(SceneText(text: label, position: PixelPoint(x: left - tick - 3 * s, y: py + tickSize * 0.36),
                                       size: tickSize, color: palette.text, alignment: .right))
            }
        }
        frame.append(SceneLine(points: [PixelPoint(x: left, y: top), PixelPoint(x: right, y: top), PixelPoint(x: right, y: bottom),
                                        PixelPoint(x: left, y: bottom), PixelPoint(x: left, y: top)],
                               stroke: palette.axis, width: max(1 * s, 0.5)))

        // Titles: the chart's on top, y's above its axis (text is never rotated), x's centred below.
        if !title.isEmpty {
            let fitted = SceneBuilder.fitting(title, into: width - 2 * padding) { metrics.width($0, size: titleSize, bold: true) }
            texts.append(SceneText(text: fitted, position: PixelPoint(x: padding, y: padding + titleSize), size: titleSize,
                                   bold: true, color: palette.text))
        }
        // Clear of the top tick label, whose upper half rises above the frame.
        let yTitleBaseline = top - 10 * s
        legendTexts(titleWidth: title.isEmpty ? 0 : metrics.width(title, size: titleSize, bold: true), into: &texts,
                    circles: &legendCircles)
        let yTitleWidth = metrics.width(yTitle, size: axisTitleSize)
        texts.append(SceneText(text: yTitle, position: PixelPoint(x: padding, y: yTitleBaseline), size: axisTitleSize,
                               color: palette.text))
        if let note {
            let room = right - padding - yTitleWidth - 16 * s
            let fitted = SceneBuilder.fitting(note, into: room) { metrics.width($0, size: noteSize) }
            texts.append(SceneText(text: fitted, position: PixelPoint(x: right, y: yTitleBaseline), size: noteSize,
                                   color: palette.secondaryText, alignment: .right))
        }
        let xTitleText = xAxis.caption.map { "\(xTitle), \($0)" } ?? xTitle
        texts.append(SceneText(text: SceneBuilder.fitting(xTitleText, into: width - 2 * padding) { metrics.width($0, size: axisTitleSize) },
                               position: PixelPoint(x: (left + right) / 2, y: Double(options.pixelHeight) - padding),
                               size: axisTitleSize, color: palette.text, alignment: .center))
        var noteTexts = marks.texts
        if empty {
            noteTexts.append(SceneText(text: "No events", position: PixelPoint(x: (left + right) / 2, y: (top + bottom) / 2 + 5 * s),
                                       size: 14 * s, color: palette.secondaryText, alignment: .center))
        }
        return MapScene(width: options.pixelWidth, height: options.pixelHeight, background: palette.background, polygons: [],
                        lines: grid, lineMarks: marks.bars, circles: marks.circles,
                        overlay: SceneOverlay(lines: marks.lines + frame, panels: marks.panels, circles: legendCircles,
                                              texts: noteTexts + texts))
    }

    /// The colour bands right-aligned on the title's line, in smaller type if they must, left out
    /// if even that does not fit beside the title.
    private func legendTexts(titleWidth: Double, into texts: inout [SceneText], circles: inout [SceneCircle]) {
        guard !legend.isEmpty else { return }
        let padding = 12 * s, swatch = 9 * s
        let room = Double(options.pixelWidth) - 2 * padding - titleWidth - 16 * s
        for size in [noteSize, 8.5 * s, 7 * s] {
            let widths = legend.map { swatch + 4 * s + metrics.width($0.label, size: size) }
            let total = widths.reduce(0, +) + 10 * s * Double(legend.count - 1)
            guard total <= room else { continue }
            var x = Double(options.pixelWidth) - padding - total
            let baseline = padding + titleSize * 0.85
            for (band, width) in zip(legend, widths) {
                circles.append(SceneCircle(center: PixelPoint(x: x + swatch / 2, y: baseline - size * 0.35), diameter: swatch,
                                           fill: band.fill, eventID: ""))
                texts.append(SceneText(text: band.label, position: PixelPoint(x: x + swatch + 4 * s, y: baseline), size: size,
                                       color: palette.secondaryText))
                x += width + 10 * s
            }
            return
        }
    }
}
