import Foundation
import QuakeKit

/// A value bound to a statement: never spliced into its text.
package enum SQLValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// The part of a selection a database can answer from its indexes, as SQL
/// with `?` placeholders and the values bound to them: ``FilterBounds`` (what
/// the filter implies of time, updated, magnitude, depth and position), the
/// types, and the map region. It is a necessary condition, never a sufficient
/// one: every event it lets through is judged again by the selection's own
/// filter (``EventSelection``, CQL2 by `CQLEvaluator`), so what it leaves out
/// of SQL costs time, never a wrong answer. Boxes go through the R*Tree in
/// SQLite and the GiST index in PostGIS, across 180° as two.
package struct CataloguePredicate: Sendable, Hashable {
    /// Conditions joined by `AND`; each uses the columns of ``CatalogueSchema``.
    package private(set) var conditions: [String] = []
    /// The values, in the order their `?` appear.
    package private(set) var values: [SQLValue] = []
    /// Longitude/latitude boxes an event must lie in (one of each group): answered by the spatial index.
    package private(set) var boxes: [[Box]] = []

    /// Whether a magnitude bound narrows it: how rare the events are decides the plan (``CatalogueSchema/page(where:after:values:sortingMatches:)``).
    package private(set) var boundsMagnitude = false

    /// A box in degrees, never crossing 180° (a box that does is two).
    package struct Box: Sendable, Hashable {
        package var west, south, east, north: Double
    }

    package init() {}

    /// The predicate for what `selection` selects (its limit aside).
    package init(_ selection: EventSelection) {
        let filter = selection.filter
        let bounds = FilterBounds(filter)
        // Stored whole milliseconds: time bounds widened to them, never narrowed.
        milliseconds("time_ms", bounds.time)
        milliseconds("updated_ms", bounds.updated)
        real("magnitude", bounds.magnitude)
        boundsMagnitude = bounds.magnitude.lower != nil
        real("depth", bounds.depth)
        real("latitude", bounds.latitude)
        real("longitude", bounds.longitude)
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
        for group in bounds.boxes + [selection.region.map { [$0] }].compactMap({ $0 }) {
            boxes.append(group.flatMap(Self.parts(of:)))
        }
    }

    private mutating func milliseconds(_ column: String, _ range: FilterBounds.Range) {
        if let lower = range.lower {
            add("\(column) >= ?", .integer(Self.milliseconds(Date(timeIntervalSince1970: lower), rounding: .down)))
        }
        if let upper = range.upper {
            add("\(column) <= ?", .integer(Self.milliseconds(Date(timeIntervalSince1970: upper), rounding: .up)))
        }
    }

    private mutating func real(_ column: String, _ range: FilterBounds.Range) {
        if let lower = range.lower { add("\(column) >= ?", .real(lower)) }
        if let upper = range.upper { add("\(column) <= ?", .real(upper)) }
    }

    /// The event whose id is `id` (events without one are not named by it), if it has a magnitude.
    package init(id: String) {
        conditions = ["key = ?", "id = key", "magnitude IS NOT NULL"]
        values = [.text(id)]
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
}
