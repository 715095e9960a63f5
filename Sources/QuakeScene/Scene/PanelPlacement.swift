import Foundation

/// An axis-aligned rectangle in pixels: a panel, a label, or a place one could go.
package struct PanelRect: Sendable, Hashable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package var maxX: Double { x + width }
    package var maxY: Double { y + height }

    /// Whether the two share any area once `self` is grown by `gap` on every side.
    package func overlaps(_ other: PanelRect, gap: Double = 0) -> Bool {
        x - gap < other.maxX && other.x < maxX + gap && y - gap < other.maxY && other.y < maxY + gap
    }

    /// Whether the disc of `diameter` around (`cx`, `cy`) shares any area with it.
    package func intersectsDisc(x cx: Double, y cy: Double, diameter: Double) -> Bool {
        let r = diameter / 2
        // Cheap reject first: most circles of a big map are far from any panel.
        guard cx + r > x, cx - r < maxX, cy + r > y, cy - r < maxY else { return false }
        let dx = cx - min(max(cx, x), maxX), dy = cy - min(max(cy, y), maxY)
        return dx * dx + dy * dy < r * r
    }

    /// Whether it lies wholly inside `0…width` × `0…height`, `inset` from the edges.
    package func isInside(width: Double, height: Double, inset: Double = 0) -> Bool {
        x >= inset && y >= inset && maxX <= width - inset && maxY <= height - inset
    }
}

/// Chooses where the title, legend and footer go: among a few corners and
/// edges each, the places whose panels cover the fewest event circles, with
/// no two panels overlapping. Deterministic: ties keep the earlier places in
/// each panel's list (the first is its usual place), so a map whose usual
/// places cover nothing looks as it always did.
package struct PanelPlacement {
    /// A place on the map's edge, `margin` in from it.
    package enum Anchor: Sendable, Hashable, CaseIterable {
        case topLeft, topCenter, topRight, bottomLeft, bottomCenter, bottomRight
    }

    /// A panel's size and the places it may take, the preferred first.
    package struct Panel: Sendable, Hashable {
        package var width: Double
        package var height: Double
        package var anchors: [Anchor]
    }

    package var mapWidth: Double
    package var mapHeight: Double
    package var margin: Double

    /// The rectangle of a `width` × `height` panel at `anchor`.
    package func rect(width: Double, height: Double, at anchor: Anchor) -> PanelRect {
        let left = margin, center = ((mapWidth - width) / 2).rounded(), right = mapWidth - margin - width
        let top = margin, bottom = mapHeight - margin - height
        switch anchor {
        case .topLeft: return PanelRect(x: left, y: top, width: width, height: height)
        case .topCenter: return PanelRect(x: center, y: top, width: width, height: height)
        case .topRight: return PanelRect(x: right, y: top, width: width, height: height)
        case .bottomLeft: return PanelRect(x: left, y: bottom, width: width, height: height)
        case .bottomCenter: return PanelRect(x: center, y: bottom, width: width, height: height)
        case .bottomRight: return PanelRect(x: right, y: bottom, width: width, height: height)
        }
    }

    /// One anchor for each of `panels`. `cover` says how much of the map's
    /// events each candidate rectangle hides (``coverage(of:in:)``); it is
    /// asked once, for all candidates together.
    package func place(_ panels: [Panel], cover: ([PanelRect]) -> [Double]) -> [Anchor] {
        let candidates = panels.map { panel in panel.anchors.map { rect(width: panel.width, height: panel.height, at: $0) } }
        let flat = candidates.flatMap { $0 }
        var costs = cover(flat)[...]
        let perPanel = candidates.map { list -> [Double] in
            defer { costs = costs.dropFirst(list.count) }
            return Array(costs.prefix(list.count))
        }
        let gap = margin / 2
        var best: (cost: Double, choice: [Int])?
        var choice = [Int](repeating: 0, count: panels.count)
        // Every combination, in order: at most a few hundred.
        func search(_ panel: Int, _ cost: Double) {
            if let best, cost > best.cost { return }
            guard panel < panels.count else {
                if best == nil || cost < best!.cost { best = (cost, choice) }
                return
            }
            for option in candidates[panel].indices {
                let rect = candidates[panel][option]
                let clashes = (0..<panel).contains { candidates[$0][choice[$0]].overlaps(rect, gap: gap) }
                guard !clashes else { continue }
                choice[panel] = option
                search(panel + 1, cost + perPanel[panel][option])
            }
        }
        search(0, 0)
        // No arrangement without overlaps (a tiny map): the usual places.
        let chosen = best?.choice ?? Array(repeating: 0, count: panels.count)
        return zip(panels, chosen).map { $0.anchors[$1] }
    }

    /// For each of `rects`, how many circles of `layer` its area touches: one
    /// pass over the circles, whatever their number.
    package static func coverage(of rects: [PanelRect], in layer: CircleLayer) -> [Double] {
        guard !rects.isEmpty else { return [] }
        var counts = [Double](repeating: 0, count: rects.count)
        layer.forEachGeometry { x, y, diameter in
            for (index, rect) in rects.enumerated() where rect.intersectsDisc(x: x, y: y, diameter: diameter) {
                counts[index] += 1
            }
        }
        return counts
    }
}

extension CircleLayer {
    /// Calls `body` with each symbol's centre and the diameter of the disc
    /// that holds it (a diamond's corners reach past its circle's), in
    /// order, without making ``SceneCircle`` values (a string and a colour each).
    package func forEachGeometry(_ body: (_ x: Double, _ y: Double, _ diameter: Double) -> Void) {
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                diameters.withUnsafeBufferPointer { diameters in
                    for index in xs.indices {
                        body(xs[index], ys[index], Self.disc(diameters[index], shape: shapes[index]))
                    }
                }
            }
        }
    }

    /// Symbol `index`'s centre and the diameter of its disc, as ``forEachGeometry(_:)`` gives them.
    package func disc(at index: Int) -> (x: Double, y: Double, diameter: Double) {
        (xs[index], ys[index], Self.disc(diameters[index], shape: shapes[index]))
    }

    private static func disc(_ diameter: Double, shape: UInt8) -> Double {
        shape == SymbolShape.circle.rawValue ? diameter : 2 * (SymbolShape(rawValue: shape) ?? .circle).reach(diameter: diameter)
    }

    /// The circles, in order, whose disc touches any of `rects`; only those
    /// are made into ``SceneCircle`` values.
    package func circles(touching rects: [PanelRect]) -> [SceneCircle] {
        guard !rects.isEmpty else { return [] }
        var positions: [Int] = []
        var index = 0
        forEachGeometry { x, y, diameter in
            if rects.contains(where: { $0.intersectsDisc(x: x, y: y, diameter: diameter) }) { positions.append(index) }
            index += 1
        }
        return positions.map { self[$0] }
    }
}
