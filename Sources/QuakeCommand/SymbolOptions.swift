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
        // Upper bounds keep a circle within a few tiles or a map's width: a
        // 1e22 scale would overflow pixel arithmetic, not draw a larger circle.
        guard symbolScale.isFinite, symbolScale > 0, symbolScale <= 100 else {
            throw ValidationError("--symbol-scale must be above 0 and at most 100")
        }
        guard minDiameter.isFinite, minDiameter >= 0, minDiameter <= 1000 else {
            throw ValidationError("--min-diameter must be 0…1000 pixels")
        }
    }

    /// The circle sizes these options give.
    package var style: MagnitudeStyle { MagnitudeStyle(symbolScale: symbolScale, minimumDiameter: minDiameter) }
}

/// `--tile-limit`: how full a tile may get; shared by `tiles` and the server.
package struct TileLimitOption: ParsableArguments {
    @Option(help: ArgumentHelp("At most this many events whose centre is in a tile, largest magnitudes kept; 0 keeps all.",
                               valueName: "n"))
    package var tileLimit = TileOptions.defaultTileLimit

    package init() {}

    package func validate() throws {
        guard tileLimit >= 0 else { throw ValidationError("--tile-limit must be 0 (no limit) or more") }
    }

    /// The limit, `nil` for none.
    package var limit: Int? { tileLimit == 0 ? nil : tileLimit }
}
