import Foundation
import QuakeModel

/// What a filter implies of the indexed fields (time, updated, magnitude,
/// depth, position): ranges and boxes every event it admits lies in. It is a
/// necessary condition, never a sufficient one: indexes (a catalogue's in a
/// database, ``EventIndex`` in memory) use it to narrow the candidates, and
/// the filter itself (``EventFilter/matches(_:)``, CQL2 by `CQLEvaluator`)
/// judges each. So what it cannot say costs time, never a wrong answer.
///
/// From CQL2 it reads comparisons of those fields with a finite literal,
/// `BETWEEN` on them, and `S_INTERSECTS`/`S_WITHIN` with a literal geometry
/// (its box), joined by `AND`, or by `OR` as the span of both sides. `NOT`,
/// arithmetic and text are left to the filter.
package struct FilterBounds: Sendable, Hashable {
    /// A range of one field; `nil` ends are open. Strict comparisons are widened to inclusive.
    package struct Range: Sendable, Hashable {
        package var lower: Double?
        package var upper: Double?

        package init(lower: Double? = nil, upper: Double? = nil) {
            self.lower = lower
            self.upper = upper
        }

        package var isOpen: Bool { lower == nil && upper == nil }

        /// Both ranges at once.
        func intersection(_ other: Range) -> Range {
            Range(lower: [lower, other.lower].compactMap { $0 }.max(), upper: [upper, other.upper].compactMap { $0 }.min())
        }

        /// Either range: the span of both (open where either is).
        func span(_ other: Range) -> Range {
            Range(lower: lower.flatMap { a in other.lower.map { min(a, $0) } }, upper: upper.flatMap { a in other.upper.map { max(a, $0) } })
        }

        /// Whether `value` lies in the range (a missing value never does, unless the range is open).
        package func contains(_ value: Double?) -> Bool {
            if isOpen { return true }
            guard let value else { return false }
            return (lower.map { value >= $0 } ?? true) && (upper.map { value <= $0 } ?? true)
        }
    }

    /// Seconds since 1970.
    package var time = Range()
    /// Seconds since 1970; an event without `updated` is outside any bounded range.
    package var updated = Range()
    package var magnitude = Range()
    package var depth = Range()
    package var latitude = Range()
    /// Longitudes strictly inside ±180 only: the meridian has two names, which the filter tells apart.
    package var longitude = Range()
    /// Groups of boxes: an event lies in at least one box of every group.
    package var boxes: [[GeoBox]] = []

    package init() {}

    /// The bounds of everything `filter` asks, its own fields and its CQL2 expression alike.
    package init(_ filter: EventFilter) {
        time = Range(lower: filter.since?.timeIntervalSince1970, upper: filter.until?.timeIntervalSince1970)
        magnitude = Range(lower: filter.minimumMagnitude.flatMap(Self.finite), upper: filter.maximumMagnitude.flatMap(Self.finite))
        depth = Range(lower: filter.minimumDepth.flatMap(Self.finite), upper: filter.maximumDepth.flatMap(Self.finite))
        if let bbox = filter.bbox { boxes = [[bbox]] }
        if let circle = filter.circle { boxes.append([circle.enclosingBox]) }
        if let updatedAfter = filter.updatedAfter { updated = Range(lower: updatedAfter.timeIntervalSince1970) }
        if let expression = filter.cql?.expression { self = intersection(Self.bounds(of: expression)) }
    }

    private static func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }

    /// Both bounds at once: every range narrowed, every box group kept.
    func intersection(_ other: FilterBounds) -> FilterBounds {
        var result = merged(other) { $0.intersection($1) }
        result.boxes = boxes + other.boxes
        return result
    }

    /// Either bounds: every range spanned; boxes only when each side is one group (in a box of either).
    func span(_ other: FilterBounds) -> FilterBounds {
        var result = merged(other) { $0.span($1) }
        if boxes.count == 1, other.boxes.count == 1 { result.boxes = [boxes[0] + other.boxes[0]] }
        return result
    }

    /// Each range of both combined by `combine`; no boxes.
    private func merged(_ other: FilterBounds, _ combine: (Range, Range) -> Range) -> FilterBounds {
        var result = FilterBounds()
        for field in [\FilterBounds.time, \.updated, \.magnitude, \.depth, \.latitude, \.longitude] {
            result[keyPath: field] = combine(self[keyPath: field], other[keyPath: field])
        }
        return result
    }

    private static func bounds(of expression: CQLExpression) -> FilterBounds {
        switch expression {
        case let .and(a, b): return bounds(of: a).intersection(bounds(of: b))
        case let .or(a, b): return bounds(of: a).span(bounds(of: b))
        case let .comparison(op, .property(property), literal):
            return comparison(op, property, literal)
        case let .comparison(op, literal, .property(property)):
            let flipped = ["<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="][op]
            return flipped.map { comparison($0, property, literal) } ?? FilterBounds()
        case let .between(.property(property), low, high, false):
            return comparison(">=", property, low).intersection(comparison("<=", property, high))
        case let .spatial(op, geometry) where op == .intersects || op == .within:
            var bounds = FilterBounds()
            bounds.boxes = [geometry.boxes]
            return bounds
        default:
            return FilterBounds()
        }
    }

    private static func comparison(_ op: String, _ property: CQLProperty, _ literal: CQLValue) -> FilterBounds {
        let value: Double
        switch literal {
        case .number(let number) where property.valueType == .number: value = number
        case .timestamp(let date) where property.valueType == .timestamp: value = date.timeIntervalSince1970
        default: return FilterBounds()
        }
        guard value.isFinite, property != .longitude || abs(value) < 180 else { return FilterBounds() }
        let range: Range
        switch op {
        case ">", ">=": range = Range(lower: value)
        case "<", "<=": range = Range(upper: value)
        case "=": range = Range(lower: value, upper: value)
        default: return FilterBounds()
        }
        var bounds = FilterBounds()
        switch property {
        case .mag: bounds.magnitude = range
        case .depth: bounds.depth = range
        case .time: bounds.time = range
        case .updated: bounds.updated = range
        case .latitude: bounds.latitude = range
        case .longitude: bounds.longitude = range
        default: break
        }
        return bounds
    }
}
