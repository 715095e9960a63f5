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
    /// Events with a magnitude per magnitude type (lower-cased; `unknown` without one).
    package var magnitudeTypes: [String: Int] = [:]
    /// b, σ, a (and the b-significance) by the estimators `settings` chose, at the fit's
    /// Mc; `nil` when the fit has none (its problem says why).
    package var estimate: Result<MagnitudeEstimate, StatisticsError>?

    /// Summarizes `events`; magnitudes are binned by `binning` and Mc found by
    /// `completeness` for the Gutenberg–Richter fit.
    public init(_ events: [SeismicEvent], binning: MagnitudeBinning = .tenth,
                completeness: CompletenessMethod = .standard) {
        self.init(Self.accumulated(events), binning: binning, completeness: completeness)
    }

    /// Summarizes `events`, with b, σ and a by the estimators `settings` choose.
    package init(_ events: [SeismicEvent], binning: MagnitudeBinning, completeness: CompletenessMethod,
                 settings: EstimationSettings) {
        self.init(Self.accumulated(events), binning: binning, completeness: completeness, settings: settings)
    }

    private static func accumulated(_ events: [SeismicEvent]) -> Accumulator {
        var accumulator = Accumulator()
        for event in events {
            accumulator.add(time: event.time, magnitude: event.magnitude, depth: event.depth,
                            type: Self.typeKey(event.eventType), magnitudeType: event.magnitudeType)
        }
        return accumulator
    }

    /// The figures of what `accumulator` was given.
    package init(_ accumulator: Accumulator, binning: MagnitudeBinning, completeness: CompletenessMethod,
                 settings: EstimationSettings? = nil) {
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
        magnitudeTypes = accumulator.magnitudeTypes
        if let settings, case .success(let fit) = gutenbergRichter {
            let times = accumulator.times
            estimate = Result { () throws(StatisticsError) in
                try MagnitudeEstimate(magnitudes: magnitudes, times: times, mc: fit.completeness,
                                      width: binning.width, settings: settings)
            }
        }
    }

    /// The warning for a selection of several magnitude types (whose scales differ, so
    /// one b over all of them means little), naming the commonest to filter on.
    package var mixedMagnitudeTypesWarning: String? {
        guard magnitudeTypes.count > 1 else { return nil }
        let sorted = magnitudeTypes.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let listed = sorted.prefix(6).map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
        return "the selection mixes magnitude types " + listed + (sorted.count > 6 ? "…" : "")
            + "; add --where \"magType = '\(sorted[0].key)'\" to use one"
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
        /// Each magnitude's time (seconds since 2001), for the estimators that read time order (8 bytes an event).
        package private(set) var times: [Double] = []
        /// Magnitudes per magnitude type (lower-cased, so ML and ml count together): counts, not a
        /// type per event.
        package var magnitudeTypes: [String: Int] {
            var all: [String: Int] = [:]
            for (type, count) in zip(typeNames, typeTallies) {
                all[type.contains(where: \.isUppercase) ? type.lowercased() : type, default: 0] += count
            }
            return all
        }
        /// Counts per spelling: a catalogue has a handful, so a short list searched from the last
        /// hit is quicker than hashing every event's string.
        private var typeNames: [String] = []
        private var typeTallies: [Int] = []
        private var lastTypeIndex = 0
        package private(set) var magnitudeRange: ClosedRange<Double>?
        package private(set) var depthRange: ClosedRange<Double>?
        package private(set) var types: [String: Int] = [:]

        /// Adds an event; `type` is its ``CatalogStatistics/typeKey(_:)``.
        /// Minima and maxima compare as `min()` and `max()` do, so ties and
        /// signed zeros come out as they would over the whole list.
        package mutating func add(time: Date, magnitude: Double?, depth: Double?, type: String,
                                  magnitudeType: String? = nil) {
            count += 1
            if first.map({ time < $0 }) ?? true { first = time }
            if last.map({ $0 < time }) ?? true { last = time }
            if let magnitude {
                magnitudes.append(magnitude)
                times.append(time.timeIntervalSinceReferenceDate)
                let type = magnitudeType.flatMap { $0.isEmpty ? nil : $0 } ?? "unknown"
                if lastTypeIndex < typeNames.count, typeNames[lastTypeIndex] == type {
                    typeTallies[lastTypeIndex] += 1
                } else if let index = typeNames.firstIndex(of: type) {
                    typeTallies[index] += 1
                    lastTypeIndex = index
                } else {
                    typeNames.append(type)
                    typeTallies.append(1)
                    lastTypeIndex = typeNames.count - 1
                }
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

    package enum CodingKeys: String, CodingKey {
        case count, first, last, magnitude, depth, types, magnitudeTypes, gutenbergRichter, estimate
    }
    package enum RangeKeys: String, CodingKey { case min, max }
    package enum FitKeys: String, CodingKey {
        case binWidth, mcMethod, mcCorrection, mc, eventsAboveMc, minimumEvents, b, bUncertainty, a, problem, mcSearch
    }
    package enum SearchKeys: String, CodingKey { case tested, bValues, statistics, distances }
    package enum EstimateKeys: String, CodingKey {
        case bMethod, b, std, stdMethod, n, dmc, mc, aMethod, a, aProblem, mRef, aScaling, completenessTable
        case bootstrap, bootstrapStd, seed, bSignificance, problem
    }
    package enum SignificanceKeys: String, CodingKey { case window, mac, expectedMAC, stdMAC, pValue, problem }

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
            // Full precision: the figures are compared with other tools' to 1e-6.
            try fit.encode(result.b, forKey: .b)
            try fit.encode(result.bUncertainty, forKey: .bUncertainty)
            try fit.encode(result.a, forKey: .a)
            if let search = result.search {
                var nested = fit.nestedContainer(keyedBy: SearchKeys.self, forKey: .mcSearch)
                try nested.encode(search.tested, forKey: .tested)
                try nested.encode(search.bValues, forKey: .bValues)
                try nested.encode(search.statistics, forKey: .statistics)
                if !search.distances.isEmpty { try nested.encode(search.distances, forKey: .distances) }
            }
        case .failure(let error):
            if case let .notEnoughEvents(found, _, completeness) = error {
                try fit.encode(found, forKey: .eventsAboveMc)
                try fit.encode(completeness, forKey: .mc)
            }
            try fit.encode(error.message, forKey: .problem)
        }
        if !magnitudeTypes.isEmpty { try container.encode(magnitudeTypes, forKey: .magnitudeTypes) }
        guard let estimate else { return }
        var nested = container.nestedContainer(keyedBy: EstimateKeys.self, forKey: .estimate)
        switch estimate {
        case .failure(let error):
            try nested.encode(error.message, forKey: .problem)
        case .success(let estimate):
            try Self.encode(estimate, into: &nested)
        }
    }

    private static func encode(_ estimate: MagnitudeEstimate, into nested: inout KeyedEncodingContainer<EstimateKeys>) throws {
        let settings = estimate.settings
        try nested.encode(settings.bMethod.rawValue, forKey: .bMethod)
        try nested.encode(estimate.b, forKey: .b)
        try nested.encode(estimate.std, forKey: .std)
        try nested.encode(estimate.stdMethod, forKey: .stdMethod)
        try nested.encode(estimate.n, forKey: .n)
        try nested.encode(estimate.mc, forKey: .mc)
        if settings.bMethod.isPositive { try nested.encode(estimate.dmc, forKey: .dmc) }
        try nested.encode(estimate.aMethod, forKey: .aMethod)
        switch estimate.a {
        case .success(let a): try nested.encode(a, forKey: .a)
        case .failure(let error): try nested.encode(error.message, forKey: .aProblem)
        }
        try nested.encodeIfPresent(settings.mRef, forKey: .mRef)
        try nested.encodeIfPresent(settings.aScaling, forKey: .aScaling)
        try nested.encodeIfPresent(settings.completenessTable?.text, forKey: .completenessTable)
        try nested.encode(settings.seed, forKey: .seed)
        if settings.bootstrap > 0 {
            try nested.encode(settings.bootstrap, forKey: .bootstrap)
            try nested.encodeIfPresent(estimate.bootstrapStd, forKey: .bootstrapStd)
        }
        guard let significance = estimate.significance else { return }
        var test = nested.nestedContainer(keyedBy: SignificanceKeys.self, forKey: .bSignificance)
        switch significance {
        case .success(let result):
            try test.encode(result.window, forKey: .window)
            try test.encode(result.mac, forKey: .mac)
            try test.encode(result.expectedMAC, forKey: .expectedMAC)
            try test.encode(result.stdMAC, forKey: .stdMAC)
            try test.encode(result.pValue, forKey: .pValue)
        case .failure(let error):
            try test.encode(error.message, forKey: .problem)
        }
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
        switch estimate {
        case .success(let estimate):
            let settings = estimate.settings
            let bDecimals = estimate.std < 0.01 ? 3 : 2
            var line = "b \(settings.bMethod.rawValue)".padding(toLength: 11, withPad: " ", startingAt: 0)
            line += Formatted.fixed(estimate.b, bDecimals) + " ± " + Formatted.fixed(estimate.std, bDecimals)
            line += " (\(settings.bMethod.title), σ by \(estimate.stdMethod); n \(estimate.n))"
            lines.append(line)
            if let bootstrap = estimate.bootstrapStd {
                lines.append("bootstrap  σ " + Formatted.fixed(bootstrap, 3) + " (\(settings.bootstrap) resamples, seed \(settings.seed))")
            }
            switch estimate.a {
            case .success(let a): lines.append("a \(estimate.aMethod)".padding(toLength: 11, withPad: " ", startingAt: 0) + Formatted.fixed(a, 3))
            case .failure(let error): lines.append("a          " + error.message)
            }
            switch estimate.significance {
            case .success(let test)?:
                lines.append("b varies   p " + String(format: "%.3g", test.pValue) + " (MAC " + Formatted.fixed(test.mac, 3)
                             + ", expected " + Formatted.fixed(test.expectedMAC, 3) + " ± " + Formatted.fixed(test.stdMAC, 3)
                             + "; windows of \(test.window))")
            case .failure(let error)?: lines.append("b varies   " + error.message)
            case nil: break
            }
        case .failure(let error):
            lines.append("b          " + error.message)
        case nil:
            break
        }
        lines.append("types")
        let width = types.keys.map(\.count).max() ?? 0
        for (type, number) in types.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
            lines.append("  " + type + String(repeating: " ", count: width - type.count) + "  " + String(number))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
