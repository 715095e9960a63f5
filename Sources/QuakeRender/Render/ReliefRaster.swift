import CCairo
import CReliefData
import Foundation
import QuakeModel
import QuakeScene

/// The built-in relief raster (`Data/relief/etopo1_relief.png`, 8′ plate carrée, one
/// value a pixel: sea or land and how light; see scripts/make_relief.py), decoded once
/// per process, and drawn into a map's pixels through any projection.
package struct ReliefRaster: Sendable {
    /// Columns, from 180° W at the left edge.
    package let width: Int
    /// Rows, from 90° N at the top edge.
    package let height: Int
    /// One value a pixel, row by row.
    package let values: [UInt8]

    /// The built-in raster. Damaged bytes mean a broken build, not bad input: stop with the
    /// reason rather than quietly drawing a map without its relief.
    package static let builtIn: ReliefRaster = {
        do {
            let surface = try CairoImageSurface(png: embeddedPNG)
            // A grey PNG decodes to opaque pixels of equal red, green and blue: the value is the low byte.
            let values = try surface.withPixels { pixels in
                [UInt8](unsafeUninitializedCapacity: surface.width * surface.height) { buffer, count in
                    for y in 0..<surface.height {
                        let row = (pixels.base + y * pixels.stride).assumingMemoryBound(to: UInt32.self)
                        for x in 0..<surface.width { buffer[y * surface.width + x] = UInt8(truncatingIfNeeded: row[x]) }
                    }
                    count = surface.width * surface.height
                }
            }
            return ReliefRaster(width: surface.width, height: surface.height, values: values)
        } catch {
            fatalError("the built-in relief is damaged: \(error)")
        }
    }()

    /// The PNG compiled in (module `CReliefData`).
    package static var embeddedPNG: Data {
        var count = 0
        return Data(UnsafeBufferPointer(start: qm_relief_png(&count), count: count))
    }

    /// Fills `relief`'s pixels of a premultiplied ARGB32 image (`stride` bytes a row) with
    /// the relief's colours, opaque; pixels off the globe are left as they are.
    ///
    /// Each pixel averages n × n bilinear samples of the colours, n the source pixels a map
    /// pixel spans, rounded (1 on maps finer than about 5′ a pixel, the default 2048-pixel world
    /// map's 10.5′ included; up to 8 on small world maps), so that a small map is the relief
    /// shrunk, not a sparse sample of it.
    package func draw(_ relief: SceneRelief, into pixels: UnsafeMutableRawPointer, stride: Int) {
        // Scalars, not SIMD vectors: the same speed optimised, and several times faster in a debug build.
        let colours = relief.palette.colours.flatMap { [Float($0.red * 255), Float($0.green * 255), Float($0.blue * 255)] }
        let columnsPerDegree = Double(width) / 360, rowsPerDegree = Double(height) / 180
        let bands = min(ParallelParts.cores, max(1, relief.height / 16))
        let address = UInt(bitPattern: pixels)
        values.withUnsafeBufferPointer { values in
            colours.withUnsafeBufferPointer { colours in
                let raster = Grid(values: values, width: width, height: height, colours: colours)
                _ = ParallelParts.map(parts: bands) { band in
                    let pixels = UnsafeMutableRawPointer(bitPattern: address)!
                    for y in (relief.height * band / bands)..<(relief.height * (band + 1) / bands) {
                        guard let row = relief.row(y) else { continue }
                        // Source pixels a map pixel spans, rounded: bilinear alone is smooth enough up to ~1.5.
                        raster.fill(row, samples: max(1, min(8, Int((abs(row.degreesPerPixel) * columnsPerDegree).rounded()))),
                                    columnsPerDegree: columnsPerDegree, rowsPerDegree: rowsPerDegree,
                                    into: (pixels + y * stride).assumingMemoryBound(to: UInt32.self))
                    }
                    return 0
                }
            }
        }
    }
}

/// The raster and its colours (red, green, blue a value, 0…255), borrowed for one drawing.
private struct Grid {
    let values: UnsafeBufferPointer<UInt8>
    let width: Int, height: Int
    let colours: UnsafeBufferPointer<Float>

    /// One row of the map: each pixel the mean of `samples` × `samples` bilinear samples.
    func fill(_ row: SceneRelief.Row, samples: Int, columnsPerDegree: Double, rowsPerDegree: Double,
              into out: UnsafeMutablePointer<UInt32>) {
        let weight = 1 / Float(samples * samples), step = abs(row.degreesPerPixel)
        // The source rows of each vertical sample: the same for the whole map row.
        let rows = (0..<samples).map { sy -> (top: Int, fy: Float) in
            // The row's pixel spans about as many degrees of latitude as of longitude.
            let dy = (Double(sy) + 0.5) / Double(samples) - 0.5
            let v = min(max((90 - row.latitude + dy * step) * rowsPerDegree - 0.5, 0), Double(height - 1))
            let top = min(Int(v), height - 2)
            return (top, Float(v - Double(top)))
        }
        // Longitudes as source columns, kept within a turn so that the column's index needs no division.
        let turn = Double(width)
        var u0 = ((row.longitudeAtZero + 180) * columnsPerDegree - 0.5).truncatingRemainder(dividingBy: turn)
        if u0 < 0 { u0 += turn }
        let du = row.degreesPerPixel * columnsPerDegree
        for x in row.columns {
            var red: Float = 0, green: Float = 0, blue: Float = 0
            for sample in rows {
                for sx in 0..<samples {
                    var u = u0 + (Double(x) + (Double(sx) + 0.5) / Double(samples) - 0.5) * du
                    u -= (u / turn).rounded(.down) * turn
                    add(u: u, top: sample.top, fy: sample.fy, to: &red, &green, &blue)
                }
            }
            out[x] = 0xFF00_0000 | UInt32(red * weight + 0.5) << 16 | UInt32(green * weight + 0.5) << 8 | UInt32(blue * weight + 0.5)
        }
    }

    /// Adds the colour at column `u` (0 ≤ u < width; centres at whole numbers, wrapping round the
    /// globe) between source rows `top` and `top + 1`, `fy` of the way down.
    @inline(__always)
    func add(u: Double, top: Int, fy: Float, to red: inout Float, _ green: inout Float, _ blue: inout Float) {
        let left = min(Int(u), width - 1), fx = Float(u - Double(left))
        let right = left + 1 == width ? 0 : left + 1
        let upper = top * width, lower = upper + width
        let a = 3 * Int(values[upper + left]), b = 3 * Int(values[upper + right])
        let c = 3 * Int(values[lower + left]), d = 3 * Int(values[lower + right])
        let w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy
        red += colours[a] * w00 + colours[b] * w01 + colours[c] * w10 + colours[d] * w11
        green += colours[a + 1] * w00 + colours[b + 1] * w01 + colours[c + 1] * w10 + colours[d + 1] * w11
        blue += colours[a + 2] * w00 + colours[b + 2] * w01 + colours[c + 2] * w10 + colours[d + 2] * w11
    }
}
