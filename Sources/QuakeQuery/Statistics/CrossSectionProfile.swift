import Foundation
import QuakeModel

/// A profile for a depth cross-section: the great-circle segment from A to B
/// on a sphere of the Earth's mean radius, and the half-width of the band
/// around it whose events the section shows.
///
/// Distances are spherical (R = 6371.0 km), which is within 0.5 % of the
/// ellipsoid: finer than a hypocentre's location error. Longitudes may be
/// written either way round the antimeridian (`170,-20 → -170,-25` crosses it
/// the short way).
public struct CrossSectionProfile: Sendable, Hashable {
    /// The Earth's mean radius in km (IUGG).
    package static let earthRadius = 6371.0

    /// Where the profile starts (A), as longitude and latitude in degrees.
    package let start: GeoPoint
    /// Where it ends (B).
    package let end: GeoPoint
    /// The band's half-width in km: events at most this far from the segment are shown.
    package let halfWidth: Double
    /// The segment's length in km.
    public let length: Double

    private let startVector: Vector
    /// The unit normal of the great circle through A and B (A × B, normalised).
    private let pole: Vector

    /// A profile from A to B with a band of `halfWidth` km on each side.
    ///
    /// - Throws: ``StatisticsError/invalidProfile(_:)`` when a coordinate is out of
    ///   range, A and B are less than 1 km apart or nearly opposite (no single
    ///   great circle joins them), or the half-width is not 0 < w ≤ 2,000 km.
    public init(start: GeoPoint, end: GeoPoint, halfWidth: Double) throws(StatisticsError) {
        for (name, point) in [("A", start), ("B", end)] {
            guard point.longitude.isFinite, point.latitude.isFinite, abs(point.longitude) <= 180, abs(point.latitude) <= 90 else {
                throw .invalidProfile("\(name) (\(point.longitude), \(point.latitude)) is not a longitude −180…180 and a latitude −90…90")
            }
        }
        guard halfWidth.isFinite, halfWidth > 0, halfWidth <= 2000 else {
            throw .invalidProfile("half-width \(halfWidth) km is outside 0…2000 km")
        }
        let a = Vector(longitude: start.longitude, latitude: start.latitude)
        let b = Vector(longitude: end.longitude, latitude: end.latitude)
        let length = a.angle(to: b) * Self.earthRadius
        guard length >= 1 else { throw .invalidProfile("A and B are \(Self.kilometres(length)) apart; a profile needs at least 1 km") }
        guard length <= Double.pi * Self.earthRadius - 1 else {
            throw .invalidProfile("A and B are nearly opposite points of the Earth: no single great circle joins them")
        }
        self.start = start
        self.end = end
        self.halfWidth = halfWidth
        self.length = length
        startVector = a
        pole = a.cross(b).normalized
    }

    /// Where a point lies relative to the profile: `along` is the distance in km
    /// from A along the segment (0…``length``), `across` the signed distance in
    /// km from the great circle (positive to the right, looking from A to B).
    /// `nil` when the point is beyond A or B, or farther than ``halfWidth``.
    package func locate(longitude: Double, latitude: Double) -> (along: Double, across: Double)? {
        let point = Vector(longitude: longitude, latitude: latitude)
        // Right of A→B is the side A × B points away from.
        let across = -asin(max(-1, min(1, point.dot(pole)))) * Self.earthRadius
        // A millimetre of slack keeps the band's edges themselves inside.
        guard abs(across) <= halfWidth + 1e-6 else { return nil }
        // The foot of the perpendicular, and its angle from A measured towards B.
        let foot = point.minus(pole.scaled(point.dot(pole)))
        guard foot.length > 1e-12 else { return nil }
        let towardsB = pole.cross(startVector)
        let along = atan2(foot.dot(towardsB), foot.dot(startVector)) * Self.earthRadius
        // The same slack at the ends.
        guard along >= -1e-6, along <= length + 1e-6 else { return nil }
        return (max(0, min(length, along)), across)
    }

    /// The point `distance` km from A along the great circle towards B
    /// (longitude −180…180), for drawing the profile on a map.
    package func point(atDistance distance: Double) -> GeoPoint {
        point(atDistance: distance, across: 0)
    }

    /// The point `distance` km from A along the profile and `across` km to its
    /// right (negative: left), for drawing the band's edges.
    package func point(atDistance distance: Double, across: Double) -> GeoPoint {
        let angle = distance / Self.earthRadius, offset = -across / Self.earthRadius
        let onLine = startVector.scaled(cos(angle)).plus(pole.cross(startVector).scaled(sin(angle)))
        return onLine.scaled(cos(offset)).plus(pole.scaled(sin(offset))).coordinates
    }

    /// Points along the segment at most `spacing` km apart, A and B included;
    /// with `across`, along the parallel line that far to the right.
    package func points(spacing: Double = 50, across: Double = 0) -> [GeoPoint] {
        let steps = max(1, Int((length / max(spacing, 1)).rounded(.up)))
        return (0...steps).map { point(atDistance: length * Double($0) / Double(steps), across: across) }
    }

    private static func kilometres(_ value: Double) -> String {
        Formatted.fixed(value, 3) + " km"
    }
}

/// A point on the unit sphere, for the profile's great-circle arithmetic.
private struct Vector: Hashable {
    package var x, y, z: Double

    package init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    package init(longitude: Double, latitude: Double) {
        let lambda = longitude * .pi / 180, phi = latitude * .pi / 180
        self.init(x: cos(phi) * cos(lambda), y: cos(phi) * sin(lambda), z: sin(phi))
    }

    package var coordinates: GeoPoint {
        GeoPoint(longitude: atan2(y, x) * 180 / .pi, latitude: atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi)
    }

    package var length: Double { (x * x + y * y + z * z).squareRoot() }
    package var normalized: Vector { scaled(1 / length) }

    package func dot(_ other: Vector) -> Double { x * other.x + y * other.y + z * other.z }
    package func cross(_ other: Vector) -> Vector {
        Vector(x: y * other.z - z * other.y, y: z * other.x - x * other.z, z: x * other.y - y * other.x)
    }
    package func scaled(_ factor: Double) -> Vector { Vector(x: x * factor, y: y * factor, z: z * factor) }
    package func plus(_ other: Vector) -> Vector { Vector(x: x + other.x, y: y + other.y, z: z + other.z) }
    package func minus(_ other: Vector) -> Vector { Vector(x: x - other.x, y: y - other.y, z: z - other.z) }

    /// The angle between two unit vectors, accurate at small and large angles alike.
    package func angle(to other: Vector) -> Double { atan2(cross(other).length, dot(other)) }
}
