import Foundation
import QuakeModel

/// How the completeness magnitude Mc is found.
public enum CompletenessMethod: Sendable, Hashable {
    /// Maximum curvature (Wiemer & Wyss 2000): the centre of the most
    /// populated bin of the non-cumulative FMD, plus `correction`, which
    /// makes up for the method's known underestimate; Woessner & Wiemer (2005)
    /// found +0.2 right for most catalogues, and it is the default.
    case maximumCurvature(correction: Double)
    /// A completeness magnitude the caller knows (from a network's own study, say).
    case fixed(Double)
    /// SeismoStats's `estimate_mc_ks`: the smallest Mc whose magnitudes pass a
    /// Kolmogorov–Smirnov test against a Gutenberg–Richter law (p ≥ `pValue`, SeismoStats's
    /// default 0.1, from `simulations` synthetic catalogues, its default 10,000, drawn with
    /// `seed`).
    case kolmogorovSmirnov(pValue: Double, simulations: Int, seed: UInt64)
    /// SeismoStats's `estimate_mc_b_stability`: the smallest Mc whose b stays within
    /// its σ over the next `range` magnitude units (SeismoStats's default 0.5).
    case bStability(range: Double)

    /// Maximum curvature with the +0.2 correction.
    public static let standard = CompletenessMethod.maximumCurvature(correction: 0.2)

    /// How it is written in reports: `maximum curvature + 0.2`, or `fixed`.
    package var name: String {
        switch self {
        case .maximumCurvature(let correction):
            return correction == 0 ? "maximum curvature"
                : "maximum curvature " + (correction < 0 ? "− " : "+ ") + String(format: "%g", abs(correction))
        case .fixed: return "fixed"
        case let .kolmogorovSmirnov(pValue, simulations, _):
            return "Kolmogorov–Smirnov, p ≥ " + String(format: "%g", pValue) + ", \(simulations) simulations"
        case .bStability(let range): return "b-stability over " + String(format: "%g", range)
        }
    }
}

/// The Gutenberg–Richter law fitted above the completeness magnitude:
/// log₁₀ N(≥ M) = a − b·M.
///
/// - Mc: ``CompletenessMethod`` on the binned magnitudes.
/// - b: the Aki (1965) – Utsu (1965) maximum-likelihood estimator with the
///   half-bin correction for binned magnitudes,
///   b = log₁₀ e / (M̄ − (Mc − Δm/2)), over the binned magnitudes of bins ≥ Mc.
/// - σ(b): Shi & Bolt (1982), 2.30 · b² · √(Σ(Mᵢ − M̄)² / (n(n − 1))).
/// - a: log₁₀ n + b·Mc, so the line passes through the cumulative count of the
///   Mc bin at its centre, as the cumulative FMD is drawn.
///
/// These are the definitions of SeismoStats's `estimate_mc_maxc`,
/// `UtsuBValueEstimator` and `shi_bolt_confidence`, which the tests compare with.
public struct GutenbergRichterFit: Sendable, Hashable {
    /// How magnitudes were binned.
    package var binning: MagnitudeBinning
    /// How Mc was found.
    package var method: CompletenessMethod
    /// The completeness magnitude Mc, a bin centre.
    public var completeness: Double
    /// Events in the bins at and above Mc: the ones b is estimated from.
    public var countAboveCompleteness: Int
    /// The b-value.
    public var b: Double
    /// Its standard error by Shi & Bolt (1982).
    public var bUncertainty: Double
    /// The a-value of log₁₀ N(≥ M) = a − b·M.
    public var a: Double
    /// What the Kolmogorov–Smirnov and b-stability searches tried; `nil` for the others.
    package var search: CompletenessSearch?

    /// The fewest events above Mc a fit is made from: below about 50 the
    /// b-value's error passes ±0.15 and Mc by maximum curvature is a guess
    /// (Woessner & Wiemer 2005 and Mignan & Woessner 2012 use 50 as the floor).
    public static let minimumEvents = 50

    /// Fits `magnitudes` (NaN and infinities are left out).
    ///
    /// With an `estimator` other than Aki–Utsu, b and σ(b) are that estimator's (SeismoStats's
    /// definitions, `quakemap stats --b-method`) above the Mc `method` finds, and a puts the line
    /// through the Mc bin's count with that b. The positive estimators read the magnitudes in the
    /// order of `times` (one a magnitude; `nil`: in the order given). Weichert and Kijko–Smit take
    /// a completeness table, which `quakemap stats --completeness` gives; here they throw.
    ///
    /// - Throws: ``StatisticsError/notEnoughEvents(aboveCompleteness:required:completeness:)``
    ///   with fewer than `minimumEvents` above Mc, or when every one sits in the Mc bin
    ///   (no spread to estimate b from); the estimator's own errors.
    public init(magnitudes: some Sequence<Double>, binning: MagnitudeBinning = .tenth,
                method: CompletenessMethod = .standard, minimumEvents: Int = Self.minimumEvents,
                estimator: BValueMethod = .utsu, times: [Date]? = nil) throws(StatisticsError) {
        var settings = EstimationSettings()
        settings.bMethod = estimator
        let given = Array(magnitudes)
        try self.init(magnitudes: given, times: times?.map(\.timeIntervalSinceReferenceDate) ?? given.indices.map(Double.init),
                      binning: binning, method: method, minimumEvents: minimumEvents, settings: settings)
    }

    /// Fits `magnitudes` at `times` (seconds since 2001, one a magnitude), b by the estimator
    /// `settings` choose (with its completeness table, dmc…): the one rule of the public
    /// initializer and of each node of a ``BValueGrid``.
    package init(magnitudes: [Double], times: [Double], binning: MagnitudeBinning, method: CompletenessMethod,
                 minimumEvents: Int, settings: EstimationSettings) throws(StatisticsError) {
        let binned = magnitudes.lazy.filter(\.isFinite).map(binning.binned)
        try self.init(distribution: FrequencyMagnitudeDistribution(magnitudes: binned, binning: binning),
                      binnedMagnitudes: Array(binned), method: method, minimumEvents: minimumEvents)
        guard settings.bMethod != .utsu else { return }
        guard times.count == magnitudes.count else {
            throw .estimatorFailed("\(magnitudes.count) magnitudes but \(times.count) times: give one time a magnitude")
        }
        let estimate = try MagnitudeEstimate(magnitudes: magnitudes, times: times, mc: completeness, width: binning.width,
                                             settings: settings)
        b = estimate.b
        bUncertainty = estimate.std
        a = log10(Double(countAboveCompleteness)) + b * completeness
    }

    private init(distribution: FrequencyMagnitudeDistribution, binnedMagnitudes: [Double],
                 method: CompletenessMethod, minimumEvents: Int) throws(StatisticsError) {
        let binning = distribution.binning
        let completeness: Double
        var search: CompletenessSearch?
        switch method {
        case .fixed(let value):
            completeness = binning.binned(value)
        case .maximumCurvature(let correction):
            guard let peak = distribution.mostPopulatedBin else {
                throw .notEnoughEvents(aboveCompleteness: 0, required: minimumEvents, completeness: nil)
            }
            completeness = binning.binned(peak + correction)
        case let .kolmogorovSmirnov(pValue, simulations, seed):
            var tried = CompletenessSearch()
            let found = CompletenessEstimators.kolmogorovSmirnov(binnedMagnitudes, width: binning.width, pValue: pValue,
                                                                 simulations: simulations, seed: seed, search: &tried)
            guard let found else {
                throw .estimatorFailed("no Mc passes the Kolmogorov–Smirnov test (p ≥ " + String(format: "%g", pValue)
                                       + ") among \(tried.tested.count) tried")
            }
            completeness = binning.binned(found)
            search = tried
        case .bStability(let range):
            var tried = CompletenessSearch()
            guard let found = try CompletenessEstimators.bStability(binnedMagnitudes, width: binning.width, range: range,
                                                                    search: &tried) else {
                throw .estimatorFailed("no Mc passes the b-stability test among \(tried.tested.count) tried")
            }
            completeness = binning.binned(found)
            search = tried
        }
        // Binned magnitudes at or above Mc's bin; half a bin of slack keeps 1.2 when Mc is 1.2000000000000002.
        let threshold = completeness - binning.width / 2
        var count = 0
        var sum = 0.0
        for magnitude in binnedMagnitudes where magnitude >= threshold {
            count += 1
            sum += magnitude
        }
        guard count >= max(minimumEvents, 2) else {
            throw .notEnoughEvents(aboveCompleteness: count, required: max(minimumEvents, 2), completeness: completeness)
        }
        let mean = sum / Double(count)
        var squares = 0.0
        for magnitude in binnedMagnitudes where magnitude >= threshold { squares += (magnitude - mean) * (magnitude - mean) }
        guard squares > 0 else {
            throw .notEnoughEvents(aboveCompleteness: count, required: max(minimumEvents, 2), completeness: completeness)
        }
        let b = log10(M_E) / (mean - threshold)
        self.binning = binning
        self.method = method
        self.completeness = completeness
        self.countAboveCompleteness = count
        self.b = b
        self.bUncertainty = log(10) * b * b * (squares / Double(count * (count - 1))).squareRoot()
        self.a = log10(Double(count)) + b * completeness
        self.search = search
    }

    /// The number of events of magnitude ≥ `magnitude` the fitted law predicts.
    package func expectedCount(atOrAbove magnitude: Double) -> Double {
        pow(10, a - b * magnitude)
    }
}

/// Why statistics could not be computed.
public enum StatisticsError: QuakeKitError, Hashable {
    /// A magnitude bin width outside 0.001…1.
    case invalidBinWidth(Double)
    /// Too few events above the completeness magnitude for a fit (`completeness`
    /// is `nil` when there were no magnitudes at all).
    case notEnoughEvents(aboveCompleteness: Int, required: Int, completeness: Double?)
    /// A profile whose ends are the same point, or opposite points of the Earth.
    case invalidProfile(String)
    /// A b-value grid's options out of range (the reason says which).
    case invalidGrid(String)
    /// Too few values for an estimator: `what` says of what (events above Mc, positive differences…).
    case tooFewForEstimator(method: String, found: Int, required: Int, what: String)
    /// An estimator that has no answer for these data, and why.
    case estimatorFailed(String)
    /// A completeness table (`--completeness year:Mc,…`) that cannot be used, and why.
    case invalidCompletenessTable(String)

    /// The message.
    public var message: String {
        switch self {
        case .invalidBinWidth(let width):
            return "magnitude bin width \(width) is outside 0.001…1"
        case let .notEnoughEvents(found, required, completeness?):
            return "not enough events for Mc and b: \(found) at or above Mc \(completeness), \(required) needed"
        case let .notEnoughEvents(_, required, nil):
            return "not enough events for Mc and b: no magnitudes, \(required) needed"
        case .invalidProfile(let reason):
            return "invalid profile: \(reason)"
        case .invalidGrid(let reason):
            return "invalid b-value grid: \(reason)"
        case let .tooFewForEstimator(method, found, required, what):
            return "not enough data for \(method): \(found) \(what), \(required) needed"
        case .estimatorFailed(let reason):
            return reason
        case .invalidCompletenessTable(let reason):
            return "completeness table: \(reason)"
        }
    }
}
