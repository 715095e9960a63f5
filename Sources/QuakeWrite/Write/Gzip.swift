import CLibZ
import Foundation

/// gzip (RFC 1952) streams through the system's zlib: vector tiles in MBTiles and PMTiles, the
/// PMTiles directories, and tiles a server sends to a client that accepts gzip.
package enum Gzip {
    /// `data` compressed as one gzip member.
    package static func compress(_ data: Data, level: Int32 = 6) -> Data {
        var stream = z_stream()
        // 15 + 16: the largest window, with a gzip header and trailer instead of zlib's.
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            preconditionFailure("zlib refused its own default settings")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(data.count)))
        var output = Data(count: bound)
        let written = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Int in
            output.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) -> Int in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(out.count)
                // The bound leaves room for everything: one call finishes the stream.
                let status = deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "deflate within deflateBound")
                return Int(stream.total_out)
            }
        }
        output.count = written
        return output
    }

    /// The bytes of a gzip (or zlib) stream; `nil` when they are not one.
    package static func decompress(_ data: Data) -> Data? {
        var stream = z_stream()
        // 15 + 32: gzip or zlib, told apart by the header.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let finished = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Bool in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                if status == Z_STREAM_END { return true }
                guard status == Z_OK else { return false }
            }
        }
        return finished ? output : nil
    }

    /// Whether `data` begins as a gzip stream does.
    package static func isCompressed(_ data: Data) -> Bool {
        data.count >= 2 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B
    }
}
