import FeedTestServer
import Foundation
import QuakeKit
import Testing

/// `quakemap render|list|stats --fdsn` against a loopback FDSN event service
/// whose cap (500) is far below its catalogue.
@Suite("quakemap --fdsn, against a loopback FDSN service", .timeLimit(.minutes(10)), .serialized)
struct FDSNCLITests {
    static let now = "2026-11-20T00:00:00Z"
    static let end = Date(timeIntervalSince1970: 1_795_132_800)  // 2026-11-20T00:00:00Z
    static let catalogue = SyntheticEvent.catalogue(count: 1_300, start: end.addingTimeInterval(-20 * 86_400),
                                                    end: end.addingTimeInterval(-60))

    /// A service, a scratch folder and a private cache.
    struct Fixture {
        let service: FDSNTestService
        let folder: URL

        init(_ events: [SyntheticEvent] = FDSNCLITests.catalogue) throws {
            service = try FDSNTestService(catalogue: events)
            folder = try QuakemapProcess.temporaryFolder()
        }

        func run(_ command: String, _ extra: [String]) throws -> QuakemapProcess.Outcome {
            try QuakemapProcess.run([command, "--fdsn", service.baseURL, "--now", FDSNCLITests.now, "--since", "30d",
                                     "--cache-dir", folder.appendingPathComponent("cache").path] + extra)
        }

        func finish() {
            service.server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The ids of a `list` CSV, in order.
    static func ids(_ outcome: QuakemapProcess.Outcome) -> [String] {
        outcome.stdoutText.split(separator: "\n").dropFirst().map { line in
            let header = EventListEncoder.csvHeader.split(separator: ",")
            let column = header.firstIndex(of: "id")!
            return String(line.split(separator: ",", omittingEmptySubsequences: false)[column])
        }
    }

    @Test(arguments: ["csv", "xml", "text", "geojson"])
    func listReturnsEveryEventOnceInOrder(format: String) throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let outcome = try fixture.run("list", ["--limit", "0", "--fdsn-format", format, "--verbose"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(Self.ids(outcome) == Self.catalogue.map(\.id))
        // Paged: the 400 above the cap split the window; every request logged at debug level.
        let queries = fixture.service.parameters(of: "query")
        #expect(queries.count > 3)
        #expect(outcome.stderr.components(separatedBy: "debug: GET ").count - 1 == fixture.service.server.requests.count)
        #expect(outcome.stderr.contains("fetched 1300 rows from \(fixture.service.baseURL)query in "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(" slices)"))
    }

    @Test func aTruncatingServiceWithoutCountPagedToo() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.service.overCap = .truncate
        fixture.service.hasCount = false
        let outcome = try fixture.run("list", ["--limit", "0", "--fdsn-format", "csv", "--fdsn-page-size", "500"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(Self.ids(outcome) == Self.catalogue.map(\.id))
    }

    /// The case that once printed 500 of 1300 and exit 0: pages cut at 500 without a word, asked for
    /// 10,000 (a base URL's default). Now every event, and a warning saying what was found.
    @Test func silentlyCutPagesAreFoundAndPagedUnder() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.service.overCap = .truncate
        let outcome = try fixture.run("list", ["--limit", "0", "--fdsn-format", "csv"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(Self.ids(outcome) == Self.catalogue.map(\.id))
        #expect(outcome.stderr.contains("warning: ") && outcome.stderr.contains("answered 500 of the 10000 events asked"),
                "\(outcome.stderr)")
    }

    @Test func renderAndStatsDrawTheWholeCatalogue() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let map = fixture.folder.appendingPathComponent("out/map.png")
        let render = try fixture.run("render", ["--limit", "0", "--fdsn-format", "csv", "-o", map.path, "--width", "256"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stderr.contains("1300 events"), "\(render.stderr)")
        #expect(try RasterImage(png: Data(contentsOf: map)).width == 256)
        let stats = try fixture.run("stats", ["--limit", "0", "--fdsn-format", "csv"])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.stdoutText.contains("1300"), "\(stats.stdoutText)")
        let tiles = fixture.folder.appendingPathComponent("tiles")
        let tiled = try fixture.run("tiles", ["--limit", "0", "--fdsn-format", "csv", "-o", tiles.path, "--zoom", "0-1"])
        #expect(tiled.status == 0, "\(tiled.stderr)")
        #expect(tiled.stderr.contains("1300 events"), "\(tiled.stderr)")
        #expect(FileManager.default.fileExists(atPath: tiles.appendingPathComponent("0/0/0.png").path))
    }

    @Test func theDefaultIsOneRequestForTheMostRecent() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let outcome = try fixture.run("list", ["--fdsn-format", "csv", "--min-mag", "4.5"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let expected = Self.catalogue.filter { $0.magnitude >= 4.5 && $0.time >= Self.end.addingTimeInterval(-30 * 86_400) }
        #expect(Self.ids(outcome) == Array(expected.prefix(300).map(\.id)))
        let queries = fixture.service.parameters(of: "query")
        #expect(queries.count == 1 && fixture.service.parameters(of: "count").isEmpty)
        #expect(queries.first?["limit"] == "300" && queries.first?["orderby"] == "time" && queries.first?["minmagnitude"] == "4.5")
        #expect(queries.first?["starttime"] == "2026-10-21T00:00:00" && queries.first?["endtime"] == "2026-11-20T00:00:00")
    }

    /// The service that answered is the data's credit, on the report's first page (the map's footer
    /// says the same: AttributionTests), not the USGS.
    @Test func aReportFromAnotherServiceCreditsIt() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let pdf = fixture.folder.appendingPathComponent("report.pdf")
        let made = try fixture.run("report", ["-o", pdf.path])
        #expect(made.status == 0, "\(made.stderr)")
        let text = try ReportCLITests.poppler("pdftotext", ["-l", "1", pdf.path, "-"])
        let host = try #require(URL(string: fixture.service.baseURL).map { "\($0.host ?? ""):\($0.port ?? 0)" })
        #expect(text.contains("Data: " + host), "\(text.prefix(400))")
        #expect(!text.contains("USGS"), "\(text.prefix(400))")
    }

    /// FDSN text carries no update times: a sync asks for QuakeML by itself, keeps the newest
    /// update, and asks the next time only for what changed since.
    @Test func aSyncAsksForAFormatThatCarriesUpdateTimes() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let catalogue = fixture.folder.appendingPathComponent("mirror.sqlite").path
        let first = try fixture.run("ingest", ["--sync", "--catalogue", catalogue])
        #expect(first.status == 0 && !first.stderr.contains("carries no update times"), "\(first.stderr)")
        let asked = fixture.service.parameters(of: "query"), counted = fixture.service.parameters(of: "count")
        #expect(!asked.isEmpty && asked.allSatisfy { $0["format"] == "xml" && $0["updatedafter"] == nil }, "\(asked)")
        let again = try fixture.run("ingest", ["--sync", "--catalogue", catalogue])
        #expect(again.status == 0, "\(again.stderr)")
        // Nothing changed: the service's count of what changed since says so, or one small query asks.
        let next = fixture.service.parameters(of: "query").dropFirst(asked.count)
            + fixture.service.parameters(of: "count").dropFirst(counted.count)
        #expect(!next.isEmpty && next.allSatisfy { $0["updatedafter"] != nil }, "\(next)")
        #expect(again.stderr.contains("0 new, 0 updated"), "\(again.stderr)")
    }

    @Test func aBaseURLIsAskedForTextThenQuakeMLOnce() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let text = try fixture.run("list", ["--limit", "10"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(Self.ids(text) == Array(Self.catalogue.prefix(10).map(\.id)))
        fixture.service.formats = ["xml"]
        let xml = try fixture.run("list", ["--limit", "10", "--no-cache"])
        #expect(xml.status == 0, "\(xml.stderr)")
        #expect(Self.ids(xml) == Self.ids(text))
        #expect(fixture.service.parameters(of: "query").map { $0["format"] } == ["text", "text", "xml"])
        #expect(xml.stderr.contains("(xml, 2 requests, 1 slice)"), "\(xml.stderr)")
    }

    @Test func eachFilterBecomesItsParameterAndLocalFiltersStillApply() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let outcome = try fixture.run("list", [
            "--fdsn-format", "csv", "--limit", "0", "--until", "2026-11-15", "--min-mag", "3", "--max-mag", "6.5",
            "--min-depth", "10", "--max-depth", "400", "--bbox", "170,-80,-170,80", "--type", "earthquake",
            "--where", "mag >= 3.5",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let query = try #require(fixture.service.parameters(of: "query").first)
        // The date's whole day, widened to the next whole second as every window is (the local filter trims it again).
        #expect(query["starttime"] == "2026-10-21T00:00:00" && query["endtime"] == "2026-11-16T00:00:00", "\(query)")
        #expect(query["minmagnitude"] == "3" && query["maxmagnitude"] == "6.5")
        #expect(query["mindepth"] == "10" && query["maxdepth"] == "400")
        #expect(query["minlatitude"] == "-80" && query["maxlatitude"] == "80")
        // An unknown service: the box across 180° is two requests; no eventtype.
        let longitudes = Set(fixture.service.parameters(of: "query").map { "\($0["minlongitude"]!),\($0["maxlongitude"]!)" })
        #expect(longitudes == ["170,180", "-180,-170"])
        #expect(query["eventtype"] == nil)
        // Type and CQL are applied locally.
        // A date as the upper bound is that whole day, here and in the request.
        let until = Date(timeIntervalSince1970: 1_795_132_800 - 4 * 86_400 - 0.001)
        let expected = Self.catalogue.filter {
            $0.time >= Self.end.addingTimeInterval(-30 * 86_400) && $0.time <= until && $0.magnitude >= 3.5 && $0.magnitude <= 6.5
                && $0.depth >= 10 && $0.depth <= 400 && abs($0.latitude) <= 80 && ($0.longitude >= 170 || $0.longitude <= -170) && $0.type == "earthquake"
        }
        #expect(!expected.isEmpty)
        #expect(Self.ids(outcome) == expected.map(\.id))
    }

    @Test func noDataIsAnEmptyMap() throws {
        for nodata in [204, 404] {
            let fixture = try Fixture([])
            defer { fixture.finish() }
            fixture.service.nodata = nodata
            let map = fixture.folder.appendingPathComponent("empty.png")
            let outcome = try fixture.run("render", ["--fdsn-format", "csv", "-o", map.path, "--width", "200"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("0 events"), "\(outcome.stderr)")
            #expect(try RasterImage(png: Data(contentsOf: map)).width == 200)
        }
    }

    @Test func faultsRetryThenFailWithTheFetchCodes() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.service.faults = [FDSNTestService.errorReply(503, retryAfter: 1),
                                  .truncated(status: 200, body: "time,lat", declaredLength: 900)]
        let retried = try fixture.run("list", ["--fdsn-format", "csv", "--limit", "5"])
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(Self.ids(retried).count == 5)

        fixture.service.faults = Array(repeating: .stall(seconds: 5), count: 3)
        let stalled = try fixture.run("list", ["--fdsn-format", "csv", "--limit", "5", "--timeout", "1", "--no-cache"])
        #expect(stalled.status == 75, "\(stalled.stderr)")
        #expect(stalled.stderr.contains("no complete answer within 1 s"), "\(stalled.stderr)")
    }

    @Test func staleOkServesTheLastGoodAnswer() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let good = try fixture.run("list", ["--fdsn-format", "csv", "--limit", "7"])
        #expect(good.status == 0, "\(good.stderr)")
        fixture.service.faults = Array(repeating: FDSNTestService.errorReply(503), count: 10)
        let stale = try fixture.run("list", ["--fdsn-format", "csv", "--limit", "7", "--retries", "0", "--stale-ok"])
        #expect(stale.status == 0, "\(stale.stderr)")
        #expect(stale.stderr.contains("HTTP 503; using the cached answer fetched "), "\(stale.stderr)")
        #expect(Self.ids(stale) == Self.ids(good))
        let failed = try fixture.run("list", ["--fdsn-format", "csv", "--limit", "7", "--retries", "0"])
        #expect(failed.status == 75, "\(failed.stderr)")
    }

    @Test func usageMistakesExit64() throws {
        let fixture = try Fixture([])
        defer { fixture.finish() }
        for arguments in [["list", "--fdsn", "usgs", "--url", "http://127.0.0.1:1/x"],
                          ["list", "--fdsn", "usgs", "feed.csv"],
                          ["list", "--fdsn", "nowhere"],
                          ["list", "--fdsn-page-size", "10", "feed.csv"]] {
            let outcome = try QuakemapProcess.run(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
        }
        let unknown = try QuakemapProcess.run(["list", "--fdsn", "nowhere"])
        #expect(unknown.stderr.contains("'nowhere' is neither a known service"), "\(unknown.stderr)")
        let both = try QuakemapProcess.run(["render", "--fdsn", "usgs", "--url", "http://127.0.0.1:1/x"])
        #expect(both.stderr.contains("--fdsn queries a service: give no input file and no --url with it"), "\(both.stderr)")
    }

    /// `--fdsn-mechanisms` asks a SeisComP-like service for QuakeML with `includefocalmechanism=true`
    /// on every page, and the events come back with their mechanisms; a service that refuses the
    /// parameter is a clear failure; the known services without it are refused before any request.
    @Test func mechanismsAreAskedForWhereTheServiceTakesThem() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let outcome = try fixture.run("list", ["--limit", "0", "--fdsn-mechanisms", "--format", "mechanisms"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let queries = fixture.service.parameters(of: "query")
        #expect(queries.count > 1 && queries.allSatisfy { $0["includefocalmechanism"] == "true" && $0["format"] == "xml" })
        let rows = outcome.stdoutText.split(separator: "\n").dropFirst()
        #expect(rows.count == Self.catalogue.count)
        // Each row's first plane is the one the service gave that event.
        let strikes = Dictionary(uniqueKeysWithValues: Self.catalogue.map { ($0.id, FDSNTestService.mechanismStrike(of: $0)) })
        let header = outcome.stdoutText.split(separator: "\n").first!.split(separator: ",").map(String.init)
        let idColumn = try #require(header.firstIndex(of: "id")), strikeColumn = try #require(header.firstIndex(of: "strike1"))
        for row in rows {
            let cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(Double(cells[strikeColumn]) == Double(strikes[cells[idColumn]] ?? -1), "\(row)")
        }
        // Without the flag, nothing extra is sent.
        let plain = try fixture.run("list", ["--fdsn-format", "xml", "--limit", "5"])
        #expect(plain.status == 0 && fixture.service.parameters(of: "query").last?["includefocalmechanism"] == nil)

        fixture.service.acceptsMechanisms = false
        let refused = try fixture.run("list", ["--limit", "5", "--fdsn-mechanisms", "--cache-dir", fixture.folder.appendingPathComponent("other").path])
        #expect(refused.status != 0 && refused.stderr.contains("includefocalmechanism"), "\(refused.stderr)")

        let usgs = try QuakemapProcess.run(["list", "--fdsn", "usgs", "--fdsn-mechanisms"])
        #expect(usgs.status == 64 && usgs.stderr.contains("detail GeoJSON"), "\(usgs.stderr)")
        let text = try QuakemapProcess.run(["list", "--fdsn", "geofon", "--fdsn-mechanisms", "--fdsn-format", "text"])
        #expect(text.status == 64 && text.stderr.contains("QuakeML"), "\(text.stderr)")
    }

    /// GMT meca text needs `--input-format`; its options are checked before anything is read.
    @Test func inputFormatMistakesExit64() throws {
        let bogus = try QuakemapProcess.run(["list", "/dev/null", "--input-format", "psmeca"])
        #expect(bogus.status == 64 && bogus.stderr.contains("auto, meca-a, meca-c or meca-m"), "\(bogus.stderr)")
        let time = try QuakemapProcess.run(["list", "/dev/null", "--meca-time", "2020-01-01"])
        #expect(time.status == 64 && time.stderr.contains("--meca-time needs --input-format"), "\(time.stderr)")
        let badTime = try QuakemapProcess.run(["list", "/dev/null", "--input-format", "meca-a", "--meca-time", "soon"])
        #expect(badTime.status == 64 && badTime.stderr.contains("not an ISO 8601 time"), "\(badTime.stderr)")
    }
}
