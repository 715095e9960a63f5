import Foundation
import QuakeModel
import QuakeQuery
import QuakeGeo

/// A continuous colour scale: colours at evenly spaced stops, blended linearly between them.
package struct ColorScale: Sendable, Hashable {
    /// The colours from the scale's low end to its high end.
    package var stops: [RGBA]

    /// ColorBrewer's RdYlBu (Brewer 2002, Apache 2.0): low b-values red, high blue, as b-value maps
    /// have drawn them since Wiemer & Wyss (1997), on a scale that stays readable to the colour-blind.
    package static let diverging = ColorScale(stops: [0xA50026, 0xD73027, 0xF46D43, 0xFDAE61, 0xFEE090, 0xFFFFBF,
                                                      0xE0F3F8, 0xABD9E9, 0x74ADD1, 0x4575B4, 0x313695].map { RGBA(hex: $0) })
    /// ColorBrewer's YlGnBu: one hue rising, for quantities with no middle (σ(b), Mc).
    package static let sequential = ColorScale(stops: [0xFFFFD9, 0xEDF8B1, 0xC7E9B4, 0x7FCDBB, 0x41B6C4, 0x1D91C0,
                                                       0x225EA8, 0x253494, 0x081D58].map { RGBA(hex: $0) })

    /// The colour at `fraction` of the way along (clamped to 0…1).
    package func color(at fraction: Double) -> RGBA {
        let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        let position = clamped * Double(stops.count - 1)
        let index = min(Int(position), stops.count - 2), share = position - Double(index)
        let a = stops[index], b = stops[index + 1]
        return RGBA(red: a.red + (b.red - a.red) * share, green: a.green + (b.green - a.green) * share,
                    blue: a.blue + (b.blue - a.blue) * share)
    }
}

/// The colour bar of a map of values: what the colours mean, in the legend's place.
package struct SceneColorBar: Sendable, Hashable {
    /// The scale.
    package var scale: ColorScale
    /// The values at its ends.
    package var range: ClosedRange<Double>
    /// The heading (`b-value`).
    package var heading: String
    /// Lines of small print under the bar: how the values were made.
    package var notes: [String]
}

extension BValueGridOptions.Layer {
    /// The heading of the colour bar.
    package var heading: String {
        switch self {
        case .bValue: return "b-value"
        case .bUncertainty: return "σ(b)"
        case .completeness: return "Mc"
        }
    }

    /// The scale: diverging about b = 1, sequential for the rest.
    package var colorScale: ColorScale { self == .bValue ? .diverging : .sequential }
}

extension SceneBuilder {
    /// How far each cell reaches over its neighbours, in pixels: without it, antialiasing leaves
    /// hairline seams where two cells meet.
    private static let cellOverlap = 0.4

    /// A map of `grid`'s values: each node with an estimate fills its cell in the
    /// layer's colour (nodes without stay clear), opaque, over the land and under the
    /// coastlines and plate boundaries; a colour bar takes the legend's place.
    /// `events` are the ones the grid was made from: the title and footer count
    /// them, and none is drawn.
    package func scene(for grid: BValueGrid, events: [MapEvent], feedGenerated: Date? = nil, feedTitle: String? = nil) -> MapScene {
        let layer = grid.options.layer
        let range = grid.range
        var builder = self
        builder.options.labelCount = 0
        if builder.options.title == nil {
            builder.options.title = layer.heading + " · " + Self.defaultTitle(events, feedTitle: feedTitle)
        }
        builder.colorBar = SceneColorBar(scale: layer.colorScale, range: range, heading: layer.heading,
                                         notes: Self.gridNotes(grid))
        var scene = builder.scene(for: events, feedGenerated: feedGenerated, feedTitle: feedTitle)
        scene.circles = CircleLayer([])
        scene.beachballs = []
        scene.overlay.eventCircles = []
        let geometry = options.geometry
        let half = grid.spacing / 2
        let span = range.upperBound - range.lowerBound
        var cells: [ScenePolygon] = []
        for node in grid.nodes {
            guard let value = node.value(layer) else { continue }
            let fill = layer.colorScale.color(at: (value - range.lowerBound) / span)
            let south = max(node.latitude - half, -90), north = min(node.latitude + half, 90)
            let corners = [(south, node.longitude - half), (south, node.longitude + half),
                           (north, node.longitude + half), (north, node.longitude - half)]
            var ring: [PixelPoint]
            if case .globe(let globe) = geometry {
                // A world map's cell stays on its centre's side of the seam, cut at the map's edge.
                let offset = MapProjection.offset(longitude: node.longitude, from: globe.centerLongitude)
                ring = corners.map { corner in
                    globe.point(latitude: corner.0, offset: min(180, max(-180, offset + corner.1 - node.longitude)))
                }
            } else {
                ring = corners.map { geometry.point(latitude: $0.0, longitude: $0.1) }
            }
            // A cell the seam of a world map cuts: keep its western half's width on the side its centre is.
            if case .plateCarree = geometry, abs(ring[1].x - ring[0].x) > Double(scene.width) / 2 {
                let center = geometry.point(latitude: node.latitude, longitude: node.longitude)
                let width = grid.spacing * Double(scene.width) / (options.region ?? .world).longitudeSpan
                ring = [PixelPoint(x: center.x - width / 2, y: ring[0].y), PixelPoint(x: center.x + width / 2, y: ring[0].y),
                        PixelPoint(x: center.x + width / 2, y: ring[2].y), PixelPoint(x: center.x - width / 2, y: ring[2].y)]
            }
            // Corners 0 and 1 are the south edge; widened by the overlap on every side.
            let xs = ring.map(\.x), ys = ring.map(\.y)
            let centerX = xs.reduce(0, +) / 4, centerY = ys.reduce(0, +) / 4
            ring = ring.map { PixelPoint(x: $0.x + ($0.x < centerX ? -1 : 1) * Self.cellOverlap,
                                         y: $0.y + ($0.y < centerY ? -1 : 1) * Self.cellOverlap) }
            cells.append(ScenePolygon(rings: [ring + [ring[0]]], fill: fill))
        }
        scene.polygons += cells
        return scene
    }

    /// How the grid was made, for the colour bar's small print.
    private static func gridNotes(_ grid: BValueGrid) -> [String] {
        let options = grid.options
        let spacing = Self.shortest(grid.spacing)
        let taken: String
        switch options.neighbourhood {
        case .nearest(let count):
            let reach = options.maximumRadius ?? BValueGridOptions.defaultMaximumRadius(spacing: grid.spacing)
            taken = "nearest \(count) events ≤ \(Int(reach.rounded())) km"
        case .radius(let kilometres):
            taken = "events ≤ \(Self.shortest(kilometres)) km"
        }
        let completeness: String
        switch options.completeness {
        case .fixed(let mc): completeness = "Mc " + Self.shortest(mc)
        default: completeness = "Mc per node (\(options.completeness.name))"
        }
        return ["\(spacing)° nodes, \(taken)", completeness,
                "clear: under \(options.minimumEvents) events ≥ Mc"]
    }

    /// `0.1`, `25`: a number as short as it is exact to a millionth.
    private static func shortest(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// The colour bar at the origin: heading, the bar with ticks, the small print. Returns its size.
    package func colorBarLegend(_ bar: SceneColorBar, into layout: inout OverlayLayout,
                                measure: any TextMetrics) -> (width: Double, height: Double) {
        let s = overlayScale
        let padding = 8 * s, headingSize = 11 * s, labelSize = 10 * s, noteSize = 9 * s
        let barWidth = 180 * s, barHeight = 12 * s
        let axis = AxisTicks.linear(lower: bar.range.lowerBound, upper: bar.range.upperBound, target: 4, widened: false)
        let noteWidth = bar.notes.map { measure.width($0, size: noteSize) }.max() ?? 0
        let width = max(barWidth + 16 * s, noteWidth, measure.width(bar.heading, size: headingSize, bold: true)) + 2 * padding
        let height = 2 * padding + headingSize * 1.4 + barHeight + 4 * s + labelSize * 1.3
            + Double(bar.notes.count) * noteSize * 1.3 + 2 * s
        layout.panel(0, 0, width, height)
        var y = padding
        layout.text(bar.heading, padding, y + headingSize, headingSize, true, .left)
        y += headingSize * 1.4
        let left = padding + 8 * s
        let steps = 90
        for step in 0..<steps {
            let x0 = left + barWidth * Double(step) / Double(steps), x1 = left + barWidth * Double(step + 1) / Double(steps) + 0.3
            let fill = bar.scale.color(at: (Double(step) + 0.5) / Double(steps))
            let ring = [PixelPoint(x: x0, y: y), PixelPoint(x: x1, y: y), PixelPoint(x: x1, y: y + barHeight),
                        PixelPoint(x: x0, y: y + barHeight), PixelPoint(x: x0, y: y)]
            layout.overlay.panels.append(ScenePolygon(rings: [ring], fill: fill))
        }
        y += barHeight
        let span = bar.range.upperBound - bar.range.lowerBound
        for tick in axis.labelled {
            let x = left + barWidth * (tick.value - bar.range.lowerBound) / span
            layout.overlay.lines.append(SceneLine(points: [PixelPoint(x: x, y: y), PixelPoint(x: x, y: y + 3 * s)],
                                                  stroke: options.palette.text, width: max(0.8, s)))
            layout.text(tick.label ?? "", x, y + 4 * s + labelSize, labelSize, false, .center)
        }
        y += 4 * s + labelSize * 1.3
        for note in bar.notes {
            y += noteSize * 1.3
            layout.text(note, padding, y, noteSize, false, .left)
        }
        return (width, height)
    }
}
