// Statistics/ — what a selection says as numbers: counts and ranges, the frequency–magnitude
// distribution with its completeness magnitude and b-value, counts per time bin, and where events
// lie along a cross-section's profile. Charts and reports draw these; they decide nothing visual.

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
    /// The completeness magnitude, b-value and a-value of the events' magnitudes
    /// (whatever their magnitude types), or why there are none (too few events).
    public var gutenbergRichter: Result<GutenbergRichterFit, StatisticsError>

    /// Summarizes `events`; magnitudes are binned by `binning` and Mc found by
    /// `completeness` for the Gutenberg–Richter fit.
    public init(_ events: [SeismicEvent], binning: MagnitudeBinning = .tenth,
                completeness: CompletenessMethod = .standard) {
        count = events.count
        first = events.map(\.time).min()
        last = events.map(\.time).max()
        magnitudeRange = Self.range(events.compactMap(\.magnitude))
        depthRange = Self.range(events.compactMap(\.depth))
        types = Dictionary(grouping: events, by: { EventType.normalized($0.eventType) }).mapValues(\.count)
        gutenbergRichter = Result { () throws(StatisticsError) in
            try GutenbergRichterFit(magnitudes: events.lazy.compactMap(\.magnitude), binning: binning, method: completeness)
        }
    }

    private static func range(_ values: [Double]) -> ClosedRange<Double>? {
        guard let low = values.min(), let high = values.max() else { return nil }
        return low...high
    }

    enum CodingKeys: String, CodingKey { case count, first, last, magnitude, depth, types, gutenbergRichter }
    enum RangeKeys: String, CodingKey { case min, max }
    enum FitKeys: String, CodingKey {
        case binWidth, mcMethod, mcCorrection, mc, eventsAboveMc, minimumEvents, b, bUncertainty, a, problem
    }

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
        var fit = container.nestedContainer(keyedBy: FitKeys.self, forKey: .gutenbergRichter)
        try fit.encode(GutenbergRichterFit.minimumEvents, forKey: .minimumEvents)
        switch gutenbergRichter {
        case .success(let result):
            try fit.encode(result.binning.width, forKey: .binWidth)
            try fit.encode(result.method.name, forKey: .mcMethod)
            if case .maximumCurvature(let correction) = result.method { try fit.encode(correction, forKey: .mcCorrection) }
            try fit.encode(result.completeness, forKey: .mc)
            try fit.encode(result.countAboveCompleteness, forKey: .eventsAboveMc)
            try fit.encode(Self.rounded(result.b, 4), forKey: .b)
            try fit.encode(Self.rounded(result.bUncertainty, 4), forKey: .bUncertainty)
            try fit.encode(Self.rounded(result.a, 4), forKey: .a)
        case .failure(let error):
            if case let .notEnoughEvents(found, _, completeness) = error {
                try fit.encode(found, forKey: .eventsAboveMc)
                try fit.encode(completeness, forKey: .mc)
            }
            try fit.encode(error.message, forKey: .problem)
        }
    }

    /// Four decimals: far below the estimators' own error, and stable to print.
    private static func rounded(_ value: Double, _ decimals: Int) -> Double {
        let scale = pow(10, Double(decimals))
        return (value * scale).rounded() / scale
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
        ]
        switch gutenbergRichter {
        case .success(let fit):
            let decimals = fit.binning.decimals
            lines.append("Mc         " + String(format: "%.\(decimals)f", fit.completeness)
                         + " (\(fit.method.name), bins of " + String(format: "%.\(decimals)f", fit.binning.width) + ")")
            // A large catalogue's σ is below 0.01: a third decimal keeps it from printing as ± 0.00.
            let bDecimals = fit.bUncertainty < 0.01 ? 3 : 2
            lines.append("b          " + String(format: "%.\(bDecimals)f ± %.\(bDecimals)f", fit.b, fit.bUncertainty)
                         + " (Aki–Utsu, Shi & Bolt; \(fit.countAboveCompleteness) events ≥ Mc)")
            lines.append("a          " + String(format: "%.2f", fit.a))
        case .failure(let error):
            lines.append("Mc, b      " + error.message)
        }
        lines.append("types")
        let width = types.keys.map(\.count).max() ?? 0
        for (type, number) in types.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
            lines.append("  " + type + String(repeating: " ", count: width - type.count) + "  " + String(number))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
