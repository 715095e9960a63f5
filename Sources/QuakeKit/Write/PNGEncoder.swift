import CPNGEncoder
import Foundation

/// Encodes rendered pixels as PNG with settings chosen for maps, which Cairo's
/// writer (libpng's defaults, adaptive filters, level 6, one thread) offers no
/// way to change. Rows go unfiltered (flat fills compress well as they are) and
/// stripes of rows are deflated on all cores at once. Measured on 2048×1024
/// maps: level 3 encodes an opaque map and level 6 a transparent one several
/// times faster than Cairo's writer, the files no larger, the decoded pixels
/// the same (see `PNGEncoderTests` and `make bench`).
enum PNGEncoder {
    static let opaqueLevel: Int32 = 3
    static let alphaLevel: Int32 = 6

    /// - Parameter threads: how many stripes are deflated at once; by default one per core.
    /// - Throws: ``WriteError/encodingFailed(format:status:)`` when zlib fails (out of memory).
    static func encode(_ pixels: PixelBuffer, threads: Int = ParallelParts.cores) throws(WriteError) -> Data {
        var buffer = qm_png_buffer()
        let status = qm_png_encode_argb32(pixels.base.assumingMemoryBound(to: UInt8.self), Int32(pixels.width),
                                          Int32(pixels.height), Int32(pixels.stride), opaqueLevel, alphaLevel,
                                          Int32(threads), &buffer)
        defer { qm_png_buffer_free(&buffer) }
        guard status == 0, let bytes = buffer.bytes else { throw .encodingFailed(format: "PNG", status: status) }
        return Data(bytes: bytes, count: buffer.count)
    }
}
