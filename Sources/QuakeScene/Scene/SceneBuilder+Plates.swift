import Foundation
import QuakeGeo

/// Plate boundaries: thin lines over the land, and on subduction zones small teeth on
/// the overriding plate's side, spaced and sized in pixels so they look the same at any zoom.
extension SceneBuilder {
    /// The boundaries this map draws: none without a basemap (a bare overlay of events).
    package var shownPlates: PlateBoundaries? {
        options.basemap == .none ? nil : options.plateBoundaries
    }

    /// The stroke width of a plate boundary line, in pixels.
    package var plateLineWidth: Double { 0.9 * options.scale }

    /// The boundary lines and the subduction teeth, in pixels.
    package func plateLayers(_ geometry: MapGeometry) -> (lines: [SceneLine], teeth: [ScenePolygon]) {
        guard let plates = shownPlates else { return ([], []) }
        let stroke = options.palette.plateBoundary, width = plateLineWidth
        var lines: [SceneLine] = [], teeth: [ScenePolygon] = []
        for boundary in plates.boundaries {
            for piece in geometry.pixelLines(boundary.points) where onImage(piece) {
                lines.append(SceneLine(points: piece, stroke: stroke, width: width))
                if let side = boundary.overridingSide {
                    teeth += Self.teeth(along: piece, side: side, scale: options.scale)
                        .map { ScenePolygon(rings: [$0], fill: stroke) }
                }
            }
        }
        return (lines, teeth)
    }

    /// Whether any part of a piece's bounding box is on the image (with a tooth's margin).
    private func onImage(_ piece: [PixelPoint]) -> Bool {
        let margin = 8 * options.scale, width = Double(options.pixelWidth), height = Double(options.pixelHeight)
        let xs = piece.map(\.x), ys = piece.map(\.y)
        return xs.max()! >= -margin && xs.min()! <= width + margin
            && ys.max()! >= -margin && ys.min()! <= height + margin
    }

    /// The pixels between teeth along a subduction line, at scale 1.
    package static let toothSpacing = 12.0
    /// A tooth's base (along the line) and height (away from it), at scale 1.
    package static let toothBase = 4.4, toothHeight = 3.6

    /// Triangles along `line`, evenly spaced by arc length in pixels, each with its base
    /// on the line and its tip on the `side` of the line's direction (as on the globe:
    /// pixel y points down, so "left" of a step (dx, dy) is (dy, −dx) on the image).
    package static func teeth(along line: [PixelPoint], side: PlateBoundary.Side, scale: Double) -> [[PixelPoint]] {
        let steps = zip(line, line.dropFirst()).map { a, b in (a, b, hypot(b.x - a.x, b.y - a.y)) }
        let length = steps.reduce(0) { $0 + $1.2 }
        let base = toothBase * scale, height = toothHeight * scale
        guard length >= base, length.isFinite else { return [] }
        let count = max(1, Int((length / (toothSpacing * scale)).rounded()))
        let interval = length / Double(count)
        var teeth: [[PixelPoint]] = []
        var stepIndex = 0, walked = 0.0
        for index in 0..<count {
            let at = (Double(index) + 0.5) * interval
            while stepIndex < steps.count - 1, walked + steps[stepIndex].2 < at {
                walked += steps[stepIndex].2
                stepIndex += 1
            }
            let (a, b, stepLength) = steps[stepIndex]
            guard stepLength > 0 else { continue }
            let tx = (b.x - a.x) / stepLength, ty = (b.y - a.y) / stepLength
            let along = min(max(at - walked, 0), stepLength)
            let centre = PixelPoint(x: a.x + tx * along, y: a.y + ty * along)
            let (nx, ny) = side == .left ? (ty, -tx) : (-ty, tx)
            teeth.append([
                PixelPoint(x: centre.x - tx * base / 2, y: centre.y - ty * base / 2),
                PixelPoint(x: centre.x + tx * base / 2, y: centre.y + ty * base / 2),
                PixelPoint(x: centre.x + nx * height, y: centre.y + ny * height),
            ])
        }
        return teeth
    }

    /// The legend's plate rows, "Plate boundary" (a line) and "Subduction zone" (a line
    /// with teeth): their width and height, zero when the map shows no plates.
    package func plateLegendSize(measure: any TextMetrics) -> (width: Double, height: Double) {
        guard shownPlates != nil else { return (0, 0) }
        let s = overlayScale
        let textWidth = Self.plateLegendLabels.map { measure.width($0, size: 10 * s) }.max() ?? 0
        return (28 * s + textWidth, 4 * s + Double(Self.plateLegendLabels.count) * 15 * s)
    }

    private static let plateLegendLabels = ["Plate boundary", "Subduction zone"]

    /// Adds the plate rows to the legend, from `top` at `left` (nothing when the map shows no plates).
    package func addPlateLegendRows(into layout: inout OverlayLayout, left: Double, top: Double) {
        guard shownPlates != nil else { return }
        let s = overlayScale, labelSize = 10 * s, rowHeight = 15 * s, sample = 22 * s
        let fill = options.palette.plateBoundary, lineWidth = plateLineWidth
        for (row, label) in Self.plateLegendLabels.enumerated() {
            let y = top + 4 * s + (Double(row) + 0.5) * rowHeight
            // The line as a thin filled bar among the legend's shapes (overlay lines are labels' leaders, drawn over the panels).
            let bar = [PixelPoint(x: left, y: y - lineWidth / 2), PixelPoint(x: left + sample, y: y - lineWidth / 2),
                       PixelPoint(x: left + sample, y: y + lineWidth / 2), PixelPoint(x: left, y: y + lineWidth / 2)]
            layout.overlay.panels.append(ScenePolygon(rings: [bar], fill: fill))
            if row == 1 {
                // Drawn left to right with the overriding side on the left: teeth pointing up.
                let line = [PixelPoint(x: left, y: y), PixelPoint(x: left + sample, y: y)]
                for tooth in Self.teeth(along: line, side: .left, scale: options.scale) {
                    layout.overlay.panels.append(ScenePolygon(rings: [tooth], fill: fill))
                }
            }
            layout.text(label, left + sample + 6 * s, y + labelSize * 0.35, labelSize, false, .left)
        }
    }
}
