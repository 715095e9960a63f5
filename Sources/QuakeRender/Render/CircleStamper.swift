import CCairo
import Foundation
import QuakeModel
import QuakeQuery
import QuakeGeo
import QuakeScene

/// Draws a scene's circles straight into Cairo's pixel buffer, without a path
/// fill per circle.
///
/// Cairo spends about 2 µs of fixed cost on every `cairo_fill`, which is most
/// of the time of a map with a million events. This does the same work the
/// direct way. The outline is Cairo's own: `cairo_arc` flattened by Cairo
/// (`cairo_copy_path_flat`, at its default tolerance), fetched once per
/// diameter; small circles are visibly not round there (Bézier halves), and a
/// true circle would differ from Cairo's by up to 20 levels at the edges.
/// Each pixel's coverage is the exact area of that polygon over it (an
/// accumulation rasteriser), as Cairo's scan converter computes it; small
/// circles' masks are made once per 1/32-pixel position (`MaskCache`). The
/// colour goes on with Cairo's OVER through an 8-bit mask, rounded as pixman
/// rounds. `StampedCirclesTests` holds the result to the bounds.
///
/// Diamonds (``SymbolShape/diamond``, other event types) are polygons already:
/// their four corners are rasterised the same way, with masks of their own.
///
/// Circles overlap and order matters, so the image is cut into bands of rows
/// instead: each band takes every circle in order, on its own core, and the
/// bands never touch the same pixel.
package struct CircleStamper {
    package let width: Int
    package let height: Int
    package let stride: Int

    /// Stamps `circles` in order onto premultiplied ARGB32 `pixels`.
    ///
    /// - Parameter bands: how many bands of rows to draw at once; by default
    ///   one per core for many circles, else one.
    ///   - memory: masks kept from one call to the next (an animation's
    ///     frames draw the same circles again and again); `nil` keeps none.
    package func stamp(_ circles: CircleLayer, onto pixels: UnsafeMutableRawPointer, bands: Int? = nil,
               memory: StampMemory? = nil) {
        let colors = circles.palette.map(PremultipliedColor.init)
        let bands = min(bands ?? (circles.count >= 10_000 ? ParallelParts.cores : 1), max(height, 1))
        _ = ParallelParts.map(parts: bands) { band in
            // Each band writes only its own rows of the buffer.
            let rows = (height * band / bands)..<(height * (band + 1) / bands)
            var masks = memory?.take() ?? MaskCache(keepsEverySize: memory != nil)
            defer { memory?.keep(masks) }
            circles.xs.withUnsafeBufferPointer { xs in
                circles.ys.withUnsafeBufferPointer { ys in
                    circles.diameters.withUnsafeBufferPointer { diameters in
                        circles.fillIndices.withUnsafeBufferPointer { fills in
                            circles.shapes.withUnsafeBufferPointer { shapes in
                                for index in 0..<xs.count {
                                    let radius = diameters[index] / 2, x = xs[index], y = ys[index]
                                    let shape = SymbolShape(rawValue: shapes[index]) ?? .circle
                                    // How far the shape reaches: a diamond's corners pass the circle.
                                    let reach = shape == .circle ? radius : shape.reach(diameter: diameters[index])
                                    guard radius > 0, x.isFinite, y.isFinite,
                                          y + reach > Double(rows.lowerBound), y - reach < Double(rows.upperBound),
                                          x + reach > 0, x - reach < Double(width) else { continue }
                                    let (mask, column, row) = masks.mask(shape, radius: radius, x: x, y: y)
                                    composite(mask, column: column, row: row, color: colors[Int(fills[index])],
                                              rows: rows, pixels: pixels)
                                }
                            }
                        }
                    }
                }
            }
            return 0
        }
    }

    /// Puts `mask` on the pixels with its top left at (`column`, `row`), within `rows`.
    private func composite(_ mask: CoverageMask, column: Int, row: Int, color: PremultipliedColor, rows: Range<Int>,
                           pixels: UnsafeMutableRawPointer) {
        let firstRow = max(row, rows.lowerBound), endRow = min(row + mask.rows, rows.upperBound)
        let firstColumn = max(column, 0), endColumn = min(column + mask.columns, width)
        guard firstRow < endRow, firstColumn < endColumn else { return }
        mask.values.withUnsafeBufferPointer { values in
            for y in firstRow..<endRow {
                let line = (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                let base = (y - row) * mask.columns - column
                for x in firstColumn..<endColumn {
                    let coverage = UInt32(values[base + x])
                    guard coverage > 0 else { continue }
                    line[x] = color.over(line[x], mask: coverage)
                }
            }
        }
    }
}

/// A circle's (or diamond's) coverage of the pixels around it, 0…255 each, row by row.
private struct CoverageMask {
    /// The mask's top left, relative to the pixel the centre is in.
    package var left = 0, top = 0
    package var columns = 0, rows = 0
    package var values: [UInt8] = []
}

/// Mask caches kept between calls of ``CircleStamper/stamp(_:onto:bands:memory:)``,
/// one for each band drawing at once. A mask depends only on the size and the
/// position within its pixel, so a kept one is the one that would be made.
package final class StampMemory: @unchecked Sendable {
    // Guarded by `lock`; each cache is used by one band at a time.
    private var pool: [MaskCache] = []
    private let lock = NSLock()

    fileprivate func take() -> MaskCache? {
        lock.withLock { pool.popLast() }
    }

    fileprivate func keep(_ masks: MaskCache) {
        lock.withLock { pool.append(masks) }
    }
}

/// Coverage masks of small circles at 1/32-pixel positions, made once each:
/// most of a big catalogue is a few sizes of small circle, so nearly every
/// circle is a lookup. Moving a centre by at most 1/64 px changes an edge
/// pixel by about 1.5 % of its coverage, at most 4 levels. Larger circles are
/// rare and rasterised where they are.
///
/// A map keeps only the current size's table: its circles come largest first,
/// each size in one run. An animation's come in time order with sizes mixed,
/// so it keeps every size's, up to ``ShapeMasks/maximumCachedMasks`` masks in
/// all (then all are dropped and made again as needed). Either way memory stays
/// bounded however many sizes a catalogue has (magnitudes with many decimals
/// give one each).
/// Each shape has its own table: circles and diamonds of one size come
/// mixed in the same run.
private struct MaskCache {
    private var circles: ShapeMasks
    private var diamonds: ShapeMasks

    /// - Parameter keepsEverySize: keep the tables of sizes met before (an
    ///   animation, whose circles come in time order with sizes mixed), or only
    ///   the current size's (a map, whose circles come largest first, each size
    ///   in one run: memory stays that of one table).
    package init(keepsEverySize: Bool) {
        let outlines = CairoOutlines()
        circles = ShapeMasks(shape: .circle, outlines: outlines, keepsEverySize: keepsEverySize)
        diamonds = ShapeMasks(shape: .diamond, outlines: outlines, keepsEverySize: keepsEverySize)
    }

    /// The mask of `shape` for a circle of `radius` at (`x`, `y`), and the pixel its top left goes on.
    package mutating func mask(_ shape: SymbolShape, radius: Double, x: Double, y: Double) -> (CoverageMask, column: Int, row: Int) {
        switch shape {
        case .circle: circles.mask(radius: radius, x: x, y: y)
        case .diamond: diamonds.mask(radius: radius, x: x, y: y)
        }
    }
}

/// ``MaskCache``'s table for one shape.
private struct ShapeMasks {
    package static let steps = 32
    package static let largestCachedRadius = 8.0

    /// At most this many masks are kept, of all sizes (a few MB).
    package static let maximumCachedMasks = 32_768

    package let shape: SymbolShape
    private var radius = -1.0
    private var table: [CoverageMask?] = []
    private var outline: [PixelPoint] = []
    /// The other sizes met, by the radius's bits: outline and table.
    private var sizes: [UInt64: (outline: [PixelPoint], table: [CoverageMask?])] = [:]
    private var cachedMasks = 0
    private let outlines: CairoOutlines
    private var rasterizer = PolygonRasterizer()

    private let keepsEverySize: Bool

    package init(shape: SymbolShape, outlines: CairoOutlines, keepsEverySize: Bool) {
        self.shape = shape
        self.outlines = outlines
        self.keepsEverySize = keepsEverySize
    }

    /// The mask of the shape of a circle of `radius` at (`x`, `y`), and the pixel its top left goes on.
    package mutating func mask(radius: Double, x: Double, y: Double) -> (CoverageMask, column: Int, row: Int) {
        if radius != self.radius {
            if self.radius >= 0, keepsEverySize { sizes[self.radius.bitPattern] = (outline, table) }
            self.radius = radius
            // Taken out, so the table has one owner and fills in place.
            if let known = sizes.removeValue(forKey: radius.bitPattern) {
                (outline, table) = known
            } else {
                switch shape {
                case .circle: outline = outlines.flattenedArc(radius: radius)
                // Exact already: Cairo draws the same four straight edges.
                case .diamond: outline = SymbolShape.diamondCorners(center: PixelPoint(x: 0, y: 0), diameter: 2 * radius)
                }
                table = radius <= Self.largestCachedRadius ? Array(repeating: nil, count: Self.steps * Self.steps) : []
            }
        }
        var column = Int(x.rounded(.down)), row = Int(y.rounded(.down))
        guard !table.isEmpty else {
            let mask = rasterizer.coverage(of: outline, x: x - Double(column), y: y - Double(row))
            return (mask, column + mask.left, row + mask.top)
        }
        let steps = Double(Self.steps)
        var stepX = Int(((x - Double(column)) * steps).rounded())
        var stepY = Int(((y - Double(row)) * steps).rounded())
        if stepX == Self.steps { stepX = 0; column += 1 }
        if stepY == Self.steps { stepY = 0; row += 1 }
        let slot = stepY * Self.steps + stepX
        let mask: CoverageMask
        if let cached = table[slot] {
            mask = cached
        } else {
            mask = rasterizer.coverage(of: outline, x: Double(stepX) / steps, y: Double(stepY) / steps)
            cachedMasks += 1
            if cachedMasks > Self.maximumCachedMasks {
                sizes.removeAll()
                table = Array(repeating: nil, count: Self.steps * Self.steps)
                cachedMasks = 1
            }
            table[slot] = mask
        }
        return (mask, column + mask.left, row + mask.top)
    }
}

/// Circle outlines as Cairo draws them, relative to the centre, from one
/// small context that lives as long as the band drawing with it.
private final class CairoOutlines {
    private let context: CairoContext?

    package init() {
        context = try? CairoContext(surface: CairoImageSurface(width: 1, height: 1))
    }

    /// `cairo_arc` around the origin, flattened into line segments by Cairo;
    /// empty (the circle is not drawn) only if Cairo could not make a context.
    package func flattenedArc(radius: Double) -> [PixelPoint] {
        guard let context = context?.pointer else { return [] }
        cairo_new_path(context)
        cairo_arc(context, 0, 0, radius, 0, 2 * Double.pi)
        guard let path = cairo_copy_path_flat(context) else { return [] }
        defer { cairo_path_destroy(path) }
        var points: [PixelPoint] = []
        var index = 0
        let count = Int(path.pointee.num_data)
        while index < count {
            let header = path.pointee.data[index].header
            if header.type == CAIRO_PATH_MOVE_TO || header.type == CAIRO_PATH_LINE_TO {
                let point = path.pointee.data[index + 1].point
                points.append(PixelPoint(x: point.x, y: point.y))
            }
            index += Int(header.length)
        }
        return points
    }
}

/// Exact-area coverage of a closed polygon over a pixel grid: every edge adds
/// its signed area to the cells it crosses, and a running sum along each row
/// gives each pixel's coverage (the accumulation method of font rasterisers).
private struct PolygonRasterizer {
    // Scratch, reused from polygon to polygon.
    private var cells: [Double] = []

    /// The coverage of `outline` moved to (`x`, `y`), over the pixels of its bounds.
    package mutating func coverage(of outline: [PixelPoint], x centerX: Double, y centerY: Double) -> CoverageMask {
        guard outline.count > 2 else { return CoverageMask() }
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for point in outline {
            minX = min(minX, point.x); maxX = max(maxX, point.x)
            minY = min(minY, point.y); maxY = max(maxY, point.y)
        }
        let left = Int((centerX + minX).rounded(.down)), top = Int((centerY + minY).rounded(.down))
        let columns = Int((centerX + maxX).rounded(.up)) - left, rows = Int((centerY + maxY).rounded(.up)) - top
        let stride = columns + 2
        let needed = stride * rows
        if cells.count < needed { cells = Array(repeating: 0, count: needed) } else {
            for index in 0..<needed { cells[index] = 0 }
        }
        let offsetX = centerX - Double(left), offsetY = centerY - Double(top)
        cells.withUnsafeMutableBufferPointer { cells in
            var previous = outline[outline.count - 1]
            for point in outline {
                Self.addEdge(PixelPoint(x: previous.x + offsetX, y: previous.y + offsetY),
                             PixelPoint(x: point.x + offsetX, y: point.y + offsetY),
                             rows: rows, stride: stride, into: cells)
                previous = point
            }
        }
        var mask = CoverageMask(left: left, top: top, columns: columns, rows: rows,
                                values: [UInt8](repeating: 0, count: columns * rows))
        for row in 0..<rows {
            var coverage = 0.0
            for column in 0..<columns {
                coverage += cells[row * stride + column]
                mask.values[row * columns + column] = UInt8(min(abs(coverage), 1) * 255 + 0.5)
            }
        }
        return mask
    }

    private static func addEdge(_ start: PixelPoint, _ end: PixelPoint, rows: Int, stride: Int,
                                into cells: UnsafeMutableBufferPointer<Double>) {
        guard start.y != end.y else { return }
        let (direction, p0, p1) = start.y < end.y ? (1.0, start, end) : (-1.0, end, start)
        let slope = (p1.x - p0.x) / (p1.y - p0.y)
        var x = p0.x
        let firstRow = max(0, Int(p0.y.rounded(.down)))
        let endRow = min(rows, Int(p1.y.rounded(.up)))
        guard firstRow < endRow else { return }
        for row in firstRow..<endRow {
            let lineStart = row * stride
            let dy = min(Double(row + 1), p1.y) - max(Double(row), p0.y)
            let nextX = x + slope * dy
            let d = dy * direction
            let (x0, x1) = x < nextX ? (x, nextX) : (nextX, x)
            let x0Floor = x0.rounded(.down), x1Ceil = x1.rounded(.up)
            let x0i = max(0, Int(x0Floor)), x1i = min(stride - 1, Int(x1Ceil))
            if x1i <= x0i + 1 {
                // Within one pixel: split the area at the edge's mean x.
                let mean = 0.5 * (x + nextX) - x0Floor
                cells[lineStart + x0i] += d - d * mean
                if x0i + 1 < stride { cells[lineStart + x0i + 1] += d * mean }
            } else {
                let inverse = 1 / (x1 - x0)
                let x0f = x0 - x0Floor
                let a0 = 0.5 * inverse * (1 - x0f) * (1 - x0f)
                let x1f = x1 - x1Ceil + 1
                let am = 0.5 * inverse * x1f * x1f
                cells[lineStart + x0i] += d * a0
                if x1i == x0i + 2 {
                    cells[lineStart + x0i + 1] += d * (1 - a0 - am)
                } else {
                    let a1 = inverse * (1.5 - x0f)
                    cells[lineStart + x0i + 1] += d * (a1 - a0)
                    if x0i + 2 < x1i - 1 {
                        for column in (x0i + 2)..<(x1i - 1) { cells[lineStart + column] += d * inverse }
                    }
                    let a2 = a1 + Double(x1i - x0i - 3) * inverse
                    cells[lineStart + x1i - 1] += d * (1 - a2 - am)
                }
                cells[lineStart + x1i] += d * am
            }
            x = nextX
        }
    }
}

/// A colour as Cairo hands it to pixman: premultiplied, through 16 bits, to 8.
///
/// The four channels are kept in the 16-bit lanes of one word (alpha in the
/// top lane, as in ARGB32), so OVER does the work of eight rounded products
/// in two multiplications: a lane holds a product of two bytes with room to
/// spare, so no lane's arithmetic spills into the next.
package struct PremultipliedColor {
    /// 0x00AA_00RR_00GG_00BB.
    package let lanes: UInt64

    package init(_ color: RGBA) {
        func channel(_ value: Double) -> UInt64 {
            UInt64(max(0, min(1, value)) * 65535 + 0.5) >> 8
        }
        let alpha = max(0, min(1, color.alpha))
        lanes = channel(alpha) << 48 | channel(color.red * alpha) << 32
            | channel(color.green * alpha) << 16 | channel(color.blue * alpha)
    }

    /// Source IN mask OVER destination (ARGB32), each product rounded as
    /// pixman rounds it, each sum clamped to 255.
    @inline(__always)
    package func over(_ destination: UInt32, mask: UInt32) -> UInt32 {
        let source = Self.scale(lanes, by: mask)
        let keep = 255 - UInt32(truncatingIfNeeded: source >> 48)
        let sum = source + Self.scale(Self.spread(destination), by: keep)
        // A lane reaches at most 510: bit 8 says it passed 255.
        let clamped = (sum | ((sum >> 8) & 0x0001_0001_0001_0001) &* 0xFF) & 0x00FF_00FF_00FF_00FF
        return UInt32(truncatingIfNeeded: clamped & 0xFF | (clamped >> 8) & 0xFF00
            | (clamped >> 16) & 0xFF_0000 | (clamped >> 24) & 0xFF00_0000)
    }

    /// Each lane x (0…255) times `factor` (0…255) over 255, as pixman
    /// rounds it: t = x·f + 128, (t + t / 256) / 256.
    @inline(__always)
    private static func scale(_ lanes: UInt64, by factor: UInt32) -> UInt64 {
        let t = lanes &* UInt64(factor) &+ 0x0080_0080_0080_0080
        return ((t &+ ((t >> 8) & 0x00FF_00FF_00FF_00FF)) >> 8) & 0x00FF_00FF_00FF_00FF
    }

    /// 0xAARRGGBB as 0x00AA_00RR_00GG_00BB.
    @inline(__always)
    private static func spread(_ pixel: UInt32) -> UInt64 {
        let x = UInt64(pixel)
        return x & 0xFF | (x & 0xFF00) << 8 | (x & 0xFF_0000) << 16 | (x & 0xFF00_0000) << 24
    }
}
