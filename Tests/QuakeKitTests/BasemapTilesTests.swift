import Foundation
import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

/// Land and sea tiles: known places land where they should, in the maps'
/// colours, and land cut at 180° is not drawn across the world.
@Suite("Basemap tiles", .timeLimit(.minutes(10)))
struct BasemapTilesTests {
    let tiles = BasemapTiles()

    /// The colour at a place, on the tile of `zoom` that holds it.
    private func colour(latitude: Double, longitude: Double, zoom: Int) throws -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let world = WebMercator(zoom: zoom).project(latitude: latitude, longitude: longitude)
        let tile = try TileID(zoom: zoom, x: Int(world.x / 256), y: Int(world.y / 256))
        let image = try MapRenderer().image(for: tiles.scene(for: tile))
        return image.pixel(x: Int(world.x) % 256, y: Int(world.y) % 256)
    }

    private func isLand(_ pixel: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> Bool {
        let land = MapPalette.standard.land
        return abs(Double(pixel.red) - land.red * 255) <= 2 && abs(Double(pixel.green) - land.green * 255) <= 2
            && abs(Double(pixel.blue) - land.blue * 255) <= 2
    }

    private func isSea(_ pixel: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> Bool {
        let sea = MapPalette.standard.ocean
        return abs(Double(pixel.red) - sea.red * 255) <= 2 && abs(Double(pixel.green) - sea.green * 255) <= 2
            && abs(Double(pixel.blue) - sea.blue * 255) <= 2
    }

    // Zoom 0 only where the place is far from any coast at 0.7 pixels a degree.
    @Test(arguments: [
        ("Congo basin", 0.0, 22.0, 0), ("Sahara", 23.0, 10.0, 0), ("Kansas", 38.5, -98.0, 0), ("Siberia", 62.0, 100.0, 0),
        ("Chukotka, west of 180°", 66.5, 177.0, 2), ("Chukotka, east of 180°", 66.0, -175.0, 2), ("Australia", -25.0, 134.0, 0),
        ("Antarctica", -80.0, 40.0, 0), ("Greenland", 72.0, -40.0, 0),
    ])
    func landIsLand(_ place: String, _ latitude: Double, _ longitude: Double, _ fromZoom: Int) throws {
        for zoom in [0, 2, 5] where zoom >= fromZoom {
            let pixel = try colour(latitude: latitude, longitude: longitude, zoom: zoom)
            #expect(isLand(pixel) && pixel.alpha == 255, "\(place) at zoom \(zoom): \(pixel)")
        }
    }

    @Test(arguments: [
        ("mid-Pacific", 0.0, -150.0), ("North Pacific, near 180°", 40.0, 179.5), ("South Pacific, near −180°", -40.0, -179.5),
        ("Bering Sea", 58.0, -178.0), ("mid-Atlantic", 30.0, -40.0), ("Indian Ocean", -20.0, 80.0), ("Arctic Ocean", 84.0, 0.0),
    ])
    func seaIsSea(_ place: String, _ latitude: Double, _ longitude: Double) throws {
        // A polygon wrapped the wrong way round at 180° would paint the open sea here.
        for zoom in [0, 2, 5] {
            let pixel = try colour(latitude: latitude, longitude: longitude, zoom: zoom)
            #expect(isSea(pixel) && pixel.alpha == 255, "\(place) at zoom \(zoom): \(pixel)")
        }
    }

    @Test func detailFollowsTheScaleOfAMap() {
        // The same threshold as maps: 10 pixels a degree.
        #expect(Basemap.naturalEarth(pixelsPerDegree: 256 * 8 / 360.0) == .naturalEarth110m)
        #expect(Basemap.naturalEarth(pixelsPerDegree: 256 * 16 / 360.0) == .naturalEarthDetailed)
    }

    @Test func aTileOfOpenSeaIsAllSea() throws {
        // Zoom 6 around 10° S, 130° W: the South Pacific, no island in the tile (the
        // Americas' polygon is tested, as its box reaches here, but draws nothing).
        let world = WebMercator(zoom: 6).project(latitude: -10, longitude: -130)
        let image = try MapRenderer().image(for: tiles.scene(for: try TileID(zoom: 6, x: Int(world.x / 256), y: Int(world.y / 256))))
        let notSea = stride(from: 0, to: 256 * 256, by: 1).filter { !isSea(image.pixel(x: $0 % 256, y: $0 / 256)) }
        #expect(notSea.isEmpty)
    }
}
