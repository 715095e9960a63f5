import Foundation
import Testing
import QuakeKit

/// The bad-input table of docs/bad-input.md, one test per row: what quakemap does
/// with each bad input, its exit code and message, and that a previous map
/// survives. Inputs are written here; none come from real feeds.
@Suite("Adversarial inputs", .timeLimit(.minutes(10)))
struct AdversarialInputTests {
    static let header = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type"

    static func row(_ id: String = "us1", time: String = "2026-11-21T10:00:00.000Z", latitude: String = "10",
                    longitude: String = "20", depth: String = "5", mag: String = "4.5",
                    updated: String = "2026-11-21T11:00:00.000Z", place: String = "\"Somewhere, Far\"") -> String {
        "\(time),\(latitude),\(longitude),\(depth),\(mag),mb,,,,,us,\(id),\(updated),\(place),earthquake"
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let input: [UInt8]
        let status: Int32
        let message: String
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ status: Int32, _ message: String) {
            self.init(name, Array(text.utf8), status, message)
        }

        init(_ name: String, _ input: [UInt8], _ status: Int32, _ message: String) {
            self.name = name
            self.input = input
            self.status = status
            self.message = message
        }
    }

    static let cases: [Case] = [
        Case("empty file", "", 65, "<stdin>: the feed is empty"),
        Case("whitespace only", "  \t\n \n", 65, "required column 'time', 'latitude', 'longitude' not found in the header"),
        Case("header only", header + "\n", 0, "read 0 rows: 0 events, 0 without magnitude, 0 rejected; drew 0 → "),
        Case("a FeatureCollection with no features", #"{"type":"FeatureCollection","metadata":{"count":0},"features":[]}"#, 0,
             "read 0 rows: 0 events, 0 without magnitude, 0 rejected; drew 0 → "),
        Case("an HTML error page", "<!DOCTYPE html>\n<html><body>503 Service Unavailable</body></html>\n", 65,
             "required column 'time', 'latitude', 'longitude' not found in the header (<!DOCTYPE html>)"),
        Case("wrong header", "a,b,c\n1,2,3\n", 65, "required column 'time', 'latitude', 'longitude' not found in the header (a,b,c)"),
        Case("required column missing", "time,latitude,mag\n2026-11-21T10:00:00Z,1,2\n", 65, "required column 'longitude' not found"),
        Case("duplicate column names", "time,latitude,longitude,mag,mag\n2026-11-21T10:00:00Z,1,2,3,4\n", 65,
             "column 'mag' appears more than once in the header (columns 4 and 5)"),
        Case("too few fields", header + "\n" + row() + "\n2026-11-21T10:00:00Z,1,2\n", 0, "<stdin>:3: row has 3 fields, the header has 15"),
        Case("too many fields", header + "\n" + row() + "\n" + row("us2") + ",extra\n", 0, "<stdin>:3: row has 16 fields, the header has 15"),
        Case("unterminated quote", header + "\n" + row() + "\n2026-11-21T10:00:00Z,1,\"never closed\n2026-11-21T11:00:00Z,2,3\n", 65,
             "<stdin>:3: a quoted field opened on this line is never closed"),
        Case("NUL byte", Array((header + "\n" + row()).utf8) + [0] + Array("\n".utf8), 65, "<stdin>:2: column 104: a NUL byte"),
        Case("invalid UTF-8 in a place", Array((header + "\n").utf8) + Array(row().utf8).map { $0 == UInt8(ascii: "F") ? 0xFF : $0 }
             + Array("\n".utf8), 0, "read 1 rows: 1 events"),
        Case("invalid UTF-8 in the header", [0xC3, 0x28] + Array((header.dropFirst(2) + "\n" + row() + "\n").utf8), 65,
             "the first line is not text"),
        Case("byte order mark", [0xEF, 0xBB, 0xBF] + Array((header + "\n" + row() + "\n").utf8), 0, "read 1 rows: 1 events"),
        Case("CRLF, CR and LF mixed", header + "\r\n" + row("us1") + "\r" + row("us2") + "\n" + row("us3") + "\r\n", 0,
             "read 3 rows: 3 events"),
        Case("latitude out of range", header + "\n" + row(latitude: "95.2") + "\n" + row("us2") + "\n", 0,
             "<stdin>:2: column 'latitude': '95.2' is outside -90…90"),
        Case("longitude out of range", header + "\n" + row(longitude: "200") + "\n" + row("us2") + "\n", 0,
             "<stdin>:2: column 'longitude': '200' is outside -180…180"),
        Case("NaN", header + "\n" + row(latitude: "NaN") + "\n" + row("us2") + "\n", 0, "column 'latitude': 'NaN' is not a finite number"),
        Case("Inf", header + "\n" + row(mag: "inf") + "\n" + row("us2") + "\n", 0, "column 'mag': 'inf' is not a finite number"),
        Case("hex float", header + "\n" + row(longitude: "0x1p3") + "\n" + row("us2") + "\n", 0, "column 'longitude': '0x1p3' is not a number"),
        Case("10,000-digit number", header + "\n" + row(mag: String(repeating: "9", count: 10_000)) + "\n" + row("us2") + "\n", 0,
             "column 'mag': '9999999999999999999999999999999999999999…' is not a number"),
        Case("time in the future", header + "\n" + row(time: "2099-01-01T00:00:00.000Z") + "\n" + row("us2") + "\n", 0,
             "column 'time': '2099-01-01T00:00:00.000Z' is in the future"),
        Case("time before 1900", header + "\n" + row(time: "1857-01-09T16:24:00.000Z") + "\n", 0, "read 1 rows: 1 events"),
        Case("duplicate ids", header + "\n" + row("us1", mag: "4.1", updated: "2026-11-21T11:00:00.000Z") + "\n"
             + row("us1", mag: "4.4", updated: "2026-11-21T12:00:00.000Z") + "\n", 0,
             "read 2 rows: 2 events, 0 without magnitude, 0 rejected, 1 duplicate ids (latest kept)"),
        Case("magnitude of 12", header + "\n" + row(mag: "12") + "\n" + row("us2") + "\n", 0, "column 'mag': '12' is outside -5…10"),
        Case("depth of −10 km", header + "\n" + row(depth: "-10") + "\n", 0, "read 1 rows: 1 events"),
        Case("a 2 MB single line", header + "\n" + String(repeating: "x", count: 2_000_000) + "\n", 65,
             "<stdin>:2: a record longer than 1048576 bytes"),
        Case("10 million columns", String(repeating: ",", count: 10_000_000) + "\n", 65, "<stdin>:1: a record longer than 1048576 bytes"),
        // Followed without recursion: balanced, so it is read to its end, and it is no feed.
        Case("deep JSON nesting", String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000), 65,
             "not a GeoJSON earthquake feed: the top level is not a FeatureCollection or a Feature"),
    ]

    @Test(arguments: cases)
    func badInputGetsItsExitCodeAndMessage(_ adversarial: Case) throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let map = folder.appendingPathComponent("quakes.png")
        let previous = Data("previous good map".utf8)
        try previous.write(to: map)
        let result = try QuakemapProcess.run(["render", "-", "-o", map.path, "--width", "200", "--no-legend"],
                                             stdin: Data(adversarial.input))
        #expect(result.status == adversarial.status, "\(result.stderr)")
        #expect(result.stderr.contains(adversarial.message), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Backtrace"))
        if adversarial.status != 0 {
            #expect(try Data(contentsOf: map) == previous)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["quakes.png"])
    }

    @Test func duplicateIdsKeepTheLatestUpdate() throws {
        let feed = [Self.header, Self.row("us1", mag: "4.4", updated: "2026-11-21T12:00:00.000Z"),
                    Self.row("us1", mag: "4.1", updated: "2026-11-21T11:00:00.000Z"),
                    Self.row("us2", mag: "3.0")].joined(separator: "\n") + "\n"
        let result = try QuakemapProcess.run(["list", "-", "--quiet", "--columns", "id,time,latitude,longitude,depth,mag"],
                                             stdin: Data(feed.utf8))
        #expect(result.stdoutText.split(separator: "\n").count == 3)
        #expect(result.stdoutText.contains("us1,2026-11-21T10:00:00.000Z,10,20,5,4.4\n"))
    }

    /// The same bad `updated` in CSV and in GeoJSON: the same verdict (the
    /// row is rejected, naming the property and the value), and with
    /// `--strict` the same exit code.
    @Test func aBadUpdatedIsRejectedAlikeInCSVAndGeoJSON() throws {
        let csv = [Self.header, Self.row("us1", updated: "yesterday"), Self.row("us2")].joined(separator: "\n") + "\n"
        let feature = { (id: String, updated: String) in
            #"{"type":"Feature","id":"\#(id)","properties":{"mag":4.5,"time":1795255200000,"updated":\#(updated),"#
                + #""place":"Somewhere","type":"earthquake"},"geometry":{"type":"Point","coordinates":[20,10,5]}}"#
        }
        let geojson = #"{"type":"FeatureCollection","features":["# + feature("us1", #""yesterday""#) + ","
            + feature("us2", "1795258800000") + "]}"
        for (name, feed) in [("CSV", csv), ("GeoJSON", geojson)] {
            let lenient = try QuakemapProcess.run(["list", "-", "--now", "2026-11-22T00:00:00Z", "--columns", "id"],
                                                  stdin: Data(feed.utf8))
            #expect(lenient.status == 0, "\(name): \(lenient.stderr)")
            #expect(lenient.stderr.contains("'updated'") && lenient.stderr.contains("'yesterday' is not a time"),
                    "\(name): \(lenient.stderr)")
            #expect(lenient.stdoutText.split(separator: "\n").map { $0.split(separator: ",").first } == ["id", "us2"],
                    "\(name): \(lenient.stdoutText)")
            let strict = try QuakemapProcess.run(["list", "-", "--strict", "--now", "2026-11-22T00:00:00Z"],
                                                 stdin: Data(feed.utf8))
            #expect(strict.status == 65, "\(name): \(strict.stderr)")
            #expect(strict.stderr.contains("'yesterday' is not a time"), "\(name): \(strict.stderr)")
        }
    }

    /// A hostile value in each of the four formats: the same warning after
    /// the format's own location, and with `--strict` the same message and exit code.
    @Test(arguments: [("mag", "12", "'12' is outside -5…10"), ("latitude", "", "is empty"),
                      ("time", "2020-13-45", "'2020-13-45' is not a time (expected ISO 8601, e.g. 2020-06-11T15:27:04.123Z)")])
    func aHostileValueIsRejectedAlikeInEveryFormat(_ field: String, _ value: String, _ verdict: String) throws {
        var values = ["time": "2026-11-21T10:00:00.000Z", "latitude": "10", "longitude": "20", "depth": "5", "mag": "4.5"]
        values[field] = value
        let (time, latitude, longitude, mag) = (values["time"]!, values["latitude"]!, values["longitude"]!, values["mag"]!)
        let good = (time: "2026-11-21T09:00:00.000Z", latitude: "11", longitude: "21", mag: "3.5")
        let csv = "time,latitude,longitude,depth,mag,id\n\(time),\(latitude),\(longitude),5,\(mag),us1\n"
            + "\(good.time),\(good.latitude),\(good.longitude),5,\(good.mag),us2\n"
        let text = "#EventID|Time|Latitude|Longitude|Depth/km|Magnitude\nus1|\(time)|\(latitude)|\(longitude)|5|\(mag)\n"
            + "us2|\(good.time)|\(good.latitude)|\(good.longitude)|5|\(good.mag)\n"
        // GeoJSON numbers where the text is one; the empty latitude a string, which is judged as the same text in a CSV.
        func json(_ text: String) -> String { Double(text) != nil ? text : "\"\(text)\"" }
        func feature(_ id: String, _ time: String, _ latitude: String, _ longitude: String, _ mag: String) -> String {
            #"{"type":"Feature","id":"\#(id)","properties":{"mag":\#(json(mag)),"time":"\#(time)"},"#
                + #""geometry":{"type":"Point","coordinates":[\#(json(longitude)),\#(json(latitude)),5]}}"#
        }
        let geojson = #"{"type":"FeatureCollection","features":["# + feature("us1", time, latitude, longitude, mag) + ","
            + feature("us2", good.time, good.latitude, good.longitude, good.mag) + "]}"
        func event(_ id: String, _ time: String, _ latitude: String, _ longitude: String, _ mag: String) -> String {
            "<event publicID=\"smi:x/\(id)\"><origin publicID=\"smi:x/o\(id)\"><time><value>\(time)</value></time>"
                + "<latitude><value>\(latitude)</value></latitude><longitude><value>\(longitude)</value></longitude>"
                + "<depth><value>5000</value></depth></origin><magnitude publicID=\"smi:x/m\(id)\"><mag><value>\(mag)</value></mag>"
                + "</magnitude></event>\n"
        }
        let quakeML = "<?xml version=\"1.0\"?>\n<q:quakeml xmlns:q=\"http://quakeml.org/xmlns/quakeml/1.2\" "
            + "xmlns=\"http://quakeml.org/xmlns/bed/1.2\"><eventParameters publicID=\"smi:x/p\">\n"
            + event("us1", time, latitude, longitude, mag) + event("us2", good.time, good.latitude, good.longitude, good.mag)
            + "</eventParameters></q:quakeml>\n"
        for (name, feed) in [("CSV", csv), ("FDSN text", text), ("GeoJSON", geojson), ("QuakeML", quakeML)] {
            let lenient = try QuakemapProcess.run(["list", "-", "--now", "2026-11-22T00:00:00Z", "--columns", "id"],
                                                  stdin: Data(feed.utf8))
            #expect(lenient.status == 0, "\(name): \(lenient.stderr)")
            let warning = lenient.stderr.split(separator: "\n").first { $0.hasPrefix("warning: ") } ?? ""
            #expect(warning.hasSuffix(verdict), "\(name): \(lenient.stderr)")
            #expect(warning.lowercased().contains(field), "\(name): \(warning)")
            #expect(lenient.stdoutText.split(separator: "\n").dropFirst().map { $0.split(separator: ",").first } == ["us2"],
                    "\(name): \(lenient.stdoutText)")
            let strict = try QuakemapProcess.run(["list", "-", "--strict", "--now", "2026-11-22T00:00:00Z"], stdin: Data(feed.utf8))
            #expect(strict.status == 65, "\(name): \(strict.stderr)")
            #expect(strict.stderr.hasPrefix("quakemap: ") && strict.stderr.hasSuffix(verdict + "\n"), "\(name): \(strict.stderr)")
        }
    }

    /// Event X, first in California, then revised out of the box: `list` and `render` within
    /// the box show no X, with or without a limit, whichever version comes first.
    @Test func aRevisionThatLeavesTheBoxTakesTheEventWithIt() throws {
        let california = Self.row("X", time: "2026-11-20T10:00:00.000Z", latitude: "35", longitude: "-115",
                                  updated: "2026-11-20T10:05:00.000Z")
        let revised = Self.row("X", time: "2026-11-20T10:00:01.000Z", latitude: "10", longitude: "10",
                               updated: "2026-11-20T12:00:00.000Z")
        let neighbour = Self.row("Y", time: "2026-11-20T09:00:00.000Z", latitude: "34", longitude: "-116",
                                 updated: "2026-11-20T09:10:00.000Z")
        for rows in [[california, neighbour, revised], [revised, neighbour, california]] {
            let feed = Data(([Self.header] + rows).joined(separator: "\n").utf8)
            for limit in ["300", "0"] {
                let listed = try QuakemapProcess.run(["list", "-", "--bbox=-120,30,-110,40", "--limit", limit, "--quiet",
                                                      "--columns", "id"], stdin: feed)
                #expect(listed.status == 0, "\(listed.stderr)")
                #expect(listed.stdoutText.split(separator: "\n").map { $0.split(separator: ",")[0] } == ["id", "Y"],
                        "\(listed.stdoutText)")
            }
            let rendered = try QuakemapProcess.run(["render", "-", "--bbox=-120,30,-110,40", "-o", "-", "--width", "360"], stdin: feed)
            #expect(rendered.stderr.contains("drew 1 "), "\(rendered.stderr)")
        }
    }

    /// `--since D --until D` is the whole UTC day of D, as ``TimeBound/span(_:)`` says (the rule
    /// the server's `datetime` reads too: ServerTests' `TimeBoundAgreementTests`); an instant is itself.
    @Test func aDateIsTheWholeUTCDayOnTheCommandLine() throws {
        let times = ["2020-06-04T23:59:59.999Z", "2020-06-05T00:00:00.000Z", "2020-06-05T12:30:00.000Z",
                     "2020-06-05T23:59:59.999Z", "2020-06-06T00:00:00.000Z"]
        let feed = Data(([Self.header] + times.enumerated().map { Self.row("e\($0)", time: $1) }).joined(separator: "\n").utf8)
        for (since, until, expected) in [("2020-06-05", "2020-06-05", ["e3", "e2", "e1"]),
                                         ("2020-06-05T12:30:00Z", "2020-06-05T12:30:00Z", ["e2"]),
                                         ("2020-06-04", "2020-06-04", ["e0"])] {
            let listed = try QuakemapProcess.run(["list", "-", "--since", since, "--until", until, "--quiet",
                                                  "--now", "2026-11-22T00:00:00Z", "--columns", "id"], stdin: feed)
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdoutText.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) } == expected,
                    "\(since)…\(until): \(listed.stdoutText)")
        }
    }

    @Test func filesThatCannotBeRead() throws {
        let folder = try QuakemapProcess.run(["list", "/tmp"])
        #expect(folder.status == 66 && folder.stderr.contains("/tmp: cannot open: Is a directory"))
        let broken = try QuakemapProcess.run(["list", "/proc/self/mem"])
        #expect(broken.status == 74 && broken.stderr.contains("read failed: Input/output error"), "\(broken.stderr)")
        if getuid() != 0 {
            let scratch = try QuakemapProcess.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let locked = scratch.appendingPathComponent("locked.csv")
            try Data("x".utf8).write(to: locked)
            chmod(locked.path, 0)
            let result = try QuakemapProcess.run(["list", locked.path])
            #expect(result.status == 66 && result.stderr.contains("Permission denied"))
        }
    }

    @Test func outputsThatCannotBeWritten() throws {
        let created = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: created) }
        let deep = created.appendingPathComponent("a/b/c/map.png")
        #expect(try QuakemapProcess.run(["render", "Data/synthetic_all_day.csv", "-o", deep.path, "--quiet"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: deep.path))
        let proc = try QuakemapProcess.run(["render", "Data/synthetic_all_day.csv", "-o", "/proc/quakes.png"])
        #expect(proc.status == 73, "\(proc.stderr)")
        #expect(proc.stderr.contains("/proc/quakes.png: cannot create"))
    }

    @Test func sigpipeEndsQuietly() throws {
        let script = "'\(QuakemapProcess.executable.path)' list Data/synthetic_all_day.csv --limit 0 | head -1; echo \"${PIPESTATUS[0]}\" >&2"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = QuakemapProcess.repositoryRoot
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile(), err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: out, as: UTF8.self) == EventListEncoder.csvHeader + "\n")
        let status = String(decoding: err, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(["0", "141"].contains(status.split(separator: "\n").last.map(String.init) ?? ""), "\(status)")
        #expect(!status.contains("quakemap:"), "no message for a closed pipe")
    }

    /// A large input streams with bounded memory: 100 MB through a pipe with the default limit.
    @Test func memoryStaysBoundedOnALargeStream() throws {
        let generator = "import sys\nrow = '2026-11-21T10:00:00.000Z,10,20,5,4.5,mb,,,,,us,us%d,2026-11-21T11:00:00.000Z,\"Somewhere, Far\",earthquake\\n'\n"
            + "out = sys.stdout\nout.write('\(Self.header)\\n')\nfor i in range(900000): out.write(row % i)\n"
        let script = "python3 -c \"$GEN\" | /usr/bin/time -f '%M' -o \"$RSS\" '\(QuakemapProcess.executable.path)' list - --quiet > /dev/null"
        let rss = FileManager.default.temporaryDirectory.appendingPathComponent("rss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: rss) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.environment = ["GEN": generator, "RSS": rss.path, "PATH": "/usr/bin:/bin"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let kilobytes = Int(try String(contentsOf: rss, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
        #expect(kilobytes < 64 * 1024, "peak RSS \(kilobytes) KB for a ~100 MB stream")
    }
}
