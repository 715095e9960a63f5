import Foundation
import QuakeModel

/// A ring around a point on the sphere, radii in degrees of arc: FDSN's radial search
/// (`latitude`, `longitude`, `minradius`, `maxradius`). Both radii are inclusive.
package struct GeoCircle: Sendable, Hashable {
    /// The centre's latitude, −90…90.
    package var latitude: Double
    /// The centre's longitude, −180…180.
    package var longitude: Double
    /// Events nearer than this are outside, 0…180.
    package var minimumRadius: Double
    /// Events farther than this are outside, 0…180.
    package var maximumRadius: Double

    /// A ring; FDSN's defaults are the whole sphere around (0, 0).
    package init(latitude: Double = 0, longitude: Double = 0, minimumRadius: Double = 0, maximumRadius: Double = 180) {
        self.latitude = latitude
        self.longitude = longitude
        self.minimumRadius = minimumRadius
        self.maximumRadius = maximumRadius
    }

    /// Why the values make no ring, or `nil`: a centre on the globe, radii in 0…180, the smaller first.
    package var problem: String? {
        guard (-90...90).contains(latitude) else { return "the centre's latitude \(latitude) is outside -90…90" }
        guard (-180...180).contains(longitude) else { return "the centre's longitude \(longitude) is outside -180…180" }
        guard (0...180).contains(minimumRadius), (0...180).contains(maximumRadius) else {
            return "radii are degrees of arc in 0…180"
        }
        guard minimumRadius <= maximumRadius else { return "the minimum radius \(minimumRadius) exceeds the maximum \(maximumRadius)" }
        return nil
    }

    /// The angular distance from the centre, in degrees: the haversine declustering measures
    /// with (``Haversine/distance(latitude1:longitude1:latitude2:longitude2:)``), as an angle.
    package func distance(latitude: Double, longitude: Double) -> Double {
        let radians = Double.pi / 180
        let kilometres = Haversine.distance(latitude1: self.latitude * radians, longitude1: self.longitude * radians,
                                            latitude2: latitude * radians, longitude2: longitude * radians)
        // At the antipode rounding can take the haversine's term past 1 (no square root): 180°.
        return kilometres.isNaN ? 180 : kilometres / Haversine.earthRadius / radians
    }

    /// Whether a point lies in the ring.
    package func contains(latitude: Double, longitude: Double) -> Bool {
        let distance = distance(latitude: latitude, longitude: longitude)
        return distance >= minimumRadius && distance <= maximumRadius
    }

    /// A box every point of the disc lies in (a little wider, never narrower), for indexes to
    /// narrow with; the whole band of longitudes when the disc reaches a pole.
    package var enclosingBox: GeoBox {
        // A thousandth of a degree more: the haversine decides at the edge, the box only must not cut.
        let radius = min(180, maximumRadius + 0.001)
        let south = max(-90, latitude - radius), north = min(90, latitude + radius)
        guard south > -90, north < 90 else { return GeoBox(uncheckedWest: -180, south: south, east: 180, north: north) }
        let spread = asin(min(1, sin(radius * .pi / 180) / cos(latitude * .pi / 180))) * 180 / .pi
        guard spread < 180 else { return GeoBox(uncheckedWest: -180, south: south, east: 180, north: north) }
        func wrapped(_ value: Double) -> Double { value > 180 ? value - 360 : value < -180 ? value + 360 : value }
        return GeoBox(uncheckedWest: wrapped(longitude - spread), south: south, east: wrapped(longitude + spread), north: north)
    }
}
