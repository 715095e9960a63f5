import Foundation
import QuakeModel
import QuakeParse

/// A recursive-descent parser for the CQL2 text encoding (OGC 21-065):
/// basic CQL2, advanced comparison (LIKE, BETWEEN, IN, CASEI, ACCENTI),
/// arithmetic, and basic spatial predicates on the event's point
/// (`geometry`) against `BBOX(…)` and `POINT(…)`.
///
/// Types are checked while parsing, so a filter that cannot fit the catalogue
/// (an unknown property, a number compared with a string) is an error with a
/// column, never a filter that is silently false.
package struct CQLParser {
    private let tokens: [CQLToken]
    private var position = 0
    private var depth = 0
    package static let maximumDepth = 64

    package init(_ text: String) throws {
        tokens = try CQLLexer.tokens(text)
    }

    package static func parse(_ text: String) throws -> CQLExpression {
        var parser = try CQLParser(text)
        let expression = try parser.booleanExpression()
        guard case .end = parser.current.kind else {
            throw CQLError(column: parser.current.column, reason: "unexpected \(parser.current.shown) after a complete expression")
        }
        return expression
    }

    // MARK: Tokens

    private var current: CQLToken { tokens[position] }
    private var previous: CQLToken { tokens[max(0, position - 1)] }

    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private func isKeyword(_ word: String, _ token: CQLToken? = nil) -> Bool {
        if case .identifier(let name) = (token ?? current).kind { return name.uppercased() == word }
        return false
    }

    private mutating func takeKeyword(_ word: String) -> Bool {
        guard isKeyword(word) else { return false }
        advance()
        return true
    }

    private mutating func takeSymbol(_ symbol: String) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        advance()
        return true
    }

    private mutating func expectSymbol(_ symbol: String, _ context: String) throws {
        guard takeSymbol(symbol) else {
            throw CQLError(column: current.column, reason: "expected '\(symbol)' \(context), found \(current.shown)")
        }
    }

    private mutating func nested<T>(_ body: (inout CQLParser) throws -> T) throws -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw CQLError(column: current.column, reason: "nested more than \(Self.maximumDepth) levels deep")
        }
        return try body(&self)
    }

    // MARK: Boolean structure

    private mutating func booleanExpression() throws -> CQLExpression {
        try nested { parser in
            var expression = try parser.booleanTerm()
            while parser.takeKeyword("OR") { expression = .or(expression, try parser.booleanTerm()) }
            return expression
        }
    }

    private mutating func booleanTerm() throws -> CQLExpression {
        var expression = try booleanFactor()
        while takeKeyword("AND") { expression = .and(expression, try booleanFactor()) }
        return expression
    }

    private mutating func booleanFactor() throws -> CQLExpression {
        if takeKeyword("NOT") { return .not(try nested { try $0.booleanFactor() }) }
        return try booleanPrimary()
    }

    private mutating func booleanPrimary() throws -> CQLExpression {
        if case .end = current.kind {
            throw CQLError(column: current.column, reason: previous.column == current.column || position == 0
                ? "the expression is empty" : "expected a predicate after \(previous.shown)")
        }
        if current.kind == .symbol("(") {
            // A parenthesis opens either a boolean group or an arithmetic operand.
            // Try the group first; if both readings fail, report the one that got further.
            let start = position
            advance()
            var groupError: CQLError?
            do {
                let group = try booleanExpression()
                if takeSymbol(")"), !isComparisonAhead { return group }
                if position > start { groupError = CQLError(column: current.column, reason: "expected ')' to close the group, found \(current.shown)") }
            } catch let error as CQLError {
                groupError = error
            }
            position = start
            do {
                return try predicate()
            } catch let error as CQLError {
                if let groupError, groupError.column >= error.column { throw groupError }
                throw error
            }
        }
        for spatial in [CQLSpatialOperator.intersects, .within, .disjoint] where isKeyword(spatial.rawValue) {
            return try spatialPredicate(spatial)
        }
        if (isKeyword("TRUE") || isKeyword("FALSE")), !isComparisonAhead(offset: 1) {
            let value = isKeyword("TRUE")
            advance()
            return .constant(value)
        }
        return try predicate()
    }

    private var isComparisonAhead: Bool { isComparisonAhead(offset: 0) }

    private func isComparisonAhead(offset: Int) -> Bool {
        let token = tokens[min(tokens.count - 1, position + offset)]
        if case .symbol(let symbol) = token.kind { return ["=", "<>", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"].contains(symbol) }
        return ["LIKE", "BETWEEN", "IN", "IS", "NOT"].contains { isKeyword($0, token) }
    }

    // MARK: Predicates

    private mutating func predicate() throws -> CQLExpression {
        let (left, leftType, leftColumn) = try scalar()
        if case .symbol(let symbol) = current.kind, ["=", "<>", "<", "<=", ">", ">="].contains(symbol) {
            advance()
            let (right, rightType, rightColumn) = try scalar(after: symbol)
            try Self.checkComparable(leftType, rightType, left: left, at: rightColumn, leftColumn: leftColumn)
            if leftType == .boolean && !["=", "<>"].contains(symbol) {
                throw CQLError(column: leftColumn, reason: "booleans compare only with = and <>")
            }
            if leftType == .timestamp, rightType == .date, case .timestamp(let day) = right {
                return Self.comparison(left, symbol, day: day)
            }
            if leftType == .date, rightType == .timestamp, case .timestamp(let day) = left {
                let mirrored = ["<": ">", "<=": ">=", ">": "<", ">=": "<="][symbol] ?? symbol
                return Self.comparison(right, mirrored, day: day)
            }
            return .comparison(symbol, left, right)
        }
        let negated = takeKeyword("NOT")
        if takeKeyword("LIKE") {
            let (pattern, patternType, patternColumn) = try scalar(after: "LIKE")
            guard leftType == .string else { throw CQLError(column: leftColumn, reason: "LIKE needs a string, not \(leftType.described)") }
            guard patternType == .string else { throw CQLError(column: patternColumn, reason: "a LIKE pattern must be a string") }
            return .like(left, pattern: pattern, negated: negated)
        }
        if takeKeyword("BETWEEN") {
            let (low, lowType, lowColumn) = try scalar(after: "BETWEEN")
            guard takeKeyword("AND") else {
                throw CQLError(column: current.column, reason: "expected AND in BETWEEN, found \(current.shown)")
            }
            let (high, highType, highColumn) = try scalar(after: "AND")
            try Self.checkComparable(leftType, lowType, left: left, at: lowColumn, leftColumn: leftColumn)
            try Self.checkComparable(leftType, highType, left: left, at: highColumn, leftColumn: leftColumn)
            // A time between two dates: from the first day's start through the last day's end.
            if leftType == .timestamp, case .timestamp(let lowDay) = low, case .timestamp(let highDay) = high {
                return .between(left, low: .timestamp(lowType == .date ? TimeBound.day(lowDay).lowerBound : lowDay),
                                high: .timestamp(highType == .date ? TimeBound.day(highDay).upperBound : highDay),
                                negated: negated)
            }
            return .between(left, low: low, high: high, negated: negated)
        }
        if takeKeyword("IN") {
            try expectSymbol("(", "after IN")
            var values: [CQLValue] = []
            var dayColumns: Set<Int> = []
            repeat {
                let (value, type, column) = try scalar(after: values.isEmpty ? "IN (" : ",")
                try Self.checkComparable(leftType, type, left: left, at: column, leftColumn: leftColumn)
                if type == .date { dayColumns.insert(values.count) }
                values.append(value)
            } while takeSymbol(",")
            try expectSymbol(")", "to close the IN list")
            // A time in a list of days: in any of them.
            if leftType == .timestamp, !dayColumns.isEmpty {
                let days = values.enumerated().map { index, value -> CQLExpression in
                    guard dayColumns.contains(index), case .timestamp(let day) = value else { return .comparison("=", left, value) }
                    return Self.comparison(left, "=", day: day)
                }
                let any = days.dropFirst().reduce(days[0]) { CQLExpression.or($0, $1) }
                return negated ? .not(any) : any
            }
            return .inList(left, values, negated: negated)
        }
        if negated {
            throw CQLError(column: current.column, reason: "expected LIKE, BETWEEN or IN after NOT, found \(current.shown)")
        }
        if takeKeyword("IS") {
            let notNull = takeKeyword("NOT")
            guard takeKeyword("NULL") else {
                throw CQLError(column: current.column, reason: "expected NULL after IS\(notNull ? " NOT" : ""), found \(current.shown)")
            }
            return .isNull(left, negated: notNull)
        }
        if leftType == .boolean { return .comparison("=", left, .boolean(true)) }
        throw CQLError(column: current.column, reason: "expected a comparison (=, <>, <, <=, >, >=, LIKE, BETWEEN, IN, IS NULL) "
                       + "after \(previous.shown), found \(current.shown)")
    }

    private mutating func spatialPredicate(_ spatial: CQLSpatialOperator) throws -> CQLExpression {
        advance()
        try expectSymbol("(", "after \(spatial.rawValue)")
        var geometry: CQLGeometry?
        var sawGeometry = false
        for index in 0..<2 {
            if index == 1 { try expectSymbol(",", "between the two geometries of \(spatial.rawValue)") }
            let column = current.column
            if case .identifier(let name) = current.kind, ["geometry", "geom", "location"].contains(name.lowercased()) {
                advance()
                sawGeometry = true
            } else if takeKeyword("BBOX") || takeKeyword("ENVELOPE") {
                try expectSymbol("(", "after BBOX")
                var numbers: [Double] = []
                repeat { numbers.append(try signedNumber(context: "in BBOX")) } while takeSymbol(",")
                try expectSymbol(")", "to close BBOX")
                guard numbers.count == 4 || numbers.count == 6 else {
                    throw CQLError(column: column, reason: "BBOX takes 4 numbers (W,S,E,N), not \(numbers.count)")
                }
                let (west, south, east, north) = numbers.count == 4
                    ? (numbers[0], numbers[1], numbers[2], numbers[3]) : (numbers[0], numbers[1], numbers[3], numbers[4])
                do {
                    geometry = .box(try GeoBox(west: west, south: south, east: east, north: north))
                } catch let error as GeoBoxError {
                    throw CQLError(column: column, reason: "BBOX: \(error.message)")
                }
            } else if takeKeyword("POINT") {
                try expectSymbol("(", "after POINT")
                let longitude = try signedNumber(context: "in POINT"), latitude = try signedNumber(context: "in POINT")
                try expectSymbol(")", "to close POINT")
                guard abs(longitude) <= 180, abs(latitude) <= 90 else {
                    throw CQLError(column: column, reason: "POINT(\(longitude) \(latitude)) is outside the world")
                }
                geometry = .point(longitude: longitude, latitude: latitude)
            } else if takeKeyword("POLYGON") {
                geometry = .polygons([try polygon(column: column)])
            } else if takeKeyword("MULTIPOLYGON") {
                try expectSymbol("(", "after MULTIPOLYGON")
                var polygons: [CQLPolygon] = []
                repeat { polygons.append(try polygon(column: current.column)) } while takeSymbol(",")
                try expectSymbol(")", "to close MULTIPOLYGON")
                geometry = .polygons(polygons)
            } else if case .identifier(let name) = current.kind {
                throw CQLError(column: column, reason: "unknown geometry '\(name)': use geometry, BBOX(W,S,E,N), POINT(lon lat), POLYGON((…)) or MULTIPOLYGON(((…)))")
            } else {
                throw CQLError(column: column, reason: "expected a geometry, found \(current.shown)")
            }
        }
        try expectSymbol(")", "to close \(spatial.rawValue)")
        guard sawGeometry, let geometry else {
            throw CQLError(column: previous.column, reason: "\(spatial.rawValue) needs the property geometry and one BBOX, POINT, POLYGON or MULTIPOLYGON")
        }
        return .spatial(spatial, geometry)
    }

    /// `((x y, x y, …), (…))`: an outer ring and its holes, each closed and of at least four points.
    private mutating func polygon(column: Int) throws -> CQLPolygon {
        try expectSymbol("(", "to open a polygon")
        var rings: [[CQLPoint]] = []
        repeat {
            let ringColumn = current.column
            try expectSymbol("(", "to open a polygon's ring")
            var ring: [CQLPoint] = []
            repeat {
                let x = try signedNumber(context: "in a polygon"), y = try signedNumber(context: "in a polygon")
                guard abs(x) <= 180, abs(y) <= 90 else {
                    throw CQLError(column: ringColumn, reason: "the polygon's point (\(x) \(y)) is outside the world")
                }
                ring.append(CQLPoint(x: x, y: y))
            } while takeSymbol(",")
            try expectSymbol(")", "to close a polygon's ring")
            guard ring.count >= 4, ring.first == ring.last else {
                throw CQLError(column: ringColumn, reason: "a polygon's ring needs at least four points, the last the same as the first")
            }
            rings.append(ring)
        } while takeSymbol(",")
        try expectSymbol(")", "to close a polygon")
        return CQLPolygon(rings: rings)
    }

    private mutating func signedNumber(context: String) throws -> Double {
        // CQL2's sign is '+' or '-'.
        let negative = takeSymbol("-")
        if !negative { _ = takeSymbol("+") }
        guard case .number(let value) = current.kind else {
            throw CQLError(column: current.column, reason: "expected a number \(context), found \(current.shown)")
        }
        advance()
        return negative ? -value : value
    }

    // MARK: Scalars

    /// A scalar with its type and column; `after` names what needed a value, for the message.
    private mutating func scalar(after: String? = nil) throws -> (CQLValue, CQLValueType, Int) {
        let column = current.column
        if case .end = current.kind, let after {
            throw CQLError(column: column, reason: "expected a value after '\(after)'")
        }
        let (value, type) = try additive()
        return (value, type, column)
    }

    private mutating func additive() throws -> (CQLValue, CQLValueType) {
        var (value, type) = try multiplicative()
        while case .symbol(let symbol) = current.kind, symbol == "+" || symbol == "-" {
            let column = current.column
            advance()
            let (right, rightType) = try multiplicative()
            guard type == .number, rightType == .number else {
                throw CQLError(column: column, reason: "'\(symbol)' works on numbers only")
            }
            value = .arithmetic(symbol, value, right)
        }
        return (value, type)
    }

    private mutating func multiplicative() throws -> (CQLValue, CQLValueType) {
        var (value, type) = try unary()
        while case .symbol(let symbol) = current.kind, ["*", "/", "%"].contains(symbol) {
            let column = current.column
            advance()
            let (right, rightType) = try unary()
            guard type == .number, rightType == .number else {
                throw CQLError(column: column, reason: "'\(symbol)' works on numbers only")
            }
            value = .arithmetic(symbol, value, right)
        }
        return (value, type)
    }

    private mutating func unary() throws -> (CQLValue, CQLValueType) {
        // A leading '+' (CQL2's sign, as in `mag >= +4.5`) changes nothing but must be a number's.
        if current.kind == .symbol("+") {
            let column = current.column
            advance()
            let (value, type) = try nested { try $0.unary() }
            guard type == .number else { throw CQLError(column: column, reason: "'+' works on numbers only") }
            return (value, type)
        }
        if current.kind == .symbol("-") {
            let column = current.column
            advance()
            let (value, type) = try nested { try $0.unary() }
            guard type == .number else { throw CQLError(column: column, reason: "'-' works on numbers only") }
            if case .number(let number) = value { return (.number(-number), .number) }
            return (.negated(value), .number)
        }
        return try atom()
    }

    private mutating func atom() throws -> (CQLValue, CQLValueType) {
        let token = current
        switch token.kind {
        case .number(let value):
            advance()
            return (.number(value), .number)
        case .string(let text):
            advance()
            return (.string(text), .string)
        case .quotedIdentifier(let name):
            advance()
            return try property(name, column: token.column)
        case .symbol("("):
            advance()
            let (value, type) = try nested { try $0.additive() }
            try expectSymbol(")", "to close the parenthesis")
            return (value, type)
        case .identifier(let name):
            let upper = name.uppercased()
            if upper == "TRUE" || upper == "FALSE" {
                advance()
                return (.boolean(upper == "TRUE"), .boolean)
            }
            if upper == "TIMESTAMP" || upper == "DATE" {
                advance()
                return (.timestamp(try temporalLiteral(upper, column: token.column)), upper == "DATE" ? .date : .timestamp)
            }
            if upper == "CASEI" || upper == "ACCENTI" {
                advance()
                try expectSymbol("(", "after \(upper)")
                let (inner, type, column) = try scalar(after: "\(upper)(")
                try expectSymbol(")", "to close \(upper)")
                guard type == .string else { throw CQLError(column: column, reason: "\(upper) needs a string, not \(type.described)") }
                return (upper == "CASEI" ? .caseInsensitive(inner) : .accentInsensitive(inner), .string)
            }
            if ["AND", "OR", "NOT", "LIKE", "BETWEEN", "IN", "IS", "NULL"].contains(upper) {
                throw CQLError(column: token.column, reason: "expected a value, found the keyword \(upper)")
            }
            advance()
            if current.kind == .symbol("(") {
                throw CQLError(column: token.column, reason: "unknown function '\(name)'")
            }
            return try property(name, column: token.column)
        case .symbol, .end:
            let after = position > 0 ? " after \(previous.shown)" : ""
            throw CQLError(column: token.column, reason: "expected a value\(after), found \(token.shown)")
        }
    }

    private func property(_ name: String, column: Int) throws -> (CQLValue, CQLValueType) {
        guard let property = CQLProperty.allCases.first(where: { $0.spec.name.lowercased() == name.lowercased() }) else {
            let known = CQLProperty.allCases.map(\.spec.name).joined(separator: ", ")
            throw CQLError(column: column, reason: "unknown property '\(name)' (known: \(known))")
        }
        return (.property(property), property.valueType)
    }

    private mutating func temporalLiteral(_ kind: String, column: Int) throws -> Date {
        try expectSymbol("(", "after \(kind)")
        guard case .string(let text) = current.kind else {
            throw CQLError(column: current.column, reason: "\(kind) needs a quoted value, e.g. \(kind)('2024-05-01\(kind == "DATE" ? "" : "T12:00:00Z")')")
        }
        let valueColumn = current.column
        advance()
        try expectSymbol(")", "to close \(kind)")
        let parsed: Date?
        if kind == "DATE" {
            parsed = text.utf8.count == 10 ? TimeParser.parse(dateOrInstant: text) : nil
        } else {
            parsed = TimeParser.parse(ArraySlice(text.utf8))
        }
        guard let parsed else {
            throw CQLError(column: valueColumn, reason: "'\(text)' is not a \(kind == "DATE" ? "date (YYYY-MM-DD)" : "timestamp (ISO 8601)")")
        }
        return parsed
    }

    /// `time` compared with the UTC day that starts at `day`, by the bare-date rule
    /// (``TimeBound/day(_:)``): before it, through its end, after it, from its start, in it, or not.
    private static func comparison(_ time: CQLValue, _ symbol: String, day: Date) -> CQLExpression {
        let span = TimeBound.day(day)
        let start = CQLValue.timestamp(span.lowerBound), end = CQLValue.timestamp(span.upperBound)
        switch symbol {
        case "<": return .comparison("<", time, start)
        case "<=": return .comparison("<=", time, end)
        case ">": return .comparison(">", time, end)
        case ">=": return .comparison(">=", time, start)
        case "=": return .between(time, low: start, high: end, negated: false)
        default: return .between(time, low: start, high: end, negated: true)
        }
    }

    private static func checkComparable(_ left: CQLValueType, _ right: CQLValueType, left value: CQLValue,
                                        at column: Int, leftColumn: Int) throws {
        guard !left.compares(with: right) else { return }
        var name = "the left side"
        if case .property(let property) = value { name = property.spec.name }
        throw CQLError(column: column, reason: "cannot compare \(name) (\(left.described)) with \(right.described)")
    }
}
