// Statistics/ — what a selection says as numbers: counts and ranges, the frequency–magnitude
// distribution with its completeness magnitude and b-value, counts per time bin, and where events
// lie along a cross-section's profile. Charts and reports draw these; they decide nothing visual.

import Foundation
import QuakeModel
import QuakeParse

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
        var accumulator = Accumulator()
        for event in events {
            accumulator.add(time: event.time, magnitude: event.magnitude, depth: event.depth,
                            type: Self.typeKey(event.eventType))
        }
        self.init(accumulator, binning: binning, completeness: completeness)
    }

    /// The figures of what `accumulator` was given.
    package init(_ accumulator: Accumulator, binning: MagnitudeBinning, completeness: CompletenessMethod) {
        count = accumulator.count
        first = accumulator.first
        last = accumulator.last
        magnitudeRange = accumulator.magnitudeRange
        depthRange = accumulator.depthRange
        types = accumulator.types
        let magnitudes = accumulator.magnitudes
        gutenbergRichter = Result { () throws(StatisticsError) in
            try GutenbergRichterFit(magnitudes: magnitudes, binning: binning, method: completeness)
        }
    }

    /// The key an event's type is counted under: ``EventType/normalized(_:)``,
    /// with no strings made for the usual earthquake.
    package static func typeKey(_ type: String) -> String {
        EventType.isEarthquake(type) ? "earthquake" : EventType.normalized(type)
    }

    /// What the figures need of each event, taken one event at a time: a
    /// spooled feed's records are folded in without the events (the order
    /// given is the fit's summation order, so give it the selection's).
    package struct Accumulator {
        package init() {}

        package private(set) var count = 0
        package private(set) var first: Date?
        package private(set) var last: Date?
        /// Every magnitude, for the fit (8 bytes an event).
        package private(set) var magnitudes: [Double] = []
        package private(set) var magnitudeRange: ClosedRange<Double>?
        package private(set) var depthRange: ClosedRange<Double>?
        package private(set) var types: [String: Int] = [:]

        /// Adds an event; `type` is its ``CatalogStatistics/typeKey(_:)``.
        /// Minima and maxima compare as `min()` and `max()` do, so ties and
        /// signed zeros come out as they would over the whole list.
        package mutating func add(time: Date, magnitude: Double?, depth: Double?, type: String) {
            count += 1
            if first.map({ time < $0 }) ?? true { first = time }
            if last.map({ $0 < time }) ?? true { last = time }
            if let magnitude {
                magnitudes.append(magnitude)
                magnitudeRange = Self.widened(magnitudeRange, magnitude)
            }
            if let depth { depthRange = Self.widened(depthRange, depth) }
            types[type, default: 0] += 1
        }

        private static func widened(_ range: ClosedRange<Double>?, _ value: Double) -> ClosedRange<Double> {
            guard let range else { return value...value }
            let low = value < range.lowerBound ? value : range.lowerBound
            let high = range.upperBound < value ? value : range.upperBound
            return low...high
        }
    }

    package enum CodingKeys: String, CodingKey { case count, first, last, magnitude, depth, types, gutenbergRichter }
    package enum RangeKeys: String, CodingKey { case min, max }
    package enum FitKeys: String, CodingKey {
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
    package var text: String {
        func format(_ range: ClosedRange<Double>?, _ unit: String) -> String {
            range.map { Formatted.fixed($0.lowerBound, 2) + " … " + Formatted.fixed($0.upperBound, 2) + unit } ?? "—"
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
            lines.append("Mc         " + Formatted.fixed(fit.completeness, decimals)
                         + " (\(fit.method.name), bins of " + Formatted.fixed(fit.binning.width, decimals) + ")")
            // A large catalogue's σ is below 0.01: a third decimal keeps it from printing as ± 0.00.
            let bDecimals = fit.bUncertainty < 0.01 ? 3 : 2
            lines.append("b          " + Formatted.fixed(fit.b, bDecimals) + " ± " + Formatted.fixed(fit.bUncertainty, bDecimals)
                         + " (Aki–Utsu, Shi & Bolt; \(fit.countAboveCompleteness) events ≥ Mc)")
            lines.append("a          " + Formatted.fixed(fit.a, 2))
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
