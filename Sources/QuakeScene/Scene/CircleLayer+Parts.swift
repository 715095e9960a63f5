// Scene/ — a map resolved before any drawing (MapScene): every circle's centre, diameter and colour,
// the land, graticule, legend and title in pixels, from a selection and MapOptions.
import QuakeModel
import QuakeParse
import QuakeGeo


extension CircleLayer {
    /// A layer made in parts on all cores at once: part `p` appends exactly
    /// `counts[p]` circles to its writer, and the parts follow each other
    /// in order. Each part writes only its own stretch of the columns, so
    /// a million circles cost each core half the cache misses and page
    /// faults of making them on one. Without `keepingIDs`, the circles' ids are dropped.
    package init(parts counts: [Int], keepingIDs: Bool = true, _ body: (_ part: Int, inout CircleLayerPart) -> Void) {
        let total = counts.reduce(0, +)
        let starts = counts.indices.map { counts[..<$0].reduce(0, +) }
        var palettes: [FillPalette] = []
        var fillIndices: [UInt32] = []
        var shapes: [UInt8] = []
        var ids: [String] = []
        var ys: [Double] = [], diameters: [Double] = []
        let xs = [Double](unsafeUninitializedCapacity: total) { xs, xsCount in
            ys = [Double](unsafeUninitializedCapacity: total) { ys, ysCount in
                diameters = [Double](unsafeUninitializedCapacity: total) { diameters, diametersCount in
                    fillIndices = [UInt32](unsafeUninitializedCapacity: total) { fills, fillsCount in
                        ids = [String](unsafeUninitializedCapacity: keepingIDs ? total : 0) { ids, idsCount in
                            shapes = [UInt8](unsafeUninitializedCapacity: total) { shapes, shapesCount in
                                let columns = CircleLayerPart.Columns(xs: xs.baseAddress, ys: ys.baseAddress,
                                                                      diameters: diameters.baseAddress,
                                                                      fills: fills.baseAddress, shapes: shapes.baseAddress,
                                                                      ids: keepingIDs ? ids.baseAddress : nil)
                                palettes = ParallelParts.map(parts: counts.count) { part in
                                    var writer = CircleLayerPart(columns: columns, start: starts[part],
                                                                 end: starts[part] + counts[part])
                                    body(part, &writer)
                                    precondition(writer.isFull, "a part appends exactly its count of circles")
                                    return writer.palette
                                }
                                shapesCount = total
                            }
                            idsCount = keepingIDs ? total : 0
                        }
                        fillsCount = total
                    }
                    diametersCount = total
                }
                ysCount = total
            }
            xsCount = total
        }
        // One palette: the first part's numbers stay, the others' are renumbered.
        var fills = palettes.first ?? FillPalette()
        for part in palettes.indices.dropFirst() {
            let renumbered = palettes[part].colors.map { fills.index(of: $0) }
            for index in starts[part]..<(starts[part] + counts[part]) {
                fillIndices[index] = renumbered[Int(fillIndices[index])]
            }
        }
        self.init(xs: xs, ys: ys, diameters: diameters, fillIndices: fillIndices, shapes: shapes, fills: fills, ids: ids)
    }
}

/// Where one part of ``CircleLayer/init(parts:_:)`` appends its circles.
package struct CircleLayerPart {
    package struct Columns {
        package let xs, ys, diameters: UnsafeMutablePointer<Double>?
        package let fills: UnsafeMutablePointer<UInt32>?
        package let shapes: UnsafeMutablePointer<UInt8>?
        package let ids: UnsafeMutablePointer<String>?
    }

    private let columns: Columns
    private var next: Int
    private let end: Int
    /// This part's fills, numbered from 0.
    package private(set) var palette = FillPalette()

    fileprivate init(columns: Columns, start: Int, end: Int) {
        self.columns = columns
        next = start
        self.end = end
    }

    fileprivate var isFull: Bool { next == end }

    /// Adds a circle after the part's previous one.
    package mutating func append(_ circle: SceneCircle) {
        precondition(next < end, "a part appends exactly its count of circles")
        columns.xs.unsafelyUnwrapped[next] = circle.center.x
        columns.ys.unsafelyUnwrapped[next] = circle.center.y
        columns.diameters.unsafelyUnwrapped[next] = circle.diameter
        columns.fills.unsafelyUnwrapped[next] = palette.index(of: circle.fill)
        columns.shapes.unsafelyUnwrapped[next] = circle.shape.rawValue
        if let ids = columns.ids { (ids + next).initialize(to: circle.eventID) }
        next += 1
    }
}
