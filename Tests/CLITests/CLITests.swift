import Foundation
import Testing
import QuakeKit

/// The `quakemap` binary end to end: exit codes, messages, pipes, atomic output.
@Suite("quakemap command line", .timeLimit(.minutes(10)))
struct CLITests {
    let sample = "Data/synthetic_all_day.csv"
    let header = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type"

    func row(_ id: String, time: String = "2026-11-21T10:00:00.000Z", latitude: String = "10", mag: String = "4.5") -> String {
        "\(time),\(latitude),20,5,\(mag),mb,,,,,us,\(id),2026-11-21T11:00:00.000Z,\"Somewhere, Far\",earthquake"
    }

    @Test func rendersTheSampleWithASummaryLine() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("maps/quakes.png").path
        let result = try QuakemapProcess.run(["render", sample, "-o", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.range(of: #"^read 420 rows: 417 events, 3 without magnitude, 0 rejected; drew 300 → .*quakes\.png \(2048×1024\) in \d+ ms\n$"#,
                                    options: .regularExpression) != nil, "\(result.stderr)")
        let image = try RasterImage(png: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(image.width == 2048 && image.height == 1024)
    }

    @Test func pipesStdinToStdout() throws {
        let feed = try Data(contentsOf: QuakemapProcess.repositoryRoot.appendingPathComponent(sample))
        let result = try QuakemapProcess.run(["render", "-o", "-", "--width", "400", "--quiet"], stdin: feed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let image = try RasterImage(png: result.stdout)
        #expect(image.width == 400 && image.height == 200)
        // '-' names stdin explicitly, and `render` is the default subcommand.
        let explicit = try QuakemapProcess.run(["-", "-o", "-", "--width", "400", "--quiet"], stdin: feed)
        #expect(explicit.stdout == result.stdout)
    }

    @Test func listsMostRecentFirstAsCSVAndJSON() throws {
        let feed = ([header, row("us1", time: "2026-11-21T01:00:00.000Z"), row("us2", time: "2026-11-21T03:00:00.123Z", mag: ""),
                     row("us3", time: "2026-11-21T02:00:00.000Z", mag: "-0.4")].joined(separator: "\n")) + "\n"
        let csv = try QuakemapProcess.run(["list", "-", "--quiet"], stdin: Data(feed.utf8))
        #expect(csv.status == 0)
        // The USGS CSV's 22 columns in its order: the 15 the feed has, as it has them, and 7 empty.
        #expect(csv.stdoutText == """
            time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,horizontalError,depthError,magError,magNst,status,locationSource,magSource
            2026-11-21T02:00:00.000Z,10,20,5,-0.4,mb,,,,,us,us3,2026-11-21T11:00:00.000Z,"Somewhere, Far",earthquake,,,,,,,
            2026-11-21T01:00:00.000Z,10,20,5,4.5,mb,,,,,us,us1,2026-11-21T11:00:00.000Z,"Somewhere, Far",earthquake,,,,,,,

            """)
        let chosen = try QuakemapProcess.run(["list", "-", "--quiet", "--columns", "id,mag,place"], stdin: Data(feed.utf8))
        #expect(chosen.stdoutText == "id,mag,place\nus3,-0.4,\"Somewhere, Far\"\nus1,4.5,\"Somewhere, Far\"\n")
        let unknown = try QuakemapProcess.run(["list", "-", "--quiet", "--columns", "id,magnitude"], stdin: Data(feed.utf8))
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown column 'magnitude'"), "\(unknown.stderr)")
        let json = try QuakemapProcess.run(["list", "-", "--format", "json", "--limit", "1"], stdin: Data(feed.utf8))
        let objects = try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]]
        #expect(objects?.map { $0["id"] as? String } == ["us3"])
        #expect(json.stderr.hasPrefix("read 3 rows: 2 events, 1 without magnitude, 0 rejected; listed 1 in "))
    }

    @Test func rejectedRowsAreReportedWithFileAndLine() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = folder.appendingPathComponent("feed.csv")
        let rows = [header, row("us1"), row("us2", latitude: "95.2")] + (0..<22).map { row("bad\($0)", latitude: "x") }
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: feed)
        let result = try QuakemapProcess.run(["list", feed.path])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "warning: \(feed.path):3: column 'latitude': '95.2' is outside -90…90")
        #expect(lines[1] == "warning: \(feed.path):4: column 'latitude': 'x' is not a number")
        #expect(lines.count == 22)
        #expect(lines[20] == "warning: … and 3 more rejected rows")
        #expect(lines[21].hasPrefix("read 24 rows: 1 events, 0 without magnitude, 23 rejected; listed 1"))

        let strict = try QuakemapProcess.run(["list", feed.path, "--strict"])
        #expect(strict.status == 65)
        #expect(strict.stderr == "quakemap: \(feed.path):3: column 'latitude': '95.2' is outside -90…90\n")
        #expect(strict.stdout.isEmpty)
    }

    @Test(arguments: [
        ("", 65, "the feed is empty"),
        ("\n\n", 65, "the feed is empty"),
        ("   \n", 65, "required column 'time', 'latitude', 'longitude' not found in the header"),
        ("time,lat,mag\n2026-01-01T00:00:00Z,1,2\n", 65, "required column 'longitude' not found in the header (time,lat,mag)"),
        ("time,latitude,longitude\n2026-01-01T00:00:00Z,1,\u{0}2\n", 65, "<stdin>:2: column 24: a NUL byte"),
        ("{\"type\":\"FeatureCollection\"}", 65, "not a GeoJSON earthquake feed: the FeatureCollection has no \"features\" array"),
        ("[1, 2]", 65, "this is a JSON array, neither a CSV nor a GeoJSON feed"),
        ("{\"type\":", 65, "not a GeoJSON earthquake feed: the JSON is not valid"),
        ("time,latitude,longitude\n\"2026-01-01T00:00:00Z,1,2\n", 65, ":2: a quoted field opened on this line is never closed"),
    ])
    func badFeedsExitWithDataError(_ content: String, _ status: Int32, _ message: String) throws {
        let result = try QuakemapProcess.run(["render", "-", "-o", "/dev/null"], stdin: Data(content.utf8))
        #expect(result.status == status)
        #expect(result.stderr.hasPrefix("quakemap: <stdin>"), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one clear message")
    }

    @Test func aPNGIsNotAFeed() throws {
        let png = try QuakemapProcess.run(["render", sample, "-o", "-", "--width", "64", "--quiet"]).stdout
        let result = try QuakemapProcess.run(["list", "-"], stdin: png)
        #expect(result.status == 65)
        #expect(result.stderr == "quakemap: <stdin>: the first line is not text: binary data, not a CSV feed\n")
    }

    @Test func missingInputIs66AndUsageErrorsAre64() throws {
        let missing = try QuakemapProcess.run(["render", "/nonexistent/feed.csv"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "quakemap: /nonexistent/feed.csv: cannot open: No such file or directory\n")
        let folder = try QuakemapProcess.run(["list", "/tmp"])
        #expect(folder.status == 66)
        #expect(folder.stderr.contains("Is a directory"))
        for arguments in [["render", sample, "--limit", "-1"], ["render", sample, "--width", "0"],
                          ["render", sample, "--symbol-scale", "nan"], ["render", sample, "--bogus"],
                          ["list", sample, "--format", "xml"]] {
            let result = try QuakemapProcess.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
    }

    @Test func unwritableOutputIs73AndTheOldMapSurvivesEveryFailure() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notAFolder = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: notAFolder)
        let blocked = try QuakemapProcess.run(["render", sample, "-o", notAFolder.path + "/map.png"])
        #expect(blocked.status == 73)
        #expect(blocked.stderr.contains("cannot create folder"))

        let map = folder.appendingPathComponent("quakes.png")
        #expect(try QuakemapProcess.run(["render", sample, "-o", map.path, "--width", "300"]).status == 0)
        let good = try Data(contentsOf: map)
        let bad = try QuakemapProcess.run(["render", "-", "-o", map.path, "--strict"],
                                          stdin: Data((header + "\n" + row("us1", latitude: "99") + "\n").utf8))
        #expect(bad.status == 65)
        let missing = try QuakemapProcess.run(["render", "/nonexistent.csv", "-o", map.path])
        #expect(missing.status == 66)
        #expect(try Data(contentsOf: map) == good)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["file", "quakes.png"])
    }

    @Test func limitZeroDrawsEveryEventAndBasemapNoneIsTransparent() throws {
        let result = try QuakemapProcess.run(["render", sample, "-o", "-", "--limit", "0", "--basemap", "none", "--width", "360"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("drew 417 → <stdout> (360×180)"), "\(result.stderr)")
        let image = try RasterImage(png: result.stdout)
        #expect(image.pixel(x: 180, y: 2).alpha == 0, "no basemap: the Arctic Ocean is transparent")
    }
}
