import Foundation

/// The spherical Web Mercator projection (EPSG:3857) of XYZ map tiles: at
/// zoom `z` the world is a square of `tileSize · 2^z` pixels, x from −180° at
/// the left, y from about 85.05° N at the top (the latitude that makes the
/// world square) to 85.05° S at the bottom.
package struct WebMercator: Sendable, Hashable {
    /// The northernmost (and, negated, southernmost) latitude shown: atan(sinh π).
    package static let maximumLatitude = 85.051_128_779_806_59

    /// The zoom level.
    package let zoom: Int
    /// Pixels along a tile's side.
    package let tileSize: Int

    /// The projection at `zoom` (0…30) for tiles of `tileSize` pixels.
    package init(zoom: Int, tileSize: Int = 256) {
        precondition((0...30).contains(zoom) && tileSize > 0, "zoom 0…30, positive tile size")
        self.zoom = zoom
        self.tileSize = tileSize
    }

    /// Tiles along each side of the world.
    package var tilesPerSide: Int { 1 << zoom }

    /// Pixels along each side of the world.
    package var worldSize: Double { Double(tileSize) * Double(tilesPerSide) }

    /// The pixel position of a point in the whole world's image; latitudes
    /// beyond ±``maximumLatitude`` land on the top or bottom edge, longitudes
    /// are taken modulo 360 into [0, ``worldSize``).
    package func project(latitude: Double, longitude: Double) -> PixelPoint {
        var turn = ((longitude + 180) / 360).truncatingRemainder(dividingBy: 1)
        if turn < 0 { turn += 1 }
        return PixelPoint(x: turn * worldSize, y: projectUnwrapped(latitude: latitude, longitude: 0).y)
    }

    /// The pixel position of a point, longitudes not wrapped: −180° is x 0 and
    /// 180° is x ``worldSize``, so a polygon that reaches 180° (Natural
    /// Earth's land is cut there) keeps its shape.
    package func projectUnwrapped(latitude: Double, longitude: Double) -> PixelPoint {
        let clamped = min(max(latitude, -Self.maximumLatitude), Self.maximumLatitude) * .pi / 180
        let y = (1 - log(tan(clamped) + 1 / cos(clamped)) / .pi) / 2
        return PixelPoint(x: (longitude + 180) / 360 * worldSize, y: min(max(y, 0), 1) * worldSize)
    }
}
