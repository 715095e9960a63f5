import Foundation

/// How a feed is fetched over HTTP(S).
public struct FetchOptions: Sendable, Hashable {
    /// The whole fetch, retries and waits included, in seconds. Default 30.
    package var timeout: Double
    /// Further attempts after a connection error, a timeout, a cut-short body,
    /// HTTP 429 or 5xx. Default 3. Other 4xx are never retried.
    package var retries: Int
    /// The largest body accepted, in bytes (after decompression). Default 64 MB.
    package var maximumBytes: Int
    /// Redirects followed before giving up. Default 5.
    package var maximumRedirects: Int
    /// The first backoff wait in seconds; it doubles each retry, with jitter,
    /// up to ``maximumBackoff``. Default 1.
    package var initialBackoff: Double
    /// The longest single backoff wait in seconds. Default 8.
    package var maximumBackoff: Double

    /// Creates options; the defaults suit a nightly job.
    public init(timeout: Double = 30, retries: Int = 3, maximumBytes: Int = 64_000_000,
                maximumRedirects: Int = 5, initialBackoff: Double = 1, maximumBackoff: Double = 8) {
        self.timeout = timeout
        self.retries = retries
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }
}
