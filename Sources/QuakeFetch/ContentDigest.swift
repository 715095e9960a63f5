import Foundation

/// A 64-bit FNV-1a digest: enough to tell whether a feed body changed between
/// runs (it is not a defence against a forger, and need not be).
enum ContentDigest {
    static func of(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }
}
