import ArgumentParser
import QuakeKit

extension ImageFormat: ExpressibleByArgument {}

/// `--color magnitude|depth|age`.
package enum ColoringArgument: String, CaseIterable, ExpressibleByArgument {
    case magnitude, depth, age

    package var coloring: SymbolColoring {
        switch self {
        case .magnitude: return .magnitude
        case .depth: return .depth
        // "Now" is the feed's own time (or its latest event), so a rerun gives the same map.
        case .age: return .age(reference: nil)
        }
    }
}
