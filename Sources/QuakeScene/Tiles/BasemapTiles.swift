// Tiles/ — scenes for Web Mercator XYZ tiles: which tiles each event's circle touches, each tile's
// circles, and land tiles for the server's web map.
import QuakeParse
import QuakeGeo
import QuakeModel


/// Land and sea as Web Mercator XYZ tiles, in the maps' colours: the base
/// layer under event tiles in a web map that has no other (offline, say).
///
/// The built-in Natural Earth land is drawn at the detail a map of the same
/// scale would use; it is simplified to 0.05°, so zooms past
/// ``maximumZoom`` would add nothing but cost (a client scales the
/// deepest tiles up instead).
package struct BasemapTiles: Sendable {
    /// The deepest zoom drawn: the detailed land's 0.05° is about 2 pixels here.
    package static let maximumZoom = 8

    /// Pixels along a tile's side.
    package let tileSize: Int
    /// Sea, land and coastline colours.
    package let palette: MapPalette

    /// Tiles of `tileSize` pixels in `palette`'s colours.
    package init(tileSize: Int = 256, palette: MapPalette = .standard) {
        precondition(tileSize > 0, "a positive tile size")
        self.tileSize = tileSize
        self.palette = palette
    }

    /// The tile as a scene: the sea as background, the land polygons that
    /// reach the tile, and their coasts (not Natural Earth's cuts at ±180°
    /// and −90°, as on maps).
    package func scene(for tile: TileID) -> MapScene {
        precondition(tile.zoom <= Self.maximumZoom, "a zoom level 0…\(Self.maximumZoom)")
        let projection = WebMercator(zoom: tile.zoom, tileSize: tileSize)
        let size = Double(tileSize)
        let left = Double(tile.x) * size, top = Double(tile.y) * size
        let basemap = Basemap.naturalEarth(pixelsPerDegree: projection.worldSize / 360)
        let bounds = WebMercator.bounds(of: tile)
        // Coasts as thin as on a map at this scale, never thinner than a hairline.
        let coastWidth = 0.6
        var rings: [[PixelPoint]] = []
        var coasts: [SceneLine] = []
        // A coast's stroke may reach a little past its polygon.
        let margin = coastWidth / size * (bounds.east - bounds.west)
        for polygon in basemap.land {
            // Tested in degrees first: projecting is the costly part.
            guard let outline = polygon.rings.first, !outline.isEmpty,
                  outline.contains(where: { $0.longitude >= bounds.west - margin }),
                  outline.contains(where: { $0.longitude <= bounds.east + margin }),
                  outline.contains(where: { $0.latitude >= bounds.south - margin }),
                  outline.contains(where: { $0.latitude <= bounds.north + margin }) else { continue }
            let projected = polygon.rings.map { ring in
                ring.map { point in
                    let world = projection.projectUnwrapped(latitude: point.latitude, longitude: point.longitude)
                    return PixelPoint(x: world.x - left, y: world.y - top)
                }
            }
            rings.append(contentsOf: projected)
            for (ring, pixels) in zip(polygon.rings, projected) {
                for run in SceneBuilder.coastalRuns(ring) {
                    coasts.append(SceneLine(points: Array(pixels[run]), stroke: palette.coastline, width: coastWidth))
                }
            }
        }
        // One path for all land, as on maps: touching polygons leave no seam.
        let land = rings.isEmpty ? [] : [ScenePolygon(rings: rings, fill: palette.land)]
        return MapScene(width: tileSize, height: tileSize, background: palette.ocean, polygons: land, lines: coasts,
                        circles: [])
    }
}
