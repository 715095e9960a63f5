import FeedTestServer
import Foundation
import Testing
@testable import QuakeFetch

/// The HTTP client's behaviour, in this process, against the loopback server: what the
/// fetcher promises whatever HTTP stack is underneath.
@Suite("HTTP transfers", .timeLimit(.minutes(10)))
struct HTTPTransferTests {
    static let csv = "time,latitude,longitude,depth,mag\n2026-11-21T10:00:00.000Z,-17.7,178.1,560,6.1\n"
    // A redirect loop here once took more than 10 s in a full run. The deadline's own test sets 1 s.
    static let once = FetchOptions(timeout: LoopbackServer.patientSeconds, retries: 0)

    @Test func aGzipBodyIsAskedForAndDecoded() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let compressed = Gzip.compress(Data(Self.csv.utf8))
        server.route("/feed", [.response(status: 200, headers: [("Content-Encoding", "gzip")], body: compressed)])
        let fetched = try await FeedFetcher(options: Self.once).fetch(server.baseURL + "/feed")
        #expect(fetched.status == 200)
        #expect(fetched.body == Data(Self.csv.utf8))
        #expect(server.requests.first?.headers["accept-encoding"]?.contains("gzip") == true)
        #expect(server.requests.first?.headers["user-agent"] == "quakemap")
    }

    @Test func theLimitHoldsForTheDecodedBody() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let body = Data(String(repeating: Self.csv, count: 20).utf8)
        server.route("/feed", [.response(status: 200, headers: [("Content-Encoding", "gzip")], body: Gzip.compress(body))])
        var options = Self.once
        options.maximumBytes = body.count - 1
        await #expect(throws: FetchError.tooLarge(url: server.baseURL + "/feed", limit: body.count - 1)) {
            try await FeedFetcher(options: options).fetch(server.baseURL + "/feed")
        }
    }

    @Test func anAnnouncedLengthOverTheLimitIsRefused() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        // Only the head says how much would come; refused without waiting for the body.
        server.route("/feed", [.truncated(status: 200, body: "time", declaredLength: 10_000)])
        var options = Self.once
        options.maximumBytes = 1000
        await #expect(throws: FetchError.tooLarge(url: server.baseURL + "/feed", limit: 1000)) {
            try await FeedFetcher(options: options).fetch(server.baseURL + "/feed")
        }
    }

    @Test func redirectsAreFollowedUpToTheLimit() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/a", [.response(status: 301, headers: [("Location", "/b")])])
        server.route("/b", [.response(status: 302, headers: [("Location", server.baseURL + "/c")])])
        server.route("/c", [.response(status: 200, body: Self.csv)])
        var options = Self.once
        options.maximumRedirects = 2
        let fetched = try await FeedFetcher(options: options).fetch(server.baseURL + "/a")
        #expect(fetched.body == Data(Self.csv.utf8) && fetched.url == server.baseURL + "/a")
        #expect(server.requests.map(\.path) == ["/a", "/b", "/c"])

        options.maximumRedirects = 1
        await #expect(throws: FetchError.tooManyRedirects(url: server.baseURL + "/a", limit: 1)) {
            try await FeedFetcher(options: options).fetch(server.baseURL + "/a")
        }
        // The second redirect is the one over the limit: its target is never asked for.
        #expect(server.requests.map(\.path).suffix(2) == ["/a", "/b"])
        #expect(server.requests.count == 5)
    }

    @Test func aRedirectLoopEndsAtTheLimit() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/loop", [.response(status: 307, headers: [("Location", "/loop")])])
        await #expect(throws: FetchError.tooManyRedirects(url: server.baseURL + "/loop", limit: 5)) {
            try await FeedFetcher(options: Self.once).fetch(server.baseURL + "/loop")
        }
        #expect(server.requests.count == 6)
    }

    @Test func aBodyCutShortSaysHowMuchCame() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/feed", [.truncated(status: 200, body: "time,lat", declaredLength: 500)])
        await #expect(throws: FetchError.truncated(url: server.baseURL + "/feed", reason: "8 of 500 bytes", attempts: 1)) {
            try await FeedFetcher(options: Self.once).fetch(server.baseURL + "/feed")
        }
    }

    @Test func theDeadlineCoversABodyThatTrickles() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/feed", [.slowBody(status: 200, body: Self.csv, chunk: 4, interval: 0.5)])
        var options = Self.once
        options.timeout = 1
        await #expect(throws: FetchError.timedOut(url: server.baseURL + "/feed", seconds: 1, attempts: 1)) {
            try await FeedFetcher(options: options).fetch(server.baseURL + "/feed")
        }
        // The whole body takes 10 s, so a success would mean the deadline stopped at the
        // response head. How soon the timeout comes is not asserted here: in a test process
        // whose other tests hold every thread of the pool it may come late (`FetchCLITests`
        // times the program itself).
    }

    @Test func aRefusedConnectionIsAReadableTemporaryFailure() async throws {
        let server = try LoopbackServer()
        let url = server.baseURL + "/feed"
        server.stop()
        do {
            _ = try await FeedFetcher(options: Self.once).fetch(url)
            Issue.record("no error")
        } catch let error as FetchError {
            guard case let .connectionFailed(failed, reason, attempts) = error else { Issue.record("\(error)"); return }
            #expect(failed == url && attempts == 1)
            #expect(reason.lowercased().contains("refused"), "\(reason)")
            #expect(error.isTemporary)
        }
    }

    @Test func aGarbledAnswerIsAConnectionFailure() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/feed", [.raw("SPDY/9 nonsense\r\n\r\n")])
        do {
            _ = try await FeedFetcher(options: Self.once).fetch(server.baseURL + "/feed")
            Issue.record("no error")
        } catch let error as FetchError {
            guard case .connectionFailed = error else { Issue.record("\(error)"); return }
            #expect(error.message.hasPrefix(server.baseURL + "/feed: connection failed: "), "\(error.message)")
        }
    }

    @Test func headersArriveLowerCasedAndPassingStatusesAreAnswers() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.route("/feed", [.response(status: 400, headers: [("ETag", "\"x\""), ("X-Why", "because")], body: "bad query")])
        let outcome = await HTTPTransfer.get(server.baseURL + "/feed", headers: [], options: Self.once,
                                             deadline: LoopbackServer.patientSeconds, passing: [400])
        guard case let .response(status, headers, body) = outcome else { Issue.record("\(outcome)"); return }
        #expect(status == 400 && body == Data("bad query".utf8))
        #expect(headers["etag"] == "\"x\"" && headers["x-why"] == "because")
    }
}
