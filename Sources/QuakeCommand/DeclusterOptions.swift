import ArgumentParser
import QuakeKit

/// A declustering method as the command line names it.
package enum DeclusterMethodName: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Gardner–Knopoff with the Gardner & Knopoff (1974) window.
    case gk
    /// Gardner–Knopoff with the Uhrhammer (1986) window.
    case gkUhrhammer = "gk-uhrhammer"
    /// Gardner–Knopoff with the Grünthal (1985) window.
    case gkGruenthal = "gk-gruenthal"
    /// Zaliapin & Ben-Zion (2013) nearest-neighbour clusters.
    case nearestNeighbour = "nearest-neighbour"

    package static let help = "gk, gk-uhrhammer, gk-gruenthal or nearest-neighbour"
}

/// The parameters of the declustering methods; shared by `decluster` and every command's `--decluster`.
package struct DeclusterParameters: ParsableArguments {
    @Option(help: ArgumentHelp("Gardner–Knopoff: the share of the time window searched before a mainshock for foreshocks (0…1).",
                               valueName: "fraction"))
    package var foreshockFraction = 1.0

    @Option(help: ArgumentHelp("Gardner–Knopoff: cap every time window at this many days (default: no cap).", valueName: "days"))
    package var timeCutoff: Double?

    @Option(name: .customLong("nn-b"), help: ArgumentHelp("Nearest neighbour: the b-value weighting magnitudes.", valueName: "b"))
    package var nearestNeighbourB = 1.0

    @Option(name: .customLong("nn-df"), help: ArgumentHelp("Nearest neighbour: the fractal dimension of epicentres.", valueName: "df"))
    package var nearestNeighbourDimension = 1.6

    @Option(name: .customLong("nn-threshold"), help: ArgumentHelp(
        "Nearest neighbour: log10 of the threshold η0 below which links are strong, or 'auto' for the valley of a two-Gaussian fit to log10 η.",
        valueName: "log10-η0|auto"))
    package var nearestNeighbourThreshold = "-5"

    package init() {}

    package func validate() throws {
        for name in DeclusterMethodName.allCases { _ = try method(name) }
    }

    /// The method `name` with these parameters.
    package func method(_ name: DeclusterMethodName) throws -> DeclusteringMethod {
        let method: DeclusteringMethod
        switch name {
        case .gk, .gkUhrhammer, .gkGruenthal:
            let window: GardnerKnopoffWindow = name == .gk ? .gardnerKnopoff : name == .gkUhrhammer ? .uhrhammer : .gruenthal
            method = .gardnerKnopoff(window: window, foreshockFraction: foreshockFraction, timeCutoffDays: timeCutoff)
        case .nearestNeighbour:
            let threshold: NearestNeighbourThreshold
            if nearestNeighbourThreshold == "auto" {
                threshold = .gaussianMixture
            } else if let value = Double(nearestNeighbourThreshold), value.isFinite {
                threshold = .fixed(value)
            } else {
                throw ValidationError("--nn-threshold must be a number (log10 η0) or 'auto', not '\(nearestNeighbourThreshold)'")
            }
            method = .nearestNeighbour(NearestNeighbourParameters(b: nearestNeighbourB, fractalDimension: nearestNeighbourDimension,
                                                                  threshold: threshold))
        }
        do {
            try method.validate()
        } catch {
            let option = switch error {
            case .invalidParameter(let parameter, _):
                ["foreshock fraction": "--foreshock-fraction", "time cutoff": "--time-cutoff", "b": "--nn-b",
                 "fractal dimension": "--nn-df", "threshold": "--nn-threshold"][parameter] ?? "--decluster"
            }
            throw ValidationError("\(option): \(error.message)")
        }
        return method
    }
}

/// `--decluster METHOD` on `stats`, `chart`, `report` and `render`: the selection's mainshocks only,
/// declustered on the fly from files and catalogues alike, before `--limit`.
package struct DeclusterOptions: ParsableArguments {
    @Option(name: .customLong("decluster"), help: ArgumentHelp(
        "Keep only mainshocks, declustered by \(DeclusterMethodName.help) over every matching event before --limit (docs/declustering.md).",
        valueName: "method"))
    package var method: DeclusterMethodName?

    @OptionGroup package var parameters: DeclusterParameters

    package init() {}

    /// What the loader does, `nil` without `--decluster`.
    package func declustering(mainshocksOnly: Bool = true) throws -> SelectionDeclustering? {
        try method.map { SelectionDeclustering(method: try parameters.method($0), mainshocksOnly: mainshocksOnly) }
    }
}
