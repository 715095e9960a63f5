import Foundation
import QuakeKit

/// A digest of a feed body or a URL: enough to tell whether a body changed
/// between runs (it is not a defence against a forger, and need not be).
enum ContentDigest {
    /// ``FNV1a`` of the bytes, in hex without leading zeros (as cache
    /// entries written before have it).
    static func of(_ data: Data) -> String {
        var hash = FNV1a()
        data.withUnsafeBytes { hash.mix(bytes: $0) }
        return String(hash.value, radix: 16)
    }
}
