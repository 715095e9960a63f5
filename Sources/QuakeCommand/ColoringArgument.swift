import ArgumentParser
import QuakeKit

extension ImageFormat: ExpressibleByArgument {}

/// `--color magnitude|depth|age|alert`.
package enum ColoringArgument: String, CaseIterable, ExpressibleByArgument {
    case magnitude, depth, age, alert

    package var coloring: SymbolColoring {
        SymbolColoring(named: rawValue)!  // the cases are the names it takes
    }
}
