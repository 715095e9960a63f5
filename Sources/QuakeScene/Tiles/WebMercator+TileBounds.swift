import Foundation
import QuakeModel
import QuakeGeo

// Here, not beside the projection: a tile is this stage's idea, and the
// projection (an earlier stage) does not need to know it.
extension WebMercator {
    /// The longitude and latitude box a tile covers.
    package static func bounds(of tile: TileID) -> GeoBox {
        let side = Double(1 << tile.zoom)
        func latitude(_ row: Int) -> Double { atan(sinh(.pi * (1 - 2 * Double(row) / side))) * 180 / .pi }
        return GeoBox(uncheckedWest: Double(tile.x) / side * 360 - 180, south: latitude(tile.y + 1),
                      east: Double(tile.x + 1) / side * 360 - 180, north: latitude(tile.y))
    }
}
