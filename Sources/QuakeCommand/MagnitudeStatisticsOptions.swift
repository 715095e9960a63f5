import ArgumentParser
import QuakeKit

/// How Mc and b are estimated; shared by `stats`, `chart` and `report`.
package struct MagnitudeStatisticsOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Magnitude bin width Δm for the frequency–magnitude statistics (0.001…1).", valueName: "Δm"))
    package var magBin = 0.1

    @Option(help: ArgumentHelp("Use this completeness magnitude instead of estimating it.", valueName: "Mc"))
    package var mc: Double?

    @Option(help: ArgumentHelp("Added to the maximum-curvature Mc (Woessner & Wiemer 2005: +0.2).", valueName: "Δ"))
    package var mcCorrection = 0.2

    package init() {}

    package func validate() throws {
        _ = try binning()
        if let mc, !(mc.isFinite && abs(mc) <= 12) { throw ValidationError("--mc must be a magnitude, -12…12") }
        guard mcCorrection.isFinite, abs(mcCorrection) <= 2 else { throw ValidationError("--mc-correction must be -2…2") }
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
        mc.map(CompletenessMethod.fixed) ?? .maximumCurvature(correction: mcCorrection)
    }
}
