import Foundation
import Testing
import QuakeKit

/// `render --plates`: Bird's plate boundaries by default, none on request or without a basemap.
@Suite("quakemap render --plates", .timeLimit(.minutes(10)))
struct PlatesCLITests {
    let sample = "Data/synthetic_all_day.csv"

    /// The SVG's paths and the text of the run.
    func svg(_ arguments: [String]) throws -> (paths: Int, text: String) {
        let result = try QuakemapProcess.run(["render", sample, "-o", "-", "--format", "svg", "--width", "600", "--quiet"]
                                             + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return (result.stdoutText.components(separatedBy: "<path").count - 1, result.stdoutText)
    }

    @Test func platesAreOnByDefaultAndOffWithNoneOrWithoutABasemap() throws {
        let standard = try svg([]), explicit = try svg(["--plates", "bird2003"]), off = try svg(["--plates", "none"])
        #expect(standard.text == explicit.text, "bird2003 is the default")
        // Every plate line and tooth is a path of its own: hundreds more than without them.
        #expect(standard.paths > off.paths + 241, "\(standard.paths) paths with plates, \(off.paths) without")
        let bare = try svg(["--basemap", "none"]), bareOff = try svg(["--basemap", "none", "--plates", "none"])
        #expect(bare.paths == bareOff.paths, "--basemap none draws no plates")
    }

    @Test func theLibraryDrawsTheSamePlates() throws {
        let result = try QuakemapProcess.run(["render", sample, "-o", "-", "--width", "700", "--region", "120,-60,-60,60"])
        #expect(result.status == 0, "\(result.stderr)")
        let pacific = try GeoBox(west: 120, south: -60, east: -60, north: 60)
        let selected = try QuakeMap.select(from: .file(QuakemapProcess.repositoryRoot.appendingPathComponent(sample).path),
                                           selection: EventSelection(region: pacific))
        let library = try QuakeMap.render(selected, options: MapOptions(width: 700, region: pacific))
        let without = try QuakeMap.render(selected, options: MapOptions(width: 700, region: pacific, plateBoundaries: nil))
        #expect(try RasterImage(png: library) == RasterImage(png: result.stdout))
        #expect(try RasterImage(png: without) != RasterImage(png: result.stdout))
    }

    @Test func anUnknownModelIsAUsageError() throws {
        let result = try QuakemapProcess.run(["render", sample, "-o", "/dev/null", "--plates", "nuvel"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("nuvel") && result.stderr.contains("--plates"), "\(result.stderr)")
    }
}
