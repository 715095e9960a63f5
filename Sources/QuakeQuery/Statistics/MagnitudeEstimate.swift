import Foundation

/// How ``MagnitudeEstimate`` estimates, with SeismoStats's defaults.
package struct EstimationSettings: Sendable, Hashable {
    /// The b-value estimator; Utsu unless chosen.
    package var bMethod: BValueMethod = .utsu
    /// The a-value estimator; `nil` pairs it with the b estimator (positive with
    /// positive, more-positive with more-positive, classic otherwise).
    package var aMethod: AValueMethod?
    /// The positive estimators' minimum difference; `nil` is Δm, SeismoStats's default.
    package var dmc: Double?
    /// Which Mc holds from when, for Weichert and Kijko–Smit.
    package var completenessTable: CompletenessTable?
    /// Bootstrap resamples for σ(b); 0 (the default) for none. b-more-positive's own σ
    /// is a bootstrap of 500 (as SeismoStats's) unless this is set.
    package var bootstrap = 0
    /// The seed of every random draw (``Xoshiro256StarStar``): the same seed, the same numbers.
    package var seed: UInt64 = 0
    /// Events per window for ``BSignificance``; `nil` for no test.
    package var significanceWindow: Int?
    /// The reference magnitude of the a-value; `nil` (SeismoStats's default) is Mc.
    package var mRef: Double?
    /// The a-value's scaling factor (a span of time or an area); `nil` for none.
    package var aScaling: Double?

    /// The defaults.
    package init() {}

    /// The resamples b-more-positive's σ takes when `bootstrap` is not set (SeismoStats's `_std_bootstrap`).
    package static let morePositiveResamples = 500
}

/// b, its σ, a and the b-significance of a set of magnitudes by SeismoStats's
/// estimators (``BValueEstimators``, ``AValueEstimators``, ``BSignificance``).
package struct MagnitudeEstimate: Sendable, Hashable {
    /// What was asked.
    package var settings: EstimationSettings
    /// The completeness magnitude used.
    package var mc: Double
    /// The bin width Δm.
    package var width: Double
    /// The positive estimators' dmc.
    package var dmc: Double
    /// The b-value.
    package var b: Double
    /// Its standard error, as SeismoStats reports it for the estimator (see `stdMethod`).
    package var std: Double
    /// How `std` was found: `shi-bolt`, `bootstrap`, `weichert` or `kijko-smit`.
    package var stdMethod: String
    /// Values b rests on (events, or differences for the positive estimators).
    package var n: Int
    /// The a-value, or why there is none.
    package var a: Result<Double, StatisticsError>
    /// The a-value's estimator (`weichert` and `kijko-smit` give their own).
    package var aMethod: String
    /// The standard deviation of b over `settings.bootstrap` resamples, when asked for.
    package var bootstrapStd: Double?
    /// The b-significance test, when asked for.
    package var significance: Result<BSignificance, StatisticsError>?

    /// Estimates from `magnitudes` (binned by `width` here; NaN left out) and their
    /// `times` (seconds since 2001, any order: the positive estimators and the test
    /// sort them, stably), with completeness `mc`.
    ///
    /// - Throws: ``StatisticsError`` when the estimator has too few values or no answer.
    package init(magnitudes: [Double], times: [Double], mc: Double, width: Double,
                 settings: EstimationSettings = EstimationSettings()) throws(StatisticsError) {
        var order = magnitudes.indices.filter { magnitudes[$0].isFinite }
        order.sort { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
        let binned = SeismoStatsNumerics.binned(order.map { magnitudes[$0] }, width: width)
        let orderedTimes = order.map { times[$0] }
        self.settings = settings
        self.mc = mc
        self.width = width
        dmc = settings.dmc ?? width
        let method = settings.bMethod
        let years = method.needsCompletenessTable
            ? orderedTimes.map { SeismoStatsNumerics.year(secondsSinceReferenceDate: $0) } : []
        let table = settings.completenessTable
        if method.needsCompletenessTable, table == nil {
            throw .invalidCompletenessTable("\(method.rawValue) needs one (--completeness year:Mc,…)")
        }
        let dmc = self.dmc
        // One estimate, on whichever sample the bootstrap hands it.
        func estimate(_ sample: [Double], _ sampleYears: [Int]) throws(StatisticsError) -> BValueResult {
            switch method {
            case .utsu: try BValueEstimators.utsu(sample, mc: mc, width: width)
            case .classic: try BValueEstimators.classic(sample, mc: mc, width: width)
            case .positive: try BValueEstimators.positive(sample, mc: mc, width: width, dmc: dmc)
            case .morePositive: try BValueEstimators.morePositive(sample, mc: mc, width: width, dmc: dmc)
            case .weichert: try BValueEstimators.weichert(sample, years: sampleYears, table: table!, width: width)
            case .kijkoSmit: try BValueEstimators.kijkoSmit(sample, years: sampleYears, table: table!, width: width)
            }
        }
        let result = try estimate(binned, years)
        b = result.b
        n = result.n
        // The bootstrap resamples what the estimator reads: events ≥ Mc (kept in time
        // order), or every event with its year for the table estimators.
        let pool = method.needsCompletenessTable ? binned : BValueEstimators.complete(binned, mc: mc, width: width)
        let poolYears = years
        func bootstrap(_ resamples: Int) -> Double? {
            Bootstrap.standardDeviation(count: pool.count, resamples: resamples, seed: settings.seed) { picks in
                var sample: [Double] = [], sampleYears: [Int] = []
                sample.reserveCapacity(pool.count)
                for (index, copies) in picks.enumerated() where copies > 0 {
                    for _ in 0..<copies {
                        sample.append(pool[index])
                        if !poolYears.isEmpty { sampleYears.append(poolYears[index]) }
                    }
                }
                return try? estimate(sample, sampleYears).b
            }
        }
        bootstrapStd = settings.bootstrap > 0 ? bootstrap(settings.bootstrap) : nil
        switch method {
        case .utsu, .classic, .positive:
            std = result.std
            stdMethod = "shi-bolt"
        case .morePositive:
            let resamples = settings.bootstrap > 0 ? settings.bootstrap : EstimationSettings.morePositiveResamples
            std = (settings.bootstrap > 0 ? bootstrapStd : bootstrap(resamples)) ?? .nan
            stdMethod = "bootstrap"
        case .weichert, .kijkoSmit:
            std = result.std
            stdMethod = method.rawValue
        }
        if let own = result.a {
            var a = own
            if let scaling = settings.aScaling { a -= log10(scaling) }
            self.a = .success(a)
            aMethod = method.rawValue
        } else {
            let aMethod = settings.aMethod ?? AValueMethod(pairedWith: method)
            let b = result.b
            self.a = Result { () throws(StatisticsError) in
                try AValueEstimators.estimate(aMethod, timeOrdered: binned, times: orderedTimes, mc: mc, width: width,
                                              dmc: dmc, b: b, mRef: settings.mRef, scaling: settings.aScaling)
            }
            self.aMethod = aMethod.rawValue
        }
        significance = settings.significanceWindow.map { window in
            Result { () throws(StatisticsError) in
                try BSignificance(binned, mc: mc, width: width, window: window, method: method, dmc: dmc)
            }
        }
    }
}

/// The bootstrap of SeismoStats's `bootstrap_std`: `resamples` draws of `count`
/// indices with replacement (``Xoshiro256StarStar`` seeded by `seed`, uniform by
/// Lemire's method), the statistic of each, and the standard deviation (divisor
/// n − 1) of the finite ones. A draw is handed over as how many times each index was
/// picked, so a time-ordered sample stays in time order (SeismoStats sorts the
/// drawn indices for the same reason).
package enum Bootstrap {
    /// σ of `statistic` over the resamples; `nil` with fewer than two finite values.
    package static func standardDeviation(count: Int, resamples: Int, seed: UInt64,
                                          statistic: ([Int]) -> Double?) -> Double? {
        guard count > 0, resamples > 1 else { return nil }
        var generator = Xoshiro256StarStar(seed: seed)
        var picks = [Int](repeating: 0, count: count)
        var values: [Double] = []
        values.reserveCapacity(resamples)
        for _ in 0..<resamples {
            for index in picks.indices { picks[index] = 0 }
            for _ in 0..<count { picks[generator.index(below: count)] += 1 }
            if let value = statistic(picks), value.isFinite { values.append(value) }
        }
        guard values.count > 1 else { return nil }
        let mean = values.reduce(0, +) / Double(values.count)
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (squares / Double(values.count - 1)).squareRoot()
    }
}
