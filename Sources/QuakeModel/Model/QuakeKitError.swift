/// What every QuakeKit error offers: a one-line message that says what went
/// wrong and where, ready to print.
public protocol QuakeKitError: Error, CustomStringConvertible, Sendable {
    /// The message, e.g. `all_day.csv:17: column 'mag': 'abc' is not a number`.
    var message: String { get }
}

extension QuakeKitError {
    /// The same as ``message``.
    public var description: String { message }
}
