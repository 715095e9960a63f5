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

/// `--basemap relief`: the built-in ETOPO1 raster, drawn where each projection puts it,
/// with the trenches darker than the plains beside them.
@Suite("Relief basemap", .timeLimit(.minutes(10)))
struct ReliefTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The map of `options` without events, drawn.
    static func image(_ options: MapOptions) throws -> RasterImage {
        try MapRenderer().image(for: SceneBuilder(options: options).scene(for: [SeismicEvent]()))
    }

    static func luminance(_ image: RasterImage, _ point: PixelPoint) -> Double {
        let pixel = image.pixel(x: Int(point.x), y: Int(point.y))
        return 0.2126 * Double(pixel.red) + 0.7152 * Double(pixel.green) + 0.0722 * Double(pixel.blue)
    }

    /// The compiled-in raster is the data file, byte for byte, and holds only the values
    /// scripts/make_relief.py writes: sea 0…63, land 128…191, about two thirds sea.
    @Test func builtInReliefIsTheDataFile() throws {
        let embedded = ReliefRaster.embeddedPNG
        let file = try Data(contentsOf: Self.root.appendingPathComponent("Data/relief/etopo1_relief.png"))
        #expect(embedded == file)
        let raster = ReliefRaster.builtIn
        #expect(raster.width == 2700 && raster.height == 1350 && raster.values.count == 2700 * 1350)
        var histogram = [Int](repeating: 0, count: 256)
        for value in raster.values { histogram[Int(value)] += 1 }
        let stray = histogram.indices.filter { histogram[$0] > 0 && !((0..<64).contains($0) || (128..<192).contains($0)) }
        #expect(stray.isEmpty, "values no level stands for: \(stray)")
        let sea = Double(histogram[0..<64].reduce(0, +)) / Double(raster.values.count)
        #expect((0.6...0.72).contains(sea), "sea share \(sea)")
    }

    /// The Mariana Trench is plainly darker than the Pacific floor east of it and the
    /// Philippine Sea plain west of it, on a region map of the western Pacific.
    @Test func marianaTrenchIsDarkerThanThePlainBesideIt() throws {
        let options = MapOptions(width: 1400, region: try GeoBox(west: 125, south: 5, east: 160, north: 45), basemap: .relief,
                                 showsLegend: false, plateBoundaries: nil, labelCount: 0)
        let image = try Self.image(options)
        let projection = options.projection
        func light(_ latitude: Double, _ longitude: Double) -> Double {
            Self.luminance(image, projection.project(latitude: latitude, longitude: longitude))
        }
        // Along the trench axis (Challenger Deep, and north of it), and the plains.
        let trench = [light(11.35, 142.3), light(13.0, 146.8), light(17.0, 148.2)]
        let plains = [light(15.0, 150.5), light(12.0, 152.0), light(16.0, 137.0)]
        for depth in trench {
            for plain in plains { #expect(depth < 0.8 * plain, "trench \(trench) against plains \(plains)") }
        }
        // Land is lighter than any sea floor here (Honshu's mountains).
        #expect(light(36.0, 138.5) > 1.5 * plains.max()!)
    }

    /// Every projection draws at a place the colour the raster has there: pixels found by
    /// the forward projection (the drawing goes the other way, pixel → place), compared with
    /// the raster's own colour at that place.
    @Test func reliefIsWhereEachProjectionPutsThePlace() throws {
        let raster = ReliefRaster.builtIn, colours = ReliefPalette.standard.colours
        func expected(_ latitude: Double, _ longitude: Double) -> Double {
            var column = Int(((longitude + 180) / 360 * Double(raster.width)).rounded(.down)) % raster.width
            if column < 0 { column += raster.width }
            let row = min(raster.height - 1, Int((90 - latitude) / 180 * Double(raster.height)))
            let colour = colours[Int(raster.values[row * raster.width + column])]
            return 255 * (0.2126 * colour.red + 0.7152 * colour.green + 0.0722 * colour.blue)
        }
        let places = stride(from: -70.0, through: 70, by: 7).flatMap { latitude in
            stride(from: -177.0, through: 177, by: 11).map { (latitude, $0) }
        }
        let maps: [(String, MapOptions)] = [
            ("plate carrée", MapOptions(width: 2700, basemap: .relief, showsLegend: false, plateBoundaries: nil, labelCount: 0)),
            ("centred on 150°", MapOptions(width: 2700, centerLongitude: 150, basemap: .relief, showsLegend: false,
                                          plateBoundaries: nil, labelCount: 0)),
            ("Robinson", MapOptions(width: 2800, centerLongitude: -30, mapProjection: .robinson, basemap: .relief,
                                    showsLegend: false, plateBoundaries: nil, labelCount: 0)),
            ("Equal Earth", MapOptions(width: 2800, mapProjection: .equalEarth, basemap: .relief, showsLegend: false,
                                       plateBoundaries: nil, labelCount: 0)),
        ]
        for (name, options) in maps {
            let image = try Self.image(options)
            let geometry = options.geometry
            var near = 0, compared = 0
            for (latitude, longitude) in places {
                let point = geometry.point(latitude: latitude, longitude: longitude)
                guard point.x >= 1, point.y >= 1, point.x < Double(image.width - 1), point.y < Double(image.height - 1) else { continue }
                compared += 1
                // Within a few levels: the map samples between raster pixels, and a coastline may pass.
                if abs(Self.luminance(image, point) - expected(latitude, longitude)) <= 12 { near += 1 }
            }
            #expect(compared > 300, "\(name): \(compared) places on the map")
            #expect(Double(near) >= 0.9 * Double(compared), "\(name): \(near) of \(compared) places drawn in their colour")
        }
        // Off the globe, a Robinson map stays transparent.
        let robinson = try Self.image(maps[2].1)
        #expect(robinson.pixel(x: 2, y: 2).alpha == 0)
    }

    /// A box across the antimeridian draws both sides: Fiji's side and Samoa's are the
    /// raster's, not a copy of one.
    @Test func aBoxAcrossTheAntimeridianIsContinuous() throws {
        let options = MapOptions(width: 1200, region: try GeoBox(west: 160, south: -40, east: -160, north: 0), basemap: .relief,
                                 showsLegend: false, plateBoundaries: nil, labelCount: 0)
        let image = try Self.image(options)
        let projection = options.projection
        // The Tonga Trench (east of 180°) is darker than the Lau Basin west of it; New Zealand's land is lighter.
        let tonga = Self.luminance(image, projection.project(latitude: -23.0, longitude: -174.6))
        let lau = Self.luminance(image, projection.project(latitude: -19.0, longitude: -178.0))
        let newZealand = Self.luminance(image, projection.project(latitude: -38.5, longitude: 176.0))
        #expect(tonga < 0.8 * lau && newZealand > 1.5 * lau, "Tonga \(tonga), Lau \(lau), New Zealand \(newZealand)")
    }

    /// The footer credits the relief beside Natural Earth's coastlines, and a relief map
    /// fills no land polygons (the relief is the land).
    @Test func reliefIsCreditedAndReplacesTheLandFill() throws {
        let scene = SceneBuilder(options: MapOptions(width: 1200, basemap: .relief))
            .scene(for: [Fixtures.event("x", latitude: 0, longitude: 0, magnitude: 5)])
        let footer = scene.overlay.texts.map(\.text).first { $0.contains("events") || $0.contains("event") } ?? ""
        #expect(footer.contains("Relief: NOAA ETOPO1") && footer.contains("Natural Earth"), "\(footer)")
        #expect(scene.polygons.isEmpty && scene.relief != nil && !scene.lines.isEmpty)
        let flat = SceneBuilder(options: MapOptions(width: 1200)).scene(for: [Fixtures.event("x", magnitude: 5)])
        #expect(flat.relief == nil && !flat.polygons.isEmpty)
    }
}
