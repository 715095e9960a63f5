import ArgumentParser
import QuakeKit

/// How Mc and b are estimated; shared by `stats`, `chart` and `report`.
package struct MagnitudeStatisticsOptions: ParsableArguments {
    /// The ways of finding Mc, as `--mc-method` names them.
    package enum MCMethod: String, ExpressibleByArgument, CaseIterable {
        case maxc, ks
        case bStability = "b-stability"
    }

    @Option(help: ArgumentHelp("Magnitude bin width Δm for the frequency–magnitude statistics (0.001…1).", valueName: "Δm"))
    package var magBin = 0.1

    @Option(help: ArgumentHelp("Use this completeness magnitude instead of estimating it.", valueName: "Mc"))
    package var mc: Double?

    @Option(help: "How Mc is estimated: maxc (maximum curvature + --mc-correction), ks (Kolmogorov–Smirnov, Monte Carlo) or b-stability; --mc overrides.")
    package var mcMethod: MCMethod = .maxc

    @Option(help: ArgumentHelp("Added to the maximum-curvature Mc (Woessner & Wiemer 2005: +0.2).", valueName: "Δ"))
    package var mcCorrection = 0.2

    @Option(help: ArgumentHelp("--mc-method ks: the p-value an Mc must reach (SeismoStats: 0.1).", valueName: "p"))
    package var ksPValue = 0.1

    @Option(help: ArgumentHelp("--mc-method ks: synthetic catalogues per tested Mc (SeismoStats: 10000).", valueName: "N"))
    package var ksSimulations = 10_000

    @Option(help: ArgumentHelp("--mc-method b-stability: the magnitude range b must stay stable over (SeismoStats: 0.5).", valueName: "Δ"))
    package var stabilityRange = 0.5

    @Option(help: ArgumentHelp("Seed of the random draws (KS simulations, bootstrap): the same seed gives the same numbers.", valueName: "N"))
    package var seed: UInt64 = 0

    package init() {}

    package func validate() throws {
        _ = try binning()
        if let mc, !(mc.isFinite && abs(mc) <= 12) { throw ValidationError("--mc must be a magnitude, -12…12") }
        guard mcCorrection.isFinite, abs(mcCorrection) <= 2 else { throw ValidationError("--mc-correction must be -2…2") }
        guard ksPValue > 0, ksPValue < 1 else { throw ValidationError("--ks-p-value must be between 0 and 1") }
        guard (1...1_000_000).contains(ksSimulations) else { throw ValidationError("--ks-simulations must be 1…1000000") }
        guard stabilityRange.isFinite, stabilityRange > magBin, stabilityRange <= 5 else {
            throw ValidationError("--stability-range must be more than --mag-bin and at most 5")
        }
    }

    /// The binning `--mag-bin` asks for.
    package func binning() throws -> MagnitudeBinning {
        do {
            return try MagnitudeBinning(width: magBin)
        } catch {
            throw ValidationError("--mag-bin: \(error.message)")
        }
    }

    /// How Mc is found.
    package var completeness: CompletenessMethod {
        if let mc { return .fixed(mc) }
        switch mcMethod {
        case .maxc: return .maximumCurvature(correction: mcCorrection)
        case .ks: return .kolmogorovSmirnov(pValue: ksPValue, simulations: ksSimulations, seed: seed)
        case .bStability: return .bStability(range: stabilityRange)
        }
    }
}

/// Which b- and a-value estimators `stats` uses, and their uncertainty and significance.
package struct BValueOptions: ParsableArguments {
    @Option(help: "b-value estimator: utsu, classic, positive, more-positive, weichert or kijko-smit (the last two need --completeness).")
    package var bMethod: BValueMethod = .utsu

    @Option(help: ArgumentHelp("a-value estimator: classic, positive or more-positive (default: the one paired with --b-method).", valueName: "method"))
    package var aMethod: AValueMethod?

    @Option(help: ArgumentHelp("positive, more-positive: the smallest magnitude difference counted (default: --mag-bin).", valueName: "Δ"))
    package var dmc: Double?

    @Option(help: ArgumentHelp("weichert, kijko-smit: the year from which each Mc holds, e.g. 1970:5.0,1990:4.0,2005:3.0.", valueName: "year:Mc,…"))
    package var completeness: String?

    @Option(help: ArgumentHelp("Also estimate σ(b) from N bootstrap resamples (0: off).", valueName: "N"))
    package var bootstrap = 0

    @Option(help: ArgumentHelp("Test whether b varies in time (Mirwald et al. 2024) with windows of N events.", valueName: "N"))
    package var bSignificance: Int?

    @Option(help: ArgumentHelp("Give the a-value at this reference magnitude (default: Mc).", valueName: "M"))
    package var mRef: Double?

    @Option(help: ArgumentHelp("Divide the a-value's count by this (a span in years, an area), as SeismoStats's scaling_factor.", valueName: "s"))
    package var aScaling: Double?

    package init() {}

    package func validate() throws {
        if let dmc, !(dmc.isFinite && dmc >= 0 && dmc <= 5) { throw ValidationError("--dmc must be 0…5") }
        _ = try table()
        if bMethod.needsCompletenessTable, completeness == nil {
            throw ValidationError("--b-method \(bMethod.rawValue) needs --completeness year:Mc,… (e.g. 1970:5.0,1990:4.0)")
        }
        guard (0...100_000).contains(bootstrap) else { throw ValidationError("--bootstrap must be 0…100000") }
        if bootstrap == 1 { throw ValidationError("--bootstrap needs at least 2 resamples") }
        if let bSignificance, bSignificance < 2 { throw ValidationError("--b-significance: a window holds at least 2 events") }
        if let bSignificance, bMethod.needsCompletenessTable {
            throw ValidationError("--b-significance \(bSignificance) works with utsu, classic, positive or more-positive, not \(bMethod.rawValue)")
        }
        if let mRef, !(mRef.isFinite && abs(mRef) <= 12) { throw ValidationError("--m-ref must be a magnitude, -12…12") }
        if let aScaling, !(aScaling.isFinite && aScaling > 0) { throw ValidationError("--a-scaling must be positive") }
    }

    /// The completeness table `--completeness` gives.
    package func table() throws -> CompletenessTable? {
        guard let completeness else { return nil }
        do {
            return try CompletenessTable(parsing: completeness)
        } catch {
            throw ValidationError("--completeness: \(error.message)")
        }
    }

    /// The settings for ``MagnitudeEstimate``, with the seed the statistics options give.
    package func settings(seed: UInt64) throws -> EstimationSettings {
        var settings = EstimationSettings()
        settings.bMethod = bMethod
        settings.aMethod = aMethod
        settings.dmc = dmc
        settings.completenessTable = try table()
        settings.bootstrap = bootstrap
        settings.seed = seed
        settings.significanceWindow = bSignificance
        settings.mRef = mRef
        settings.aScaling = aScaling
        return settings
    }
}

extension BValueMethod: ExpressibleByArgument {}
extension AValueMethod: ExpressibleByArgument {}
