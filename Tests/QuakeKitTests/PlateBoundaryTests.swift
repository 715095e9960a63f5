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

/// Peter Bird's PB2002 boundaries as built in, and as a map draws them.
@Suite("Plate boundaries", .timeLimit(.minutes(10)))
struct PlateBoundaryTests {
    static let bird = PlateBoundaries.bird2003

    static func boundary(_ name: String, from longitude: Double) -> PlateBoundary {
        bird.boundaries.first { $0.name == name && $0.points.first?.longitude == longitude }!
    }

    /// The Japan Trench, the Peru–Chile Trench (its southern part) and the Tonga Trench.
    static let japan = boundary("PA\\OK", from: 144.454)
    static let peruChile = boundary("NZ\\SA", from: -76.006)
    static let tonga = boundary("TO/PA", from: -174.985)

    @Test func theBuiltInModelHasBirdsLinesAndSubductionZones() {
        #expect(Self.bird.boundaries.count == 241)
        #expect(Self.bird.boundaries.filter(\.isSubduction).count == 65)
        #expect(Self.bird.credit == "Plate boundaries: Bird (2003)")
        // The first line of PB2002_boundaries.json, rounded to milli-degrees.
        let first = Self.bird.boundaries[0]
        #expect(first.name == "AF-AN" && first.leftPlate == "AF" && first.rightPlate == "AN" && !first.isSubduction)
        #expect(first.points.first == GeoPoint(longitude: -0.438, latitude: -54.852))
        #expect(Self.tonga.points.last == GeoPoint(longitude: -173.407, latitude: -14.584))
        #expect(Self.japan.points.last == GeoPoint(longitude: 141.883, latitude: 34.213))
        // Every name is "left, separator, right", the separator saying what the side is.
        for boundary in Self.bird.boundaries {
            let separator = boundary.name.dropFirst(boundary.leftPlate.count).first
            #expect(boundary.name == boundary.leftPlate + String(separator!) + boundary.rightPlate)
            #expect(separator == (boundary.overridingSide == nil ? "-" : boundary.overridingSide == .left ? "/" : "\\"), "\(boundary.name)")
            #expect(boundary.points.count >= 2)
        }
    }

    @Test func overridingPlatesOfKnownTrenches() {
        #expect(Self.japan.overridingPlate == "OK", "Okhotsk overrides the Pacific plate at the Japan Trench")
        #expect(Self.peruChile.overridingPlate == "SA", "South America overrides Nazca")
        #expect(Self.tonga.overridingPlate == "TO", "Tonga overrides the Pacific plate")
    }

    @Test func damagedBytesAreRefusedWithTheirOffset() {
        func decode(_ bytes: [UInt8]) -> EmbeddedLandError? {
            bytes.withUnsafeBufferPointer { buffer -> EmbeddedLandError? in
                do throws(EmbeddedLandError) { _ = try EmbeddedPlates.decode(buffer); return nil } catch { return error }
            }
        }
        let magic = Array("QMPLATE1".utf8)
        #expect(decode(Array("QMLAND1x".utf8))?.offset == 0)
        #expect(decode(magic + [0]) == nil, "no boundaries is well-formed")
        // One boundary "A-B" of kind 7.
        #expect(decode(magic + [1, 3] + Array("A-B".utf8) + [1, 65, 1, 66, 7, 0])?.reason == "boundary kind 7")
        // A latitude of 91°.
        // One point at latitude 91° (zig-zag 182000 is F0 8D 0B in LEB128).
        #expect(decode(magic + [1, 1, 65, 1, 65, 1, 65, 0, 1, 0, 0xF0, 0x8D, 0x0B])?.reason == "a coordinate of 91000 milli-degrees")
        #expect(decode(magic + [1, 1, 65])?.reason == "cut short")
        #expect(decode(magic + [1, 100, 65])?.reason == "a count of 100 with 1 bytes left")
        #expect(decode(magic + [0, 0])?.reason == "bytes after the last boundary")
    }

    // MARK: The scene

    /// Teeth of `boundary` alone on a map (no land): for each, its centroid and the
    /// vector from the nearest point of the drawn line to that centroid, in pixels.
    static func teeth(_ boundary: PlateBoundary, options: MapOptions = MapOptions(width: 4096))
        -> [(centroid: PixelPoint, offset: PixelPoint)] {
        var options = options
        options.plateBoundaries = PlateBoundaries(boundaries: [boundary])
        options.basemap = .custom(Basemap(land: []))
        options.showsLegend = false
        let scene = SceneBuilder(options: options).scene(for: [SeismicEvent]())
        let segments = scene.lines.flatMap { line in zip(line.points, line.points.dropFirst()).map { ($0, $1) } }
        return scene.lineMarks.map { mark in
            let ring = mark.rings[0]
            let centroid = PixelPoint(x: ring.map(\.x).reduce(0, +) / Double(ring.count), y: ring.map(\.y).reduce(0, +) / Double(ring.count))
            let nearest = segments.map { nearestPoint(on: $0, to: centroid) }.min { distance($0, centroid) < distance($1, centroid) }!
            return (centroid, PixelPoint(x: centroid.x - nearest.x, y: centroid.y - nearest.y))
        }
    }

    static func nearestPoint(on segment: (PixelPoint, PixelPoint), to point: PixelPoint) -> PixelPoint {
        let (a, b) = segment, dx = b.x - a.x, dy = b.y - a.y
        let t = dx == 0 && dy == 0 ? 0 : max(0, min(1, ((point.x - a.x) * dx + (point.y - a.y) * dy) / (dx * dx + dy * dy)))
        return PixelPoint(x: a.x + t * dx, y: a.y + t * dy)
    }

    static func distance(_ a: PixelPoint, _ b: PixelPoint) -> Double { hypot(a.x - b.x, a.y - b.y) }

    @Test(arguments: [("Japan Trench", japan, -1.0), ("Peru–Chile Trench", peruChile, 1), ("Tonga Trench", tonga, -1)])
    func teethPointToTheOverridingPlate(name: String, boundary: PlateBoundary, east: Double) throws {
        for options in [MapOptions(width: 4096), MapOptions(width: 1500, centerLongitude: 150),
                        MapOptions(width: 1200, region: try GeoBox(west: 120, south: -60, east: -60, north: 60))] {
            let teeth = Self.teeth(boundary, options: options)
            #expect(teeth.count >= 3, "\(name): teeth drawn")
            // These trenches run roughly north–south: every tooth stands to the east or the
            // west, most of them squarely (Tonga's northern end bends west).
            for tooth in teeth {
                #expect(tooth.offset.x * east > 0, "\(name): a tooth at \(tooth)")
            }
            let square = teeth.filter { abs($0.offset.x) > abs($0.offset.y) }.count
            #expect(Double(square) >= 0.8 * Double(teeth.count), "\(name): \(square) of \(teeth.count)")
        }
    }

    @Test func teethAreSpacedAndSizedInPixelsWhateverTheZoom() {
        for width in [2048, 8192] {
            let teeth = Self.teeth(Self.japan, options: MapOptions(width: width))
            #expect(teeth.count >= 3)
            // A tooth's centroid stands a third of its height off the line; the next tooth is about 12 px on.
            for tooth in teeth {
                #expect(abs(hypot(tooth.offset.x, tooth.offset.y) - SceneBuilder.toothHeight / 3) < 0.05, "\(width): \(tooth)")
            }
            for (a, b) in zip(teeth, teeth.dropFirst()) {
                #expect(abs(Self.distance(a.centroid, b.centroid) - SceneBuilder.toothSpacing) < 3, "\(width): \(a) to \(b)")
            }
        }
        let single = Self.teeth(Self.japan, options: MapOptions(width: 2048))
        let doubled = Self.teeth(Self.japan, options: MapOptions(width: 1024, scale: 2))
        #expect(doubled.count == Self.teeth(Self.japan, options: MapOptions(width: 1024)).count, "scale 2 spaces them twice as far")
        #expect(doubled.count < single.count)
        #expect(doubled.allSatisfy { abs(hypot($0.offset.x, $0.offset.y) - 2 * SceneBuilder.toothHeight / 3) < 0.1 })
    }

    static func plateLines(_ scene: MapScene, _ options: MapOptions) -> [SceneLine] {
        scene.lines.filter { $0.stroke == options.palette.plateBoundary }
    }

    @Test(arguments: [0.0, 150, -90, 180])
    func noSegmentCrossesTheWorldMap(centerLongitude: Double) {
        let options = MapOptions(width: 2000, centerLongitude: centerLongitude, showsLegend: false)
        let scene = SceneBuilder(options: options).scene(for: [SeismicEvent]())
        let lines = Self.plateLines(scene, options)
        #expect(lines.count >= 241, "every boundary drawn, some twice where they reach an edge")
        for line in lines {
            for (a, b) in zip(line.points, line.points.dropFirst()) {
                #expect(abs(b.x - a.x) < 2000 / 4, "a segment from \(a) to \(b)")
            }
        }
        // Every boundary is drawn where the projection puts it (a whole turn apart at most).
        let projection = options.projection
        for boundary in Self.bird.boundaries {
            let first = projection.project(latitude: boundary.points[0].latitude, longitude: boundary.points[0].longitude)
            #expect(lines.contains { line in
                let dx = abs(line.points[0].x - first.x).truncatingRemainder(dividingBy: 2000)
                return min(dx, 2000 - dx) < 1e-6 && abs(line.points[0].y - first.y) < 1e-6
            }, "\(boundary.name)")
        }
    }

    @Test func aRegionAcrossTheAntimeridianDrawsBothSidesWithoutCrossing() throws {
        let options = MapOptions(width: 1800, region: try GeoBox(west: 120, south: -60, east: -60, north: 60), showsLegend: false)
        let scene = SceneBuilder(options: options).scene(for: [SeismicEvent]())
        let lines = Self.plateLines(scene, options)
        for line in lines {
            for (a, b) in zip(line.points, line.points.dropFirst()) {
                #expect(abs(b.x - a.x) < 1800 / 4, "a segment from \(a) to \(b)")
            }
        }
        // Tonga (west of 180°) and Japan (east of 120°) both on the map, where the projection puts them.
        let projection = options.projection
        for boundary in [Self.tonga, Self.japan, Self.peruChile] {
            let point = boundary.points[boundary.points.count / 2]
            let expected = projection.project(latitude: point.latitude, longitude: point.longitude)
            #expect(lines.contains { $0.points.contains { Self.distance($0, expected) < 1e-6 } }, "\(boundary.name)")
        }
        // Nothing of the Atlantic ridge (AF-SA…, about 15° W) is kept: it is far outside.
        #expect(lines.allSatisfy { line in line.points.contains { $0.x > -20 && $0.x < 1820 } })
    }

    @Test func noPlatesWithoutABasemapOrWhenTurnedOff() {
        let events = [Fixtures.event("a", time: "2026-11-21T23:56:34.000Z", magnitude: 6)]
        for options in [MapOptions(width: 800, basemap: .none), MapOptions(width: 800, plateBoundaries: nil),
                        MapOptions(width: 800, basemap: .none, plateBoundaries: nil)] {
            let scene = SceneBuilder(options: options).scene(for: events)
            #expect(Self.plateLines(scene, options).isEmpty && scene.lineMarks.isEmpty)
            let texts = scene.overlay.texts.map(\.text)
            #expect(!texts.contains("Plate boundary") && !texts.contains("Subduction zone"))
            #expect(!texts.contains { $0.contains("Bird (2003)") })
        }
        let shown = SceneBuilder(options: MapOptions(width: 800)).scene(for: events)
        #expect(!shown.lineMarks.isEmpty)
        let texts = shown.overlay.texts.map(\.text)
        #expect(texts.contains("Plate boundary") && texts.contains("Subduction zone"))
        #expect(texts.contains { $0.hasSuffix("Made with Natural Earth · Plate boundaries: Bird (2003)") })
    }

    @Test func theLegendPanelHoldsThePlateRows() {
        let measure = TextMeasurer()
        for coloring in [SymbolColoring.magnitude, .depth] {
            let scene = SceneBuilder(options: MapOptions(width: 900, coloring: coloring)).scene(for: [SeismicEvent]())
            let legendPanel = scene.overlay.panels.max { $0.rings[0][2].y - $0.rings[0][0].y < $1.rings[0][2].y - $1.rings[0][0].y }!
            let box = legendPanel.rings[0]
            for label in ["Plate boundary", "Subduction zone"] {
                let text = scene.overlay.texts.first { $0.text == label }!
                #expect(text.position.y < box[2].y && text.position.y > box[0].y, "\(label) inside the panel")
                #expect(text.position.x + measure.width(label, size: text.size) <= box[1].x, "\(label) fits the width")
            }
        }
    }

    @Test func svgKeepsPlatesAsVectorPaths() throws {
        let with = SceneBuilder(options: MapOptions(width: 800, showsLegend: false)).scene(for: [SeismicEvent]())
        let without = SceneBuilder(options: MapOptions(width: 800, showsLegend: false, plateBoundaries: nil)).scene(for: [SeismicEvent]())
        func paths(_ scene: MapScene) throws -> Int {
            let svg = String(decoding: try MapRenderer().data(for: scene, format: .svg), as: UTF8.self)
            return svg.components(separatedBy: "<path").count - 1
        }
        // A path for each line and tooth (Cairo leaves out a few wholly off the page).
        let added = try paths(with) - paths(without), drawn = Self.plateLines(with, MapOptions()).count + with.lineMarks.count
        #expect(added > 241 && Double(added) > 0.9 * Double(drawn) && added <= drawn, "\(added) paths for \(drawn) shapes")
    }
}

/// The compiled-in bytes are what `scripts/embed_plates.py` writes from the PB2002 files.
@Suite("PB2002 data file", .timeLimit(.minutes(10)), .enabled(if: PlateSource.available, "../shared/data/plates is not beside the repository: the plate data check is skipped"))
struct PlateSourceTests {
    @Test func theCompiledBytesAreWhatTheScriptWrites() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", PlateSource.repository + "/scripts/embed_plates.py", "--check", PlateSource.folder]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "scripts/embed_plates.py --check: \(message)")
    }

    @Test func theDecodedLinesAreTheGeoJSONsRounded() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: PlateSource.folder + "/PB2002_boundaries.json"))
        let features = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["features"] as? [[String: Any]])
        let bird = PlateBoundaries.bird2003.boundaries
        #expect(features.count == bird.count)
        for (feature, boundary) in zip(features, bird) {
            let properties = feature["properties"] as! [String: Any]
            #expect(properties["Name"] as? String == boundary.name)
            #expect(properties["PlateA"] as? String == boundary.leftPlate && properties["PlateB"] as? String == boundary.rightPlate)
            #expect((properties["Type"] as? String == "subduction") == boundary.isSubduction)
            let coordinates = (feature["geometry"] as! [String: Any])["coordinates"] as! [[Double]]
            #expect(coordinates.count == boundary.points.count)
            for (position, point) in zip(coordinates, boundary.points) {
                #expect(abs(position[0] - point.longitude) <= 0.0005 + 1e-12 && abs(position[1] - point.latitude) <= 0.0005 + 1e-12)
            }
        }
    }
}

enum PlateSource {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let folder = URL(fileURLWithPath: repository).deletingLastPathComponent().appendingPathComponent("shared/data/plates").path
    static var available: Bool { FileManager.default.fileExists(atPath: folder + "/PB2002_boundaries.json") }
}
