import ArgumentParser
import QuakeKit

extension ImageFormat: ExpressibleByArgument {}

/// `--color magnitude|depth|age|alert`: the names the library reads (``SymbolColoring/init(named:)``).
extension SymbolColoring: ExpressibleByArgument {
    /// The colouring `argument` names; `nil` for any other word.
    public init?(argument: String) {
        self.init(named: argument)
    }

    /// The names, for `--help` and completions.
    public static var allValueStrings: [String] { names }

    /// The name, for `--help`'s default.
    public var defaultValueDescription: String { name }
}
