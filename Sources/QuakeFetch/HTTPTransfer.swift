import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// What one HTTP attempt gave.
struct HTTPAttempt: Sendable {
    enum Outcome: Sendable {
        /// A 2xx or 304 response with its (possibly empty) body.
        case response(status: Int, headers: [String: String], body: Data)
        /// The attempt failed; `retryAfter` is the server's wish in seconds, if it said.
        case failed(FetchError, retryAfter: Double?)
    }
}

/// One GET through AsyncHTTPClient (SwiftNIO, with BoringSSL and the system's
/// trust roots for HTTPS): gzip is asked for and decoded within the body limit,
/// redirects are followed here up to the limit, and one deadline covers
/// connecting, redirects and the whole body.
enum HTTPTransfer {
    /// Performs the request, giving up after `deadline` seconds; a status in
    /// `passing` is a response, not a failure.
    static func get(_ url: String, headers: [(String, String)], options: FetchOptions, deadline: Double,
                    passing: Set<Int> = []) async -> HTTPAttempt.Outcome {
        let budget = TimeAmount.nanoseconds(Int64((max(deadline, 0) * 1e9).rounded(.up)))
        var configuration = HTTPClient.Configuration()
        // Redirects are counted here, so the limit and the error are the fetcher's own.
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .enabled(limit: .size(options.maximumBytes))
        configuration.timeout = .init(connect: budget)
        // A refused connection is a failed attempt at once; the fetcher's retries and backoff decide what next.
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        // AsyncHTTPClient's deadline stops at the response head; a body that trickles in is
        // bounded by this timer, which races the transfer.
        return await withTaskGroup(of: HTTPAttempt.Outcome.self) { group in
            group.addTask {
                await Self.run(url, headers: headers, options: options, passing: passing,
                               client: client, deadline: .now() + budget, seconds: deadline)
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(deadline))
                return .failed(.timedOut(url: url, seconds: deadline, attempts: 1), retryAfter: nil)
            }
            let first = await group.next() ?? .failed(.timedOut(url: url, seconds: deadline, attempts: 1), retryAfter: nil)
            group.cancelAll()
            // Shutting down cancels what is still in flight (a body still streaming, or left
            // unread after an error), so the losing task ends at once and no connection lingers.
            try? await client.shutdown()
            return first
        }
    }

    private static func run(_ url: String, headers: [(String, String)], options: FetchOptions, passing: Set<Int>,
                            client: HTTPClient, deadline: NIODeadline, seconds: Double) async -> HTTPAttempt.Outcome {
        var location = url
        var redirects = 0
        while true {
            var request = HTTPClientRequest(url: location)
            request.method = .GET
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            request.headers.replaceOrAdd(name: "Accept-Encoding", value: "gzip")

            let response: HTTPClientResponse
            do {
                response = try await client.execute(request, deadline: deadline)
            } catch {
                return .failed(classify(error, url: url, seconds: seconds, limit: options.maximumBytes, received: nil), retryAfter: nil)
            }
            var fields: [String: String] = [:]
            for (name, value) in response.headers {
                let key = name.lowercased()
                fields[key] = fields[key].map { $0 + ", " + value } ?? value
            }
            let status = Int(response.status.code)

            if (300..<400).contains(status) && status != 304 {
                redirects += 1
                guard redirects <= options.maximumRedirects, let target = fields["location"] else {
                    return .failed(.tooManyRedirects(url: url, limit: options.maximumRedirects), retryAfter: nil)
                }
                guard let next = URL(string: target, relativeTo: URL(string: location))?.absoluteURL,
                      let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https", next.host != nil else {
                    return .failed(.invalidURL(target), retryAfter: nil)
                }
                location = next.absoluteString
                continue
            }
            guard (200..<300).contains(status) || status == 304 || passing.contains(status) else {
                return .failed(.httpStatus(url: url, status: status, attempts: 1),
                               retryAfter: fields["retry-after"].flatMap(Self.retryAfterSeconds))
            }
            let declared = fields["content-encoding"] == nil ? fields["content-length"].flatMap(Int.init) : nil
            if let declared, declared > options.maximumBytes {
                return .failed(.tooLarge(url: url, limit: options.maximumBytes), retryAfter: nil)
            }

            var body = Data()
            do {
                for try await chunk in response.body {
                    // The deadline holds even when this task runs late (a busy pool of threads):
                    // what arrives after it makes the answer a timeout, as the timer would have.
                    if NIODeadline.now() > deadline {
                        return .failed(.timedOut(url: url, seconds: seconds, attempts: 1), retryAfter: nil)
                    }
                    guard body.count + chunk.readableBytes <= options.maximumBytes else {
                        return .failed(.tooLarge(url: url, limit: options.maximumBytes), retryAfter: nil)
                    }
                    body.append(contentsOf: chunk.readableBytesView)
                }
            } catch {
                let received = declared.map { "\(body.count) of \($0) bytes" } ?? "after \(body.count) bytes"
                return .failed(classify(error, url: url, seconds: seconds, limit: options.maximumBytes, received: received), retryAfter: nil)
            }
            // Without a content coding the announced length must match what arrived.
            if let declared, declared != body.count, status != 304 {
                return .failed(.truncated(url: url, reason: "\(body.count) of \(declared) bytes", attempts: 1), retryAfter: nil)
            }
            return .response(status: status, headers: fields, body: body)
        }
    }

    /// The fetcher's error for what the HTTP stack threw; `received` (how much of the body came) is
    /// set once the body had begun.
    private static func classify(_ error: Error, url: String, seconds: Double, limit: Int, received: String?) -> FetchError {
        if let error = error as? HTTPClientError {
            if [.deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout].contains(error) {
                return .timedOut(url: url, seconds: seconds, attempts: 1)
            }
            if error == .cancelled {
                return .connectionFailed(url: url, reason: "the request was cancelled", attempts: 1)
            }
        }
        if let error = error as? NIOHTTPDecompression.DecompressionError, error == .limit {
            return .tooLarge(url: url, limit: limit)
        }
        // Whatever ends a body that had begun (a close, a reset, a parser at an early end of file) cut it short.
        if let received { return .truncated(url: url, reason: received, attempts: 1) }
        if let error = error as? HTTPClientError, error == .remoteConnectionClosed {
            return .connectionFailed(url: url, reason: "the server closed the connection without an answer", attempts: 1)
        }
        return .connectionFailed(url: url, reason: reason(error), attempts: 1)
    }

    /// A short, readable reason for a failure below HTTP (connect, DNS, TLS, a malformed answer).
    static func reason(_ error: Error) -> String {
        switch error {
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return "\(reason(first.error)) (\(first.target))" }
            if error.dnsAError != nil || error.dnsAAAAError != nil {
                return "the name \(error.host) could not be resolved"
            }
            return "no address for \(error.host)"
        case let error as IOError:
            return String(cString: strerror(error.errnoCode))
        case let error as NIOSSLError:
            return "TLS: \(error)"
        case let error as BoringSSLError:
            return "TLS: \(error)"
        case let error as HTTPParserError:
            return "not a valid HTTP answer (\(error))"
        case let error as HTTPClientError:
            return "\(error)"
        default:
            return "\(error)"
        }
    }

    /// `Retry-After` as seconds: a number of seconds or an HTTP date.
    static func retryAfterSeconds(_ value: String) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds >= 0, seconds.isFinite { return seconds }
        return FeedFetcher.httpDate(trimmed).map { max(0, $0.timeIntervalSinceNow) }
    }
}
