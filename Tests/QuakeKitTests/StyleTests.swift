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
