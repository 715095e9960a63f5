import Foundation

/// What a completeness search tried, for reports and for checking against
/// SeismoStats: every tested Mc with its b and its statistic (the KS p-value, or
/// b-stability's |b̄ − b|/σ), and for KS the simulated distances.
package struct CompletenessSearch: Sendable, Hashable {
    /// The Mc values tested, in order (the search stops at the first that passes).
    package var tested: [Double] = []
    /// The classic b at each.
    package var bValues: [Double] = []
    /// KS: the p-value at each; b-stability: |mean b over the stability range − b| / σ.
    package var statistics: [Double] = []
    /// KS: the observed distance at each.
    package var distances: [Double] = []
    /// KS: the simulated distances at each tested Mc (what SeismoStats's `ks_ds_list` takes).
    package var simulatedDistances: [[Double]] = []

    /// Nothing tried yet.
    package init() {}
}

/// SeismoStats's completeness estimators besides maximum curvature, on magnitudes
/// binned by ``SeismoStatsNumerics/binned(_:width:)``; both use the classic b-value
/// estimator, SeismoStats's default `b_method`.
package enum CompletenessEstimators {
    /// `estimate_mc_ks` (Clauset et al. 2009; Mizrahi et al. 2021): the smallest Mc of
    /// arange(min, max, Δm) whose magnitudes pass a Kolmogorov–Smirnov test against a
    /// binned Gutenberg–Richter law with their own classic b: p ≥ `pValue` (default 0.1),
    /// p being the share of `simulations` (default 10,000) synthetic samples of the same
    /// size whose distance is at least the observed one. The synthetic samples are drawn
    /// here (``Xoshiro256StarStar`` seeded by `seed`), not by NumPy: the same seed gives
    /// the same Mc, and the distances can be handed to SeismoStats to reproduce the test.
    /// `nil` when no Mc passes.
    package static func kolmogorovSmirnov(_ magnitudes: [Double], width: Double, pValue: Double = 0.1,
                                          simulations: Int = 10_000, seed: UInt64 = 0,
                                          search: inout CompletenessSearch) -> Double? {
        guard let low = magnitudes.min(), let high = magnitudes.max() else { return nil }
        var generator = Xoshiro256StarStar(seed: seed)
        let candidates = SeismoStatsNumerics.arange(low, high, width).map { SeismoStatsNumerics.binned($0, width: width) }
        for mc in candidates {
            let sample = BValueEstimators.complete(magnitudes, mc: mc, width: width)
            guard sample.count > 1 else { continue }
            let b = BValueEstimators.mle(sample, mc: mc, width: width)
            let beta = b * log(10)
            // SeismoStats's grid: bins from Mc to where exceedance within all samples is below 1e-3.
            let top = 1 / b * log10(Double(sample.count) * Double(simulations) * 1e3) + mc
            let grid = SeismoStatsNumerics.arange(mc, top + 3.0 / 2.0 * width, width)
                .map { SeismoStatsNumerics.binned($0, width: width) }
            let centres = grid.dropLast()
            let theoretical = centres.map { 1 - exp(-beta * ($0 + width - mc)) }
            let observed = distance(histogram(sample, edges: grid.map { $0 - width / 2 }), theoretical)
            // A binned exponential from Mc − Δm/2 is geometric in bins, P(k) = (1 − q)qᵏ with
            // q = e^{−βΔm}, and memoryless: of the n draws, Bin(n, 1 − q) land in the first bin and
            // the rest are geometric again. So a synthetic histogram is one binomial per bin, whatever
            // n is (values beyond the grid are dropped, as numpy.histogram drops them).
            var simulated = [Double](repeating: 0, count: simulations)
            var counts = [Int](repeating: 0, count: centres.count)
            let first = -expm1(-beta * width)
            for run in 0..<simulations {
                var remaining = sample.count
                for index in counts.indices {
                    let count = binomial(remaining, first, &generator)
                    counts[index] = count
                    remaining -= count
                }
                simulated[run] = distance(counts, theoretical)
            }
            var atLeast = 0
            for value in simulated where value >= observed { atLeast += 1 }
            let p = Double(atLeast) / Double(simulations)
            search.tested.append(mc)
            search.bValues.append(b)
            search.statistics.append(p)
            search.distances.append(observed)
            search.simulatedDistances.append(simulated)
            if p >= pValue { return mc }
        }
        return nil
    }

    /// `estimate_mc_b_stability` (Cao & Gao 2002; Woessner & Wiemer 2005): the smallest
    /// Mc whose classic b differs from the mean b over [Mc, Mc + `range`) (default 0.5) by
    /// at most its Shi–Bolt σ. NumPy's arange and its floating steps decide the Mcs
    /// tried and averaged, exactly as in SeismoStats (whose mean divides by the count
    /// of arange(0, range, Δm) even when the inner arange has one more value). `nil`
    /// when none passes.
    ///
    /// - Throws: ``StatisticsError/estimatorFailed(_:)`` when the magnitudes span less than `range`.
    package static func bStability(_ magnitudes: [Double], width: Double, range: Double = 0.5,
                                   search: inout CompletenessSearch) throws(StatisticsError) -> Double? {
        guard let low = magnitudes.min(), let high = magnitudes.max() else { return nil }
        let steps = SeismoStatsNumerics.arange(0, range, width).count
        var candidates = SeismoStatsNumerics.arange(low, high, width).map { SeismoStatsNumerics.binned($0, width: width) }
        guard candidates.count > steps, steps > 1 else {
            throw .estimatorFailed("b-stability: the magnitudes (\(low)…\(high)) span less than the stability range \(range)")
        }
        candidates.removeLast(steps - 1)
        // Binned magnitudes take few values: each estimate is a sum over bins, not events.
        let bins = BinnedCounts(magnitudes, width: width)
        for mc in candidates {
            let (b, std) = bins.classic(mc: mc, width: width)
            var sum = 0.0
            for shifted in SeismoStatsNumerics.arange(mc, mc + range, width) where shifted <= high {
                sum += bins.classic(mc: shifted, width: width).b
            }
            let difference = abs(sum / Double(steps) - b) / std
            search.tested.append(mc)
            search.bValues.append(b)
            search.statistics.append(difference)
            if difference <= 1 { return SeismoStatsNumerics.binned(mc, width: width) }
        }
        return nil
    }

    /// Binned magnitudes as their distinct values (rising) with counts: every element of a bin is
    /// the same double, so sums over bins are the sums over events, regrouped.
    private struct BinnedCounts {
        var values: [Double] = []
        var counts: [Double] = []

        init(_ magnitudes: [Double], width: Double) {
            guard let low = magnitudes.min(), let high = magnitudes.max() else { return }
            let slots = Int(((high - low) / width).rounded()) + 1
            var counts = [Int](repeating: 0, count: slots)
            var values = [Double](repeating: .nan, count: slots)
            for magnitude in magnitudes {
                let slot = Int(((magnitude - low) / width).rounded())
                counts[slot] += 1
                values[slot] = magnitude
            }
            for slot in 0..<slots where counts[slot] > 0 {
                self.values.append(values[slot])
                self.counts.append(Double(counts[slot]))
            }
        }

        /// The classic b and its Shi–Bolt σ of the magnitudes ≥ `mc` − Δm/2.
        func classic(mc: Double, width: Double) -> (b: Double, std: Double) {
            let threshold = mc - width / 2
            var n = 0.0, sum = 0.0
            for (value, count) in zip(values, counts) where value >= threshold {
                n += count
                sum += count * value
            }
            let mean = sum / n
            let b = log(1 + width / (mean - mc)) / width / log(10)
            var squares = 0.0
            for (value, count) in zip(values, counts) where value >= threshold { squares += count * (value - mean) * (value - mean) }
            return (b, log(10) * b * b * (squares / n).squareRoot() / (n - 1).squareRoot())
        }
    }

    /// A draw from Bin(`n`, `p`) by inversion: from 0 when few successes or failures are
    /// expected, else outward from the mode (pmf by lgamma, neighbours by the ratio
    /// recurrence), so the work grows with √(npq), not n.
    package static func binomial(_ n: Int, _ p: Double, _ generator: inout Xoshiro256StarStar) -> Int {
        guard n > 0, p > 0 else { return 0 }
        guard p < 1 else { return n }
        // Count the rarer outcome.
        if p > 0.5 { return n - binomial(n, 1 - p, &generator) }
        let q = 1 - p, ratio = p / q
        var u = generator.unitInterval()
        if Double(n) * p < 30 {
            var k = 0
            var mass = pow(q, Double(n))
            while k < n {
                u -= mass
                if u <= 0 { return k }
                mass *= Double(n - k) / Double(k + 1) * ratio
                k += 1
            }
            return k
        }
        let mode = Int((Double(n + 1) * p).rounded(.down))
        let logMass = lgamma(Double(n + 1)) - lgamma(Double(mode + 1)) - lgamma(Double(n - mode + 1))
            + Double(mode) * log(p) + Double(n - mode) * log(q)
        var up = mode, down = mode
        var upMass = exp(logMass), downMass = upMass
        u -= upMass
        if u <= 0 { return mode }
        while up < n || down > 0 {
            if up < n {
                upMass *= Double(n - up) / Double(up + 1) * ratio
                up += 1
                u -= upMass
                if u <= 0 { return up }
            }
            if down > 0 {
                downMass *= Double(down) / Double(n - down + 1) / ratio
                down -= 1
                u -= downMass
                if u <= 0 { return down }
            }
            // What rounding leaves over (u below 1e-12 with both tails spent) falls to the mode.
            if upMass < 1e-300 && downMass < 1e-300 { break }
        }
        return mode
    }

    /// Counts per bin between `edges`, as numpy.histogram counts (the last edge included).
    private static func histogram(_ values: [Double], edges: [Double]) -> [Int] {
        var counts = [Int](repeating: 0, count: edges.count - 1)
        guard let first = edges.first, let last = edges.last else { return counts }
        for value in values where value >= first && value <= last {
            // Binned values sit mid-bin, so the index is their offset in bins.
            let index = min(counts.count - 1, Int(((value - first) / (edges[1] - first)).rounded(.down)))
            counts[index] += 1
        }
        return counts
    }

    /// max |cumulative share − theoretical CDF|, as SeismoStats's `ks_test_gr`.
    private static func distance(_ counts: [Int], _ theoretical: [Double]) -> Double {
        let total = Double(counts.reduce(0, +))
        var cumulative = 0
        var largest = 0.0
        for (count, expected) in zip(counts, theoretical) {
            cumulative += count
            largest = max(largest, abs(Double(cumulative) / total - expected))
        }
        return largest
    }
}
