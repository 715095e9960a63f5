import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one HTTP attempt gave.
struct HTTPAttempt: Sendable {
    enum Outcome: Sendable {
        /// A 2xx or 304 response with its (possibly empty) body.
        case response(status: Int, headers: [String: String], body: Data)
        /// The attempt failed; `retryAfter` is the server's wish in seconds, if it said.
        case failed(FetchError, retryAfter: Double?)
    }
}

/// One GET through Foundation's `URLSession` (libcurl underneath on Linux:
/// gzip is accepted and decoded, redirects are followed), with the body limit,
/// the redirect limit and a hard deadline enforced here.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: URLSession calls the delegate on its own serial queue; the
    // mutable state below is touched only there and, once finished, read
    // after the continuation resumes, guarded by `lock`.
    private let lock = NSLock()
    private let url: String
    private let options: FetchOptions
    /// Error statuses answered like a success, with their body (a caller that reads the message).
    private let passing: Set<Int>
    private var body = Data()
    private var response: HTTPURLResponse?
    private var redirects = 0
    private var failure: FetchError?
    private var continuation: CheckedContinuation<HTTPAttempt.Outcome, Never>?

    private init(url: String, options: FetchOptions, passing: Set<Int>) {
        self.url = url
        self.options = options
        self.passing = passing
    }

    /// Performs the request, giving up after `deadline` seconds; a status in
    /// `passing` is a response, not a failure.
    static func get(_ request: URLRequest, url: String, options: FetchOptions, deadline: Double,
                    passing: Set<Int> = []) async -> HTTPAttempt.Outcome {
        let transfer = HTTPTransfer(url: url, options: options, passing: passing)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        // Foundation on Linux hands libcurl whole seconds and times out at once
        // below one; keep its timeouts loose and let the watchdog below keep time.
        configuration.timeoutIntervalForRequest = deadline.rounded(.up) + 1
        configuration.timeoutIntervalForResource = deadline.rounded(.up) + 1
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        return await withCheckedContinuation { continuation in
            transfer.lock.withLock { transfer.continuation = continuation }
            let task = session.dataTask(with: request)
            // libcurl's own timeouts do not cover every stall, and a cancelled
            // transfer may report late: the deadline answers by itself.
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak task] in
                transfer.finish(.failed(.timedOut(url: url, seconds: deadline, attempts: 1), retryAfter: nil))
                task?.cancel()
            }
            task.resume()
        }
    }

    private func fail(_ error: FetchError) {
        lock.withLock { if failure == nil { failure = error } }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        lock.withLock { self.response = http }
        if let http, http.expectedContentLength > Int64(options.maximumBytes),
           http.value(forHTTPHeaderField: "Content-Encoding") == nil {
            fail(.tooLarge(url: url, limit: options.maximumBytes))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = lock.withLock { () -> Bool in
            body.append(data)
            return body.count > options.maximumBytes
        }
        if tooLarge {
            fail(.tooLarge(url: url, limit: options.maximumBytes))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        let count = lock.withLock { () -> Int in
            redirects += 1
            return redirects
        }
        guard count <= options.maximumRedirects else {
            fail(.tooManyRedirects(url: url, limit: options.maximumRedirects))
            completionHandler(nil)
            return
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let outcome = lock.withLock { () -> HTTPAttempt.Outcome in
            if let failure { return .failed(failure, retryAfter: nil) }
            if let error { return .failed(Self.classify(error, url: url), retryAfter: nil) }
            guard let response else {
                return .failed(.connectionFailed(url: url, reason: "no HTTP response", attempts: 1), retryAfter: nil)
            }
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                headers[String(describing: name).lowercased()] = String(describing: value)
            }
            let status = response.statusCode
            if (300..<400).contains(status) && status != 304 {
                return .failed(.tooManyRedirects(url: url, limit: options.maximumRedirects), retryAfter: nil)
            }
            guard (200..<300).contains(status) || status == 304 || passing.contains(status) else {
                return .failed(.httpStatus(url: url, status: status, attempts: 1),
                               retryAfter: headers["retry-after"].flatMap(Self.retryAfterSeconds))
            }
            // Without a content coding the announced length must match what arrived.
            if headers["content-encoding"] == nil, let declared = headers["content-length"].flatMap(Int.init),
               declared != body.count, status != 304 {
                return .failed(.truncated(url: url, reason: "\(body.count) of \(declared) bytes", attempts: 1), retryAfter: nil)
            }
            return .response(status: status, headers: headers, body: body)
        }
        finish(outcome)
    }

    /// Resumes the waiting caller once; whichever of completion and deadline comes second is ignored.
    private func finish(_ outcome: HTTPAttempt.Outcome) {
        let continuation = lock.withLock { () -> CheckedContinuation<HTTPAttempt.Outcome, Never>? in
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(returning: outcome)
    }

    private static func classify(_ error: Error, url: String) -> FetchError {
        let nsError = error as NSError
        let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError
        let reason = underlying?.localizedDescription ?? nsError.localizedDescription
        if reason.contains("bytes remaining") || reason.contains("transfer closed") {
            return .truncated(url: url, reason: reason, attempts: 1)
        }
        if nsError.code == NSURLErrorTimedOut {
            return .timedOut(url: url, seconds: 0, attempts: 1)
        }
        return .connectionFailed(url: url, reason: reason, attempts: 1)
    }

    /// `Retry-After` as seconds: a number of seconds or an HTTP date.
    static func retryAfterSeconds(_ value: String) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds >= 0, seconds.isFinite { return seconds }
        return FeedFetcher.httpDate(trimmed).map { max(0, $0.timeIntervalSinceNow) }
    }
}
