import CCairo
import Foundation
import QuakeScene

/// Owns a Cairo ARGB32 image surface; destroyed with the object. Never leaves
/// the library, and is used by one thread within one call.
package final class CairoImageSurface {
    package let pointer: OpaquePointer
    package let width: Int
    package let height: Int

    package init(width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= MapOptions.maximumSide, height <= MapOptions.maximumSide else {
            throw RenderError.invalidSize(width: width, height: height)
        }
        // Cairo returns an error object rather than NULL: check its status.
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        try CairoStatus.check(cairo_surface_status(surface)) { cairo_surface_destroy(surface) }
        self.pointer = surface
        self.width = width
        self.height = height
    }

    /// A surface holding `image`'s pixels.
    package convenience init(image: RasterImage) throws {
        try self.init(width: image.width, height: image.height)
        guard image.rgba.count == image.width * image.height * 4 else {
            throw RenderError.invalidSize(width: image.width, height: image.height)
        }
        cairo_surface_flush(pointer)
        let stride = Int(cairo_image_surface_get_stride(pointer))
        guard let data = cairo_image_surface_get_data(pointer) else { throw RenderError.cairo("no pixel data") }
        for y in 0..<height {
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let offset = (y * width + x) * 4
                let alpha = UInt32(image.rgba[offset + 3])
                // Cairo wants premultiplied alpha.
                let red = (UInt32(image.rgba[offset]) * alpha + 127) / 255
                let green = (UInt32(image.rgba[offset + 1]) * alpha + 127) / 255
                let blue = (UInt32(image.rgba[offset + 2]) * alpha + 127) / 255
                row[x] = alpha << 24 | red << 16 | green << 8 | blue
            }
        }
        cairo_surface_mark_dirty(pointer)
    }

    /// Adopts a surface Cairo made (e.g. from a PNG), checking it.
    package init(adopting surface: OpaquePointer) throws {
        try CairoStatus.check(cairo_surface_status(surface)) { cairo_surface_destroy(surface) }
        self.pointer = surface
        self.width = Int(cairo_image_surface_get_width(surface))
        self.height = Int(cairo_image_surface_get_height(surface))
    }

    /// Decodes a PNG file's bytes with Cairo's reader.
    ///
    /// - Throws: ``RenderError/notPNG(_:)`` for bytes Cairo cannot read as a PNG.
    package convenience init(png: Data) throws {
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
        do {
            try self.init(adopting: surface)
        } catch let error as RenderError {
            if case .cairo(let reason) = error { throw RenderError.notPNG(reason) }
            throw error
        }
    }

    deinit {
        cairo_surface_destroy(pointer)
    }

    /// The pixels as straight-alpha RGBA bytes, row by row.
    package func rgbaBytes() -> [UInt8] {
        cairo_surface_flush(pointer)
        let stride = Int(cairo_image_surface_get_stride(pointer))
        let format = cairo_image_surface_get_format(pointer)
        guard let data = cairo_image_surface_get_data(pointer) else { return [] }
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let pixel = format == CAIRO_FORMAT_RGB24 ? row[x] | 0xFF00_0000 : row[x]
                let alpha = pixel >> 24
                var red = (pixel >> 16) & 0xFF, green = (pixel >> 8) & 0xFF, blue = pixel & 0xFF
                // Cairo stores premultiplied alpha; undo it with rounding.
                if alpha != 0 && alpha != 255 {
                    red = (red * 255 + alpha / 2) / alpha
                    green = (green * 255 + alpha / 2) / alpha
                    blue = (blue * 255 + alpha / 2) / alpha
                }
                let offset = (y * width + x) * 4
                bytes[offset] = UInt8(min(red, 255))
                bytes[offset + 1] = UInt8(min(green, 255))
                bytes[offset + 2] = UInt8(min(blue, 255))
                bytes[offset + 3] = UInt8(alpha)
            }
        }
        return bytes
    }

    /// Calls `body` with the pixels, drawing finished (for an encoder).
    package func withPixels<T>(_ body: (PixelBuffer) throws -> T) throws -> T {
        cairo_surface_flush(pointer)
        guard let data = cairo_image_surface_get_data(pointer) else { throw RenderError.cairo("no pixel data") }
        return try body(PixelBuffer(base: UnsafeRawPointer(data), width: width, height: height,
                                    stride: Int(cairo_image_surface_get_stride(pointer))))
    }

    /// Lets `body` change the pixels directly; Cairo is told afterwards.
    package func withMutablePixels<T>(_ body: (UnsafeMutableRawPointer, Int) throws -> T) throws -> T {
        cairo_surface_flush(pointer)
        guard let data = cairo_image_surface_get_data(pointer) else { throw RenderError.cairo("no pixel data") }
        defer { cairo_surface_mark_dirty(pointer) }
        return try body(UnsafeMutableRawPointer(data), Int(cairo_image_surface_get_stride(pointer)))
    }

    /// The surface encoded by Cairo's own PNG writer: the straightforward path
    /// the fast encoder is checked against.
    package func cairoPNGData() throws -> Data {
        let sink = ByteSink()
        let status = cairo_surface_write_to_png_stream(pointer, ByteSink.write, Unmanaged.passUnretained(sink).toOpaque())
        // `sink` outlives the call above, which is the whole life of the pointer.
        withExtendedLifetime(sink) {}
        try CairoStatus.check(status)
        return sink.data
    }

}

/// Cairo reports failures as a status on the object, not as NULL.
package enum CairoStatus {
    /// Throws ``RenderError/cairo(_:)`` for a failed status, after `cleanUp`.
    package static func check(_ status: cairo_status_t, cleanUp: () -> Void = {}) throws {
        guard status == CAIRO_STATUS_SUCCESS else {
            cleanUp()
            throw RenderError.cairo(String(cString: cairo_status_to_string(status)))
        }
    }
}

/// Collects bytes that Cairo writes through a C callback.
package final class ByteSink {
    package var data = Data()

    /// Cairo's write callback for a `ByteSink` passed as its closure pointer.
    package static let write: cairo_write_func_t = { closure, bytes, length in
        guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
        Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
        return CAIRO_STATUS_SUCCESS
    }
}

/// Feeds bytes to Cairo's PNG reader through a C callback.
package final class ByteSource {
    package let data: Data
    package var offset = 0

    package init(_ data: Data) {
        self.data = data
    }
}
