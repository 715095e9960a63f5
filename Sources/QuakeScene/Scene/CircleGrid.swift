/// A layer's circles binned by the square of the map their centre falls in, to count the
/// circles a small rectangle touches without a pass over all of them: a label tries a few
/// spots, each a few hundred pixels wide, on maps of millions of circles. Four bytes a circle.
package struct CircleGrid {
    private let layer: CircleLayer
    private let cell: Double
    private let columns: Int, rows: Int
    /// Circle indices, cell after cell; cell `c`'s are `members[starts[c]..<starts[c + 1]]`.
    private let starts: [Int]
    private let members: [UInt32]
    /// Half the widest disc: how far beyond its cell a circle can reach.
    private let reach: Double

    /// Bins `layer` over a map of `width` × `height` pixels in squares of `cell` pixels;
    /// centres off the map go to the nearest square of its edge.
    package init(_ layer: CircleLayer, width: Double, height: Double, cell: Double = 32) {
        precondition(cell > 0 && layer.count < Int(UInt32.max), "a positive cell, fewer than 2^32 circles")
        self.layer = layer
        self.cell = cell
        let columns = max(1, Int((width / cell).rounded(.up))), rows = max(1, Int((height / cell).rounded(.up)))
        (self.columns, self.rows) = (columns, rows)
        func square(_ x: Double, _ y: Double) -> Int {
            Self.square(y, cell: cell, count: rows) * columns + Self.square(x, cell: cell, count: columns)
        }
        var starts = [Int](repeating: 0, count: columns * rows + 1), reach = 0.0
        layer.forEachGeometry { x, y, diameter in
            starts[square(x, y) + 1] += 1
            reach = max(reach, diameter / 2)
        }
        for index in starts.indices.dropFirst() { starts[index] += starts[index - 1] }
        var next = starts
        var members = [UInt32](repeating: 0, count: layer.count), index: UInt32 = 0
        layer.forEachGeometry { x, y, _ in
            let square = square(x, y)
            members[next[square]] = index
            next[square] += 1
            index += 1
        }
        self.starts = starts
        self.members = members
        self.reach = reach
    }

    /// How many circles share area with `rect` (``PanelRect/intersectsDisc(x:y:diameter:)``).
    package func count(touching rect: PanelRect) -> Int {
        // The squares whose circles can reach `low…high`; past the map's edge, the edge's, where
        // the centres beyond it are binned.
        func span(_ low: Double, _ high: Double, _ squares: Int) -> ClosedRange<Int> {
            Self.square(low - reach, cell: cell, count: squares)...Self.square(high + reach, cell: cell, count: squares)
        }
        let columnSpan = span(rect.x, rect.maxX, columns), rowSpan = span(rect.y, rect.maxY, rows)
        var found = 0
        for row in rowSpan {
            for square in (row * columns + columnSpan.lowerBound)...(row * columns + columnSpan.upperBound) {
                for member in members[starts[square]..<starts[square + 1]] {
                    let (x, y, diameter) = layer.disc(at: Int(member))
                    if rect.intersectsDisc(x: x, y: y, diameter: diameter) { found += 1 }
                }
            }
        }
        return found
    }

    /// The square along one side (`count` of them, `cell` pixels each) that holds `position`:
    /// the first or last beyond the map's edges, the first for NaN.
    private static func square(_ position: Double, cell: Double, count: Int) -> Int {
        let square = (position / cell).rounded(.down)
        return square >= 0 ? Int(min(square, Double(count - 1))) : 0
    }
}
