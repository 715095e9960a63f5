import Foundation
import Testing
import QuakeKit

/// `render`'s map options end to end: regions, centring, colours, formats.
@Suite("quakemap render: regions, colours and formats", .timeLimit(.minutes(10)))
struct MapOptionsCLITests {
    let sample = "Data/synthetic_all_day.csv"

    @Test func aRegionSelectsTheMostRecentEventsInsideIt() throws {
        let result = try QuakemapProcess.run(["render", sample, "-o", "-", "--region", "120,-60,-60,60", "--width", "600",
                                              "--limit", "20", "--color", "depth"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("drew 20 → <stdout> (600×400)"), "the aspect ratio follows the box: \(result.stderr)")
        let listed = try QuakemapProcess.run(["list", sample, "--limit", "0", "--quiet", "--columns", "id,time,latitude,longitude"])
        let inside = listed.stdoutText.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard let latitude = Double(fields[2]), let longitude = Double(fields[3]) else { return false }
            return (-60...60).contains(latitude) && (longitude >= 120 || longitude <= -60)
        }
        #expect(inside.count > 20)
        #expect(try RasterImage(png: result.stdout).height == 400)
    }

    @Test func formatsFollowTheExtensionOrTheOption() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, magic) in [("map.pdf", Array("%PDF-".utf8)), ("map.svg", Array("<?xml".utf8)), ("map.png", [0x89, 0x50, 0x4E, 0x47, 0x0D])] {
            let path = folder.appendingPathComponent(name).path
            let result = try QuakemapProcess.run(["render", sample, "-o", path, "--width", "400", "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
            let head = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(5)
            #expect(Array(head) == magic, "\(name)")
        }
        let svg = try QuakemapProcess.run(["render", sample, "-o", "-", "--format", "svg", "--width", "400", "--quiet"])
        #expect(svg.stdoutText.hasPrefix("<?xml"))
        let unknown = try QuakemapProcess.run(["render", sample, "-o", folder.appendingPathComponent("map.jpg").path])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("cannot tell the format of"))
    }

    @Test func badMapOptionsAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--region", "10,20,30"], "--region: '10,20,30' is not W,S,E,N"),
            (["--region", "0,50,10,40"], "--region: south 50.0 must be below north 40.0"),
            (["--center-lon", "200"], "--center-lon: centre longitude 200.0: must be -180…180"),
            (["--scale", "0"], "--scale: scale 0.0: must be above 0"),
            (["--graticule", "0"], "--graticule: graticule every 0.0°: must be 1…90 degrees"),
            (["--color", "rainbow"], "rainbow"),
            (["--width", "20000", "--scale", "4"], "more than 100 megapixels"),
            (["--labels", "51"], "--labels: 51 labels: must be 0…50"),
            (["--labels=-1"], "--labels: -1 labels: must be 0…50"),
        ]
        for (arguments, message) in cases {
            let result = try QuakemapProcess.run(["render", sample, "-o", "/dev/null"] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    /// The command line draws exactly what the library draws with the same options.
    @Test func centredHiDPIWithoutLegendMatchesTheLibrary() throws {
        let result = try QuakemapProcess.run(["render", sample, "-o", "-", "--center-lon", "150", "--width", "500",
                                              "--scale", "2", "--no-legend", "--graticule", "30"])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try RasterImage(png: result.stdout)
        #expect(image.width == 1000 && image.height == 500)
        let selected = try QuakeMap.select(from: .file(QuakemapProcess.repositoryRoot.appendingPathComponent(sample).path))
        let library = try QuakeMap.render(selected, options: MapOptions(
            width: 500, centerLongitude: 150, showsLegend: false, graticuleSpacing: 30, scale: 2))
        #expect(try RasterImage(png: library) == image)
    }

    /// Labels name the largest events with their places, with or without a
    /// limit (without one, places come beside the compact events), as the library draws them.
    @Test func labelsMatchTheLibraryWithAndWithoutALimit() throws {
        let path = QuakemapProcess.repositoryRoot.appendingPathComponent(sample).path
        for (arguments, limit, labels) in [(["--limit", "0"], nil, 3), (["--labels", "0"], 300, 0), (["--labels", "7"], 300, 7)] as [([String], Int?, Int)] {
            let result = try QuakemapProcess.run(["render", sample, "-o", "-", "--width", "700", "--quiet"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let selected = try QuakeMap.select(from: .file(path), selection: EventSelection(limit: limit))
            let library = try QuakeMap.render(selected, options: MapOptions(width: 700, labelCount: labels))
            #expect(try RasterImage(png: library) == RasterImage(png: result.stdout), "\(arguments)")
        }
        let none = try QuakemapProcess.run(["render", sample, "-o", "-", "--width", "700", "--quiet", "--labels", "0"])
        let some = try QuakemapProcess.run(["render", sample, "-o", "-", "--width", "700", "--quiet"])
        #expect(none.stdout != some.stdout)
    }
}
