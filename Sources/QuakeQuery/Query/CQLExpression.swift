import Foundation
import QuakeModel
import QuakeParse

/// The event properties a CQL2 filter can name: every field of the schema, by its canonical name.
package typealias CQLProperty = EventField

extension EventField {
    /// The property's CQL2 data type.
    package var valueType: CQLValueType {
        switch kind {
        case .number, .integer: .number
        case .time: .timestamp
        case .text: .string
        }
    }

    /// What the property is, for people: the queryables' titles.
    package var title: String { spec.title }
}

/// CQL2's scalar data types. A `DATE` is a whole UTC day: a time compared with one follows the
/// bare-date rule the command line and `datetime` follow (``TimeBound/span(_:)``), so
/// `time <= DATE('2020-05-13')` holds through 23:59:59.999 of that day; two dates compare as days.
package enum CQLValueType: String {
    case number, string, timestamp, date, boolean

    package var described: String {
        switch self {
        case .number: return "a number"
        case .string: return "a string"
        case .timestamp: return "a timestamp"
        case .date: return "a date"
        case .boolean: return "a boolean"
        }
    }

    /// Whether values of the two types compare: a date with a timestamp does, as its whole day.
    package func compares(with other: CQLValueType) -> Bool {
        self == other || (self == .timestamp && other == .date) || (self == .date && other == .timestamp)
    }
}

/// A scalar operand of a CQL2 predicate.
package indirect enum CQLValue: Sendable, Hashable {
    /// An event property.
    case property(CQLProperty)
    /// A number literal.
    case number(Double)
    /// A character literal.
    case string(String)
    /// A `TIMESTAMP('…')` or `DATE('…')` literal.
    case timestamp(Date)
    /// `TRUE` or `FALSE`.
    case boolean(Bool)
    /// Arithmetic on numbers: `+ - * / %`.
    case arithmetic(String, CQLValue, CQLValue)
    /// A number's negation.
    case negated(CQLValue)
    /// `CASEI(…)`: compare without regard to letter case.
    case caseInsensitive(CQLValue)
    /// `ACCENTI(…)`: compare without regard to accents.
    case accentInsensitive(CQLValue)
}

/// The spatial comparisons of an event's point with a box.
package enum CQLSpatialOperator: String, Sendable, Hashable {
    /// `S_INTERSECTS`: the point lies in the box (edges included).
    case intersects = "S_INTERSECTS"
    /// `S_WITHIN`: the point lies in the box (edges included; a point has no interior to spare).
    case within = "S_WITHIN"
    /// `S_DISJOINT`: the point lies outside the box.
    case disjoint = "S_DISJOINT"
}

/// A parsed CQL2 text expression: a value, so it can be stored, compared and
/// shared between threads, and composed with the other filters.
package indirect enum CQLExpression: Sendable, Hashable {
    /// Both hold.
    case and(CQLExpression, CQLExpression)
    /// Either holds.
    case or(CQLExpression, CQLExpression)
    /// It does not hold (unknown stays unknown).
    case not(CQLExpression)
    /// `TRUE` or `FALSE`.
    case constant(Bool)
    /// `a = b`, `a <> b`, `a < b`, `a <= b`, `a > b`, `a >= b`.
    case comparison(String, CQLValue, CQLValue)
    /// `a [NOT] LIKE 'pattern'` with `%` any run and `_` one character (`\` escapes).
    case like(CQLValue, pattern: CQLValue, negated: Bool)
    /// `a [NOT] BETWEEN low AND high`, inclusive.
    case between(CQLValue, low: CQLValue, high: CQLValue, negated: Bool)
    /// `a [NOT] IN (v, …)`.
    case inList(CQLValue, [CQLValue], negated: Bool)
    /// `a IS [NOT] NULL`.
    case isNull(CQLValue, negated: Bool)
    /// `S_INTERSECTS(geometry, BBOX(W,S,E,N))` and its kin.
    case spatial(CQLSpatialOperator, CQLGeometry)
}

/// A geometry literal of a spatial predicate.
package enum CQLGeometry: Sendable, Hashable {
    /// `BBOX(W,S,E,N)`; W > E crosses the antimeridian.
    case box(GeoBox)
    /// `POINT(lon lat)`.
    case point(longitude: Double, latitude: Double)
    /// `POLYGON(…)` and `MULTIPOLYGON(…)`: polygons, each an outer ring and its holes, in
    /// plain longitude and latitude (as PostGIS and pygeoapi read them: a polygon does not
    /// wrap across 180°; a MULTIPOLYGON of two parts covers a region that does).
    case polygons([CQLPolygon])

    /// Whether the event's point lies on this geometry (edges included).
    package func contains(latitude: Double, longitude: Double) -> Bool {
        switch self {
        case .box(let box): return box.contains(latitude: latitude, longitude: longitude)
        case let .point(pointLongitude, pointLatitude):
            return latitude == pointLatitude && (longitude == pointLongitude || abs(longitude) == 180 && abs(pointLongitude) == 180)
        case .polygons(let polygons):
            return polygons.contains { $0.contains(x: longitude, y: latitude) }
        }
    }

    /// Boxes every point of the geometry lies in (one per polygon), for an index to narrow by.
    package var boxes: [GeoBox] {
        switch self {
        case .box(let box): return [box]
        case let .point(longitude, latitude): return [GeoBox(uncheckedWest: longitude, south: latitude, east: longitude, north: latitude)]
        case .polygons(let polygons): return polygons.map(\.bounds)
        }
    }
}

/// A polygon of a CQL2 literal: its outer ring, then its holes; each ring closed (its first
/// point again at its end), in longitude and latitude.
package struct CQLPolygon: Sendable, Hashable {
    package var rings: [[CQLPoint]]
    /// The box of the outer ring.
    package let bounds: GeoBox

    package init(rings: [[CQLPoint]]) {
        self.rings = rings
        let outer = rings.first ?? []
        bounds = GeoBox(uncheckedWest: outer.map(\.x).min() ?? 0, south: outer.map(\.y).min() ?? 0,
                        east: outer.map(\.x).max() ?? 0, north: outer.map(\.y).max() ?? 0)
    }

    /// Inside the outer ring and in no hole, or on any ring's edge (intersecting counts edges).
    package func contains(x: Double, y: Double) -> Bool {
        guard let outer = rings.first, bounds.west <= x, x <= bounds.east, bounds.south <= y, y <= bounds.north else { return false }
        if rings.contains(where: { Self.onEdge($0, x: x, y: y) }) { return true }
        return Self.inside(outer, x: x, y: y) && !rings.dropFirst().contains { Self.inside($0, x: x, y: y) }
    }

    /// Even-odd crossing test: a ray to the east crosses the ring an odd number of times.
    private static func inside(_ ring: [CQLPoint], x: Double, y: Double) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst()) where (a.y > y) != (b.y > y) {
            let crossing = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
            if x < crossing { inside.toggle() }
        }
        return inside
    }

    private static func onEdge(_ ring: [CQLPoint], x: Double, y: Double) -> Bool {
        zip(ring, ring.dropFirst()).contains { a, b in
            guard min(a.x, b.x) <= x, x <= max(a.x, b.x), min(a.y, b.y) <= y, y <= max(a.y, b.y) else { return false }
            return (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x) == 0
        }
    }
}

/// A vertex of a polygon literal: longitude `x`, latitude `y`.
package struct CQLPoint: Sendable, Hashable {
    package var x: Double
    package var y: Double

    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

extension CQLExpression {
    /// Whether the expression reads any text an event carries besides its id
    /// (type, magnitude type, network, status, place): those cost decoding.
    package var readsDescriptions: Bool {
        switch self {
        case .and(let a, let b), .or(let a, let b): return a.readsDescriptions || b.readsDescriptions
        case .not(let inner): return inner.readsDescriptions
        case .constant, .spatial: return false
        case .comparison(_, let a, let b): return a.readsDescriptions || b.readsDescriptions
        case .like(let value, let pattern, _): return value.readsDescriptions || pattern.readsDescriptions
        case .between(let value, let low, let high, _):
            return value.readsDescriptions || low.readsDescriptions || high.readsDescriptions
        case .inList(let value, let list, _): return value.readsDescriptions || list.contains { $0.readsDescriptions }
        case .isNull(let value, _): return value.readsDescriptions
        }
    }
}

extension CQLValue {
    package var readsDescriptions: Bool {
        switch self {
        case .property(let property): return !property.isCore || (property.valueType == .string && property != .id)
        case .number, .string, .timestamp, .boolean: return false
        case .arithmetic(_, let a, let b): return a.readsDescriptions || b.readsDescriptions
        case .negated(let inner), .caseInsensitive(let inner), .accentInsensitive(let inner): return inner.readsDescriptions
        }
    }
}
