// Support/ — small tools any stage may use, which know nothing of earthquakes: the hash of ids,
// work split over the cores, a radix sort. The first layer: it uses nothing else in QuakeKit.

/// 64-bit FNV-1a, the one hash the project uses where speed matters and an
/// adversary does not: ids in the selection's tables, feed bodies in the
/// fetch cache, catalogue versions and ETags in the server. Unseeded, so the
/// same input hashes the same in every run and every process.
package struct FNV1a: Sendable {
    /// The hash so far.
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    /// Adds raw bytes, as they are.
    package mutating func mix(bytes: UnsafeRawBufferPointer) {
        var value = self.value
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        self.value = value
    }

    /// Adds `text` and a separator, so ("ab", "c") and ("a", "bc") differ.
    package mutating func mix(_ text: String) {
        mixUTF8(of: text)
        value = (value ^ 0xFF) &* 0x100_0000_01b3
    }

    /// Adds the eight bytes of `bits`, low byte first.
    package mutating func mix(_ bits: UInt64) {
        withUnsafeBytes(of: bits.littleEndian) { mix(bytes: $0) }
    }

    /// 16 hex digits.
    package var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hash of an id's UTF-8 bytes folded to 32 bits, for the selection's
    /// tables (the id filter, the radix sort of repeated ids). Folding keeps
    /// every bit of the 64 in play; the low bits alone would hash worse.
    package static func id(_ id: String) -> UInt32 {
        var hash = FNV1a()
        hash.mixUTF8(of: id)
        return hash.folded
    }

    /// ``id(_:)`` of an id still in the feed's bytes.
    package static func id(bytes: UnsafeRawBufferPointer) -> UInt32 {
        var hash = FNV1a()
        hash.mix(bytes: bytes)
        return hash.folded
    }

    private var folded: UInt32 { UInt32(truncatingIfNeeded: value ^ value >> 32) }

    /// Through the contiguous bytes when there are some (always, for text read
    /// from a feed): stepping the UTF-8 view costs several times more.
    private mutating func mixUTF8(of text: String) {
        var text = text
        text.withUTF8 { mix(bytes: UnsafeRawBufferPointer($0)) }
    }
}
