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

/// Circles stamped into the pixels against one Cairo path fill per circle: the
/// mean difference at most 0.5/255 and 99.9 % of pixels within 8/255.
@Suite("Stamped circles agree with Cairo's", .timeLimit(.minutes(10)))
struct StampedCirclesTests {
    /// Deterministic pseudo-random events: every magnitude from -1 to 9, positions
    /// everywhere (edges and the antimeridian included), many overlapping.
    static func events(_ count: Int, seed: UInt64 = 42) -> [SeismicEvent] {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { index in
            SeismicEvent(id: "e\(index)", time: Date(timeIntervalSince1970: 1_800_000_000 + Double(index)),
                         latitude: next() * 180 - 90, longitude: next() * 360 - 180,
                         depth: next() * 700, magnitude: next() * next() * 10 - 1)
        }
    }

    static let cases: [(String, Int, MapOptions)] = [
        ("world, land, 20k events", 20_000, MapOptions(width: 1024)),
        ("transparent, 50k events", 50_000, MapOptions(width: 1024, basemap: .none, showsLegend: false)),
        ("HiDPI depth colours", 3_000, MapOptions(width: 600, coloring: .depth, scale: 2)),
        ("sub-pixel circles", 5_000, MapOptions(width: 700, style: MagnitudeStyle(minimumDiameter: 0), basemap: .none)),
        ("Pacific region", 5_000, MapOptions(width: 900, region: try! GeoBox(parsing: "120,-60,-60,60"))),
    ]

    @Test(arguments: cases.map(\.0))
    func agreeWithinTheBounds(_ name: String) throws {
        let (_, count, options) = try #require(Self.cases.first { $0.0 == name })
        let scene = SceneBuilder(options: options).scene(for: Self.events(count))
        let stamped = try MapRenderer().rasterize(scene, circles: .stamped).rgbaBytes()
        let reference = try MapRenderer().rasterize(scene, circles: .cairoPaths).rgbaBytes()
        let difference = PixelDifference(stamped, reference)
        #expect(difference.meanPerChannel <= 0.5, "mean \(difference.meanPerChannel)/255")
        #expect(difference.fractionBeyond8 <= 0.001, "\(difference.fractionBeyond8 * 100) % of pixels beyond 8/255")
        // Not vacuous: the circles did change the picture.
        let bare = try MapRenderer().rasterize(MapScene(width: scene.width, height: scene.height, background: scene.background,
                                                        polygons: scene.polygons, lines: scene.lines, circles: [],
                                                        overlay: scene.overlay)).rgbaBytes()
        #expect(PixelDifference(stamped, bare).fractionBeyond8 > 0.01)
    }

    /// The benchmark's realistic catalogue (events along plate boundaries, in
    /// dense local clusters and anywhere, at four-decimal positions so nearly
    /// every circle has its own sub-pixel offset, Gutenberg–Richter magnitudes
    /// with negative and missing ones), at the size `make bench` draws: the
    /// sprite cache misses on nearly every circle here, as it does at a million.
    @Test func agreeOnTheRealisticGeneratedCatalogue() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stamped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = folder.appendingPathComponent("realistic.csv").path
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        generator.arguments = ["python3", PlateSource.repository + "/Benchmarks/make_big_catalog.py", "csv", feed, "60000r"]
        generator.standardOutput = FileHandle.nullDevice
        try generator.run()
        generator.waitUntilExit()
        try #require(generator.terminationStatus == 0, "make_big_catalog.py failed")
        let events = try QuakeMap.select(from: .file(feed), selection: EventSelection(limit: nil)).events
        try #require(events.count > 55_000)
        let options = MapOptions(width: 2048, basemap: .none, showsLegend: false)
        let scene = SceneBuilder(options: options).scene(for: events)
        let stamped = try MapRenderer().rasterize(scene, circles: .stamped).rgbaBytes()
        let reference = try MapRenderer().rasterize(scene, circles: .cairoPaths).rgbaBytes()
        let difference = PixelDifference(stamped, reference)
        #expect(difference.meanPerChannel <= 0.5, "mean \(difference.meanPerChannel)/255")
        #expect(difference.fractionBeyond8 <= 0.001, "\(difference.fractionBeyond8 * 100) % of pixels beyond 8/255")
        // The offsets really are scattered: (sub-pixel offset to 1/16 px, size) pairs by the
        // thousand, where the replayed sample has at most its 417 positions.
        let offsets = Set(scene.circles.map { circle in
            Int((circle.center.x * 16).rounded()) & 15 | (Int((circle.center.y * 16).rounded()) & 15) << 4
                | Int((circle.diameter * 16).rounded()) << 8
        })
        #expect(offsets.count > 1_000, "\(offsets.count) distinct offset and size pairs")
    }

    /// Bands of rows drawn on separate cores meet without a seam: one band
    /// and many give the same pixels.
    @Test(arguments: [2, 3, 7])
    func bandsMeetWithoutASeam(_ bands: Int) throws {
        let scene = SceneBuilder(options: MapOptions(width: 800, basemap: .none, showsLegend: false))
            .scene(for: Self.events(12_000, seed: 7))
        func stamped(bands: Int) throws -> [UInt8] {
            let surface = try CairoImageSurface(width: scene.width, height: scene.height)
            try surface.withMutablePixels { pixels, stride in
                CircleStamper(width: scene.width, height: scene.height, stride: stride)
                    .stamp(scene.circles, onto: pixels, bands: bands)
            }
            return surface.rgbaBytes()
        }
        #expect(try stamped(bands: bands) == stamped(bands: 1))
    }

    /// OVER on four channels at once agrees with pixman's arithmetic done one
    /// channel at a time, for every mask value, over colours at the corners
    /// and inside, and random destinations.
    @Test func overOnLanesMatchesOneChannelAtATime() {
        func multiply(_ x: UInt32, _ y: UInt32) -> UInt32 {
            let t = x * y + 128
            return (t + (t >> 8)) >> 8
        }
        var state: UInt64 = 3
        func random() -> UInt32 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: state >> 32)
        }
        let colors = [RGBA(red: 1, green: 1, blue: 0.211, alpha: 0.6), RGBA(red: 1, green: 0, blue: 0, alpha: 1),
                      RGBA(red: 0, green: 0, blue: 0, alpha: 0), RGBA(red: 1, green: 1, blue: 1, alpha: 1),
                      RGBA(red: 0.2, green: 0.7, blue: 0.9, alpha: 0.05)]
        var mismatches = 0
        for color in colors {
            let premultiplied = PremultipliedColor(color)
            let lanes = premultiplied.lanes
            let (a, r, g, b) = (UInt32(lanes >> 48), UInt32(lanes >> 32 & 0xFF), UInt32(lanes >> 16 & 0xFF), UInt32(lanes & 0xFF))
            for mask in UInt32(0)...255 {
                for _ in 0..<64 {
                    // Premultiplied destinations: no channel above its alpha.
                    let alpha = random() & 0xFF
                    let destination = alpha << 24 | random() % (alpha + 1) << 16 | random() % (alpha + 1) << 8
                        | random() % (alpha + 1)
                    let sa = multiply(a, mask), keep = 255 - sa
                    func channel(_ source: UInt32, _ shift: UInt32) -> UInt32 {
                        min(255, multiply(source, mask) + multiply((destination >> shift) & 0xFF, keep)) << shift
                    }
                    let expected = channel(a, 24) | channel(r, 16) | channel(g, 8) | channel(b, 0)
                    if premultiplied.over(destination, mask: mask) != expected { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }
}

/// How far two RGBA images of the same size are apart, in 1/255 steps.
///
/// Colours are compared premultiplied, as they are stored and as they show
/// over any background: a pixel at alpha 4/255 whose premultiplied green is
/// 2 rather than 3 would otherwise count as 64 levels apart.
struct PixelDifference {
    let meanPerChannel: Double
    let fractionBeyond8: Double

    init(_ a: [UInt8], _ b: [UInt8]) {
        precondition(a.count == b.count)
        var total = 0, beyond = 0
        var index = 0
        while index < a.count {
            var worst = 0
            let alphaA = Int(a[index + 3]), alphaB = Int(b[index + 3])
            for channel in 0..<4 {
                let valueA = channel == 3 ? alphaA : (Int(a[index + channel]) * alphaA + 127) / 255
                let valueB = channel == 3 ? alphaB : (Int(b[index + channel]) * alphaB + 127) / 255
                let d = abs(valueA - valueB)
                total += d
                worst = max(worst, d)
            }
            if worst > 8 { beyond += 1 }
            index += 4
        }
        meanPerChannel = Double(total) / Double(a.count)
        fractionBeyond8 = Double(beyond) / Double(a.count / 4)
    }
}
