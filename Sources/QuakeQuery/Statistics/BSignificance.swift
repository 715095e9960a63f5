import Foundation

/// SeismoStats's `b_significant_1D` (Mirwald et al. 2024): whether b varies along
/// a series of events more than chance allows. The series is cut into windows of
/// `window` events at each of the `window` offsets; b is estimated in every full
/// window; the lag-1 autocorrelation (Moran's I) of each offset's b series is
/// averaged into the MAC, which under a constant b is normal with mean −1/n̄ and
/// (conservative, γ = 1) σ = (n̄ₚ − 2)/(n̄ₚ√n̄ₚ).
package struct BSignificance: Sendable, Hashable {
    /// Events per window (SeismoStats's `n_m`).
    package var window: Int
    /// The mean autocorrelation.
    package var mac: Double
    /// Its expected value under a constant b.
    package var expectedMAC: Double
    /// Its standard deviation under a constant b.
    package var stdMAC: Double
    /// P(MAC this high | constant b).
    package var pValue: Double

    /// The test on `magnitudes` (binned, in series order) ≥ Mc − Δm/2, each window's b
    /// by `method` (Utsu, classic, positive or more-positive, with `dmc` for the
    /// latter), windows with fewer than `minimum` (default 2) values left out.
    ///
    /// - Throws: ``StatisticsError/tooFewForEstimator(method:found:required:what:)`` with fewer
    ///   than three windows; ``StatisticsError/estimatorFailed(_:)`` for a table estimator.
    package init(_ magnitudes: [Double], mc: Double, width: Double, window: Int, method: BValueMethod,
                 dmc: Double, minimum: Int = 2) throws(StatisticsError) {
        guard !method.needsCompletenessTable else {
            throw .estimatorFailed("b-significance: \(method.rawValue) needs a completeness table; use utsu, classic, positive or more-positive")
        }
        guard window >= minimum, window >= 1 else {
            throw .estimatorFailed("b-significance: the window (\(window)) must hold at least \(minimum) events")
        }
        let kept = BValueEstimators.complete(magnitudes, mc: mc, width: width)
        guard Double(kept.count) / Double(window) >= 3 else {
            throw .tooFewForEstimator(method: "b-significance", found: kept.count, required: 3 * window,
                                      what: "events at or above Mc \(mc) for three windows of \(window)")
        }
        // Utsu and classic read only a window's count and sum: prefix sums make each window O(1).
        var prefix: [Double] = []
        if method == .utsu || method == .classic {
            prefix.reserveCapacity(kept.count + 1)
            prefix.append(0)
            for magnitude in kept { prefix.append(prefix[prefix.count - 1] + magnitude) }
        }
        var correlations: [Double] = [], counts: [Double] = [], pairs: [Double] = []
        for offset in 0..<window {
            // cut_constant_idx, then drop a short first or last piece.
            var starts = Array(stride(from: offset, to: kept.count, by: window))
            if offset == 0 { starts.removeFirst() }
            let bounds = [0] + starts + [kept.count]
            var pieces = zip(bounds, bounds.dropFirst()).map { $0.0..<$0.1 }
            if let last = pieces.last, last.count < window { pieces.removeLast() }
            if let first = pieces.first, first.count < window { pieces.removeFirst() }
            let values: [Double] = pieces.map { piece in
                if !prefix.isEmpty {
                    guard piece.count >= max(minimum, 2) else { return .nan }
                    let excess = (prefix[piece.upperBound] - prefix[piece.lowerBound]) / Double(piece.count) - mc
                    let beta = method == .utsu ? 1 / (excess + width / 2) : log(1 + width / excess) / width
                    return beta > 0 && beta.isFinite ? beta / log(10) : .nan
                }
                let slice = Array(kept[piece])
                let result: BValueResult?
                switch method {
                case .utsu: result = try? BValueEstimators.utsu(slice, mc: mc, width: width)
                case .classic: result = try? BValueEstimators.classic(slice, mc: mc, width: width)
                case .positive: result = try? BValueEstimators.positive(slice, mc: mc, width: width, dmc: dmc)
                case .morePositive: result = try? BValueEstimators.morePositive(slice, mc: mc, width: width, dmc: dmc)
                case .weichert, .kijkoSmit: result = nil
                }
                guard let result, result.n >= minimum else { return .nan }
                return result.b
            }
            guard values.filter({ !$0.isNaN }).count >= 3 else {
                correlations.append(.nan); counts.append(.nan); pairs.append(.nan)
                continue
            }
            let (ac, n, np) = Self.moransI(values)
            correlations.append(ac); counts.append(n); pairs.append(np)
        }
        func nanMean(_ values: [Double]) -> Double {
            let valid = values.filter { !$0.isNaN }
            return valid.isEmpty ? .nan : valid.reduce(0, +) / Double(valid.count)
        }
        let meanPairs = nanMean(pairs)
        guard meanPairs > 2 else {
            throw .tooFewForEstimator(method: "b-significance", found: kept.count, required: 3 * window,
                                      what: "events: too few neighbouring windows with a b-value")
        }
        self.window = window
        mac = nanMean(correlations)
        expectedMAC = -1 / nanMean(counts)
        stdMAC = (meanPairs - 2) / (meanPairs * meanPairs.squareRoot())
        pValue = SeismoStatsNumerics.normalUpperTail((mac - expectedMAC) / stdMAC)
    }

    /// `est_morans_i` for a 1-D series: (n − 1)/nₚ · Σ dᵢdᵢ₊₁ / Σ dᵢ², over the
    /// non-NaN values (n of them, nₚ neighbouring pairs), d the deviations from their mean.
    package static func moransI(_ values: [Double]) -> (ac: Double, n: Double, pairs: Double) {
        let valid = values.filter { !$0.isNaN }
        let mean = valid.reduce(0, +) / Double(valid.count)
        let deviations = values.map { $0.isNaN ? 0 : $0 - mean }
        var products = 0.0, squares = 0.0, pairs = 0
        for index in deviations.indices {
            squares += deviations[index] * deviations[index]
            if index + 1 < values.count, !values[index].isNaN, !values[index + 1].isNaN {
                products += deviations[index] * deviations[index + 1]
                pairs += 1
            }
        }
        let n = Double(valid.count)
        return ((n - 1) / Double(pairs) * products / squares, n, Double(pairs))
    }
}
