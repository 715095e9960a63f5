import Foundation
import Testing
import QuakeKit

// BEGIN EXAMPLE
func animateMonth(feed: FeedSource, to path: String) throws {
    let month = try QuakeMap.select(from: feed, selection: EventSelection(limit: nil))
    let options = AnimationOptions(map: MapOptions(width: 1024), duration: 10, fps: 10, fade: 3 * 86_400)
    try QuakeMap.animate(for: month, options: options, to: path)
}
// END EXAMPLE

/// The DocC "Time-lapse animations" article's code, compiled and run.
@Suite("Time-lapse animations article", .timeLimit(.minutes(10)))
struct AnimationExampleTests {
    static let root = GettingStartedExampleTests.root

    @Test func theArticleHoldsExactlyTheCodeCompiledHere() throws {
        try ArticleExample.check(article: "Animations.md")
    }

    /// Animates the sample feed: an APNG of 100 frames, the first a plain PNG of the map's size.
    @Test func theSampleDayBecomesAnAnimatedPNG() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("month.png").path
        try animateMonth(feed: .file(Self.root.appendingPathComponent("Data/synthetic_all_day.csv").path), to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let control = try #require(data.range(of: Data("acTL".utf8)))
        #expect(data[control.upperBound..<control.upperBound + 4].reduce(0) { $0 << 8 | Int($1) } == 100)
        #expect(try RasterImage(png: data).width == 1024)
    }
}
