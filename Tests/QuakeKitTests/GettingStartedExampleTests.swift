import Foundation
import Testing
import QuakeKit

// BEGIN EXAMPLE 1
func drawNightlyMap(feedPath: String, mapPath: String) throws -> FeedSummary {
    let selected = try QuakeMap.select(
        from: .file(feedPath),
        selection: EventSelection(limit: 300)
    )
    for rejection in selected.summary.rejections {
        print("skipped", rejection.message)
    }
    let png = try QuakeMap.render(
        selected,
        options: MapOptions(width: 2048, style: MagnitudeStyle(symbolScale: 1, minimumDiameter: 2))
    )
    try AtomicFileWriter.write(png, to: mapPath)
    return selected.summary
}
// END EXAMPLE 1

// BEGIN EXAMPLE 2
func mapOfOneEvent() throws -> Data {
    let event = SeismicEvent(
        id: "us7000abcd",
        time: Date(timeIntervalSince1970: 1_700_000_000),
        latitude: -17.7, longitude: 178.1, depth: 560, magnitude: 6.4
    )
    // The scene is resolved: centre, diameter (0.75 · 6.4² px) and colour are decided here.
    let scene = SceneBuilder(options: MapOptions(width: 720, basemap: .none, showsLegend: false)).scene(for: [event])
    assert(scene.width == 720 && scene.height == 360)
    return try MapRenderer().data(for: scene, format: .png)
}
// END EXAMPLE 2

/// The DocC "Getting started" article's code, compiled and run.
@Suite("Getting started article", .timeLimit(.minutes(10)))
struct GettingStartedExampleTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theArticleHoldsExactlyTheCodeCompiledHere() throws {
        let article = try String(contentsOf: Self.root.appendingPathComponent(
            "Sources/QuakeKit/QuakeKit.docc/GettingStarted.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        #expect(blocks.count == 2)
        for (index, block) in blocks.enumerated() {
            let marker = "// BEGIN EXAMPLE \(index + 1)\n"
            let example = source.components(separatedBy: marker)[1].components(separatedBy: "// END EXAMPLE")[0]
            let code = block.split(separator: "\n", omittingEmptySubsequences: false)
                .drop { $0.hasPrefix("import") || $0.isEmpty }.joined(separator: "\n")
            #expect(code == example, "example \(index + 1) differs from the article")
        }
    }

    @Test func theNightlyExampleWritesAMap() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakekit-doc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let map = folder.appendingPathComponent("quakes.png").path
        let summary = try drawNightlyMap(feedPath: Self.root.appendingPathComponent("Data/synthetic_all_day.csv").path, mapPath: map)
        #expect(summary.rows == 420)
        let image = try RasterImage(png: Data(contentsOf: URL(fileURLWithPath: map)))
        #expect(image.width == 2048)
    }

    @Test func theOneEventExampleDrawsAtFiji() throws {
        let image = try RasterImage(png: mapOfOneEvent())
        // x = (178.1 + 180) / 360 · 720 = 716.2, y = (90 + 17.7) / 180 · 360 = 215.4
        #expect(image.pixel(x: 716, y: 215).alpha > 0)
        #expect(image.pixel(x: 360, y: 180).alpha == 0)
    }
}
