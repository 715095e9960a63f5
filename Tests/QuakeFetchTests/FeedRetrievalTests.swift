import FeedTestServer
import Foundation
import QuakeKit
import Testing
@testable import QuakeFetch

/// The stale-feed rule that `quakemap --url` and `quakemap-server` share, case
/// by case, against a real HTTP server on 127.0.0.1.
@Suite("Retrieving a feed: fresh, not modified or stale", .timeLimit(.minutes(10)))
struct FeedRetrievalTests {
    // No test here waits on a stalled server.
    static let once = FetchOptions(timeout: LoopbackServer.patientSeconds, retries: 0)

    static let header = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type\n"
    static let rows = [
        "2026-11-21T10:00:00.000Z,-17.7,178.1,560,6.1,mww,,,,,us,us1,2026-11-21T11:00:00.000Z,synthetic,earthquake\n",
        "2026-11-21T09:00:00.000Z,35.7,139.7,40,4.5,mb,,,,,us,us2,2026-11-21T11:00:00.000Z,synthetic,earthquake\n",
        "2026-11-21T08:00:00.000Z,61.2,-149.9,30,2.2,ml,,,,,ak,ak3,2026-11-21T11:00:00.000Z,synthetic,earthquake\n",
    ]
    static let three = header + rows.joined()
    static let two = header + rows.prefix(2).joined()
    static let garbage = "garbage\u{0}"
    /// The `Last-Modified` of every fresh response, and of every known entry.
    static let freshDate = "Sun, 22 Nov 2026 23:58:00 GMT"
    static let knownDate = "Sat, 21 Nov 2026 23:58:00 GMT"

    enum Expected: Sendable {
        case fresh(events: Int)
        /// `events` nil: the parser skipped the body (the caller holds its events).
        case notModified(events: Int?)
        case stale(events: Int, because: String, afterStatus: Int?)
        case fails(String)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var replies: [Reply]
        /// Body of the cache's entry (ETag `"cached"`).
        var cached: String?
        /// Body of the caller's own entry, the server's last good feed (ETag `"previous"`); no cache then.
        var previous: String?
        var staleOk = true
        var invalidURL = false
        var expected: Expected
        /// `Last-Modified` of the body that was parsed.
        var lastModified: String?
        var fallbacks = 0
        var requests = 1
        /// The request's `If-None-Match`: conditional whenever an entry is known.
        var conditionalOn: String?
        var testDescription: String { name }
    }

    static let fresh: [(String, String)] = [("ETag", "\"new\""), ("Last-Modified", freshDate)]

    static let cases: [Case] = [
        Case(name: "fresh", replies: [.response(status: 200, headers: fresh, body: three)],
             expected: .fresh(events: 3), lastModified: freshDate),
        Case(name: "fresh, conditional on the cache", replies: [.response(status: 200, headers: fresh, body: three)],
             cached: two, expected: .fresh(events: 3), lastModified: freshDate, conditionalOn: "\"cached\""),
        Case(name: "304: the cached body", replies: [.response(status: 304)], cached: two,
             expected: .notModified(events: 2), lastModified: knownDate, conditionalOn: "\"cached\""),
        Case(name: "fetch fails + cache: the cache stands in", replies: [.response(status: 500)], cached: two,
             expected: .stale(events: 2, because: "HTTP 500", afterStatus: nil), lastModified: knownDate, fallbacks: 1,
             conditionalOn: "\"cached\""),
        Case(name: "fetch fails, no cache", replies: [.response(status: 500)],
             expected: .fails("HTTP 500")),
        Case(name: "fetch fails + cache, without staleOk", replies: [.response(status: 500)], cached: two, staleOk: false,
             expected: .fails("HTTP 500"), conditionalOn: "\"cached\""),
        Case(name: "invalid URL: reported even with a cache", replies: [], cached: two, invalidURL: true,
             expected: .fails("not an http or https URL"), requests: 0),
        Case(name: "bad fresh body + cache: the cache and its Last-Modified",
             replies: [.response(status: 200, headers: fresh, body: garbage)], cached: two,
             expected: .stale(events: 2, because: "NUL byte", afterStatus: 200), lastModified: knownDate, fallbacks: 1,
             conditionalOn: "\"cached\""),
        Case(name: "bad fresh body, the same bytes cached: reported", replies: [.response(status: 200, body: garbage)],
             cached: garbage, expected: .fails("NUL byte"), conditionalOn: "\"cached\""),
        Case(name: "cache unparsable: its error, after the fallback was announced", replies: [.response(status: 500)],
             cached: garbage, expected: .fails("NUL byte"), fallbacks: 1, conditionalOn: "\"cached\""),
        Case(name: "refresh: a 304 answering the previous good entry is not parsed", replies: [.response(status: 304)],
             previous: two, expected: .notModified(events: nil), lastModified: knownDate, conditionalOn: "\"previous\""),
        Case(name: "refresh: a new body after the previous good entry",
             replies: [.response(status: 200, headers: fresh, body: three)], previous: two,
             expected: .fresh(events: 3), lastModified: freshDate, conditionalOn: "\"previous\""),
        Case(name: "refresh: a failure is reported (the caller keeps its last good feed)", replies: [.response(status: 500)],
             previous: two, staleOk: false, expected: .fails("HTTP 500"), conditionalOn: "\"previous\""),
    ]

    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("feedretrieval-\(UUID().uuidString)")
    }

    @Test(arguments: cases)
    func theRule(_ test: Case) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/feed", test.replies)
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = (test.invalidURL ? "ftp://127.0.0.1:\(server.port)" : server.baseURL) + "/feed"
        func entry(_ body: String, tag: String) -> CachedFeed {
            CachedFeed(url: url, body: Data(body.utf8), entityTag: tag, lastModified: Self.knownDate,
                       fetchedAt: Date(timeIntervalSince1970: 1_763_700_000), renderedOutput: "/maps/quakes.png")
        }
        let cache = test.previous == nil ? FeedCache(directory: folder.path) : nil
        let cached = test.cached.map { entry($0, tag: "\"cached\"") }
        if let cached { try cache?.store(cached) }
        let previous = test.previous.map { entry($0, tag: "\"previous\"") }
        let retrieval = FeedRetrieval(fetch: Self.once, cache: cache, staleOk: test.staleOk)

        var fallbacks: [(CachedFeed, String)] = []
        do {
            let retrieved = try await retrieval.retrieve(url, previous: previous, fallingBack: { fallbacks.append(($0, "\($1)")) }) {
                body, source -> Int? in
                if case .notModified = source, previous != nil { return nil }
                return try QuakeMap.select(from: .bytes(body, name: url)).events.count
            }
            switch (test.expected, retrieved.source) {
            case let (.fresh(events), .fresh(fetched)):
                #expect(retrieved.parsed == events && fetched.status == 200)
                #expect(retrieved.fetched == fetched && retrieved.entry.entityTag == "\"new\"" && retrieved.entry.renderedOutput == nil)
            case let (.notModified(events), .notModified(fetched)):
                #expect(retrieved.parsed == events && fetched.status == 304 && fetched.fromCache)
            case let (.stale(events, because, afterStatus), .stale(entry, error, response)):
                #expect(retrieved.parsed == events)
                #expect(entry == cached && retrieved.entry == cached, "the cache's entry stands in, unchanged")
                #expect(retrieved.fetched == nil)
                #expect("\(error)".contains(because), "\(error)")
                #expect(response?.status == afterStatus)
                #expect(fallbacks.map { $0.0 } == [entry] && fallbacks.map { $0.1 } == ["\(error)"])
            default:
                Issue.record("expected \(test.expected), got \(retrieved.source)")
            }
            #expect(retrieved.lastModified == test.lastModified.flatMap(FeedFetcher.httpDate))
        } catch {
            guard case .fails(let message) = test.expected else {
                Issue.record("expected \(test.expected), got \(error)")
                return
            }
            #expect("\(error)".contains(message), "\(error)")
        }
        #expect(fallbacks.count == test.fallbacks)
        #expect(server.requests.count == test.requests)
        #expect(server.requests.first?.headers["if-none-match"] == test.conditionalOn)
        #expect(server.requests.first?.headers["if-modified-since"] == test.conditionalOn.map { _ in Self.knownDate })
        // Retrieving never writes: the entry is only replaced by `remember`.
        #expect(cache?.entry(for: url) == cached)
    }

    @Test func rememberKeepsTheBodyAndValidatorsAndSaysWhatWasDrawn() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/feed", [.response(status: 200, headers: Self.fresh, body: Self.three),
                               .response(status: 304, headers: [("ETag", "\"newer\"")])])
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = server.baseURL + "/feed"
        let cache = FeedCache(directory: folder.path)
        let retrieval = FeedRetrieval(fetch: Self.once, cache: cache, staleOk: false)
        let first = try #require(try await retrieval.retrieve(url) { body, _ in body }.fetched)
        let before = Date()
        try retrieval.remember(first, renderedOutput: .path("/maps/quakes.png"))
        let stored = try #require(cache.entry(for: url))
        #expect(stored.body == Data(Self.three.utf8) && stored.entityTag == "\"new\"" && stored.lastModified == Self.freshDate)
        #expect(stored.renderedOutput == "/maps/quakes.png" && stored.fetchedAt >= before)
        #expect(stored.lastModifiedDate == FeedFetcher.httpDate(Self.freshDate))

        // A 304 refreshes the validators; `.previous` keeps what was drawn, `.none` forgets it.
        let second = try #require(try await retrieval.retrieve(url) { body, _ in body }.fetched)
        #expect(second.status == 304 && second.body == Data(Self.three.utf8))
        try retrieval.remember(second, renderedOutput: .previous)
        #expect(cache.entry(for: url)?.entityTag == "\"newer\"")
        #expect(cache.entry(for: url)?.renderedOutput == "/maps/quakes.png")
        try retrieval.remember(second, renderedOutput: .none)
        #expect(cache.entry(for: url)?.renderedOutput == nil)

        // Without a cache there is nothing to keep.
        try FeedRetrieval(cache: nil, staleOk: true).remember(second, renderedOutput: .path("/elsewhere.png"))
        #expect(cache.entry(for: url)?.renderedOutput == nil)
    }
}
