/// A data row that could not become an event, with the evidence.
public struct FeedRejection: Sendable, Hashable, QuakeKitError {
    /// The source's display name (a path, `<stdin>`…).
    public var source: String
    /// The physical line (1-based; the header is line 1) on which the row starts.
    public var line: Int
    /// The column the problem is in, by its header name; `nil` for a whole-row problem.
    public var column: String?
    /// The offending value as written, if any.
    public var value: String?
    /// Why the row was rejected, e.g. `is outside -90…90`.
    public var reason: String

    /// Creates a rejection.
    public init(source: String, line: Int, column: String?, value: String?, reason: String) {
        self.source = source
        self.line = line
        self.column = column
        self.value = value
        self.reason = reason
    }

    /// `FILE:LINE: column 'latitude': '95.2' is outside -90…90`.
    public var message: String {
        var text = "\(source):\(line): "
        if let column { text += "column '\(column)'" + (value == nil ? " " : ": ") }
        if let value { text += "'\(Self.shown(value))' " }
        return text + reason
    }

    /// Keeps messages one short line whatever the input holds.
    static func shown(_ value: String) -> String {
        var text = String(value.unicodeScalars.map { scalar -> Character in
            scalar.properties.generalCategory == .control ? "\u{FFFD}" : Character(scalar)
        })
        if text.count > 40 { text = text.prefix(40) + "…" }
        return text
    }
}
