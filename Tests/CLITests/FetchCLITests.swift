import FeedTestServer
import Foundation
import Testing
import QuakeKit

/// `quakemap render --url` against a real HTTP server on 127.0.0.1 that
/// injects faults; every failure must leave the previous map as it was.
@Suite("quakemap --url, under every network fault", .timeLimit(.minutes(10)), .serialized)
struct FetchCLITests {
    static let csv = """
        time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type
        2026-11-21T10:00:00.000Z,-17.7,178.1,560,6.1,mww,,,,,us,us1,2026-11-21T11:00:00.000Z,"Fiji region, synthetic",earthquake
        2026-11-21T09:00:00.000Z,35.7,139.7,40,4.5,mb,,,,,us,us2,2026-11-21T11:00:00.000Z,"Honshu, synthetic",earthquake
        2026-11-21T08:00:00.000Z,61.2,-149.9,30,2.2,ml,,,,,ak,ak3,2026-11-21T11:00:00.000Z,"Alaska, synthetic",earthquake

        """
    static let geoJSON = #"{"type":"FeatureCollection","metadata":{"generated":1763769480000},"features":["#
        + #"{"type":"Feature","properties":{"mag":5.2,"place":"synthetic","time":1763769000000,"type":"earthquake"},"#
        + #""geometry":{"type":"Point","coordinates":[10,20,5]},"id":"us9"}]}"#

    /// A server, a scratch folder with an existing good map, and a private cache.
    struct Fixture {
        let server: LoopbackServer
        let folder: URL
        let map: URL
        let cache: URL
        let oldMap: Data

        init() throws {
            server = try LoopbackServer()
            folder = try QuakemapProcess.temporaryFolder()
            map = folder.appendingPathComponent("out/quakes.png")
            cache = folder.appendingPathComponent("cache")
            try FileManager.default.createDirectory(at: map.deletingLastPathComponent(), withIntermediateDirectories: true)
            oldMap = Data("previous good map".utf8)
            try oldMap.write(to: map)
        }

        var url: String { server.baseURL + "/feed" }

        func render(_ extra: [String] = []) throws -> (QuakemapProcess.Outcome, Double) {
            let start = Date()
            let result = try QuakemapProcess.run(["render", "--url", url, "-o", map.path, "--width", "256",
                                                  "--cache-dir", cache.path] + extra)
            return (result, Date().timeIntervalSince(start))
        }

        func mapIsUnchanged() throws -> Bool {
            try Data(contentsOf: map) == oldMap
                && FileManager.default.contentsOfDirectory(atPath: map.deletingLastPathComponent().path) == ["quakes.png"]
        }

        func finish() {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func csvAndGeoJSONAreRecognisedByContent() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.server.route("/feed", [.response(status: 200, body: Self.csv), .response(status: 200, body: Self.geoJSON)])
        let (csv, _) = try fixture.render()
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stderr.hasPrefix("fetched 3 rows from \(fixture.url) in "), "\(csv.stderr)")
        #expect(csv.stderr.contains(" s (200): 3 events, 0 without magnitude, 0 rejected; drew 3 → "))
        #expect(try RasterImage(png: Data(contentsOf: fixture.map)).width == 256)
        let (json, _) = try fixture.render(["--no-cache"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr.contains("fetched 1 rows from \(fixture.url) in "))
        #expect(json.stderr.contains("(feed generated 2025-11-21T23:58:00.000Z): 1 events"), "\(json.stderr)")
    }

    @Test func redirectsGzipAndRetriesThatSucceed() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.server.route("/feed", [.response(status: 301, headers: [("Location", "/moved")])])
        fixture.server.route("/moved", [
            .response(status: 500, body: "oops"),
            .response(status: 200, headers: [("Content-Encoding", "gzip")], body: Gzip.compress(Data(Self.csv.utf8))),
        ])
        let (result, _) = try fixture.render(["--no-cache"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("(200, 2 attempts): 3 events"), "\(result.stderr)")
        #expect(fixture.server.requests.map(\.path) == ["/feed", "/moved", "/feed", "/moved"])
        #expect(fixture.server.requests.last?.headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test func retryAfterIsHonoured() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.server.route("/feed", [.response(status: 503, headers: [("Retry-After", "2")]), .response(status: 200, body: Self.csv)])
        let (result, seconds) = try fixture.render()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(seconds >= 2, "waited \(seconds) s")
        #expect(fixture.server.requests.count == 2)
    }

    @Test func conditionalRequestsAndIfChanged() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let validators = [("ETag", "\"v1\""), ("Last-Modified", "Sat, 21 Nov 2026 23:58:00 GMT")]
        fixture.server.route("/feed", [.response(status: 200, headers: validators, body: Self.csv),
                                       .response(status: 304, headers: validators)])
        #expect(try fixture.render().0.status == 0)
        let first = try Data(contentsOf: fixture.map)

        let (again, _) = try fixture.render()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("(304, from cache)"), "\(again.stderr)")
        #expect(again.stderr.contains("generated 2026-11-21T23:58:00.000Z"), "Last-Modified is the feed's time")
        let conditional = try #require(fixture.server.requests.last)
        #expect(conditional.headers["if-none-match"] == "\"v1\"")
        #expect(conditional.headers["if-modified-since"] == "Sat, 21 Nov 2026 23:58:00 GMT")

        try Data("touched".utf8).write(to: fixture.map)
        let (skipped, _) = try fixture.render(["--if-changed"])
        #expect(skipped.status == 0)
        #expect(skipped.stderr.contains("unchanged since the last render"), "\(skipped.stderr)")
        #expect(try Data(contentsOf: fixture.map) == Data("touched".utf8), "--if-changed did not render")
        #expect(first.count > 100)
    }

    struct Fault: Sendable, CustomTestStringConvertible {
        let name: String
        let replies: [Reply]
        let arguments: [String]
        let status: Int32
        let message: String
        let requests: Int
        var testDescription: String { name }
    }

    static let faults: [Fault] = [
        Fault(name: "404", replies: [.response(status: 404, body: "no")], arguments: [],
              status: 69, message: "/feed: HTTP 404\n", requests: 1),
        Fault(name: "429 every time", replies: [.response(status: 429)], arguments: ["--retries", "1"],
              status: 75, message: "/feed: HTTP 429 (after 2 attempts)", requests: 2),
        Fault(name: "500 every time", replies: [.response(status: 500)], arguments: ["--retries", "0"],
              status: 75, message: "/feed: HTTP 500", requests: 1),
        Fault(name: "stall past the timeout", replies: [.stall(seconds: 6)], arguments: ["--timeout", "1"],
              status: 75, message: "no complete answer within 1 s", requests: 1),
        Fault(name: "slow body past the timeout",
              replies: [.slowBody(status: 200, body: Data(csv.utf8), chunk: 10, interval: 0.5)], arguments: ["--timeout", "1.5"],
              status: 75, message: "no complete answer within 1.5 s", requests: 1),
        Fault(name: "body cut short", replies: [.truncated(status: 200, body: "time,lat", declaredLength: 5000)],
              arguments: ["--retries", "1"], status: 75, message: "the body was cut short", requests: 2),
        Fault(name: "body over the size limit", replies: [.response(status: 200, body: csv)], arguments: ["--max-bytes", "100"],
              status: 65, message: "the body is larger than --max-bytes 100", requests: 1),
        Fault(name: "garbage with 200", replies: [.response(status: 200, body: Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 3]))],
              arguments: [], status: 65, message: "binary data", requests: 1),
        Fault(name: "empty 200", replies: [.response(status: 200, body: "")], arguments: [],
              status: 65, message: "/feed: the feed is empty", requests: 1),
        Fault(name: "redirect loop", replies: [.response(status: 302, headers: [("Location", "/feed")])], arguments: [],
              status: 69, message: "more than 5 redirects", requests: 6),
    ]

    @Test(arguments: faults)
    func failuresExitWithTheirCodeAndKeepThePreviousMap(_ fault: Fault) throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.server.route("/feed", fault.replies)
        let (result, seconds) = try fixture.render(fault.arguments)
        #expect(result.status == fault.status, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("quakemap: \(fixture.url)"), "\(result.stderr)")
        #expect(result.stderr.contains(fault.message), "\(result.stderr)")
        #expect(try fixture.mapIsUnchanged())
        #expect(fixture.server.requests.count == fault.requests)
        #expect(seconds < 10)
    }

    @Test func staleOkRendersTheLastGoodFeedWhenTheFetchOrTheFeedFails() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.server.route("/feed", [.response(status: 200, body: Self.csv), .response(status: 500),
                                       .response(status: 200, body: "garbage\u{0}")])
        #expect(try fixture.render().0.status == 0)
        let (failed, _) = try fixture.render(["--retries", "0", "--stale-ok"])
        #expect(failed.status == 0, "\(failed.stderr)")
        #expect(failed.stderr.hasPrefix("warning: \(fixture.url): HTTP 500; using the cached feed fetched "), "\(failed.stderr)")
        #expect(failed.stderr.contains("read 3 rows from the cached feed of "))
        let (garbage, _) = try fixture.render(["--stale-ok"])
        #expect(garbage.status == 0, "\(garbage.stderr)")
        #expect(garbage.stderr.contains("a NUL byte"), "\(garbage.stderr)")
        #expect(garbage.stderr.contains("using the cached feed"))
        let (without, _) = try fixture.render([])
        #expect(without.status == 65, "without --stale-ok the bad feed is an error")
    }

    @Test func jsonLogLineAndUsageErrors() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.server.route("/feed", [.response(status: 200, body: Self.csv)])
        let (result, _) = try fixture.render(["--log-format", "json"])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["outcome"] as? String == "rendered")
        #expect(object["status"] as? Int == 200)
        #expect(object["rows"] as? Int == 3)
        #expect(object["level"] as? String == "info")

        let failure = try QuakemapProcess.run(["render", "--url", fixture.server.baseURL + "/none", "-o", fixture.map.path,
                                               "--no-cache", "--log-format", "json"])
        #expect(failure.status == 69)
        let error = try #require(try JSONSerialization.jsonObject(with: Data(failure.stderr.utf8)) as? [String: Any])
        #expect(error["exitCode"] as? Int == 69)
        #expect(error["level"] as? String == "error")

        #expect(try QuakemapProcess.run(["render", "--url", "ftp://example.invalid/x", "--no-cache"]).status == 64)
        #expect(try QuakemapProcess.run(["render", "--url", fixture.url, "-o", "-", "--if-changed"]).status == 64)
        #expect(try QuakemapProcess.run(["render", "feed.csv", "--url", fixture.url]).status == 64)
    }
}
