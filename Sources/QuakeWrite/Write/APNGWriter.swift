import CPNGEncoder
import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeGeo
import QuakeScene
import QuakeRender

/// Streams an animated PNG (APNG) to a file descriptor one frame at a time:
/// signature, `IHDR`, `acTL`, then for each frame an `fcTL` and its image
/// data (the first frame as `IDAT`, so a viewer without APNG shows it; the
/// others as `fdAT`), then `IEND`. Every frame is whole (no sub-rectangles),
/// replaces the one before (dispose none, blend source) and is deflated as
/// ``PNGEncoder`` does; one compression buffer is reused, so memory does not
/// grow with the number of frames.
package final class APNGWriter {
    /// Where bytes go, and the path named in errors.
    package let descriptor: Int32
    package let path: String
    package let frameCount: Int
    /// Frames written so far.
    package private(set) var framesWritten = 0
    /// The next `fcTL`/`fdAT` sequence number.
    private var sequence: UInt32 = 0
    /// 3 (RGB) or 4 (RGBA), chosen on the first frame.
    private var channels: Int32 = 0
    private var width = 0, height = 0
    private var buffer = qm_png_buffer()
    /// The most bytes the compression buffer has held at once.
    package private(set) var largestBuffer = 0

    /// - Parameter frameCount: the frames that will be written (the `acTL` holds it): 1 or more.
    package init(descriptor: Int32, path: String, frameCount: Int) {
        precondition(frameCount >= 1, "an APNG has a frame")
        self.descriptor = descriptor
        self.path = path
        self.frameCount = frameCount
    }

    deinit {
        qm_png_buffer_free(&buffer)
    }

    /// Writes the next frame, shown for `delay` seconds. The first frame
    /// decides the size and whether the file has an alpha channel: later
    /// frames are the same size and opaque wherever it is (an animation's
    /// frames only add to the first).
    package func append(_ pixels: PixelBuffer, delay: Double) throws {
        precondition(framesWritten < frameCount, "more frames than announced")
        let raw = pixels.base.assumingMemoryBound(to: UInt8.self)
        if framesWritten == 0 {
            width = pixels.width
            height = pixels.height
            let opaque = qm_png_is_opaque(raw, Int32(width), Int32(height), Int32(pixels.stride)) != 0
            channels = opaque ? 3 : 4
            var header = [UInt8](repeating: 0, count: 13)
            qm_png_header(Int32(width), Int32(height), channels, &header)
            try writeBytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            try chunk("IHDR", header)
            // Plays 0: loop for ever.
            try chunk("acTL", Self.bigEndian(UInt32(frameCount)) + Self.bigEndian(UInt32(0)))
        }
        precondition(pixels.width == width && pixels.height == height, "every frame the size of the first")
        let (numerator, denominator) = Self.fraction(delay)
        var control = Self.bigEndian(nextSequence())
        control += Self.bigEndian(UInt32(width)) + Self.bigEndian(UInt32(height))
        control += Self.bigEndian(UInt32(0)) + Self.bigEndian(UInt32(0))
        control += Self.bigEndian16(numerator) + Self.bigEndian16(denominator)
        control += [0, 0]  // dispose none, blend source: each frame replaces the last
        try chunk("fcTL", control)

        let settings = channels == 3 ? PNGEncoder.opaque : PNGEncoder.transparent
        let status = qm_png_image_data(raw, Int32(width), Int32(height), Int32(pixels.stride), channels, settings,
                                       Int32(ParallelParts.cores), &buffer)
        guard status == 0, let bytes = buffer.bytes else { throw WriteError.encodingFailed(format: "APNG", status: status) }
        largestBuffer = max(largestBuffer, buffer.capacity)
        let data = UnsafeRawBufferPointer(start: bytes, count: buffer.count)
        if framesWritten == 0 {
            try chunk("IDAT", prefix: [], data)
        } else {
            try chunk("fdAT", prefix: Self.bigEndian(nextSequence()), data)
        }
        framesWritten += 1
    }

    /// Ends the file once every announced frame is written.
    package func finish() throws {
        precondition(framesWritten == frameCount, "as many frames as announced")
        try chunk("IEND", [])
    }

    private func nextSequence() -> UInt32 {
        defer { sequence += 1 }
        return sequence
    }

    /// A delay in seconds as the `fcTL`'s fraction: the numerator and a
    /// denominator of 1000, 100, 10 or 1 (the first that fits 16 bits), or
    /// 1/n for a whole frame rate.
    package static func fraction(_ seconds: Double) -> (UInt16, UInt16) {
        let rate = (1 / seconds).rounded()
        if rate >= 1, rate <= 1000, abs(1 / rate - seconds) < 1e-9 { return (1, UInt16(rate)) }
        for denominator in [1000.0, 100, 10, 1] {
            let numerator = (seconds * denominator).rounded()
            if numerator <= Double(UInt16.max) { return (UInt16(max(0, numerator)), UInt16(denominator)) }
        }
        return (UInt16.max, 1)
    }

    private func chunk(_ type: String, _ data: [UInt8]) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            try chunk(type, prefix: [], bytes)
        }
    }

    /// Length, type, `prefix` and `data` as one chunk's data, CRC.
    private func chunk(_ type: String, prefix: [UInt8], _ data: UnsafeRawBufferPointer) throws {
        let name = Array(type.utf8)
        let crc = name.withUnsafeBufferPointer { typeBytes in
            typeBytes.withMemoryRebound(to: CChar.self) { typeChars in
                qm_png_chunk_crc(typeChars.baseAddress!, prefix, prefix.count,
                                 data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count)
            }
        }
        try writeBytes(Self.bigEndian(UInt32(prefix.count + data.count)) + name + prefix)
        try writeBytes(data)
        try writeBytes(Self.bigEndian(crc))
    }

    private func writeBytes(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try writeBytes($0) }
    }

    private func writeBytes(_ bytes: UnsafeRawBufferPointer) throws {
        try AtomicFileWriter.writeAll(bytes, to: descriptor, path: path)
    }

    package static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    package static func bigEndian16(_ value: UInt16) -> [UInt8] {
        [UInt8(value >> 8), UInt8(value & 0xFF)]
    }
}
