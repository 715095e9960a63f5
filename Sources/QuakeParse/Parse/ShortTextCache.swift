import QuakeModel

/// The strings of short repeated fields (magnitude type, event type,
/// network, status), made once per value and then found again: a feed
/// repeats a handful of each on every row, and comparing two words costs
/// far less than making a string from bytes. Each part of a batch, decoded
/// on its own thread, has its own cache.
package struct ShortTextCache {
    /// Fields up to this many bytes are cached: two words.
    package static let longest = 16
    private static let slots = 256

    private struct Entry {
        package var low: UInt64 = 0, high: UInt64 = 0
        package var length = -1
        package var string = ""
    }

    private var entries: [Entry]

    /// A cache; with `enabled` false it caches nothing (for one-off decoding).
    package init(enabled: Bool = true) {
        entries = Array(repeating: Entry(), count: enabled ? Self.slots : 0)
    }

    /// The string of `bytes` (already trimmed, not empty); `nil` when they
    /// are longer than ``longest`` or not ASCII (those take the general
    /// path, which drops byte order marks and repairs invalid UTF-8).
    package mutating func string(_ bytes: UnsafeRawBufferPointer) -> String? {
        let count = bytes.count
        guard !entries.isEmpty, count <= Self.longest else { return nil }
        var low: UInt64 = 0, high: UInt64 = 0
        if count >= 8 {
            // Whole words; the second ends at the last byte and drops those the first has.
            low = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
            if count > 8 {
                let last = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
                high = last >> (8 * (16 - count))
            }
        } else if count >= 4 {
            // Two overlapping loads; the bytes they share are the same, so OR keeps them.
            low = UInt64(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
                | UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))) << (8 * (count - 4))
        } else if count >= 2 {
            low = UInt64(UInt16(littleEndian: bytes.loadUnaligned(as: UInt16.self)))
                | UInt64(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self))) << (8 * (count - 2))
        } else if count == 1 {
            low = UInt64(bytes[0])
        }
        guard (low | high) & 0x8080_8080_8080_8080 == 0 else { return nil }
        let mixed = (low ^ high &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)) &* 0xBF58_476D_1CE4_E5B9
        let slot = Int(truncatingIfNeeded: mixed >> 56)
        // Found through a read-only view: a mutable one checks the array is unique on every call.
        let found = entries.withUnsafeBufferPointer { entries in
            entries[slot].length == count && entries[slot].low == low && entries[slot].high == high
                ? entries[slot].string : nil
        }
        if let found { return found }
        let string = String(decoding: bytes, as: UTF8.self)
        entries[slot] = Entry(low: low, high: high, length: count, string: string)
        return string
    }
}
