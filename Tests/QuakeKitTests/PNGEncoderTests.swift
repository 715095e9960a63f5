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

/// The fast PNG encoder against Cairo's own writer: the same pixels, a file no more than 25 % larger.
@Suite("PNG encoding", .timeLimit(.minutes(10)))
struct PNGEncoderTests {
    static let events: [SeismicEvent] = (0..<400).map { index in
        let value = Double(index * 7919 % 10_007)
        return Fixtures.event("e\(index)", latitude: value.truncatingRemainder(dividingBy: 170) - 85,
                              longitude: value.truncatingRemainder(dividingBy: 359) - 179.5,
                              magnitude: Double(index % 90) / 10 - 1)
    }

    static let cases: [(String, MapOptions)] = [
        ("world, land, legend", MapOptions(width: 1024)),
        ("transparent", MapOptions(width: 1024, basemap: .none, showsLegend: false)),
        ("depth, HiDPI", MapOptions(width: 600, coloring: .depth, scale: 2)),
        ("odd size", MapOptions(width: 333, height: 77, basemap: .none)),
    ]

    @Test(arguments: cases.map(\.0))
    func samePixelsAsCairosWriterAndNoMuchLarger(_ name: String) throws {
        let options = try #require(Self.cases.first { $0.0 == name }).1
        let surface = try MapRenderer().rasterize(SceneBuilder(options: options).scene(for: Self.events))
        let fast = try surface.pngData(), reference = try surface.cairoPNGData()
        #expect(try RasterImage(png: fast) == RasterImage(png: reference), "decoded pixels differ")
        #expect(Double(fast.count) <= Double(reference.count) * 1.25, "\(fast.count) bytes vs Cairo's \(reference.count)")
    }

    /// Stripes deflated on several threads join into one valid stream: any
    /// thread count, and heights that do not divide evenly, decode the same.
    @Test(arguments: [1, 2, 3, 8])
    func stripesJoinIntoOneImage(_ threads: Int) throws {
        let options = MapOptions(width: 1000, height: 517, basemap: .none)
        let surface = try MapRenderer().rasterize(SceneBuilder(options: options).scene(for: Self.events))
        let striped = try surface.pngData(threads: threads)
        #expect(try RasterImage(png: striped) == RasterImage(png: surface.cairoPNGData()))
    }

    /// The encoder's failure is a write error (exit 70 in the CLI), not a
    /// drawing one: it used to be reported as Cairo's. Pixels the encoder
    /// refuses (a row shorter than its width) make it fail without zlib.
    @Test func failureIsAWriteError() {
        let pixel: UInt32 = 0
        withUnsafeBytes(of: pixel) { bytes in
            let refused = PixelBuffer(base: bytes.baseAddress!, width: 1, height: 1, stride: 0)
            #expect(throws: WriteError.encodingFailed(format: "PNG", status: -1)) { try PNGEncoder.encode(refused) }
        }
    }
}
