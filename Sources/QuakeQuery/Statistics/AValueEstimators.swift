import Foundation

/// SeismoStats's a-value estimators.
package enum AValueMethod: String, CaseIterable, Sendable, Hashable {
    /// log₁₀ of the events ≥ Mc (`ClassicAValueEstimator`).
    case classic
    /// The count of positive successive differences over the fraction of time they
    /// cover (`APositiveAValueEstimator`; not van der Elst & Page's a-positive).
    case positive
    /// van der Elst & Page (2023)'s a-positive over pairs to the next larger event,
    /// scaled by b (`AMorePositiveAValueEstimator`).
    case morePositive = "more-positive"

    /// The a-value estimator SeismoStats pairs with a b-value estimator.
    package init(pairedWith method: BValueMethod) {
        switch method {
        case .positive: self = .positive
        case .morePositive: self = .morePositive
        default: self = .classic
        }
    }
}

/// SeismoStats's a-value estimators on binned magnitudes (kept ≥ Mc − Δm/2) in
/// time order with their times (any unit: only ratios of time spans are used).
/// Each gives log₁₀ N(≥ Mc) for the catalogue's span, then SeismoStats's
/// `_reference_scaling`: − b·(`mRef` − Mc) when `mRef` is given, − log₁₀ `scaling`
/// when `scaling` is. Both default to none, as in SeismoStats.
package enum AValueEstimators {
    /// The a-value by `method`; `b` is needed by `.morePositive` and by `mRef`.
    package static func estimate(_ method: AValueMethod, timeOrdered magnitudes: [Double], times: [Double],
                                 mc: Double, width: Double, dmc: Double, b: Double,
                                 mRef: Double? = nil, scaling: Double? = nil) throws(StatisticsError) -> Double {
        let threshold = mc - width / 2
        var kept: [Double] = [], keptTimes: [Double] = []
        for (magnitude, time) in zip(magnitudes, times) where magnitude >= threshold {
            kept.append(magnitude)
            keptTimes.append(time)
        }
        guard !kept.isEmpty else {
            throw .tooFewForEstimator(method: "a-value", found: 0, required: 1, what: "events at or above Mc \(mc)")
        }
        var a: Double
        switch method {
        case .classic:
            a = log10(Double(kept.count))
        case .positive:
            a = try positive(kept, times: keptTimes, width: width, dmc: dmc)
        case .morePositive:
            a = try morePositive(kept, times: keptTimes, mc: mc, width: width, dmc: dmc, b: b)
        }
        if let mRef { a -= b * (mRef - mc) }
        if let scaling { a -= log10(scaling) }
        return a
    }

    /// Events following a smaller one by ≥ dmc − Δm/2, divided by the share of the
    /// catalogue's span their waiting times add up to.
    private static func positive(_ magnitudes: [Double], times: [Double], width: Double,
                                 dmc: Double) throws(StatisticsError) -> Double {
        guard magnitudes.count > 1 else { throw tooFew("a-positive", 0) }
        let total = times[times.count - 1] - times[0]
        var count = 0
        var factor = 0.0
        for index in 1..<magnitudes.count where magnitudes[index] - magnitudes[index - 1] >= dmc - width / 2 {
            count += 1
            factor += (times[index] - times[index - 1]) / total
        }
        guard count > 0 else { throw tooFew("a-positive", 0) }
        return log10(Double(count) / factor)
    }

    /// Pairs to the next larger event: waiting times scaled by 10^(−b(m + dmc − Mc)),
    /// those without a next larger one waiting to the catalogue's end.
    private static func morePositive(_ magnitudes: [Double], times: [Double], mc: Double, width: Double,
                                     dmc: Double, b: Double) throws(StatisticsError) -> Double {
        let next = BValueEstimators.nextLarger(magnitudes, width: width, dmc: dmc)
        let last = times[times.count - 1]
        let total = last - times[0]
        var count = 0
        var factor = 0.0
        for (index, later) in next.enumerated() {
            let wait = later > 0 ? times[later] - times[index] : last - times[index]
            if later > 0 { count += 1 }
            factor += wait * pow(10, -b * (magnitudes[index] + dmc - mc)) / total
        }
        guard count > 0 else { throw tooFew("a-more-positive", 0) }
        return log10(Double(count) / factor)
    }

    private static func tooFew(_ method: String, _ found: Int) -> StatisticsError {
        .tooFewForEstimator(method: method, found: found, required: 1, what: "events followed by a larger one")
    }
}
