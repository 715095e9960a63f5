import Foundation

/// A fetched feed body and how it was got.
public struct FetchedFeed: Sendable, Hashable {
    /// The body: fresh from the server, or the cached one on `304 Not Modified`.
    public var body: Data
    /// The URL asked for.
    public var url: String
    /// The final HTTP status: 200 (or another 2xx), or 304 when the cached body was reused.
    public var status: Int
    /// Whether ``body`` came from the cache (after a 304).
    public var fromCache: Bool
    /// The server's `ETag`, if any.
    package var entityTag: String?
    /// The server's `Last-Modified`, as sent and parsed.
    package var lastModified: String?
    /// ``lastModified`` as a date, when it parses.
    package var lastModifiedDate: Date?
    /// How many requests it took.
    package var attempts: Int
    /// Wall time of the whole fetch, in seconds.
    package var seconds: Double

    /// Creates a fetched feed (also for a body gathered by many requests, as an FDSN query's).
    package init(body: Data, url: String, status: Int, fromCache: Bool, entityTag: String?, lastModified: String?,
                lastModifiedDate: Date?, attempts: Int, seconds: Double) {
        self.body = body
        self.url = url
        self.status = status
        self.fromCache = fromCache
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.lastModifiedDate = lastModifiedDate
        self.attempts = attempts
        self.seconds = seconds
    }
}

/// Fetches a feed over HTTP(S) the way a cron job needs: bounded in time and
/// size, retrying what may pass, asking only for what changed.
public struct FeedFetcher: Sendable {
    /// Limits and retry policy.
    package var options: FetchOptions

    /// Creates a fetcher.
    public init(options: FetchOptions = FetchOptions()) {
        self.options = options
    }

    /// Fetches `url` (http or https), retrying what a retry can mend, with the
    /// time-out, size limit and redirects of ``options``.
    ///
    /// - Throws: ``FetchError``.
    public func fetch(_ url: String) async throws -> FetchedFeed {
        try await fetch(url, cached: nil, passing: [])
    }

    /// Fetches `url`. With a `cached` body and validators, the request is
    /// conditional, and a `304` returns the cached body.
    ///
    /// A status in `passing` (an FDSN service's 400 that says why) is returned
    /// with its body instead of thrown.
    ///
    /// - Throws: ``FetchError`` once the retries or the time run out, or at
    ///   once for an error that retrying cannot mend (4xx but 429, too large).
    package func fetch(_ url: String, cached: CachedFeed?, passing: Set<Int> = []) async throws -> FetchedFeed {
        guard let target = URL(string: url), let scheme = target.scheme?.lowercased(),
              scheme == "http" || scheme == "https", target.host != nil else {
            throw FetchError.invalidURL(url)
        }
        var headers = [("User-Agent", "quakemap")]
        if let cached {
            if let tag = cached.entityTag { headers.append(("If-None-Match", tag)) }
            if let modified = cached.lastModified { headers.append(("If-Modified-Since", modified)) }
        }

        let clock = ContinuousClock()
        let start = clock.now
        func elapsed() -> Double {
            let (seconds, attoseconds) = (clock.now - start).components
            return Double(seconds) + Double(attoseconds) / 1e18
        }
        var attempt = 0
        while true {
            attempt += 1
            let remaining = options.timeout - elapsed()
            guard remaining > 0 else { throw FetchError.timedOut(url: url, seconds: options.timeout, attempts: attempt - 1) }
            let outcome = await HTTPTransfer.get(url, headers: headers, options: options, deadline: remaining, passing: passing)
            switch outcome {
            case let .response(status, headers, body):
                if status == 304 {
                    guard let cached else {
                        throw FetchError.httpStatus(url: url, status: 304, attempts: attempt)
                    }
                    return FetchedFeed(body: cached.body, url: url, status: 304, fromCache: true,
                                       entityTag: headers["etag"] ?? cached.entityTag,
                                       lastModified: headers["last-modified"] ?? cached.lastModified,
                                       lastModifiedDate: (headers["last-modified"] ?? cached.lastModified).flatMap(Self.httpDate),
                                       attempts: attempt, seconds: elapsed())
                }
                return FetchedFeed(body: body, url: url, status: status, fromCache: false,
                                   entityTag: headers["etag"], lastModified: headers["last-modified"],
                                   lastModifiedDate: headers["last-modified"].flatMap(Self.httpDate),
                                   attempts: attempt, seconds: elapsed())
            case let .failed(error, retryAfter):
                let failure = Self.counting(error, attempts: attempt, timeout: options.timeout)
                guard failure.isTemporary, attempt <= options.retries else { throw failure }
                let wait = retryAfter ?? backoff(afterAttempt: attempt)
                // A wait that would outlast the deadline cannot end in success: say so now.
                guard elapsed() + wait < options.timeout else { throw failure }
                try await Task.sleep(for: .seconds(wait))
            }
        }
    }

    /// Exponential backoff with jitter: half fixed, half random, so that many
    /// clients do not come back at the same instant.
    func backoff(afterAttempt attempt: Int) -> Double {
        let ceiling = min(options.maximumBackoff, options.initialBackoff * pow(2, Double(attempt - 1)))
        return ceiling / 2 + Double.random(in: 0...(ceiling / 2))
    }

    private static func counting(_ error: FetchError, attempts: Int, timeout: Double) -> FetchError {
        switch error {
        case let .httpStatus(url, status, _): return .httpStatus(url: url, status: status, attempts: attempts)
        case let .timedOut(url, _, _): return .timedOut(url: url, seconds: timeout, attempts: attempts)
        case let .connectionFailed(url, reason, _): return .connectionFailed(url: url, reason: reason, attempts: attempts)
        case let .truncated(url, reason, _): return .truncated(url: url, reason: reason, attempts: attempts)
        case .invalidURL, .tooLarge, .tooManyRedirects: return error
        }
    }

    /// An HTTP date (`Sat, 21 Nov 2026 23:58:00 GMT`), as `Last-Modified` and `Retry-After` write it.
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
