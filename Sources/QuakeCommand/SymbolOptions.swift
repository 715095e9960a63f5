import ArgumentParser
import QuakeKit

/// How events become circles; shared by `render`, `tiles` and the server.
package struct SymbolOptions: ParsableArguments {
    @Option(help: "Circle colour: magnitude (yellow→red), depth (shallow→deep) or age (recent→old).")
    package var color: ColoringArgument = .magnitude

    @Option(help: "Multiply every circle's diameter (0.75·m² px) by this factor.")
    package var symbolScale = 1.0

    @Option(help: "Smallest circle diameter in pixels; 0 gives the plain 0.75·m² formula.")
    package var minDiameter = 2.0

    package init() {}

    package func validate() throws {
        guard symbolScale.isFinite, symbolScale > 0 else {
            throw ValidationError("--symbol-scale must be a positive number")
        }
        guard minDiameter.isFinite, minDiameter >= 0 else {
            throw ValidationError("--min-diameter must be 0 or more")
        }
    }

    /// The circle sizes these options give.
    package var style: MagnitudeStyle { MagnitudeStyle(symbolScale: symbolScale, minimumDiameter: minDiameter) }
}
