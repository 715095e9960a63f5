import Foundation

/// The b-value estimators of SeismoStats 1.0.1, by its names.
public enum BValueMethod: String, CaseIterable, Sendable, Hashable {
    /// Aki (1965) – Utsu (1965) with the half-bin correction (`UtsuBValueEstimator`).
    case utsu
    /// The exact maximum-likelihood estimate for binned magnitudes, Tinti & Mulargia
    /// (1987) (`ClassicBValueEstimator`).
    case classic
    /// b-positive, van der Elst (2021): the classic estimator on the positive
    /// differences of successive magnitudes (`BPositiveBValueEstimator`).
    case positive
    /// b-more-positive, Lippiello & Petrillo (2024): differences to the next
    /// larger event (`BMorePositiveBValueEstimator`).
    case morePositive = "more-positive"
    /// Weichert (1980), for completeness that changes with time (`estimate_b_weichert`).
    case weichert
    /// Kijko & Smit (2012), the same case (`estimate_b_kijko_smit`).
    case kijkoSmit = "kijko-smit"

    /// Whether the estimator reads a completeness table instead of one Mc.
    package var needsCompletenessTable: Bool { self == .weichert || self == .kijkoSmit }

    /// Whether it reads the magnitudes in time order.
    package var isPositive: Bool { self == .positive || self == .morePositive }

    /// How reports name it.
    package var title: String {
        switch self {
        case .utsu: "Aki–Utsu"
        case .classic: "classic, Tinti & Mulargia"
        case .positive: "b-positive, van der Elst"
        case .morePositive: "b-more-positive, Lippiello & Petrillo"
        case .weichert: "Weichert"
        case .kijkoSmit: "Kijko & Smit"
        }
    }
}

/// Which Mc holds from which year: SeismoStats's `completeness_table` for
/// Weichert and Kijko–Smit, written as the CLI takes it
/// (`1970:5.0,1990:4.0,2005:3.0`: Mc 5.0 from 1970, 4.0 from 1990, 3.0 from 2005).
package struct CompletenessTable: Sendable, Hashable {
    /// One period: from `year` on, magnitudes at or above `completeness` are complete.
    package struct Period: Sendable, Hashable {
        package var year: Int
        package var completeness: Double
    }

    /// The periods, oldest first; years rise and Mc falls.
    package let periods: [Period]

    /// A table of `periods`, checked.
    ///
    /// - Throws: ``StatisticsError/invalidCompletenessTable(_:)`` when empty, or unless
    ///   years rise and Mc falls from one period to the next.
    package init(_ periods: [Period]) throws(StatisticsError) {
        guard !periods.isEmpty else { throw .invalidCompletenessTable("no periods") }
        for (earlier, later) in zip(periods, periods.dropFirst()) {
            guard later.year > earlier.year else {
                throw .invalidCompletenessTable("years must rise: \(later.year) follows \(earlier.year)")
            }
            guard later.completeness < earlier.completeness else {
                throw .invalidCompletenessTable("Mc must fall as years rise: \(later.year):\(later.completeness) "
                                                + "follows \(earlier.year):\(earlier.completeness)")
            }
        }
        self.periods = periods
    }

    /// Parses `year:Mc,year:Mc,…`.
    ///
    /// - Throws: ``StatisticsError/invalidCompletenessTable(_:)`` naming the item at fault.
    package init(parsing text: String) throws(StatisticsError) {
        var periods: [Period] = []
        for (position, item) in text.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            let label = "item \(position + 1) '\(item.trimmingCharacters(in: .whitespaces))'"
            guard parts.count == 2 else { throw .invalidCompletenessTable("\(label) is not year:Mc") }
            guard let year = Int(parts[0].trimmingCharacters(in: .whitespaces)), (1000...3000).contains(year) else {
                throw .invalidCompletenessTable("\(label): '\(parts[0])' is not a year (1000…3000)")
            }
            guard let mc = Double(parts[1].trimmingCharacters(in: .whitespaces)), mc.isFinite, abs(mc) <= 12 else {
                throw .invalidCompletenessTable("\(label): '\(parts[1])' is not a magnitude (-12…12)")
            }
            periods.append(Period(year: year, completeness: mc))
        }
        try self.init(periods)
    }

    /// As written: `1970:5,1990:4`.
    package var text: String {
        periods.map { "\($0.year):" + String(format: "%g", $0.completeness) }.joined(separator: ",")
    }
}

/// A b-value with its standard error and the count it rests on.
package struct BValueResult: Sendable, Hashable {
    /// The b-value.
    package var b: Double
    /// Its standard error as SeismoStats reports it for the estimator (see ``BValueEstimators``).
    package var std: Double
    /// How many values the estimate used (events, or differences for the positive estimators).
    package var n: Int
    /// The a-value the estimator gives itself (Weichert, Kijko–Smit: log₁₀ of the yearly rate
    /// at M 0), `nil` for the others, whose a-values come from ``AValueEstimators``.
    package var a: Double?
}

/// SeismoStats's b-value estimators on magnitudes already binned by
/// ``SeismoStatsNumerics/binned(_:width:)``. Each keeps the magnitudes
/// ≥ Mc − Δm/2, as SeismoStats's `_filter_magnitudes` does; the positive ones
/// take them in time order, with `dmc` (SeismoStats's default: Δm).
///
/// Standard errors are those SeismoStats's `std` gives: Shi & Bolt (1982) for
/// Utsu, classic and b-positive (on the differences); a bootstrap of 500 for
/// b-more-positive (``Bootstrap``); Weichert's and Kijko–Smit's own formulas.
package enum BValueEstimators {
    /// Utsu: β = 1 / mean(m − Mc + Δm/2).
    package static func utsu(_ magnitudes: [Double], mc: Double, width: Double) throws(StatisticsError) -> BValueResult {
        let kept = complete(magnitudes, mc: mc, width: width)
        try require(kept.count, 2, "Utsu", "events at or above Mc \(mc)")
        let mean = kept.reduce(0, +) / Double(kept.count)
        let b = 1 / (mean - mc + width / 2) / log(10)
        return try finished(b, kept, "Utsu")
    }

    /// Classic (Tinti & Mulargia 1987): β = ln(1 + Δm / mean(m − Mc)) / Δm.
    package static func classic(_ magnitudes: [Double], mc: Double, width: Double) throws(StatisticsError) -> BValueResult {
        let kept = complete(magnitudes, mc: mc, width: width)
        try require(kept.count, 2, "classic", "events at or above Mc \(mc)")
        return try finished(mle(kept, mc: mc, width: width), kept, "classic")
    }

    /// b-positive: the differences m[i] − m[i−1] of events ≥ Mc in time order
    /// that are ≥ dmc − Δm/2, binned, into the classic estimator with Mc = dmc.
    package static func positive(_ timeOrdered: [Double], mc: Double, width: Double,
                                 dmc: Double) throws(StatisticsError) -> BValueResult {
        let differences = positiveDifferences(complete(timeOrdered, mc: mc, width: width), width: width, dmc: dmc)
        try require(differences.count, 2, "b-positive", "differences of at least dmc \(dmc)")
        return try finished(mle(differences, mc: dmc, width: width), differences, "b-positive")
    }

    /// b-more-positive: for each event ≥ Mc (in time order) the difference to the
    /// next later event at least dmc − Δm/2 larger, binned, into the classic
    /// estimator with Mc = dmc. `std` here is Shi & Bolt's; SeismoStats reports a
    /// bootstrap instead, which ``MagnitudeEstimate`` computes.
    package static func morePositive(_ timeOrdered: [Double], mc: Double, width: Double,
                                     dmc: Double) throws(StatisticsError) -> BValueResult {
        let kept = complete(timeOrdered, mc: mc, width: width)
        let next = nextLarger(kept, width: width, dmc: dmc)
        var differences: [Double] = []
        differences.reserveCapacity(kept.count / 2)
        for (index, later) in next.enumerated() where later > 0 {
            differences.append(kept[later] - kept[index])
        }
        differences = SeismoStatsNumerics.binned(differences, width: width)
        try require(differences.count, 2, "b-more-positive", "events with a later one at least dmc \(dmc) larger")
        return try finished(mle(differences, mc: dmc, width: width), differences, "b-more-positive")
    }

    /// Weichert (1980): the maximum-likelihood β for magnitude bins observed over
    /// different periods, with its standard error and a = log₁₀ of the yearly rate at
    /// M 0 (SeismoStats adds β/ln 10 times the lowest occupied bin's *left edge*;
    /// kept so). Bins without complete events are left out of every sum, as
    /// SeismoStats's grouping leaves them out. `lastYear`: the latest event's.
    package static func weichert(_ magnitudes: [Double], years: [Int], table: CompletenessTable,
                                 width: Double, lastYear: Int? = nil) throws(StatisticsError) -> BValueResult {
        let (edges, starts) = leftEdges(table, width: width)
        guard let maximum = magnitudes.max(), let latest = lastYear ?? years.max() else {
            throw .tooFewForEstimator(method: "Weichert", found: 0, required: 1, what: "events")
        }
        // pd.cut's bins: numpy.arange(first edge, a top beyond the largest magnitude + 0.01, Δm).
        let binEdges = SeismoStatsNumerics.arange(edges[0], maximum + width + 0.01, width)
        var counts: [Int: Int] = [:]      // bin index → complete events
        var binStart: [Int: Int] = [:]    // bin index → completeness year
        for (magnitude, year) in zip(magnitudes, years) {
            let below = edges.lastIndex { $0 < magnitude }   // searchsorted(edges, m) − 1
            guard let period = below, year >= starts[period] else { continue }
            let bin = Int(((magnitude - edges[0]) / width).rounded(.down))
            guard bin >= 0, bin < binEdges.count - 1 else { continue }
            counts[bin, default: 0] += 1
            binStart[bin] = starts[period]
        }
        let bins = counts.keys.sorted()
        let total = counts.values.reduce(0, +)
        try require(total, 2, "Weichert", "complete events in the table's periods")
        let centres = bins.map { binEdges[$0] + width * 0.5 }
        let spans = bins.map { Double(latest - binStart[$0]!) }
        let numbers = bins.map { Double(counts[$0]!) }
        let observedMean = zip(numbers, centres).reduce(0) { $0 + $1.0 * $1.1 } / Double(total)
        func sums(_ beta: Double) -> (s0: Double, s1: Double, s2: Double) {
            var s0 = 0.0, s1 = 0.0, s2 = 0.0
            for (span, centre) in zip(spans, centres) {
                let term = span * exp(-beta * centre)
                s0 += term
                s1 += term * centre
                s2 += term * centre * centre
            }
            return (s0, s1, s2)
        }
        // SeismoStats minimizes |Σ T M e^{−βM} / Σ T e^{−βM} − mean M| by Nelder–Mead to 2e-11;
        // the left side is a weighted mean falling with β, so the root is found by bisection.
        func excess(_ beta: Double) -> Double { let s = sums(beta); return s.s1 / s.s0 - observedMean }
        var low = 1e-6, high = 50.0
        guard excess(low) > 0, excess(high) < 0 else {
            throw .estimatorFailed("Weichert: no β solves the likelihood equation (mean magnitude \(observedMean))")
        }
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if excess(middle) > 0 { low = middle } else { high = middle }
            if high - low <= 1e-15 * high { break }
        }
        let beta = (low + high) / 2
        let s = sums(beta)
        var plain = 0.0
        for centre in centres { plain += exp(-beta * centre) }
        let rate = Double(total) * plain / s.s0
        let a = log10(rate) + beta / log(10) * binEdges[bins[0]]
        let nominator = s.s0 * s.s0
        let variance = -(1 / Double(total)) * nominator / (s.s1 * s.s1 - s.s0 * s.s2)
        return BValueResult(b: beta / log(10), std: variance.squareRoot() / log(10), n: total, a: a)
    }

    /// Kijko & Smit (2012): β = 1 / Σ (nᵢ/n)/βᵢ over the periods, βᵢ Aki's on the
    /// period's events above its Mc's left edge; σ = β/√n; a from the Poisson rate at
    /// the lowest Mc.
    package static func kijkoSmit(_ magnitudes: [Double], years: [Int], table: CompletenessTable,
                                  width: Double, lastYear: Int? = nil) throws(StatisticsError) -> BValueResult {
        let (edges, starts) = leftEdges(table, width: width)
        guard let latest = lastYear ?? years.max() else {
            throw .tooFewForEstimator(method: "Kijko–Smit", found: 0, required: 1, what: "events")
        }
        var sums = [Double](repeating: 0, count: edges.count)
        var counts = [Int](repeating: 0, count: edges.count)
        for (magnitude, year) in zip(magnitudes, years) {
            // searchsorted(−years, −year): the first period (by Mc, rising) whose start ≤ year.
            guard let period = starts.firstIndex(where: { $0 <= year }), magnitude > edges[period] else { continue }
            sums[period] += magnitude
            counts[period] += 1
        }
        let total = counts.reduce(0, +)
        try require(total, 2, "Kijko–Smit", "complete events in the table's periods")
        if let empty = counts.firstIndex(of: 0) {
            let period = table.periods[table.periods.count - 1 - empty]
            throw .estimatorFailed("Kijko–Smit: no events at or above Mc \(period.completeness) from \(period.year) on")
        }
        var inverse = 0.0
        for period in edges.indices {
            let subBeta = 1 / (sums[period] / Double(counts[period]) - edges[period])
            inverse += (Double(counts[period]) / Double(total)) / subBeta
        }
        let beta = 1 / inverse
        var denominator = 0.0
        for period in edges.indices {
            denominator += Double(latest - starts[period]) * exp(-beta * (edges[period] - edges[0]))
        }
        let rate = Double(total) / denominator
        let a = log10(rate) + beta / log(10) * (edges[0] + width * 0.5)
        return BValueResult(b: beta / log(10), std: beta / Double(total).squareRoot() / log(10), n: total, a: a)
    }

    // MARK: - Shared steps

    /// The magnitudes ≥ Mc − Δm/2, in the order given.
    package static func complete(_ magnitudes: [Double], mc: Double, width: Double) -> [Double] {
        let threshold = mc - width / 2
        return magnitudes.filter { $0 >= threshold }
    }

    /// b-positive's differences: successive differences ≥ dmc − Δm/2, binned.
    package static func positiveDifferences(_ magnitudes: [Double], width: Double, dmc: Double) -> [Double] {
        guard magnitudes.count > 1 else { return [] }
        var differences: [Double] = []
        differences.reserveCapacity(magnitudes.count / 2)
        for index in 1..<magnitudes.count {
            let difference = magnitudes[index] - magnitudes[index - 1]
            if difference >= dmc - width / 2 { differences.append(difference) }
        }
        return SeismoStatsNumerics.binned(differences, width: width)
    }

    /// SeismoStats's `find_next_larger`: for each magnitude the index of the first
    /// later one at least dmc − Δm/2 larger, 0 when there is none. Its double loop is
    /// quadratic; here each event waits in a bucket of the threshold it needs (its
    /// bin plus the difference in bins), and a later event releases every bucket at or
    /// below its bin, so the work is linear in events plus bins.
    package static func nextLarger(_ magnitudes: [Double], width: Double, dmc: Double) -> [Int] {
        var next = [Int](repeating: 0, count: magnitudes.count)
        guard let low = magnitudes.min(), let high = magnitudes.max() else { return next }
        func bin(_ magnitude: Double) -> Int { Int(((magnitude - low) / width).rounded()) }
        // The fewest whole bins d with d·Δm ≥ dmc − Δm/2 (binned magnitudes differ by whole bins).
        let step = max(0, Int(((dmc - width / 2) / width - 1e-9).rounded(.up)))
        let top = bin(high)
        var buckets = [[Int32]](repeating: [], count: top + step + 2)
        var lowest = buckets.count   // the lowest bucket that may hold a waiting event
        for (index, magnitude) in magnitudes.enumerated() {
            let here = bin(magnitude)
            if lowest <= here {
                for bucket in lowest...here where !buckets[bucket].isEmpty {
                    for waiting in buckets[bucket] { next[Int(waiting)] = index }
                    buckets[bucket].removeAll(keepingCapacity: true)
                }
                lowest = here + 1
            }
            let needed = here + step
            if needed <= top {
                buckets[needed].append(Int32(index))
                lowest = min(lowest, needed)
            }
        }
        return next
    }

    /// The classic maximum-likelihood b of values ≥ `mc` binned by `width`.
    package static func mle(_ values: [Double], mc: Double, width: Double) -> Double {
        var sum = 0.0
        for value in values { sum += value - mc }
        let beta = log(1 + width / (sum / Double(values.count))) / width
        return beta / log(10)
    }

    /// Shi & Bolt (1982): ln 10 · b² · sd(m) / √(n − 1), sd with divisor n.
    package static func shiBolt(_ values: [Double], b: Double) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        var squares = 0.0
        for value in values { squares += (value - mean) * (value - mean) }
        return log(10) * b * b * (squares / Double(values.count)).squareRoot() / Double(values.count - 1).squareRoot()
    }

    private static func finished(_ b: Double, _ values: [Double], _ method: String) throws(StatisticsError) -> BValueResult {
        guard b.isFinite, b > 0 else {
            throw .estimatorFailed("\(method): the \(values.count) values have no spread to estimate b from")
        }
        return BValueResult(b: b, std: shiBolt(values, b: b), n: values.count, a: nil)
    }

    private static func require(_ found: Int, _ required: Int, _ method: String, _ what: String) throws(StatisticsError) {
        guard found >= required else { throw .tooFewForEstimator(method: method, found: found, required: required, what: what) }
    }

    /// The table as SeismoStats's arrays: left edges (Mc − Δm/2) rising, with their years falling.
    private static func leftEdges(_ table: CompletenessTable, width: Double) -> (edges: [Double], starts: [Int]) {
        let periods = table.periods.reversed()
        return (periods.map { $0.completeness - width / 2 }, periods.map(\.year))
    }
}
