import CPNGEncoder
import Foundation
import QuakeModel
import QuakeParse
import QuakeRender

/// Streams an animated PNG (APNG) to a file descriptor one frame at a time:
/// signature, `IHDR`, `acTL`, then for each frame an `fcTL` and its image
/// data (the first frame as `IDAT`, so a viewer without APNG shows it; the
/// others as `fdAT`), then `IEND`, deflated as ``PNGEncoder`` does.
///
/// A frame after the first stores only what changed: the frame control's region is
/// the box around the pixels that differ from the frame before, and inside it the
/// pixels that did not change are written transparent and blended over (`blend_op`
/// OVER, `dispose_op` NONE), so a few new circles cost a few hundred bytes, not a
/// whole image. Composited, every frame is the full frame's pixels exactly. (A
/// changed pixel that is itself not opaque cannot be blended over: such a region is
/// written whole with `blend_op` SOURCE.) The file is RGBA for this, whatever the
/// first frame; memory holds the frame before and one compression buffer, whatever
/// the number of frames.
package final class APNGWriter {
    /// Where bytes go, and the path named in errors.
    package let descriptor: Int32
    package let path: String
    package let frameCount: Int
    /// Frames written so far.
    package private(set) var framesWritten = 0
    /// The next `fcTL`/`fdAT` sequence number.
    private var sequence: UInt32 = 0
    /// RGBA: the frames after the first need transparency to leave pixels as they were.
    private let channels: Int32 = 4
    /// The frame before, as Cairo's premultiplied ARGB32 words, row by row.
    private var previous: [UInt32] = []
    /// The changed region of the current frame, unchanged pixels cleared.
    private var region: [UInt32] = []
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
            var header = [UInt8](repeating: 0, count: 13)
            qm_png_header(Int32(width), Int32(height), channels, &header)
            try writeBytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            try chunk("IHDR", header)
            // Plays 0: loop for ever.
            try chunk("acTL", Self.bigEndian(UInt32(frameCount)) + Self.bigEndian(UInt32(0)))
        }
        precondition(pixels.width == width && pixels.height == height, "every frame the size of the first")
        let change = framesWritten == 0 ? Change(x: 0, y: 0, width: width, height: height, blendOver: false)
            : changedRegion(pixels)
        let (numerator, denominator) = Self.fraction(delay)
        var control = Self.bigEndian(nextSequence())
        control += Self.bigEndian(UInt32(change.width)) + Self.bigEndian(UInt32(change.height))
        control += Self.bigEndian(UInt32(change.x)) + Self.bigEndian(UInt32(change.y))
        control += Self.bigEndian16(numerator) + Self.bigEndian16(denominator)
        control += [0, change.blendOver ? 1 : 0]  // dispose none; blend over the frame before, or replace the region
        try chunk("fcTL", control)
        remember(pixels, change)

        let status: Int32
        if change.blendOver {
            status = region.withUnsafeBytes { bytes in
                qm_png_image_data(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(change.width), Int32(change.height),
                                  Int32(change.width * 4), channels, PNGEncoder.transparent, Int32(ParallelParts.cores), &buffer)
            }
        } else {
            status = qm_png_image_data(raw + change.y * pixels.stride + change.x * 4, Int32(change.width), Int32(change.height),
                                       Int32(pixels.stride), channels, PNGEncoder.transparent, Int32(ParallelParts.cores), &buffer)
        }
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

    /// Where a frame differs from the one before, and how it is stored.
    private struct Change {
        var x, y, width, height: Int
        /// Unchanged pixels cleared in ``APNGWriter/region`` and blended over; else the region is written whole.
        var blendOver: Bool
    }

    /// The box around the pixels that differ from the frame before (a single pixel left
    /// as it was when none does), with ``region`` filled for blending over when it can be.
    private func changedRegion(_ pixels: PixelBuffer) -> Change {
        var minX = width, minY = height, maxX = -1, maxY = -1
        previous.withUnsafeBufferPointer { before in
            for y in 0..<height {
                let row = (pixels.base + y * pixels.stride).assumingMemoryBound(to: UInt32.self), offset = y * width
                var first = -1, last = -1
                for x in 0..<width where row[x] != before[offset + x] {
                    if first < 0 { first = x }
                    last = x
                }
                if first >= 0 {
                    minX = min(minX, first)
                    maxX = max(maxX, last)
                    minY = min(minY, y)
                    maxY = y
                }
            }
        }
        guard maxX >= 0 else {
            // Nothing changed: one transparent pixel blended over changes nothing.
            region = [0]
            return Change(x: 0, y: 0, width: 1, height: 1, blendOver: true)
        }
        let change = Change(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1, blendOver: true)
        region = [UInt32](repeating: 0, count: change.width * change.height)
        var opaque = true
        previous.withUnsafeBufferPointer { before in
            region.withUnsafeMutableBufferPointer { region in
                for y in 0..<change.height {
                    let row = (pixels.base + (change.y + y) * pixels.stride).assumingMemoryBound(to: UInt32.self) + change.x
                    let old = (change.y + y) * width + change.x
                    for x in 0..<change.width where row[x] != before[old + x] {
                        region[y * change.width + x] = row[x]
                        if row[x] >> 24 != 0xFF { opaque = false }
                    }
                }
            }
        }
        return opaque ? change : Change(x: change.x, y: change.y, width: change.width, height: change.height, blendOver: false)
    }

    /// Keeps the frame's pixels, where they changed, for the next frame's comparison.
    private func remember(_ pixels: PixelBuffer, _ change: Change) {
        if previous.isEmpty { previous = [UInt32](repeating: 0, count: width * height) }
        previous.withUnsafeMutableBufferPointer { kept in
            for y in change.y..<(change.y + change.height) {
                let row = (pixels.base + y * pixels.stride).assumingMemoryBound(to: UInt32.self)
                for x in change.x..<(change.x + change.width) { kept[y * width + x] = row[x] }
            }
        }
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
