import FeedTestServer
import Foundation
import Testing
@testable import QuakeFetch

@Suite("Fetching feeds", .timeLimit(.minutes(10)))
struct QuakeFetchTests {
    @Test func backoffDoublesWithJitterUpToTheCap() {
        let fetcher = FeedFetcher(options: FetchOptions(initialBackoff: 1, maximumBackoff: 8))
        for attempt in 1...6 {
            let ceiling = min(8, pow(2, Double(attempt - 1)))
            for _ in 0..<50 {
                let wait = fetcher.backoff(afterAttempt: attempt)
                #expect(wait >= ceiling / 2 && wait <= ceiling, "attempt \(attempt): \(wait)")
            }
        }
    }

    @Test func retryAfterInSecondsOrAsAnHTTPDate() {
        #expect(HTTPTransfer.retryAfterSeconds("120") == 120)
        #expect(HTTPTransfer.retryAfterSeconds(" 0 ") == 0)
        #expect(HTTPTransfer.retryAfterSeconds("-5") == nil)
        #expect(HTTPTransfer.retryAfterSeconds("soon") == nil)
        let past = HTTPTransfer.retryAfterSeconds("Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(past == 0)
    }

    @Test func whichFailuresAreTemporary() {
        #expect(FetchError.httpStatus(url: "u", status: 503, attempts: 1).isTemporary)
        #expect(FetchError.httpStatus(url: "u", status: 429, attempts: 1).isTemporary)
        #expect(!FetchError.httpStatus(url: "u", status: 404, attempts: 1).isTemporary)
        #expect(FetchError.truncated(url: "u", reason: "r", attempts: 1).isTemporary)
        #expect(!FetchError.tooLarge(url: "u", limit: 1).isTemporary)
    }

    @Test func invalidURLsAreRefusedBeforeAnyRequest() async {
        for url in ["ftp://127.0.0.1/x", "not a url", "http://", "/local/path.csv"] {
            await #expect(throws: FetchError.invalidURL(url)) { try await FeedFetcher().fetch(url) }
        }
    }

    @Test func cacheRoundTripsAndIgnoresADamagedEntry() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakefetch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = FeedCache(directory: folder.path)
        #expect(cache.entry(for: "http://127.0.0.1/a") == nil)
        let entry = CachedFeed(url: "http://127.0.0.1/a", body: Data("body".utf8), entityTag: "\"e\"",
                               lastModified: "Sat, 21 Nov 2026 23:58:00 GMT", fetchedAt: Date(timeIntervalSince1970: 1000),
                               renderedOutput: "/tmp/map.png")
        try cache.store(entry)
        #expect(cache.entry(for: entry.url) == entry)
        #expect(cache.entry(for: "http://127.0.0.1/b") == nil)
        // A body that no longer matches its metadata is not trusted.
        let body = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".body") })
        try Data("tampered".utf8).write(to: folder.appendingPathComponent(body))
        #expect(cache.entry(for: entry.url) == nil)
    }

    @Test func theWholeFetchKeepsItsDeadlineAcrossRetries() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/slow", [.stall(seconds: 5)])
        let fetcher = FeedFetcher(options: FetchOptions(timeout: 1.5, retries: 5, initialBackoff: 0.1, maximumBackoff: 0.2))
        let start = Date()
        // The only attempt used up the time: no retry starts that could not finish.
        // (Wall-clock upper bounds are left to the CLI tests, which time a separate
        // process; here the test's own threads may be busy with other tests.)
        await #expect(throws: FetchError.timedOut(url: server.baseURL + "/slow", seconds: 1.5, attempts: 1)) {
            try await fetcher.fetch(server.baseURL + "/slow")
        }
        #expect(Date().timeIntervalSince(start) >= 1.4)
        #expect(server.requests.count == 1)
    }

    @Test func conditionalFetchReusesTheCachedBodyOn304() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/feed", [.response(status: 304, headers: [("ETag", "\"v2\"")])])
        let cached = CachedFeed(url: server.baseURL + "/feed", body: Data("cached".utf8), entityTag: "\"v1\"",
                                lastModified: nil, fetchedAt: Date(), renderedOutput: nil)
        let fetched = try await FeedFetcher().fetch(cached.url, cached: cached)
        #expect(fetched.status == 304 && fetched.fromCache && fetched.body == Data("cached".utf8))
        #expect(fetched.entityTag == "\"v2\"")
        #expect(server.requests.first?.headers["if-none-match"] == "\"v1\"")
        #expect(server.requests.first?.headers["if-modified-since"] == nil)
    }
}
