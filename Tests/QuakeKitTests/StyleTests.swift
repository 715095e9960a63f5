import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

@Suite("Magnitude style", .timeLimit(.minutes(10)))
struct StyleTests {
    let seed = MagnitudeStyle(symbolScale: 1, minimumDiameter: 0)

    /// The library refuses sizes out of range wherever a style enters (a map, tiles): a program
    /// that embeds it gets the refusal the command line and the server give, not an overflow.
    @Test func sizesOutOfRangeAreRefusedByTheLibrary() throws {
        for scale in [0, -1, 100.5, 1e22, .nan, .infinity] {
            // By type: a NaN in the error never equals another.
            #expect(throws: MapOptionsError.self) { try MagnitudeStyle(symbolScale: scale).validate() }
            #expect(throws: MapOptionsError.self) { try MapOptions(style: MagnitudeStyle(symbolScale: scale)).validate() }
            #expect(throws: MapOptionsError.self) { _ = try TileOptions(style: MagnitudeStyle(symbolScale: scale)) }
            var beachballs = MapOptions()
            beachballs.symbols.beachballs = BeachballStyle(scale: scale)
            #expect(throws: MapOptionsError.self) { try beachballs.validate() }
        }
        for diameter in [-0.5, 1000.5, .nan] {
            #expect(throws: MapOptionsError.self) { try MagnitudeStyle(minimumDiameter: diameter).validate() }
        }
        #expect(throws: MapOptionsError.minimumDiameterOutOfRange(-2)) { try MagnitudeStyle(minimumDiameter: -2).validate() }
        #expect(throws: MapOptionsError.symbolScaleOutOfRange(101)) { try MapOptions(style: MagnitudeStyle(symbolScale: 101)).validate() }
        var beachballs = MapOptions()
        beachballs.symbols.beachballs = BeachballStyle(scale: 0)
        #expect(throws: MapOptionsError.beachballScaleOutOfRange(0)) { try beachballs.validate() }
        for (scale, diameter) in [(0.01, 0.0), (1, 2), (100, 1000)] {
            try MagnitudeStyle(symbolScale: scale, minimumDiameter: diameter).validate()
            _ = try TileOptions(style: MagnitudeStyle(symbolScale: scale, minimumDiameter: diameter))
        }
    }

    @Test func diameterIsThreeQuartersOfMagnitudeSquared() {
        #expect(seed.diameter(magnitude: 4) == 12)
        #expect(seed.diameter(magnitude: 6.5) == 0.75 * 6.5 * 6.5)
        #expect(MagnitudeStyle(symbolScale: 2, minimumDiameter: 0).diameter(magnitude: 4) == 24)
    }

    @Test func smallAndNegativeMagnitudesGetTheMinimumNotTheirSquare() {
        let style = MagnitudeStyle()
        #expect(style.minimumDiameter == 2)
        #expect(style.diameter(magnitude: 0) == 2)
        #expect(style.diameter(magnitude: 1) == 2)
        #expect(style.diameter(magnitude: -1.64) == 2)
        #expect(seed.diameter(magnitude: -3) == 0)
        #expect(style.diameter(magnitude: 2) == 3)
    }

    @Test func fillRunsFromYellowToRedAndClamps() {
        #expect(seed.fill(magnitude: 0) == RGBA(red: 1, green: 1, blue: 0.211, alpha: 0.6))
        #expect(seed.fill(magnitude: -2) == seed.fill(magnitude: 0))
        #expect(abs(seed.fill(magnitude: 5).green - 0.625) < 1e-12)
        #expect(seed.fill(magnitude: 8.2).green == 0)
        #expect(seed.fill(magnitude: 9.5) == RGBA(red: 1, green: 0, blue: 0.211, alpha: 0.6))
        #expect(seed.fill(magnitude: .nan) == seed.fill(magnitude: 0))
    }
}
