import Foundation
import QuakeModel
import QuakeParse

/// The event properties a CQL2 filter can name.
package enum CQLProperty: String, Sendable, Hashable, CaseIterable {
    case mag, depth, time, type, magType, net, status, place, id, latitude, longitude

    /// The property's CQL2 data type.
    package var valueType: CQLValueType {
        switch self {
        case .mag, .depth, .latitude, .longitude: return .number
        case .time: return .timestamp
        case .type, .magType, .net, .status, .place, .id: return .string
        }
    }
}

/// CQL2's scalar data types (dates compare as instants at 00:00 UTC).
package enum CQLValueType: String {
    case number, string, timestamp, boolean

    package var described: String {
        switch self {
        case .number: return "a number"
        case .string: return "a string"
        case .timestamp: return "a timestamp"
        case .boolean: return "a boolean"
        }
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

    /// Whether the event's point lies on this geometry (box edges included).
    package func contains(latitude: Double, longitude: Double) -> Bool {
        switch self {
        case .box(let box): return box.contains(latitude: latitude, longitude: longitude)
        case let .point(pointLongitude, pointLatitude):
            return latitude == pointLatitude && (longitude == pointLongitude || abs(longitude) == 180 && abs(pointLongitude) == 180)
        }
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
        case .property(let property): return property.valueType == .string && property != .id
        case .number, .string, .timestamp, .boolean: return false
        case .arithmetic(_, let a, let b): return a.readsDescriptions || b.readsDescriptions
        case .negated(let inner), .caseInsensitive(let inner), .accentInsensitive(let inner): return inner.readsDescriptions
        }
    }
}
