/// The Robinson projection of a sphere of radius 1: a compromise
/// pseudocylindrical projection defined by a table rather than a formula.
///
/// Robinson (1974) gives, every 5° of latitude, the length of the parallel
/// relative to the equator (PLEN) and its distance from the equator relative
/// to the pole line's (PDFE); the pole line lies 0.5072 times the equator's
/// length from the equator. As Snyder & Voxland (An Album of Map Projections,
/// USGS PP 1453, 1989) and PROJ's `robin` state it:
/// x = 0.8487 · PLEN(φ) · λ and y = 1.3523 · PDFE(φ), where 1.3523 is
/// 0.5072 · 0.8487 · π rounded as published.
///
/// Robinson leaves the interpolation between rows open. We follow PROJ: its
/// per-row cubic coefficients are those of the not-a-knot cubic spline
/// through the table mirrored to −90…90 (PROJ ticket 113; E. Campbell on the
/// PROJ list, May 2013). We build that spline from the table itself, in
/// double precision, so it passes through every published value, keeps PLEN
/// even and PDFE odd in latitude, and matches PROJ's (single-precision)
/// coefficients to well under a metre on the Earth.

package struct Robinson: Sendable, Hashable {
    /// The meridian drawn straight down the middle, in degrees.
    package var centerLongitude: Double

    /// The projection centred on `centerLongitude`.
    package init(centerLongitude: Double = 0) {
        self.centerLongitude = centerLongitude
    }

    /// x east and y north on the unit sphere; the longitude is taken within
    /// 180° of the centre, so the map ends at the antimeridian of its centre.
    package func project(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        Self.project(latitude: latitude, offset: MapProjection.offset(longitude: longitude, from: centerLongitude))
    }

    /// The position of a point `offset` degrees east of the central meridian.
    package static func project(latitude: Double, offset: Double) -> (x: Double, y: Double) {
        let phi = min(90, max(-90, latitude))
        return (0.8487 * plen.value(at: phi) * offset * .pi / 180, 1.3523 * pdfe.value(at: phi))
    }

    /// Half the length of the equator on the map (the antimeridian's x).
    package static let halfWidth = project(latitude: 0, offset: 180).x
    /// The pole line's y.
    package static let halfHeight = project(latitude: 90, offset: 0).y

    // Robinson's table, 0°, 5°, … 90°, as Snyder & Voxland (1989) and PROJ print it.
    private static let plenTable: [Double] = [
        1.0000, 0.9986, 0.9954, 0.9900, 0.9822, 0.9730, 0.9600, 0.9427, 0.9216, 0.8962,
        0.8679, 0.8350, 0.7986, 0.7597, 0.7186, 0.6732, 0.6213, 0.5722, 0.5322,
    ]
    private static let pdfeTable: [Double] = [
        0.0000, 0.0620, 0.1240, 0.1860, 0.2480, 0.3100, 0.3720, 0.4340, 0.4958, 0.5571,
        0.6176, 0.6769, 0.7346, 0.7903, 0.8435, 0.8936, 0.9394, 0.9761, 1.0000,
    ]
    private static let plen = TableSpline(step: 5, values: plenTable.reversed() + plenTable.dropFirst())
    private static let pdfe = TableSpline(step: 5, values: pdfeTable.reversed().map { -$0 } + pdfeTable.dropFirst())
}

/// The not-a-knot cubic spline through values at −90, −90 + step, … degrees:
/// the third derivative is continuous across the second and the last-but-one
/// node, so no curvature is imposed at the ends.
private struct TableSpline: Sendable {
    package let step: Double
    package let values: [Double]
    /// The second derivative at each node.
    package let curvatures: [Double]

    package init(step: Double, values: [Double]) {
        self.step = step
        self.values = values
        // Continuity of the slope at each inner node: M[i-1] + 4 M[i] + M[i+1] = r[i]
        // for equal steps. Not-a-knot makes M[0] = 2 M[1] − M[2] (and the same at
        // the far end), which turns the first and last rows into 6 M = r.
        let n = values.count, last = n - 2
        var rhs = [Double](repeating: 0, count: n)
        for i in 1...last {
            rhs[i] = 6 * (values[i + 1] - 2 * values[i] + values[i - 1]) / (step * step)
        }
        var diagonal = [Double](repeating: 4, count: n), upper = [Double](repeating: 1, count: n)
        diagonal[1] = 6
        upper[1] = 0
        diagonal[last] = 6
        // The Thomas algorithm; the sub-diagonal is 1 except on the last row.
        for i in 2...last {
            let lower = i == last ? 0.0 : 1.0, factor = lower / diagonal[i - 1]
            diagonal[i] -= factor * upper[i - 1]
            rhs[i] -= factor * rhs[i - 1]
        }
        var curvatures = [Double](repeating: 0, count: n)
        curvatures[last] = rhs[last] / diagonal[last]
        for i in stride(from: last - 1, through: 1, by: -1) {
            curvatures[i] = (rhs[i] - upper[i] * curvatures[i + 1]) / diagonal[i]
        }
        curvatures[0] = 2 * curvatures[1] - curvatures[2]
        curvatures[n - 1] = 2 * curvatures[last] - curvatures[last - 1]
        self.curvatures = curvatures
    }

    package func value(at latitude: Double) -> Double {
        let position = (latitude + 90) / step
        let index = min(values.count - 2, max(0, Int(position.rounded(.down))))
        let b = position - Double(index), a = 1 - b
        return a * values[index] + b * values[index + 1]
            + ((a * a * a - a) * curvatures[index] + (b * b * b - b) * curvatures[index + 1]) * step * step / 6
    }
}
