/// A pseudocylindrical world map (Equal Earth or Robinson) fitted into an
/// image: the whole globe, centred, as large as fits inside a margin. Such a
/// map does not wrap: it ends at the antimeridian of its centre, the seam.

package struct GlobeProjection: Sendable, Hashable {
    /// Which projection; never ``MapProjection/plateCarree``.
    package let kind: MapProjection
    /// The meridian down the middle, in degrees.
    package let centerLongitude: Double
    /// Image width in pixels.
    package let width: Double
    /// Image height in pixels.
    package let height: Double
    /// Pixels per unit of the unit-sphere projection.
    package let pixelsPerUnit: Double

    /// The margin around the globe: 1.5% of the shorter side, at least a pixel,
    /// so the outline's stroke is never cut by the image edge.
    package static func margin(width: Double, height: Double) -> Double {
        max(1, 0.015 * min(width, height))
    }

    /// `kind` centred on `centerLongitude` in a `width` × `height` image.
    package init(kind: MapProjection, centerLongitude: Double, width: Double, height: Double) {
        precondition(kind != .plateCarree, "plate carrée has its own projection")
        self.kind = kind
        self.centerLongitude = centerLongitude
        self.width = width
        self.height = height
        let margin = Self.margin(width: width, height: height)
        let (halfWidth, halfHeight) = Self.halfSize(kind)
        pixelsPerUnit = max(0, min((width - 2 * margin) / (2 * halfWidth), (height - 2 * margin) / (2 * halfHeight)))
    }

    private static func halfSize(_ kind: MapProjection) -> (Double, Double) {
        kind == .robinson ? (Robinson.halfWidth, Robinson.halfHeight) : (EqualEarth.halfWidth, EqualEarth.halfHeight)
    }

    /// The pixel position of a point `offset` degrees east of the central
    /// meridian (−180…180; the seam is at both ends).
    package func point(latitude: Double, offset: Double) -> PixelPoint {
        let unit = kind == .robinson ? Robinson.project(latitude: latitude, offset: offset)
            : EqualEarth.project(latitude: latitude, offset: offset)
        return PixelPoint(x: width / 2 + unit.x * pixelsPerUnit, y: height / 2 - unit.y * pixelsPerUnit)
    }

    /// The pixel position of a geographic point; a longitude on the seam is
    /// drawn on the edge its sign gives (−180° from the centre on the left,
    /// +180° on the right).
    package func project(latitude: Double, longitude: Double) -> PixelPoint {
        point(latitude: latitude, offset: MapProjection.offset(longitude: longitude, from: centerLongitude))
    }

    /// The parallel drawn along pixel row `y`, and the pixels a degree of longitude takes
    /// on it (a pseudocylindrical projection's parallels are straight, and evenly
    /// divided); `nil` above the north pole line or below the south one. Found by
    /// bisection on the forward projection, so it is its exact inverse whatever the kind.
    package func parallel(atY y: Double) -> (latitude: Double, pixelsPerDegree: Double)? {
        let north = point(latitude: 90, offset: 0).y, south = point(latitude: -90, offset: 0).y
        guard y >= north, y <= south else { return nil }
        var low = -90.0, high = 90.0
        // 60 halvings take 180° below a nanodegree.
        for _ in 0..<60 {
            let middle = (low + high) / 2
            if point(latitude: middle, offset: 0).y > y { low = middle } else { high = middle }
        }
        let latitude = (low + high) / 2
        return (latitude, point(latitude: latitude, offset: 1).x - point(latitude: latitude, offset: 0).x)
    }

    /// The globe's edge as a closed ring of pixels, clockwise on screen: the
    /// seam's eastern side down from the north pole every degree, the south
    /// pole line, the western side up, the north pole line.
    package var outline: [PixelPoint] {
        let south = stride(from: 90.0, through: -90, by: -1).map { point(latitude: $0, offset: 180) }
        let north = stride(from: -90.0, through: 90, by: 1).map { point(latitude: $0, offset: -180) }
        return south + north + [south[0]]
    }
}
