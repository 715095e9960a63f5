import ArgumentParser
import QuakeKit

/// How events become circles; shared by `render`, `tiles` and the server.
package struct SymbolOptions: ParsableArguments {
    @Option(help: "Circle colour: magnitude (yellow→red), depth (shallow→deep), age (recent→old) or alert (PAGER level).")
    package var color: SymbolColoring = .magnitude

    @Option(help: "Multiply every circle's diameter (0.75·m² px) by this factor.")
    package var symbolScale = 1.0

    @Option(help: "Smallest circle diameter in pixels; 0 gives the plain 0.75·m² formula.")
    package var minDiameter = 2.0

    package init() {}

    /// The library's check (``MagnitudeStyle/validate()``), with the option's name.
    package func validate() throws {
        do {
            try style.validate()
        } catch {
            // By the case, not by value: a NaN in it equals nothing.
            guard case .minimumDiameterOutOfRange = error else { throw ValidationError("--symbol-scale: \(error.message)") }
            throw ValidationError("--min-diameter: \(error.message)")
        }
    }

    /// The circle sizes these options give.
    package var style: MagnitudeStyle { MagnitudeStyle(symbolScale: symbolScale, minimumDiameter: minDiameter) }
}

/// `--tile-limit`: how full a tile may get; shared by `tiles` and the server.
package struct TileLimitOption: ParsableArguments {
    @Option(help: ArgumentHelp("At most this many events whose centre is in a PNG tile, largest magnitudes kept; in a vector tile, at most this many features before nearby events become clusters (none left out). 0: no limit.",
                               valueName: "n"))
    package var tileLimit = TileOptions.defaultTileLimit

    package init() {}

    package func validate() throws {
        guard tileLimit >= 0 else { throw ValidationError("--tile-limit must be 0 (no limit) or more") }
    }

    /// The limit, `nil` for none.
    package var limit: Int? { tileLimit == 0 ? nil : tileLimit }
}

/// `--symbol beachball`: events with a focal mechanism drawn as beachballs.
package struct MechanismOptions: ParsableArguments {
    @Option(help: ArgumentHelp("How events are drawn: 'beachball' draws each event with a focal mechanism as a lower-hemisphere, equal-area beachball (the others keep their circle).",
                               valueName: "circle|beachball"))
    package var symbol: EventSymbol = .circle

    @Option(help: ArgumentHelp("What a beachball shows: 'dc' the double couple (of the nodal planes, else the tensor's best), 'full' the whole moment tensor, its isotropic and CLVD parts too.",
                               valueName: "dc|full"))
    package var mechanism: MechanismDrawing = .doubleCouple

    @Option(help: "Multiply every beachball's diameter (its circle's) by this factor.")
    package var beachballScale = 1.0

    package init() {}

    /// The library's check (``MapOptions/validate()``), with the option's name.
    package func validate() throws {
        var options = MapOptions()
        options.symbols.beachballs = BeachballStyle(drawing: mechanism, scale: beachballScale)
        do {
            try options.validate()
        } catch {
            throw ValidationError("--beachball-scale: \(error.message)")
        }
    }

    /// The beachballs asked for, `nil` for circles only.
    package var style: BeachballStyle? {
        guard symbol == .beachball else { return nil }
        return BeachballStyle(drawing: mechanism, scale: beachballScale)
    }
}

extension EventSymbol: ExpressibleByArgument {}
extension MechanismDrawing: ExpressibleByArgument {}
