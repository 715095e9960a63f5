import Foundation
import Testing
import QuakeKit

/// `quakemap chart`: every kind, formats by extension, exit codes, output kept on failure.
@Suite("quakemap chart", .timeLimit(.minutes(10)))
struct ChartCLITests {
    let sample = "Data/synthetic_all_day.csv"
    static let shared = QuakemapProcess.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data/usgs")
    static let sharedPresent = FileManager.default.fileExists(atPath: shared.appendingPathComponent("all_month_2020-06.csv").path)

    static let kinds: [[String]] = [["magnitude-time"], ["cumulative"], ["rate"], ["depth"], ["fmd"],
                                    ["cross-section", "--profile", "-180,-60,180,60", "--half-width", "2000"]]

    @Test(arguments: kinds)
    func everyKindDrawsAPNG(_ arguments: [String]) throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("charts/\(arguments[0]).png").path
        let result = try QuakemapProcess.run(["chart"] + arguments + [sample, "-o", path, "--width", "640", "--height", "400"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("charted") && result.stderr.contains("(\(arguments[0]))"), "\(result.stderr)")
        let image = try RasterImage(png: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(image.width == 640 && image.height == 400)
    }

    @Test func theFormatFollowsTheExtension() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, magic) in [("c.pdf", "%PDF"), ("c.svg", "<?xml"), ("c.PNG", "\u{89}PNG")] {
            let path = folder.appendingPathComponent(name).path
            let result = try QuakemapProcess.run(["chart", "fmd", sample, "-o", path, "-q"])
            #expect(result.status == 0, "\(result.stderr)")
            let head = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(5)
            #expect(String(decoding: head, as: UTF8.self).hasPrefix(magic) || head.starts(with: [0x89, 0x50, 0x4E, 0x47]) && magic.hasSuffix("PNG"),
                    "\(name) starts with \(Array(head))")
        }
    }

    /// A PDF chart read by poppler: one page, the chart's size in points, ink on it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftoppm"), "pdftoppm is missing: skipped"))
    func pdfChartsAreReadByPoppler() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("m.pdf")
        let result = try QuakemapProcess.run(["chart", "magnitude-time", sample, "-o", pdf.path, "--width", "600", "--height", "360", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftoppm")
        process.arguments = ["-png", "-r", "72", pdf.path, folder.appendingPathComponent("page").path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("page") }
        try #require(pages.count == 1, "\(pages)")
        let image = try RasterImage(png: Data(contentsOf: folder.appendingPathComponent(pages[0])))
        #expect(image.width == 600 && image.height == 360)
        let dark = stride(from: 0, to: image.rgba.count, by: 4).filter { image.rgba[$0] < 128 }.count
        #expect(dark > 500, "axes, labels and symbols drawn: \(dark) dark pixels")
    }

    @Test(arguments: [
        (["chart", "pie"], "pie"),
        (["chart", "cross-section"], "--profile"),
        (["chart", "cross-section", "--profile", "10,20,10"], "--profile"),
        (["chart", "cross-section", "--profile", "10,20,10,20"], "at least 1 km"),
        (["chart", "cross-section", "--profile", "10,20,11,21", "--half-width", "0"], "half-width"),
        (["chart", "depth", "--profile", "10,20,11,21"], "cross-section only"),
        (["chart", "rate", "--width", "50"], "--width"),
        (["chart", "rate", "--scale", "0"], "--scale"),
        (["chart", "rate", "-o", "out.gif"], "cannot tell the format"),
        (["chart", "rate", "--limit", "-1"], "--limit"),
    ])
    func usageErrorsExit64(_ arguments: [String], _ mentions: String) throws {
        let result = try QuakemapProcess.run(arguments + [sample])
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(mentions), "\(result.stderr)")
    }

    @Test func aMissingInputExits66AndKeepsThePreviousChart() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("rate.png").path
        #expect(try QuakemapProcess.run(["chart", "rate", sample, "-o", path, "-q"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try QuakemapProcess.run(["chart", "rate", folder.appendingPathComponent("absent.csv").path, "-o", path])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func badDataExits65() throws {
        let result = try QuakemapProcess.run(["chart", "rate", "-o", "-"], stdin: Data("this is not a feed\n".utf8))
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aHeaderOnlyFeedIsAnEmptyChart() throws {
        let header = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type\n"
        let result = try QuakemapProcess.run(["chart", "magnitude-time", "-o", "-", "-q"], stdin: Data(header.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let image = try RasterImage(png: result.stdout)
        #expect(image.width == 800 && image.height == 500)
    }

    @Test(.enabled(if: sharedPresent, "../shared/data/usgs is not beside the repository: skipped"))
    func chartsTheSharedMonth() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = Self.shared.appendingPathComponent("all_month_2020-06.csv").path
        for kind in ["fmd", "rate"] {
            let path = folder.appendingPathComponent("\(kind).svg").path
            let result = try QuakemapProcess.run(["chart", kind, feed, "-o", path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("charted 19813 (\(kind))"), "\(result.stderr)")
            let svg = try String(contentsOfFile: path, encoding: .utf8)
            #expect(svg.contains("<svg"))
        }
    }
}
