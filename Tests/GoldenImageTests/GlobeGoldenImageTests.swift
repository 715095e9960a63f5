import Foundation
import Testing
import QuakeKit

/// The synthetic catalogue on Equal Earth and Robinson world maps.
@Suite("Golden images: Equal Earth and Robinson", .timeLimit(.minutes(10)))
struct GlobeGoldenImageTests {
    func check(_ options: MapOptions, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let scene = SceneBuilder(options: GoldenImageTests.credited(options))
            .scene(for: GoldenImageTests.events, feedGenerated: GoldenImageTests.feedGenerated)
        try GoldenFiles.check(try MapRenderer().image(for: scene), named: name, sourceLocation: sourceLocation)
    }

    /// The globe, its outline and curved meridians, land cut at ±180°, transparent corners.
    @Test func equalEarth() throws {
        try check(MapOptions(width: 720, mapProjection: .equalEarth, graticuleSpacing: 30), "equal-earth-720")
    }

    /// Centred on the Pacific: Africa and Europe cut at the seam −30°, Antarctica in two pieces.
    @Test func equalEarthPacific() throws {
        try check(MapOptions(width: 720, centerLongitude: 150, mapProjection: .equalEarth, graticuleSpacing: 30),
                  "equal-earth-center150-720")
    }

    @Test func robinson() throws {
        try check(MapOptions(width: 720, mapProjection: .robinson, graticuleSpacing: 30), "robinson-720")
    }
}
