import Foundation

/// Minimal gzip (RFC 1952) writer for serving `Content-Encoding: gzip` test bodies
/// without depending on zlib.
public enum Gzip {
    /// Wraps `data` in one valid gzip member whose deflate stream (RFC 1951) uses only
    /// "stored" (uncompressed) blocks of at most 65535 bytes. The output is slightly
    /// larger than the input, but every gzip reader must accept it.
    public static func compress(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        let blockCount = max(1, (bytes.count + 65534) / 65535)
        var out: [UInt8] = []
        out.reserveCapacity(10 + bytes.count + 5 * blockCount + 8)

        // Header: magic 1f 8b, CM=8 (deflate), FLG=0, MTIME=0 (reproducible output), XFL=0, OS=255 (unknown).
        out += [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF]

        // Stored blocks: a header byte (BFINAL bit, BTYPE=00; the remaining bits are padding
        // because stored data is byte-aligned), LEN and its one's complement NLEN, little-endian,
        // then the raw bytes. Empty input still needs one (empty) final block.
        var offset = 0
        repeat {
            let length = min(65535, bytes.count - offset)
            let isFinal = offset + length == bytes.count
            out.append(isFinal ? 0x01 : 0x00)
            appendLittleEndian(UInt16(length), to: &out)
            appendLittleEndian(~UInt16(length), to: &out)
            out += bytes[offset ..< offset + length]
            offset += length
        } while offset < bytes.count

        // Trailer: CRC-32 of the uncompressed data, then ISIZE (length mod 2^32), little-endian.
        appendLittleEndian(crc32(bytes), to: &out)
        appendLittleEndian(UInt32(truncatingIfNeeded: bytes.count), to: &out)
        return Data(out)
    }

    /// CRC-32 as used by gzip (IEEE 802.3, reflected, polynomial 0xEDB88320).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// Byte-at-a-time lookup table for `crc32`.
    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }
}
