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

/// The time-lapse APNG: its chunks as the APNG specification lays them out,
/// its frames against the still maps of the same moments, its edge cases,
/// and that it is written atomically in bounded memory.
@Suite("Animation", .timeLimit(.minutes(10)))
struct AnimationTests {
    /// Events over ten days, scattered, magnitudes 2…7, in no time order.
    static func events(_ count: Int) -> [MapEvent] {
        let start = Date(timeIntervalSince1970: 1_591_000_000)
        return (0..<count).map { index in
            let value = Double(index * 7919 % 10_007)
            return MapEvent(id: "e\(index)", time: start.addingTimeInterval(Double(index * 4513 % 997) * 866.0),
                            latitude: value.truncatingRemainder(dividingBy: 150) - 75,
                            longitude: value.truncatingRemainder(dividingBy: 350) - 175,
                            magnitude: 2 + Double(index % 50) / 10, depth: Double(index % 300))
        }
    }

    /// 400 px wide, 10 frames, the last held 1.5 s more.
    static let options = AnimationOptions(map: MapOptions(width: 400), duration: 2, fps: 5, hold: 1.5)

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-animation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func written(_ animation: Animation) throws -> Data {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.png").path
        try animation.writeAPNG(to: path)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func chunksFollowTheAPNGLayout() throws {
        let animation = Animation(events: Self.events(120), options: Self.options)
        #expect(animation.frameCount == 10)
        let file = try APNGFile(Self.written(animation))
        #expect(file.chunks.allSatisfy { $0.crcIsValid }, "every CRC checks")
        let types = file.chunks.map(\.type)
        #expect(Array(types.prefix(4)) == ["IHDR", "acTL", "fcTL", "IDAT"])
        #expect(types.last == "IEND")
        #expect(Array(types.dropFirst(4).dropLast()) == Array(repeating: ["fcTL", "fdAT"], count: 9).flatMap { $0 })
        let control = try #require(file.chunks.first { $0.type == "acTL" })
        #expect(control.uint32(at: 0) == 10, "acTL counts the frames written")
        #expect(control.uint32(at: 4) == 0, "loops for ever")
        // fcTL and fdAT share one sequence, 0, 1, 2… with no gap.
        let sequence = file.chunks.filter { $0.type == "fcTL" || $0.type == "fdAT" }.map { $0.uint32(at: 0) }
        #expect(sequence == Array(0..<UInt32(sequence.count)))
        let header = try #require(file.chunks.first)
        let (width, height) = (header.uint32(at: 0), header.uint32(at: 4))
        var smaller = 0
        for (index, frame) in file.chunks.filter({ $0.type == "fcTL" }).enumerated() {
            #expect(frame.data.count == 26)
            let (w, h, x, y) = (frame.uint32(at: 4), frame.uint32(at: 8), frame.uint32(at: 12), frame.uint32(at: 16))
            if index == 0 {
                #expect(w == width && h == height && x == 0 && y == 0, "the first frame is whole")
            } else {
                #expect(w >= 1 && h >= 1 && x + w <= width && y + h <= height, "frame \(index): a region inside the image")
                if w * h < width * height { smaller += 1 }
            }
            let delay = Double(frame.uint16(at: 20)) / Double(frame.uint16(at: 22))
            #expect(abs(delay - (index == 9 ? 0.2 + 1.5 : 0.2)) < 1e-9, "frame \(index) delay \(delay)")
            // Dispose none; the first replaces, the others (an opaque map's changes) blend over it.
            #expect(frame.data[24] == 0 && frame.data[25] == (index == 0 ? 0 : 1), "frame \(index) dispose and blend")
        }
        #expect(smaller >= 5, "later frames store the region that changed")
        #expect(header.data[9] == 6, "RGBA, so that unchanged pixels can be left transparent")
    }

    /// The first, a middle and the last frame decode to the pixels
    /// ``MapRenderer`` draws for the scene of the same moment.
    @Test(arguments: [0, 4, 9])
    func framesAreTheStillsOfTheirMoments(_ index: Int) throws {
        let animation = Animation(events: Self.events(120), options: Self.options)
        let file = try APNGFile(Self.written(animation))
        let frame = try file.composedFrame(index)
        let still = try MapRenderer().image(for: animation.scene(ofFrame: index))
        let result = try #require(ImageComparison.compare(still, frame))
        #expect(result.matches, "frame \(index): \(result.differingPixels) pixels differ, mean \(result.meanDifference)")
        // Drawn over a copied base with masks kept from earlier frames, the pixels are those of a fresh render exactly.
        #expect(frame == still, "frame \(index) is not exactly the still")
        // The comparison tells moments apart: the still of another frame does not match.
        let other = try MapRenderer().image(for: animation.scene(ofFrame: index == 9 ? 0 : 9))
        #expect(ImageComparison.compare(other, frame)?.matches == false)
    }

    /// A map with transparent pixels (no basemap; a globe's corners) and an opaque one:
    /// RGBA either way, and the composed frames are the stills exactly.
    @Test(arguments: ["transparent", "equal-earth", "depth, region"])
    func transparentMapsKeepTheirAlpha(_ name: String) throws {
        let pacific = try GeoBox(west: 120, south: -60, east: -60, north: 60)
        let map = switch name {
        case "transparent": MapOptions(width: 300, basemap: .none)
        case "equal-earth": MapOptions(width: 300, mapProjection: .equalEarth)
        default: MapOptions(width: 300, region: pacific, coloring: .depth)
        }
        let animation = Animation(events: Self.events(200), options: AnimationOptions(map: map, duration: 1, fps: 4))
        let file = try APNGFile(Self.written(animation))
        #expect(file.chunks[0].data[9] == 6, "colour type")
        if let region = map.region {
            // The span is that of the events inside the region, the only ones drawn.
            let inside = Self.events(200).filter { region.contains(latitude: $0.latitude, longitude: $0.longitude) }
            #expect(animation.start == inside.map(\.time).min() && animation.end == inside.map(\.time).max())
            #expect(inside.count < 200)
        }
        for index in [1, 3] {
            let frame = try file.composedFrame(index)
            #expect(frame == (try MapRenderer().image(for: animation.scene(ofFrame: index))), "\(name), frame \(index)")
        }
    }

    @Test func eventsAppearOldestFirstAndFadeToTheRemnant() throws {
        let events = Self.events(120)
        let animation = Animation(events: events, options: Self.options)
        let times = events.map(\.time).sorted()
        #expect(animation.start == times.first && animation.end == times.last)
        for index in [0, 3, 9] {
            let moment = try #require(animation.time(ofFrame: index))
            let scene = animation.scene(at: moment)
            let shown = events.filter { $0.time <= moment }
            // A plate carrée world map may draw a wrapped copy too: at least one circle each.
            #expect(Set(scene.circles.map(\.eventID)) == Set(shown.map(\.id)), "frame \(index)")
            let order = scene.circles.map { circle in events.first { $0.id == circle.eventID }!.time }
            #expect(order == order.sorted(), "oldest first, the newest on top")
        }
        let fade = animation.fade
        #expect(abs(fade - times.last!.timeIntervalSince(times.first!) / 10) < 1e-6, "a tenth of the span by default")
        #expect(animation.opacity(age: 0) == 1)
        #expect(animation.opacity(age: fade * 2) == 0.25)
        #expect(animation.opacity(age: fade / 2) < 1 && animation.opacity(age: fade / 2) > 0.25)
        let last = animation.scene(ofFrame: 9)
        #expect(last.circles.contains { $0.fill.alpha < 0.5 } && last.circles.count >= 120, "the last frame shows every event")
    }

    @Test(arguments: [0, 1, 5])
    func noSpanIsOneValidFrame(_ count: Int) throws {
        // 0: no events; 1: one; 5: five at the same time.
        let time = Date(timeIntervalSince1970: 1_591_000_000)
        let events = (0..<count).map { MapEvent(id: "s\($0)", time: time, latitude: Double($0 * 10), longitude: 20, magnitude: 5) }
        let animation = Animation(events: events, options: Self.options)
        #expect(animation.frameCount == 1)
        let file = try APNGFile(Self.written(animation))
        #expect(file.chunks.map(\.type) == ["IHDR", "acTL", "fcTL", "IDAT", "IEND"])
        #expect(file.chunks[1].uint32(at: 0) == 1)
        let frame = try RasterImage(png: file.standalonePNG(frame: 0))
        #expect(ImageComparison.compare(try MapRenderer().image(for: animation.scene(ofFrame: 0)), frame)?.matches == true)
        #expect(animation.scene(ofFrame: 0).circles.count == count)
    }

    @Test func aFailureMidwayLeavesThePreviousFile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.png").path
        let previous = Data("the previous animation".utf8)
        try previous.write(to: URL(fileURLWithPath: path))
        struct Interrupted: Error {}
        let animation = Animation(events: Self.events(60), options: Self.options)
        #expect(throws: Interrupted.self) {
            try animation.writeAPNG(to: path) { index in if index == 4 { throw Interrupted() } }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == previous)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.png"], "no temporary left")
    }

    /// The writer keeps one frame's compressed bytes, reused: as much after 40 frames as after 2.
    @Test func theWriterHoldsOneFrameWhateverTheCount() throws {
        let surface = try MapRenderer().rasterize(SceneBuilder(options: MapOptions(width: 256)).scene(for: Self.events(50)))
        var largest: [Int] = []
        for count in [2, 40] {
            let sink = open("/dev/null", O_WRONLY)
            defer { close(sink) }
            let writer = APNGWriter(descriptor: sink, path: "/dev/null", frameCount: count)
            for _ in 0..<count { try surface.withPixels { try writer.append($0, delay: 0.1) } }
            try writer.finish()
            largest.append(writer.largestBuffer)
        }
        #expect(largest[0] == largest[1])
        #expect(largest[1] <= 2 * 256 * 128 * 4 + 65_536, "no more than a frame: \(largest[1]) bytes")
    }

    /// The library's one call, as the DocC article shows it, and its refusal of bad options before drawing.
    @Test func oneCallWritesTheAnimation() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("day.png").path
        let day = try QuakeMap.select(from: .file(root.appendingPathComponent("Data/synthetic_all_day.csv").path),
                                      selection: EventSelection(limit: nil))
        let options = AnimationOptions(map: MapOptions(width: 300), duration: 1, fps: 5, fade: 3600)
        try QuakeMap.animate(for: day, options: options, to: path)
        let file = try APNGFile(Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(file.chunks[1].type == "acTL" && file.chunks[1].uint32(at: 0) == 5)
        let other = folder.appendingPathComponent("refused.png").path
        #expect(throws: AnimationOptionsError.fpsOutOfRange(0)) {
            try QuakeMap.animate(for: day, options: AnimationOptions(fps: 0), to: other)
        }
        #expect(!FileManager.default.fileExists(atPath: other))
    }

    @Test func delaysAreExactFractions() {
        #expect(APNGWriter.fraction(0.1) == (1, 10))
        #expect(APNGWriter.fraction(1.0 / 60) == (1, 60))
        #expect(APNGWriter.fraction(2.1) == (2100, 1000))
        #expect(APNGWriter.fraction(3600.1) == (36001, 10))
    }

    @Test func optionsOutOfRangeAreRefused() {
        let map = MapOptions(width: 400)
        let cases: [(AnimationOptions, AnimationOptionsError)] = [
            (AnimationOptions(map: map, fps: 0), .fpsOutOfRange(0)),
            (AnimationOptions(map: map, fps: 61), .fpsOutOfRange(61)),
            (AnimationOptions(map: map, duration: 0), .durationOutOfRange(0)),
            (AnimationOptions(map: map, duration: 400, fps: 10), .tooManyFrames(3601)),
            (AnimationOptions(map: MapOptions(width: 8000, height: 4000)), .frameTooLarge(width: 8000, height: 4000)),
            (AnimationOptions(map: map, fade: -1), .fadeOutOfRange(-1)),
            (AnimationOptions(map: map, remnant: 1.5), .remnantOutOfRange(1.5)),
            (AnimationOptions(map: map, hold: -1), .holdOutOfRange(-1)),
            (AnimationOptions(map: MapOptions(width: 0)), .map(.sideOutOfRange(width: 0, height: 1))),
        ]
        for (options, expected) in cases {
            #expect(throws: expected) { try options.validate() }
        }
        #expect(throws: Never.self) { try AnimationOptions().validate() }
    }
}

/// An APNG's chunks, read back with nothing of the writer's code.
struct APNGFile {
    struct Chunk {
        var type: String
        var data: [UInt8]
        var crcIsValid: Bool

        func uint32(at offset: Int) -> UInt32 {
            data[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }

        func uint16(at offset: Int) -> UInt16 {
            UInt16(data[offset]) << 8 | UInt16(data[offset + 1])
        }
    }

    struct Malformed: Error {}

    var chunks: [Chunk] = []

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Malformed() }
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            guard offset + 12 + length <= bytes.count else { throw Malformed() }
            let typeAndData = Array(bytes[offset + 4..<offset + 8 + length])
            let stored = bytes[offset + 8 + length..<offset + 12 + length].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            chunks.append(Chunk(type: String(decoding: typeAndData.prefix(4), as: UTF8.self), data: Array(typeAndData.dropFirst(4)),
                                crcIsValid: Self.crc32(typeAndData) == stored))
            offset += 12 + length
        }
        guard offset == bytes.count else { throw Malformed() }
    }

    /// The frame controls: each frame's region (width, height, x, y) and blend operation (0 source, 1 over).
    var controls: [(width: Int, height: Int, x: Int, y: Int, blendOver: Bool)] {
        chunks.filter { $0.type == "fcTL" }.map {
            (Int($0.uint32(at: 4)), Int($0.uint32(at: 8)), Int($0.uint32(at: 12)), Int($0.uint32(at: 16)), $0.data[25] == 1)
        }
    }

    /// Frame `index` as a viewer shows it: the first frame, then each later frame's region
    /// put over it as its control says (dispose none: nothing is cleared between frames).
    func composedFrame(_ index: Int) throws -> RasterImage {
        var canvas = try RasterImage(png: standalonePNG(frame: 0))
        for frame in stride(from: 1, through: index, by: 1) {
            let control = controls[frame], part = try RasterImage(png: standalonePNG(frame: frame))
            guard part.width == control.width, part.height == control.height else { throw Malformed() }
            for y in 0..<part.height {
                for x in 0..<part.width {
                    let from = (y * part.width + x) * 4, to = ((control.y + y) * canvas.width + control.x + x) * 4
                    let alpha = Double(part.rgba[from + 3]) / 255
                    guard control.blendOver, alpha < 1 else {
                        canvas.rgba.replaceSubrange(to..<to + 4, with: part.rgba[from..<from + 4])
                        continue
                    }
                    // Straight-alpha OVER, as the APNG specification gives it.
                    let below = Double(canvas.rgba[to + 3]) / 255, out = alpha + below * (1 - alpha)
                    for channel in 0..<3 where out > 0 {
                        let value = (Double(part.rgba[from + channel]) * alpha + Double(canvas.rgba[to + channel]) * below * (1 - alpha)) / out
                        canvas.rgba[to + channel] = UInt8(value.rounded())
                    }
                    canvas.rgba[to + 3] = UInt8((out * 255).rounded())
                }
            }
        }
        return canvas
    }

    /// Frame `index` as a PNG of its own: the header (with the frame's region as its size), the
    /// frame's image data (IDAT, or fdAT without its sequence number) and IEND.
    func standalonePNG(frame index: Int) throws -> Data {
        var frames: [[UInt8]] = []
        for chunk in chunks {
            switch chunk.type {
            case "fcTL": frames.append([])
            case "IDAT": frames[frames.count - 1] += chunk.data
            case "fdAT": frames[frames.count - 1] += chunk.data.dropFirst(4)
            default: break
            }
        }
        guard index < frames.count, let header = chunks.first, header.type == "IHDR" else { throw Malformed() }
        let control = controls[index]
        let size = Self.bigEndian(UInt32(control.width)) + Self.bigEndian(UInt32(control.height))
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (type, data) in [("IHDR", size + header.data.dropFirst(8)), ("IDAT", frames[index]), ("IEND", [])] {
            let typeAndData = Array(type.utf8) + data
            png += Self.bigEndian(UInt32(data.count)) + typeAndData + Self.bigEndian(Self.crc32(typeAndData))
        }
        return Data(png)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// CRC-32 (ISO 3309, as PNG uses), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
