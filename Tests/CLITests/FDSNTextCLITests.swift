import Foundation
import Testing

/// FDSN event text on the command line: told by content in files and on
/// standard input, judged like CSV (warnings, `--strict` 65, header-only 0),
/// and written by `list --format text` to be read back.
@Suite("FDSN event text on the command line", .timeLimit(.minutes(10)))
struct FDSNTextCLITests {
    static let sample = "Data/synthetic_all_day.csv"
    static let header = "#EventID | Time | Latitude | Longitude | Depth/km | Author | Catalog | Contributor | ContributorID | MagType | Magnitude | MagAuthor | EventLocationName | EventType"

    static func row(_ id: String, latitude: String = "35.5", magnitude: String = "3.2") -> String {
        "\(id) | 2026-11-21T10:00:00.5 | \(latitude) | -117.25 | 8 | ci | ci | ci | \(id) | ml | \(magnitude) | ci | 10 km N of Somewhere, CA | earthquake"
    }

    @Test func listWritesTextThatReadsBackToTheSameList() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try QuakemapProcess.run(["list", Self.sample, "--format", "text"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdoutText.hasPrefix(
            "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType\n"))
        let file = folder.appendingPathComponent("events.txt")
        try text.stdout.write(to: file)

        // The fields FDSN text carries; the CSV's others (nst, gap…) it has no column for.
        let carried = ["--format", "csv", "--columns", "id,time,latitude,longitude,depth,mag,magType,place,type,net"]
        let original = try QuakemapProcess.run(["list", Self.sample] + carried)
        let fromFile = try QuakemapProcess.run(["list", file.path] + carried)
        let fromStdin = try QuakemapProcess.run(["list", "-"] + carried, stdin: text.stdout)
        #expect(original.stdout.count > 10_000)
        #expect(fromFile.status == 0 && fromStdin.status == 0)
        #expect(fromFile.stdoutText == original.stdoutText)
        #expect(fromStdin.stdoutText == original.stdoutText)
        // The text, read, writes itself again.
        let again = try QuakemapProcess.run(["list", file.path, "--format", "text"])
        #expect(again.stdout == text.stdout)
    }

    @Test func rejectedRowsWarnWithLineAndColumnAndStrictIs65() throws {
        let body = [Self.header, Self.row("ci1"), Self.row("ci2", latitude: "95.2"), Self.row("ci3", magnitude: "big")]
            .joined(separator: "\r\n") + "\r\n"
        let lenient = try QuakemapProcess.run(["list", "-", "--columns", "id,time,latitude,longitude,depth,mag,magType"],
                                              stdin: Data(body.utf8))
        #expect(lenient.status == 0)
        let lines = lenient.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "warning: <stdin>:3: column 'Latitude': '95.2' is outside -90…90")
        #expect(lines.dropFirst().first == "warning: <stdin>:4: column 'Magnitude': ' big ' is not a number", "the value as written, blanks and all")
        #expect(lenient.stdoutText.split(separator: "\n").count == 2, "the CSV header and ci1")
        #expect(lenient.stdoutText.contains("ci1,2026-11-21T10:00:00.500Z,35.5,-117.25,8,3.2,ml\n"))

        let strict = try QuakemapProcess.run(["list", "-", "--strict"], stdin: Data(body.utf8))
        #expect(strict.status == 65)
        #expect(strict.stderr == "quakemap: <stdin>:3: column 'Latitude': '95.2' is outside -90…90\n")
        #expect(strict.stdout.isEmpty)
    }

    @Test func aHeaderAloneIsAnEmptyCatalogue() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = try QuakemapProcess.run(["list", "-", "--format", "text"], stdin: Data((Self.header + "\n").utf8))
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdoutText.split(separator: "\n").count == 1)
        let map = folder.appendingPathComponent("map.png")
        let render = try QuakemapProcess.run(["render", "-", "-o", map.path, "--width", "300"],
                                             stdin: Data(Self.header.utf8))
        #expect(render.status == 0, "\(render.stderr)")
        #expect(FileManager.default.fileExists(atPath: map.path))
    }

    @Test func missingColumnsAre65NamingTheSourceAndLine1() throws {
        let result = try QuakemapProcess.run(["render", "-", "-o", "/dev/null"],
                                             stdin: Data("#EventID|Time|Lat|Longitude\nx|2026-01-01T00:00:00|1|2\n".utf8))
        #expect(result.status == 65)
        #expect(result.stderr
            == "quakemap: <stdin>:1: required column 'Latitude' not found in the header (EventID,Time,Lat,Longitude)\n")
    }
}
