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

@Suite("Web Mercator tiles", .timeLimit(.minutes(10)))
struct TileTests {
    static func mapEvents(_ count: Int, seed: UInt64 = 7) -> [MapEvent] {
        StampedCirclesTests.events(count, seed: seed).compactMap(MapEvent.init)
    }

    @Test func projectsKnownPoints() {
        let zoom0 = WebMercator(zoom: 0)
        #expect(zoom0.project(latitude: 0, longitude: 0) == PixelPoint(x: 128, y: 128))
        #expect(zoom0.project(latitude: 0, longitude: -180).x == 0)
        #expect(zoom0.project(latitude: WebMercator.maximumLatitude, longitude: 0).y.magnitude < 1e-9)
        #expect(zoom0.project(latitude: 90, longitude: 0).y.magnitude < 1e-9, "beyond the square world: the top edge")
        #expect(abs(zoom0.project(latitude: -90, longitude: 0).y - 256) < 1e-9)
        // Berlin at zoom 10 is tile 550/335 (the OpenStreetMap wiki's worked example).
        let berlin = WebMercator(zoom: 10).project(latitude: 52.52, longitude: 13.405)
        #expect(Int(berlin.x / 256) == 550 && Int(berlin.y / 256) == 335)
        // Longitudes wrap; 180 is the left edge again.
        #expect(zoom0.project(latitude: 0, longitude: 180).x == 0)
        #expect(abs(zoom0.project(latitude: 0, longitude: 540 + 90).x - 64) < 1e-9)
        let box = WebMercator.bounds(of: try! TileID(zoom: 1, x: 1, y: 0))
        #expect(box.west == 0 && box.east == 180 && box.south.magnitude < 1e-9)
        #expect(abs(box.north - WebMercator.maximumLatitude) < 1e-9)
    }

    @Test func checksTileAddressesAndZoomRanges() throws {
        #expect(throws: TileError.outOfRange(zoom: 2, x: 4, y: 0)) { try TileID(zoom: 2, x: 4, y: 0) }
        #expect(throws: TileError.outOfRange(zoom: 31, x: 0, y: 0)) { try TileID(zoom: 31, x: 0, y: 0) }
        #expect(try TileID(zoom: 3, x: 1, y: 1).tmsRow == 6)
        #expect(try TileOptions.zoomRange(parsing: "0-6") == 0...6)
        #expect(try TileOptions.zoomRange(parsing: "4") == 4...4)
        for bad in ["6-0", "", "-", "a", "-1", "0-19", "1-2-3", "٣"] {
            #expect(throws: TileError.invalidZoomRange(bad, limit: 18)) { try TileOptions.zoomRange(parsing: bad, limit: 18) }
        }
        #expect(throws: TileError.invalidTileSize(300)) { try TileOptions(tileSize: 300) }
        #expect(throws: TileError.invalidTileLimit(0)) { try TileOptions(tileLimit: 0) }
    }

    /// The tiles of a zoom level laid side by side are the whole world drawn at
    /// once: no circle is cut at a seam, none is missing, none drawn twice.
    @Test(arguments: [1, 2])
    func tilesAssembleIntoTheWholeWorld(zoom: Int) throws {
        var events = Self.mapEvents(600)
        // On the antimeridian, on a seam, in a corner, on the poles.
        for (index, (latitude, longitude)) in [(0.0, 179.9), (10, -179.95), (0, 0), (85, 90), (-89, -90), (0.05, 90)].enumerated() {
            events.append(MapEvent(id: "edge\(index)", time: Date(timeIntervalSince1970: 1_900_000_000),
                                   latitude: latitude, longitude: longitude, magnitude: 8))
        }
        let options = try TileOptions(tileLimit: nil)
        let layer = TileLayer(events: events, zoom: zoom, options: options)
        let side = 1 << zoom, size = 256 * side
        var mosaic = [UInt8](repeating: 0, count: size * size * 4)
        for tile in layer.tiles {
            let image = try MapRenderer().image(for: layer.scene(for: tile))
            for row in 0..<256 {
                let target = ((tile.y * 256 + row) * size + tile.x * 256) * 4
                mosaic.replaceSubrange(target..<target + 1024, with: image.rgba[row * 1024..<(row + 1) * 1024])
            }
        }
        // The reference: every circle at its whole-world position, plus its copies a turn east and west.
        let projection = WebMercator(zoom: zoom)
        let reference = TileLayer.referenceCircles(events, projection: projection, options: options)
        let whole = try MapRenderer().image(for: MapScene(width: size, height: size, background: nil, polygons: [],
                                                          circles: reference))
        let difference = PixelDifference(mosaic, whole.rgba)
        #expect(difference.meanPerChannel < 0.01, "mean \(difference.meanPerChannel)/255")
        #expect(difference.fractionBeyond8 == 0)
        #expect(layer.tiles.count == side * side, "600 events reach every tile at zoom \(zoom)")
    }

    @Test func keepsTheLargestMagnitudesOfACrowdedTileAndNeighboursAgree() throws {
        // Ten events in tile 2/2/1 (east of 0°, north of the equator), the largest
        // on its western edge so that its circle reaches tile 2/1/1.
        var events = (0..<9).map { index in
            MapEvent(id: "small\(index)", time: Date(timeIntervalSince1970: Double(index)), latitude: 30,
                     longitude: 45 + Double(index), magnitude: 3 + Double(index) / 10)
        }
        events.append(MapEvent(id: "large", time: Date(timeIntervalSince1970: 0), latitude: 30, longitude: 0.5, magnitude: 7))
        let options = try TileOptions(tileLimit: 3)
        let layer = TileLayer(events: events, zoom: 2, options: options)
        #expect(layer.droppedByLimit == 7)
        let home = layer.scene(for: try TileID(zoom: 2, x: 2, y: 1)).circles.map(\.eventID)
        #expect(Set(home) == ["large", "small8", "small7"])
        #expect(home.first == "large", "largest drawn first, at the bottom")
        let west = layer.scene(for: try TileID(zoom: 2, x: 1, y: 1)).circles.map(\.eventID)
        #expect(west == ["large"], "the neighbour draws the kept circle that reaches it, and only that")

        let tighter = TileLayer(events: events, zoom: 2, options: try TileOptions(tileLimit: 1))
        #expect(tighter.scene(for: try TileID(zoom: 2, x: 2, y: 1)).circles.map(\.eventID) == ["large"])
        #expect(tighter.tiles == [try TileID(zoom: 2, x: 1, y: 1), try TileID(zoom: 2, x: 2, y: 1)],
                "tiles no circle touches are empty")
    }

    @Test func aTileOnlyTheBoundingSquareReachesIsEmpty() throws {
        // At zoom 1 (512 px), a 12 px circle centred 4.5 px from tile 1/1/1's corner
        // reaches tiles 1/1/0 and 1/0/1 across their edges but not 1/1/1 across the corner.
        func point(_ x: Double, _ y: Double) -> (latitude: Double, longitude: Double) {
            (atan(sinh(.pi * (1 - 2 * y / 512))) * 180 / .pi, x / 512 * 360 - 180)
        }
        let (latitude, longitude) = point(251.5, 251.5)
        let event = MapEvent(id: "corner", time: Date(), latitude: latitude, longitude: longitude, magnitude: 4)
        let layer = TileLayer(events: [event], zoom: 1, options: try TileOptions())
        #expect(layer.tiles == [try TileID(zoom: 1, x: 0, y: 0), try TileID(zoom: 1, x: 0, y: 1), try TileID(zoom: 1, x: 1, y: 0)])
        #expect(try layer.pngData(for: TileID(zoom: 1, x: 1, y: 1)) == nil)
    }

    @Test func aTileDrawnOnDemandEqualsTheSameTileOfTheWholeLayer() throws {
        let events = Self.mapEvents(3_000, seed: 11)
        let options = try TileOptions(tileLimit: 40)
        let whole = TileLayer(events: events, zoom: 3, options: options)
        for tile in whole.tiles.prefix(12) {
            let alone = TileLayer(events: events, zoom: 3, options: options, around: tile)
            #expect(try alone.pngData(for: tile) == whole.pngData(for: tile), "\(tile)")
        }
    }

    @Test func largeTilesDrawTheSameGroundAtTwiceThePixels() throws {
        let events = [MapEvent(id: "a", time: Date(), latitude: 0, longitude: 0, magnitude: 5)]
        let small = TileLayer(events: events, zoom: 1, options: try TileOptions(tileSize: 256))
        let large = TileLayer(events: events, zoom: 1, options: try TileOptions(tileSize: 512))
        let tile = try TileID(zoom: 1, x: 1, y: 1)
        let a = small.scene(for: tile).circles[0], b = large.scene(for: tile).circles[0]
        #expect(a.center == PixelPoint(x: 0, y: 0) && b.center == PixelPoint(x: 0, y: 0))
        #expect(b.diameter == 2 * a.diameter && a.diameter == 0.75 * 25)
        let png = try #require(try large.pngData(for: tile))
        #expect(try RasterImage(png: png).width == 512)
    }

    @Test func aPyramidIsTheSameBytesEveryTime() throws {
        let events = Self.mapEvents(2_000, seed: 3)
        let pyramid = TilePyramid(zooms: 0...3, options: try TileOptions(tileLimit: 100))
        var first: [TileID: Data] = [:], second: [TileID: Data] = [:]
        var order: [TileID] = []
        var seen: [TilePyramid.Progress] = []
        let summary = try pyramid.render(events, progress: { seen.append($0) }) { first[$0] = $1; order.append($0) }
        _ = try pyramid.render(events) { second[$0] = $1 }
        #expect(first == second)
        #expect(order == order.sorted() && order.count == first.count, "tiles come in TileID order, each once")
        #expect(summary.tiles == first.count && summary.bytes == first.values.reduce(0) { $0 + $1.count })
        #expect(seen.last == TilePyramid.Progress(zoom: 3, done: first.keys.filter { $0.zoom == 3 }.count,
                                                   total: first.keys.filter { $0.zoom == 3 }.count))
        #expect(Set(first.keys.map(\.zoom)) == [0, 1, 2, 3])
        // The pyramid ranks crowded tiles' events once for all zooms: the same
        // tiles as a layer that ranks them itself (zoom 0 holds 2,000 over a limit of 100).
        for zoom in 0...3 {
            let layer = TileLayer(events: events, zoom: zoom, options: try TileOptions(tileLimit: 100))
            #expect(layer.droppedByLimit > 0 || zoom > 0)
            for tile in layer.tiles { #expect(try layer.pngData(for: tile) == first[tile], "\(tile)") }
        }
    }
}

/// The folder writer's all-or-nothing promise, at the library level (a bad
/// feed on the command line fails before any writer exists).
@Suite("Tile folders", .timeLimit(.minutes(10)))
struct TileDirectoryWriterTests {
    static let one = try! TileID(zoom: 0, x: 0, y: 0)
    static let metadata = TileSetMetadata(name: "t", description: "test", zooms: 0...0, tileSize: 256)

    static func pyramid(in folder: URL, tile: Data) throws -> String {
        let path = folder.appendingPathComponent("tiles").path
        let writer = try TileDirectoryWriter(path: path)
        try writer.write(tile, for: one)
        try writer.commit(metadata)
        return path
    }

    @Test func aWriterDroppedWithoutCommitLeavesThePreviousPyramid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.pyramid(in: folder, tile: Data("old".utf8))
        do {
            let writer = try TileDirectoryWriter(path: path)
            try writer.write(Data("new".utf8), for: Self.one)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/0/0/0.png")) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["tiles"])
    }

    /// A run killed between its two renames leaves the old pyramid aside
    /// under the dead process's name and nothing at the path: the next
    /// writer puts it back before it sweeps abandoned folders.
    @Test func aPyramidLeftAsideByAKilledRunIsPutBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.pyramid(in: folder, tile: Data("old".utf8))
        let dead = Int32.max  // no such process
        let aside = folder.appendingPathComponent(".tiles.tmp-\(dead)-abcdef-old").path
        #expect(rename(path, aside) == 0)
        do { _ = try TileDirectoryWriter(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/0/0/0.png")) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["tiles"])
    }

    /// The writer is `Sendable`: tiles may come from several tasks at once.
    @Test func tilesWrittenFromSeveralTasksAllArrive() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("tiles").path
        let writer = try TileDirectoryWriter(path: path)
        let tiles = try (0..<4).flatMap { x in try (0..<4).map { y in try TileID(zoom: 2, x: x, y: y) } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for tile in tiles {
                group.addTask { try writer.write(Data("\(tile)".utf8), for: tile) }
            }
            try await group.waitForAll()
        }
        try writer.commit(TileSetMetadata(name: "t", description: "test", zooms: 2...2, tileSize: 256))
        for tile in tiles {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(path)/\(tile).png")) == Data("\(tile)".utf8))
        }
    }
}

extension TileLayer {
    /// Every event as a circle at its whole-world position with its copies a
    /// turn east and west, largest first: the straightforward drawing the
    /// tiles are checked against.
    static func referenceCircles(_ events: [MapEvent], projection: WebMercator, options: TileOptions) -> [SceneCircle] {
        let circles = SceneCircle.oneByOne(events, symbols: options.symbols, scale: options.scale) {
            projection.project(latitude: $0.latitude, longitude: $0.longitude)
        }
        let order = DrawingOrderTests.reference(diameters: circles.map(\.diameter),
                                         times: events.map(\.time.timeIntervalSinceReferenceDate))
        return order.flatMap { index in
            let circle = circles[Int(index)]
            return [-1.0, 0, 1].map { turn in
                var copy = circle
                copy.center.x += turn * projection.worldSize
                return copy
            }
        }
    }
}
