extension GeoBox {
    /// The smallest box holding `points`, widened by `margin` (a fraction of
    /// each side's span, at least `minimumMargin` degrees): the region a set of
    /// events occupies. Longitudes wrap: points on both sides of 180° give a
    /// box across the antimeridian, not one round the world. `nil` without
    /// points, or when they spread over more than 300° of longitude (the world
    /// shows them better).
    package static func enclosing(_ points: [GeoPoint], margin: Double = 0.1, minimumMargin: Double = 1) -> GeoBox? {
        let latitudes = points.map(\.latitude), longitudes = points.map(\.longitude).sorted()
        guard let south = latitudes.min(), let north = latitudes.max(), let first = longitudes.first,
              let last = longitudes.last else { return nil }
        // The widest empty arc between neighbouring longitudes (the wrap included) is outside the box.
        var gap = first + 360 - last, west = first, east = last
        for (a, b) in zip(longitudes, longitudes.dropFirst()) where b - a > gap {
            gap = b - a
            west = b
            east = a
        }
        let span = 360 - gap
        guard span <= 300 else { return nil }
        let padX = max(span * margin, minimumMargin), padY = max((north - south) * margin, minimumMargin)
        guard span + 2 * padX < 359 else { return nil }
        func wrapped(_ longitude: Double) -> Double {
            longitude > 180 ? longitude - 360 : (longitude < -180 ? longitude + 360 : longitude)
        }
        return GeoBox(uncheckedWest: wrapped(west - padX), south: max(-90, south - padY),
                      east: wrapped(east + padX), north: min(90, north + padY))
    }
}
