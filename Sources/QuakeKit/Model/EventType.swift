import Foundation

/// Event types as USGS spells them today.
public enum EventType {
    /// Lowercased, `_` as a space, and the old spellings `quarry` and
    /// `quarry_blast` as today's `quarry blast`, so that filters and counts
    /// treat every era's feed alike.
    public static func normalized(_ type: String) -> String {
        let spelled = type.lowercased().replacingOccurrences(of: "_", with: " ")
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        switch spelled {
        case "", "eq": return "earthquake"
        case "quarry": return "quarry blast"
        default: return spelled
        }
    }
}
