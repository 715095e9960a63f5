import Foundation

/// The Equal Earth projection of a sphere of radius 1: an equal-area
/// pseudocylindrical projection with straight parallels and meridians that
/// bend like Robinson's.
///
/// The forward formulas of Šavrič, Patterson & Jenny, "The Equal Earth map
/// projection", International Journal of Geographical Information Science 33
/// (2019), doi:10.1080/13658816.2018.1504949, closed form: with the parametric
/// latitude θ, sin θ = (√3/2) sin φ,
/// y = A1 θ + A2 θ³ + A3 θ⁷ + A4 θ⁹ and
/// x = 2√3 λ cos θ / (3 (A1 + 3 A2 θ² + 7 A3 θ⁶ + 9 A4 θ⁸)).
package struct EqualEarth: Sendable, Hashable {
    /// The meridian drawn straight down the middle, in degrees.
    package var centerLongitude: Double

    /// The projection centred on `centerLongitude`.
    package init(centerLongitude: Double = 0) {
        self.centerLongitude = centerLongitude
    }

    // The paper's polynomial coefficients, Table 1.
    private static let a1 = 1.340264, a2 = -0.081106, a3 = 0.000893, a4 = 0.003796
    private static let m = 3.0.squareRoot() / 2

    /// x east and y north on the unit sphere; the longitude is taken within
    /// 180° of the centre, so the map ends at the antimeridian of its centre.
    package func project(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        Self.project(latitude: latitude, offset: MapProjection.offset(longitude: longitude, from: centerLongitude))
    }

    /// The position of a point `offset` degrees east of the central meridian.
    package static func project(latitude: Double, offset: Double) -> (x: Double, y: Double) {
        let phi = min(90, max(-90, latitude)) * .pi / 180, lambda = offset * .pi / 180
        let theta = asin(m * sin(phi))
        let t2 = theta * theta, t6 = t2 * t2 * t2
        let y = theta * (a1 + a2 * t2 + t6 * (a3 + a4 * t2))
        let x = lambda * cos(theta) / (m * (a1 + 3 * a2 * t2 + t6 * (7 * a3 + 9 * a4 * t2)))
        return (x, y)
    }

    /// Half the length of the equator on the map (the antimeridian's x).
    package static let halfWidth = project(latitude: 0, offset: 180).x
    /// The pole line's y.
    package static let halfHeight = project(latitude: 90, offset: 0).y
}
