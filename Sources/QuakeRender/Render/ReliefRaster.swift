import CCairo
import CReliefData
import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeGeo
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
            let image = try RasterImage(png: embeddedPNG)
            // A grey PNG decodes to equal red, green and blue: the value is any of them.
            return ReliefRaster(width: image.width, height: image.height,
                                values: stride(from: 0, to: image.rgba.count, by: 4).map { image.rgba[$0] })
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
    /// pixel spans (1 on maps finer than 8′, up to 8 on small world maps), so that a small
    /// map is the relief shrunk, not a sparse sample of it.
    package func draw(_ relief: SceneRelief, into pixels: UnsafeMutableRawPointer, stride: Int) {
        // Scalars, not SIMD vectors: the same speed optimised, and several times faster in a debug build.
        let colours = relief.palette.colours
        let reds = colours.map { Float($0.red * 255) }, greens = colours.map { Float($0.green * 255) }
        let blues = colours.map { Float($0.blue * 255) }
        let columnsPerDegree = Double(width) / 360, rowsPerDegree = Double(height) / 180
        let bands = min(ParallelParts.cores, max(1, relief.height / 16))
        let address = UInt(bitPattern: pixels)
        values.withUnsafeBufferPointer { values in
            let raster = Grid(values: values, width: width, height: height, reds: reds, greens: greens, blues: blues)
            _ = ParallelParts.map(parts: bands) { band in
                let pixels = UnsafeMutableRawPointer(bitPattern: address)!
                for y in (relief.height * band / bands)..<(relief.height * (band + 1) / bands) {
                    guard let row = relief.row(y) else { continue }
                    let out = (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                    let samples = max(1, min(8, Int((abs(row.degreesPerPixel) * columnsPerDegree).rounded(.up))))
                    let weight = 1 / Float(samples * samples)
                    for x in row.columns {
                        var red: Float = 0, green: Float = 0, blue: Float = 0
                        for sy in 0..<samples {
                            // The row's pixel spans about as many degrees of latitude as of longitude.
                            let dy = (Double(sy) + 0.5) / Double(samples) - 0.5
                            let v = (90 - row.latitude + dy * abs(row.degreesPerPixel)) * rowsPerDegree - 0.5
                            for sx in 0..<samples {
                                let dx = (Double(sx) + 0.5) / Double(samples) - 0.5
                                let longitude = row.longitudeAtZero + (Double(x) + dx) * row.degreesPerPixel
                                raster.addBilinear(u: (longitude + 180) * columnsPerDegree - 0.5, v: v,
                                                   to: &red, &green, &blue)
                            }
                        }
                        out[x] = 0xFF00_0000 | UInt32((red * weight).rounded()) << 16
                            | UInt32((green * weight).rounded()) << 8 | UInt32((blue * weight).rounded())
                    }
                }
                return 0
            }
        }
    }
}

/// The raster and its colours, borrowed for one drawing.
private struct Grid {
    let values: UnsafeBufferPointer<UInt8>
    let width: Int, height: Int
    let reds: [Float], greens: [Float], blues: [Float]

    /// Adds the colour at (`u`, `v`) in source pixels (centres at whole numbers), wrapping
    /// round the globe in longitude and held at the poles.
    func addBilinear(u: Double, v: Double, to red: inout Float, _ green: inout Float, _ blue: inout Float) {
        let column = u.rounded(.down), row = min(max(v, 0), Double(height - 1))
        let top = min(Int(row), height - 2), fy = Float(row - Double(top)), fx = Float(u - column)
        var left = Int(column.truncatingRemainder(dividingBy: Double(width)))
        if left < 0 { left += width }
        let right = left + 1 == width ? 0 : left + 1
        let corners = (Int(values[top * width + left]), Int(values[top * width + right]),
                       Int(values[(top + 1) * width + left]), Int(values[(top + 1) * width + right]))
        let w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy
        red += reds[corners.0] * w00 + reds[corners.1] * w01 + reds[corners.2] * w10 + reds[corners.3] * w11
        green += greens[corners.0] * w00 + greens[corners.1] * w01 + greens[corners.2] * w10 + greens[corners.3] * w11
        blue += blues[corners.0] * w00 + blues[corners.1] * w01 + blues[corners.2] * w10 + blues[corners.3] * w11
    }
}
