import Foundation
import QuakeParse
import QuakeGeo

/// Where crowded beachballs go: each at its epicentre if that is free, else at the
/// nearest free place around it (rings of growing distance), with a leader line back
/// to the epicentre, as GMT `meca -C` draws moved balls. A place is free when the ball
/// lies inside the map, off every panel (legend, title, footer, labels) and clear of
/// the balls placed before it (largest first). Where nothing within reach is free the
/// ball goes to the nearest place tried that is at least off the panels and inside the
/// map (over other balls: a crowd too dense to spread), else its epicentre; all balls
/// stay at their epicentres once a map has tried ``searchBudget`` places (a map so full
/// that moving balls cannot help, kept from taking seconds).
struct BeachballPlacement {
    let width: Double
    let height: Double
    /// Panels' bounding boxes.
    let obstacles: [(minX: Double, minY: Double, maxX: Double, maxY: Double)]
    /// Pixels kept between balls and from panels.
    let gap: Double
    /// The places a map may try in all before the remaining balls stay where they are.
    static let searchBudget = 1_000_000
    private var tried = 0
    /// Placed balls by grid cell.
    private var cells: [Int: [(center: PixelPoint, radius: Double)]] = [:]
    private let cellSize: Double
    /// The largest ball's radius: the outer rings step by it, so that the small balls,
    /// placed last into the thickest crowd, reach as far as the large ones.
    private let largestRadius: Double

    init(width: Double, height: Double, panels: [ScenePolygon], largestRadius: Double, gap: Double) {
        self.width = width
        self.height = height
        self.gap = gap
        obstacles = panels.compactMap { panel in
            let points = panel.rings.joined()
            guard let first = points.first else { return nil }
            return points.reduce((first.x, first.y, first.x, first.y)) { box, point in
                (min(box.0, point.x), min(box.1, point.y), max(box.2, point.x), max(box.3, point.y))
            }
        }
        cellSize = max(8, 2 * largestRadius + gap)
        self.largestRadius = largestRadius
    }

    private func cell(_ x: Double, _ y: Double) -> (Int, Int) { (Int((x / cellSize).rounded(.down)), Int((y / cellSize).rounded(.down))) }

    private func key(_ column: Int, _ row: Int) -> Int { column &* 1_000_003 &+ row }

    /// Whether a ball of `radius` at `center` is inside the map and off the panels.
    func isClearOfPanels(_ center: PixelPoint, radius: Double) -> Bool {
        guard center.x - radius >= 0, center.y - radius >= 0, center.x + radius <= width, center.y + radius <= height else {
            return false
        }
        for box in obstacles {
            let dx = max(box.minX - center.x, 0, center.x - box.maxX), dy = max(box.minY - center.y, 0, center.y - box.maxY)
            if dx * dx + dy * dy < (radius + gap) * (radius + gap) { return false }
        }
        return true
    }

    /// Whether a ball of `radius` at `center` is inside the map, off the panels and clear of placed balls.
    func isFree(_ center: PixelPoint, radius: Double) -> Bool {
        guard isClearOfPanels(center, radius: radius) else { return false }
        let (column, row) = cell(center.x, center.y)
        for c in (column - 1)...(column + 1) {
            for r in (row - 1)...(row + 1) {
                for placed in cells[key(c, r)] ?? [] {
                    let dx = placed.center.x - center.x, dy = placed.center.y - center.y
                    let reach = placed.radius + radius + gap
                    if dx * dx + dy * dy < reach * reach { return false }
                }
            }
        }
        return true
    }

    /// Where the ball of `radius` whose epicentre is `epicentre` goes; it is recorded as placed.
    mutating func place(_ epicentre: PixelPoint, radius: Double) -> PixelPoint {
        var chosen = epicentre
        if !isFree(epicentre, radius: radius), tried < Self.searchBudget {
            // Steps of the ball's own size near the epicentre, of the largest ball's further out:
            // about 14 of the largest radii in all, whatever this ball's size.
            let step = max(3, radius * 0.6), outerStep = max(step, largestRadius * 0.6)
            var fallback: PixelPoint? = isClearOfPanels(epicentre, radius: radius) ? epicentre : nil
            search: for ring in 1...40 {
                let distance = ring <= 8 ? Double(ring) * step : 8 * step + Double(ring - 8) * 0.5 * outerStep
                let directions = 8 + 4 * min(ring, 16)
                tried += directions
                for index in 0..<directions {
                    // Starting up and to the right, where a leader line reads most easily.
                    let angle = -Double.pi / 4 + 2 * Double.pi * Double(index) / Double(directions)
                    let candidate = PixelPoint(x: epicentre.x + distance * cos(angle), y: epicentre.y + distance * sin(angle))
                    if isFree(candidate, radius: radius) {
                        fallback = nil
                        chosen = candidate
                        break search
                    }
                    if fallback == nil, isClearOfPanels(candidate, radius: radius) { fallback = candidate }
                }
            }
            if let fallback { chosen = fallback }
        }
        let (column, row) = cell(chosen.x, chosen.y)
        cells[key(column, row), default: []].append((chosen, radius))
        return chosen
    }
}
