import Foundation
import QuakeKit

/// Gets a feed by URL under the one stale-feed rule that `quakemap --url` and
/// `quakemap-server` share: the request is conditional whenever a body is
/// known, and with `staleOk` the cached body stands in for a fetch that failed
/// or a fetched body that does not parse.
///
/// Retrieving never writes the cache: a caller calls ``remember(_:renderedOutput:)``
/// once the body has done its job (the CLI after the whole run, the server after
/// parsing it), so a body that cannot be used never replaces a good one.
package struct FeedRetrieval: Sendable {
    /// Limits and retry policy of each fetch.
    package var fetch: FetchOptions
    /// Where each URL's last good body is kept; `nil`: no cache (no conditional
    /// request unless the caller passes its own entry, no fallback).
    package var cache: FeedCache?
    /// Whether the cached body stands in for a failed fetch or a bad fetched body.
    package var staleOk: Bool

    /// Creates a retrieval.
    package init(fetch: FetchOptions = FetchOptions(), cache: FeedCache?, staleOk: Bool) {
        self.fetch = fetch
        self.cache = cache
        self.staleOk = staleOk
    }

    /// Where the body handed to the parser came from.
    package enum Source: Sendable {
        /// A new body from the server.
        case fresh(FetchedFeed)
        /// The server answered `304 Not Modified`: the known body is current
        /// (the response carries it, with the validators the server sent).
        case notModified(FetchedFeed)
        /// The cached body, fetched at `cached.fetchedAt`, standing in (`staleOk`)
        /// for a fetch that failed or whose body did not parse (`because`);
        /// `response` is that fetch when it succeeded with a bad body.
        case stale(CachedFeed, because: any QuakeKitError, response: FetchedFeed?)
    }

    /// A parsed body and where it came from.
    package struct Retrieved<Parsed> {
        /// What the parser made of the body.
        package var parsed: Parsed
        /// Where the body came from.
        package var source: Source
        /// `Last-Modified` of the body that was parsed: the response's when fresh
        /// or not modified, the cached entry's when stale.
        package var lastModified: Date?

        /// The response whose body was parsed (fresh or `304`); `nil` when the cache stood in.
        package var fetched: FetchedFeed? {
            switch source {
            case .fresh(let fetched), .notModified(let fetched): return fetched
            case .stale: return nil
            }
        }

        /// The body parsed and its validators, for the next request to be
        /// conditional on: the stale entry, else the response (nothing drawn from it).
        package var entry: CachedFeed {
            switch source {
            case .fresh(let fetched), .notModified(let fetched): return CachedFeed(fetched, renderedOutput: nil)
            case .stale(let cached, _, _): return cached
            }
        }
    }

    /// Fetches `url` and parses the body; with `staleOk`, parses the cached body
    /// instead when the fetch fails (a ``FetchError`` other than
    /// ``FetchError/invalidURL(_:)``, which is a mistake to report, not an outage)
    /// or when the fetched body throws a `FeedError` and differs from the cached one.
    ///
    /// - Parameters:
    ///   - previous: the entry the caller already holds (the server's last good
    ///     feed, or the cache entry the CLI read for `--if-changed`); `nil` reads
    ///     the cache's. The request is conditional on it, and it is the stale body.
    ///   - fallingBack: called before the stale body is parsed, with the entry and
    ///     why; the place for the caller's warning (it comes first even when the
    ///     stale body then fails too).
    ///   - parse: turns a body into the caller's value; told where the body came
    ///     from, so a caller holding the parsed result of a `304`'s body can skip it.
    /// - Throws: the ``FetchError`` or `FeedError` that no fallback covers; when
    ///   the stale body does not parse either, its own `FeedError`.
    package func retrieve<Parsed>(
        _ url: String,
        previous: CachedFeed? = nil,
        fallingBack: (_ cached: CachedFeed, _ because: any QuakeKitError) -> Void = { _, _ in },
        parse: (_ body: Data, _ source: Source) async throws -> Parsed
    ) async throws -> Retrieved<Parsed> {
        let options = fetch
        return try await retrieve(url, previous: previous, fetching: { known in
            try await FeedFetcher(options: options).fetch(url, cached: known)
        }, fallingBack: fallingBack, parse: parse)
    }

    /// Like ``retrieve(_:previous:fallingBack:parse:)``, with the body got by
    /// `fetching` (told the known entry, for a conditional request) and kept
    /// under `key`: an FDSN query's many requests make one body, cached and
    /// falling back under one rule with the URL feeds'. A ``FetchError`` or
    /// ``FDSNError`` from `fetching` is the failure the cache stands in for,
    /// but for a mistake (an invalid URL, an unknown service).
    package func retrieve<Parsed>(
        _ key: String,
        previous: CachedFeed? = nil,
        fetching: (_ known: CachedFeed?) async throws -> FetchedFeed,
        fallingBack: (_ cached: CachedFeed, _ because: any QuakeKitError) -> Void = { _, _ in },
        parse: (_ body: Data, _ source: Source) async throws -> Parsed
    ) async throws -> Retrieved<Parsed> {
        let known = previous ?? cache?.entry(for: key)
        let fetched: FetchedFeed
        do {
            fetched = try await fetching(known)
        } catch let error as FetchError {
            if case .invalidURL = error { throw error }
            guard staleOk, let known else { throw error }
            return try await stale(known, because: error, response: nil, fallingBack: fallingBack, parse: parse)
        } catch let error as FDSNError {
            if case .unknownService = error { throw error }
            guard staleOk, let known else { throw error }
            return try await stale(known, because: error, response: nil, fallingBack: fallingBack, parse: parse)
        }
        let source: Source = fetched.fromCache ? .notModified(fetched) : .fresh(fetched)
        do {
            return Retrieved(parsed: try await parse(fetched.body, source), source: source, lastModified: fetched.lastModifiedDate)
        } catch let error as FeedError {
            // A fetched body that does not parse is as bad as a failed fetch; the
            // same bytes from the cache would fail the same way.
            guard staleOk, let known, known.body != fetched.body else { throw error }
            return try await stale(known, because: error, response: fetched, fallingBack: fallingBack, parse: parse)
        }
    }

    private func stale<Parsed>(
        _ cached: CachedFeed, because error: any QuakeKitError, response: FetchedFeed?,
        fallingBack: (CachedFeed, any QuakeKitError) -> Void, parse: (Data, Source) async throws -> Parsed
    ) async throws -> Retrieved<Parsed> {
        fallingBack(cached, error)
        let source = Source.stale(cached, because: error, response: response)
        return Retrieved(parsed: try await parse(cached.body, source), source: source, lastModified: cached.lastModifiedDate)
    }

    /// What a cache entry records as last drawn from its body, for `--if-changed`.
    package enum RenderedOutput: Sendable, Hashable {
        /// What the entry being replaced said (nothing was drawn this time).
        case previous
        /// This absolute path was drawn from the body.
        case path(String)
        /// Nothing: whoever shares the cache must not skip a render on this body.
        case none
    }

    /// Keeps `fetched` (its body and validators) as the URL's entry for the next
    /// conditional request and fallback; nothing without a cache.
    package func remember(_ fetched: FetchedFeed, renderedOutput: RenderedOutput) throws {
        guard let cache else { return }
        let output: String?
        switch renderedOutput {
        case .previous: output = cache.entry(for: fetched.url)?.renderedOutput
        case .path(let path): output = path
        case .none: output = nil
        }
        try cache.store(CachedFeed(fetched, renderedOutput: output))
    }
}

extension FeedRetrieval.Retrieved: Sendable where Parsed: Sendable {}

extension CachedFeed {
    /// The entry a fetch leaves: its body and validators, fetched at `fetchedAt`.
    package init(_ fetched: FetchedFeed, fetchedAt: Date = Date(), renderedOutput: String?) {
        self.init(url: fetched.url, body: fetched.body, entityTag: fetched.entityTag, lastModified: fetched.lastModified,
                  fetchedAt: fetchedAt, renderedOutput: renderedOutput)
    }

    /// ``lastModified`` as a date, when it parses.
    package var lastModifiedDate: Date? { lastModified.flatMap(FeedFetcher.httpDate) }
}
