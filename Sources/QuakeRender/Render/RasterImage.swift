import CCairo
import Foundation

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
        let owned = try CairoImageSurface(png: png)
        self.init(width: owned.width, height: owned.height, rgba: owned.rgbaBytes())
    }

    /// The RGBA bytes of the pixel at (`x`, `y`).
    package func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let offset = (y * width + x) * 4
        return (rgba[offset], rgba[offset + 1], rgba[offset + 2], rgba[offset + 3])
    }
}
