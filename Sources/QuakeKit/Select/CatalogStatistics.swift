// Select/ — which events count: filters, the region, the N most recent, repeated ids; and statistics
// of what was selected. Builds the RowAdmission that Parse admits a map's rows with.

import Foundation

/// A summary of a selection of events, for `quakemap stats`.
public struct CatalogStatistics: Sendable, Hashable, Encodable {
    /// How many events.
    public var count: Int
    /// The earliest time, if any.
    public var first: Date?
    /// The latest time, if any.
    public var last: Date?
    /// The smallest and largest magnitude.
    public var magnitudeRange: ClosedRange<Double>?
    /// The shallowest and deepest depth, in km.
    public var depthRange: ClosedRange<Double>?
    /// Events per type (types normalized: `quarry` and `quarry_blast` count as `quarry blast`).
    public var types: [String: Int]

    /// Summarizes `events`.
    public init(_ events: [SeismicEvent]) {
        count = events.count
        first = events.map(\.time).min()
        last = events.map(\.time).max()
        magnitudeRange = Self.range(events.compactMap(\.magnitude))
        depthRange = Self.range(events.compactMap(\.depth))
        types = Dictionary(grouping: events, by: { EventType.normalized($0.eventType) }).mapValues(\.count)
    }

    private static func range(_ values: [Double]) -> ClosedRange<Double>? {
        guard let low = values.min(), let high = values.max() else { return nil }
        return low...high
    }

    enum CodingKeys: String, CodingKey { case count, first, last, magnitude, depth, types }
    enum RangeKeys: String, CodingKey { case min, max }

    /// JSON with ISO 8601 times and `{min, max}` ranges (`null` when empty).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(first.map(CivilTime.iso8601), forKey: .first)
        try container.encode(last.map(CivilTime.iso8601), forKey: .last)
        for (key, range) in [(CodingKeys.magnitude, magnitudeRange), (.depth, depthRange)] {
            if let range {
                var nested = container.nestedContainer(keyedBy: RangeKeys.self, forKey: key)
                try nested.encode(range.lowerBound, forKey: .min)
                try nested.encode(range.upperBound, forKey: .max)
            } else {
                try container.encodeNil(forKey: key)
            }
        }
        try container.encode(types, forKey: .types)
    }

    /// Aligned text for a terminal.
    public var text: String {
        func format(_ range: ClosedRange<Double>?, _ unit: String) -> String {
            range.map { String(format: "%.2f … %.2f", $0.lowerBound, $0.upperBound) + unit } ?? "—"
        }
        var lines = [
            "events     \(count)",
            "first      \(first.map(CivilTime.iso8601) ?? "—")",
            "last       \(last.map(CivilTime.iso8601) ?? "—")",
            "magnitude  \(format(magnitudeRange, ""))",
            "depth      \(format(depthRange, " km"))",
            "types",
        ]
        let width = types.keys.map(\.count).max() ?? 0
        for (type, number) in types.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
            lines.append("  " + type + String(repeating: " ", count: width - type.count) + "  " + String(number))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
