import Foundation
import QuakeKit

/// A value bound to a statement: never spliced into its text.
package enum SQLValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// The part of a selection a database can answer from its indexes, as SQL
/// with `?` placeholders and the values bound to them. It is a necessary
/// condition, never a sufficient one: every event it lets through is judged
/// again by the selection's own filter (``EventSelection``, CQL2 by
/// `CQLEvaluator`), so what it leaves out of SQL costs time, never a wrong answer.
///
/// Into SQL go the time window, the magnitude and depth ranges, the types, the box and
/// the map region (across 180° as two ranges; through the R*Tree in SQLite, the
/// GiST index in PostGIS), and those parts of a CQL2 expression that compare
/// `mag`, `depth`, `time`, `latitude` or `longitude` with a finite literal,
/// `BETWEEN` on them, and `S_INTERSECTS` with a `BBOX`, where they are joined
/// by `AND` (or by `OR` when both sides go). Other text (`LIKE`, places),
/// arithmetic and `NOT` stay with the evaluator.
package struct CataloguePredicate: Sendable, Hashable {
    /// Conditions joined by `AND`; each uses the columns of ``CatalogueSchema``.
    package private(set) var conditions: [String] = []
    /// The values, in the order their `?` appear.
    package private(set) var values: [SQLValue] = []
    /// Longitude/latitude boxes an event must lie in (all of them): answered by the spatial index.
    package private(set) var boxes: [[Box]] = []

    /// A box in degrees, never crossing 180° (a box that does is two).
    package struct Box: Sendable, Hashable {
        package var west, south, east, north: Double
    }

    package init() {}

    /// The predicate for what `selection` selects (its limit aside).
    package init(_ selection: EventSelection) {
        let filter = selection.filter
        if let since = filter.since { add("time_ms >= ?", .integer(Self.milliseconds(since, rounding: .down))) }
        if let until = filter.until { add("time_ms <= ?", .integer(Self.milliseconds(until, rounding: .up))) }
        if let value = filter.minimumMagnitude, value.isFinite { add("magnitude >= ?", .real(value)) }
        if let value = filter.maximumMagnitude, value.isFinite { add("magnitude <= ?", .real(value)) }
        if let value = filter.minimumDepth, value.isFinite { add("depth >= ?", .real(value)) }
        if let value = filter.maximumDepth, value.isFinite { add("depth <= ?", .real(value)) }
        // Events without a magnitude are never selected.
        conditions.append("magnitude IS NOT NULL")
        // Types as the filter compares them (normalized), stored so beside the feed's spelling.
        if !filter.types.isEmpty {
            conditions.append("type_key IN (\(Array(repeating: "?", count: filter.types.count).joined(separator: ", ")))")
            values += filter.types.sorted().map(SQLValue.text)
        }
        if !filter.excludedTypes.isEmpty {
            conditions.append("type_key NOT IN (\(Array(repeating: "?", count: filter.excludedTypes.count).joined(separator: ", ")))")
            values += filter.excludedTypes.sorted().map(SQLValue.text)
        }
        for box in [filter.bbox, selection.region].compactMap({ $0 }) { boxes.append(Self.parts(of: box)) }
        if let expression = filter.cql?.expression, let part = Self.translate(expression) {
            conditions.append(part.sql)
            values += part.values
            boxes += part.boxes
        }
    }

    private mutating func add(_ condition: String, _ value: SQLValue) {
        conditions.append(condition)
        values.append(value)
    }

    /// Whole milliseconds at or before (`.down`) or after (`.up`) `date`, as stored.
    package static func milliseconds(_ date: Date, rounding: FloatingPointRoundingRule) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded(rounding)
        // Far outside any catalogue: clamped, so the bound still holds.
        return Int64(exactly: value) ?? (value < 0 ? Int64.min / 2 : Int64.max / 2)
    }

    /// `box` as boxes that do not cross 180°, with the meridian's two names
    /// (−180 and 180) both inside when either edge is on it.
    package static func parts(of box: GeoBox) -> [Box] {
        var parts = box.crossesAntimeridian
            ? [Box(west: box.west, south: box.south, east: 180, north: box.north),
               Box(west: -180, south: box.south, east: box.east, north: box.north)]
            : [Box(west: box.west, south: box.south, east: box.east, north: box.north)]
        if parts.contains(where: { $0.east >= 180 }) && !parts.contains(where: { $0.west <= -180 }) {
            parts.append(Box(west: -180, south: box.south, east: -180, north: box.north))
        }
        if parts.contains(where: { $0.west <= -180 }) && !parts.contains(where: { $0.east >= 180 }) {
            parts.append(Box(west: 180, south: box.south, east: 180, north: box.north))
        }
        return parts
    }

    /// What a CQL2 expression says of indexed columns, when it says something whole.
    private struct Part {
        var sql: String
        var values: [SQLValue] = []
        var boxes: [[Box]] = []
    }

    private static func translate(_ expression: CQLExpression) -> Part? {
        switch expression {
        case let .and(a, b):
            switch (translate(a), translate(b)) {
            case let (x?, y?): return Part(sql: "(\(x.sql) AND \(y.sql))", values: x.values + y.values, boxes: x.boxes + y.boxes)
            case let (x?, nil), let (nil, x?): return x
            case (nil, nil): return nil
            }
        case let .or(a, b):
            // Boxes are answered apart from the conditions, so an OR of them cannot be.
            guard let x = translate(a), let y = translate(b), x.boxes.isEmpty, y.boxes.isEmpty else { return nil }
            return Part(sql: "(\(x.sql) OR \(y.sql))", values: x.values + y.values)
        case let .comparison(op, .property(property), literal):
            return comparison(op, property, literal)
        case let .comparison(op, literal, .property(property)):
            let flipped = ["<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="][op]
            return flipped.flatMap { comparison($0, property, literal) }
        case let .between(.property(property), low, high, false):
            guard let low = comparison(">=", property, low), let high = comparison("<=", property, high) else { return nil }
            return Part(sql: "(\(low.sql) AND \(high.sql))", values: low.values + high.values)
        case let .spatial(op, .box(box)) where op == .intersects || op == .within:
            return Part(sql: "1 = 1", boxes: [parts(of: box)])
        default:
            return nil
        }
    }

    private static func comparison(_ op: String, _ property: CQLProperty, _ literal: CQLValue) -> Part? {
        guard ["<", "<=", ">", ">=", "="].contains(op) else { return nil }
        let column: String
        switch property {
        case .mag: column = "magnitude"
        case .depth: column = "depth"
        case .latitude: column = "latitude"
        case .longitude: column = "longitude"
        case .time:
            guard case .timestamp(let date) = literal else { return nil }
            // Stored whole milliseconds: the bound widened to them, never narrowed.
            switch op {
            case ">", ">=": return Part(sql: "time_ms >= ?", values: [.integer(milliseconds(date, rounding: .down))])
            case "<", "<=": return Part(sql: "time_ms <= ?", values: [.integer(milliseconds(date, rounding: .up))])
            default:
                return Part(sql: "time_ms BETWEEN ? AND ?", values: [.integer(milliseconds(date, rounding: .down)),
                                                                    .integer(milliseconds(date, rounding: .up))])
            }
        default: return nil
        }
        // Longitudes ±180 name one meridian: the evaluator decides those.
        guard case .number(let value) = literal, value.isFinite, property != .longitude || abs(value) < 180 else { return nil }
        return Part(sql: "\(column) \(op) ?", values: [.real(value)])
    }
}
