// Query/ — cQL2 text filters (`--where`, the server's `filter=`): lexed, parsed, checked against the
// catalogue's columns and evaluated on an event.
import QuakeModel


/// A CQL2 expression that cannot be parsed or does not fit the catalogue,
/// with the column (1-based, in characters) where the problem is.
public struct CQLError: QuakeKitError, Equatable {
    /// Where in the expression, counted in characters from 1.
    package let column: Int
    /// What is wrong there.
    package let reason: String

    /// Creates an error.
    package init(column: Int, reason: String) {
        self.column = column
        self.reason = reason
    }

    /// `at column 14: expected a value after '>='`.
    public var message: String { "at column \(column): \(reason)" }
}
