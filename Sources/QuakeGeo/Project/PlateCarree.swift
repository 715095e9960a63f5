// Project/ — longitude and latitude to pixels: Plate Carrée for maps, Web Mercator for tiles.
import QuakeModel


/// A point in image pixels: x to the right, y down, (0, 0) the top-left corner.
public struct PixelPoint: Sendable, Hashable, Codable {
    /// Pixels from the left edge.
    public var x: Double
    /// Pixels from the top edge.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The plate carrée (equirectangular) projection of a longitude/latitude box
/// onto a `width` × `height` image, linear in both axes:
/// x = ((lon − west) mod 360) / span · W and y = (north − lat) / (north − south) · H.
///
/// The whole world (the default) puts longitude −180 at the left pixel edge and
/// +180 at the right one; a box may cross the antimeridian, and a world map may
/// be centred on any meridian.
package struct PlateCarree: Sendable, Hashable {
    /// Image width in pixels.
    package let width: Double
    /// Image height in pixels.
    package let height: Double
    /// The longitude at the left edge.
    package let west: Double
    /// Degrees of longitude across the image (360 for a world map).
    package let longitudeSpan: Double
    /// The latitude at the top edge.
    package let north: Double
    /// The latitude at the bottom edge.
    package let south: Double

    /// The whole world, −180 at the left edge.
    package init(width: Double, height: Double) {
        self.init(region: .world, width: width, height: height)
    }

    /// The box `region` stretched over the image.
    package init(region: GeoBox, width: Double, height: Double) {
        self.width = width
        self.height = height
        self.west = region.west
        self.longitudeSpan = region.longitudeSpan
        self.north = region.north
        self.south = region.south
    }

    /// The whole world centred on `centerLongitude` (e.g. 150 for the Pacific).
    package init(centerLongitude: Double, width: Double, height: Double) {
        self.width = width
        self.height = height
        self.west = centerLongitude - 180
        self.longitudeSpan = 360
        self.north = 90
        self.south = -90
    }

    /// Whether the image spans the whole turn of longitude, so that the world wraps.
    package var wraps: Bool { longitudeSpan >= 360 }

    /// The pixel position of a geographic point. The longitude is taken modulo
    /// 360 east of the left edge, so a box across the antimeridian is continuous.
    package func project(latitude: Double, longitude: Double) -> PixelPoint {
        // A remainder, not a loop: a loop never ends on a huge or infinite longitude.
        var offset = (longitude - west).truncatingRemainder(dividingBy: 360)
        if offset < 0 { offset += 360 }
        if offset == 0 && longitude - west > 0 { offset = 360 }
        return PixelPoint(x: offset / longitudeSpan * width, y: (north - latitude) / (north - south) * height)
    }

    /// The pixel position without taking the longitude modulo 360, for shapes
    /// that are drawn again shifted by whole turns.
    package func projectUnwrapped(latitude: Double, longitude: Double) -> PixelPoint {
        PixelPoint(x: (longitude - west) / longitudeSpan * width, y: (north - latitude) / (north - south) * height)
    }

    /// The longitude at pixel column `x` (not taken modulo 360) and the latitude at row `y`:
    /// the inverse of ``projectUnwrapped(latitude:longitude:)``.
    package func geographic(x: Double, y: Double) -> (latitude: Double, longitude: Double) {
        (north - y / height * (north - south), west + x / width * longitudeSpan)
    }

    /// The horizontal pixel distance of a full turn of longitude.
    package var wrapWidth: Double { 360 / longitudeSpan * width }
}
