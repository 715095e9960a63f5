import QuakeModel

/// A CQL2 text filter (`--where`), parsed and type-checked against the event
/// properties `mag`, `depth`, `time`, `type`, `magType`, `net`, `status`,
/// `place`, `id`, `latitude`, `longitude` and `geometry`.
///
/// ```swift
/// let strong = try CQLFilter("mag >= 5 AND S_INTERSECTS(geometry, BBOX(120,-60,-60,60))")
/// strong.matches(event)
/// ```
public struct CQLFilter: Sendable, Hashable {
    /// The text as given.
    public let text: String
    /// The parsed expression.
    package let expression: CQLExpression

    /// Parses `text`.
    ///
    /// - Throws: ``CQLError`` with the column of the problem.
    public init(_ text: String) throws {
        self.text = text
        self.expression = try CQLParser.parse(text)
    }

    /// Wraps an expression built in code.
    package init(expression: CQLExpression) {
        self.text = ""
        self.expression = expression
    }

    /// Whether the filter is true for `event` (unknown counts as no).
    package func matches(_ event: SeismicEvent) -> Bool {
        CQLEvaluator.evaluate(expression, event) == true
    }
}
