import CCairo
import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeGeo
import QuakeScene

/// Decoded pixels: straight-alpha RGBA, 8 bits a channel, row by row.
package struct RasterImage: Sendable, Hashable {
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// `width × height × 4` bytes: red, green, blue, alpha.
    package var rgba: [UInt8]

    /// Creates an image from its pixels.
    package init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// Decodes a PNG file's bytes.
    package init(png: Data) throws {
        let source = ByteSource(png)
        let surface = withExtendedLifetime(source) {
            cairo_image_surface_create_from_png_stream({ closure, buffer, length in
                guard let closure, let buffer else { return CAIRO_STATUS_READ_ERROR }
                let source = Unmanaged<ByteSource>.fromOpaque(closure).takeUnretainedValue()
                let count = Int(length)
                guard source.offset + count <= source.data.count else { return CAIRO_STATUS_READ_ERROR }
                let start = source.data.startIndex + source.offset
                source.data.copyBytes(to: buffer, from: start..<(start + count))
                source.offset += count
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(source).toOpaque())!
        }
        let owned: CairoImageSurface
        do {
            owned = try CairoImageSurface(adopting: surface)
        } catch let error as RenderError {
            if case .cairo(let reason) = error { throw RenderError.notPNG(reason) }
            throw error
        }
        self.init(width: owned.width, height: owned.height, rgba: owned.rgbaBytes())
    }

    /// The RGBA bytes of the pixel at (`x`, `y`).
    package func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let offset = (y * width + x) * 4
        return (rgba[offset], rgba[offset + 1], rgba[offset + 2], rgba[offset + 3])
    }
}
