/// How a world map lays the globe onto the page.

public enum MapProjection: String, Sendable, Hashable, CaseIterable {
    /// Longitude and latitude as x and y (`PlateCarree`): the default, and the only
    /// projection for a region; a world map of it wraps at its left and right edges.
    case plateCarree = "plate-carree"
    /// Šavrič, Patterson & Jenny's equal-area pseudocylindrical projection (`EqualEarth`):
    /// areas are true, so a dense cluster of events far from the equator is not inflated.
    case equalEarth = "equal-earth"
    /// Robinson's compromise pseudocylindrical projection (`Robinson`).
    case robinson

    /// Width over height of the whole globe: 2 for plate carrée, about 2.05 for
    /// Equal Earth and 1.97 for Robinson. A world map without a height is this shape.
    package var aspectRatio: Double {
        switch self {
        case .plateCarree: return 2
        case .equalEarth: return EqualEarth.halfWidth / EqualEarth.halfHeight
        case .robinson: return Robinson.halfWidth / Robinson.halfHeight
        }
    }

    /// Where a longitude lies east of `centerLongitude`, in −180…180 (a remainder, so
    /// huge values end too; +180 stays +180, the right edge of the map).
    package static func offset(longitude: Double, from centerLongitude: Double) -> Double {
        var offset = (longitude - centerLongitude).truncatingRemainder(dividingBy: 360)
        if offset > 180 { offset -= 360 } else if offset < -180 { offset += 360 }
        return offset
    }
}
