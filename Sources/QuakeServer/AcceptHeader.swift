import Foundation

/// An HTTP `Accept` header (RFC 9110 §12.5.1): media ranges with quality values.
struct AcceptHeader {
    private var ranges: [(type: String, subtype: String, quality: Double)] = []

    /// Reads `value`; no header accepts anything (`*/*`).
    init(_ value: String?) {
        guard let value else {
            ranges = [("*", "*", 1)]
            return
        }
        for item in value.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let media = parts[0].split(separator: "/", maxSplits: 1).map(String.init)
            guard media.count == 2 else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)).map { min(max($0, 0), 1) } ?? 1
            }
            ranges.append((media[0], media[1], quality))
        }
    }

    /// The quality of `mediaType` (`type/subtype`): that of the most specific
    /// range that matches it, 0 when none does.
    func quality(of mediaType: String) -> Double {
        let media = mediaType.split(separator: "/", maxSplits: 1).map(String.init)
        var best: (specificity: Int, quality: Double) = (-1, 0)
        for range in ranges {
            let specificity: Int
            if range.type == media[0] && range.subtype == media[1] {
                specificity = 2
            } else if range.type == media[0] && range.subtype == "*" {
                specificity = 1
            } else if range.type == "*" && range.subtype == "*" {
                specificity = 0
            } else {
                continue
            }
            if specificity > best.specificity { best = (specificity, range.quality) }
        }
        return best.quality
    }

    /// Whether `preferred` ranks strictly above `other`: a tie goes to `other`.
    func prefers(_ preferred: String, over other: String) -> Bool {
        quality(of: preferred) > quality(of: other)
    }
}
