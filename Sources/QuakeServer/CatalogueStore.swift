import Foundation
import Logging
import QuakeFetch
import QuakeKit

/// Where a served feed comes from.
public enum FeedOrigin: Sendable, CustomStringConvertible {
    /// A local source, read once at start.
    case local(FeedSource)
    /// An http(s) URL, fetched at start and again every refresh interval.
    case url(String)

    /// The path or URL.
    public var description: String {
        switch self {
        case .local(let source): return source.displayName
        case .url(let url): return url
        }
    }
}

/// Holds the catalogue being served and keeps it fresh: each feed's last
/// good events are kept, so a refresh that fails (network, HTTP error, a
/// feed that does not parse) leaves the catalogue as it was and is logged.
public actor CatalogueStore {
    private let origins: [FeedOrigin]
    private let feed: FeedOptions
    private let filter: EventFilter
    private let fetch: FetchOptions
    private let cache: FeedCache?
    private let staleOk: Bool
    private let log: Logger
    private var lastGood: [Int: (events: [SeismicEvent], generated: Date?, cached: CachedFeed?)] = [:]
    private var snapshot = Catalogue(events: [], generated: nil)
    /// Refreshes that failed since the start, for `/healthz`.
    public private(set) var failedRefreshes = 0
    /// When the last refresh of a URL failed, and why.
    public private(set) var lastFailure: (date: Date, message: String)?

    /// A store for `origins`, keeping the events `filter` admits.
    ///
    /// - Parameters:
    ///   - cache: where each URL's last good body is kept between runs (as `quakemap render --url` keeps it).
    ///   - staleOk: when a URL cannot be fetched at start, serve its cached body instead of failing.
    public init(origins: [FeedOrigin], feed: FeedOptions = FeedOptions(), filter: EventFilter = EventFilter(),
                fetch: FetchOptions = FetchOptions(), cache: FeedCache? = nil, staleOk: Bool = false,
                log: Logger = Logger(label: "quakemap-server")) {
        self.origins = origins
        self.feed = feed
        self.filter = filter
        self.fetch = fetch
        self.cache = cache
        self.staleOk = staleOk
        self.log = log
    }

    /// The catalogue now.
    public var catalogue: Catalogue { snapshot }

    /// Reads every feed. At start, any failure is thrown: a server must not come
    /// up with a feed missing.
    public func load() async throws {
        for (index, origin) in origins.enumerated() {
            do {
                try await read(index, origin)
            } catch {
                guard staleOk, case .url(let url) = origin, let cached = cache?.entry(for: url),
                      let selected = try? select(.bytes(cached.body, name: url)) else { throw error }
                log.warning("\(error); serving the cached feed fetched \(QuakeMap.timestamp(cached.fetchedAt)) (--stale-ok)")
                lastGood[index] = (selected.events, selected.summary.generated, cached)
            }
        }
        rebuild()
    }

    /// Fetches the URL feeds again; a failure keeps that feed's last good events.
    /// Returns whether the catalogue changed.
    @discardableResult
    public func refresh() async -> Bool {
        let before = snapshot.version
        for (index, origin) in origins.enumerated() {
            guard case .url = origin else { continue }
            do {
                try await read(index, origin)
            } catch {
                failedRefreshes += 1
                lastFailure = (Date(), "\(error)")
                log.warning("refresh of \(origin) failed, still serving the last good feed: \(error)")
            }
        }
        rebuild()
        return snapshot.version != before
    }

    /// Refreshes every `interval` until the task is cancelled.
    public func refreshForever(every interval: Duration) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            if await refresh() { log.info("catalogue refreshed: \(snapshot.events.count) events") }
        }
    }

    private func select(_ source: FeedSource) throws -> FeedSelection {
        var selection = EventSelection(limit: nil)
        selection.filter = filter
        return try QuakeMap.select(from: source, feed: feed, selection: selection)
    }

    private func read(_ index: Int, _ origin: FeedOrigin) async throws {
        switch origin {
        case .local(let source):
            let selected = try select(source)
            lastGood[index] = (selected.events, selected.summary.generated, nil)
        case .url(let url):
            let previous = lastGood[index]?.cached
            let fetched = try await FeedFetcher(options: fetch).fetch(url, cached: previous)
            if fetched.fromCache, let kept = lastGood[index] {
                lastGood[index] = kept
                return
            }
            let selected = try select(.bytes(fetched.body, name: url))
            // No rendered output: a `render --if-changed` sharing this cache must not
            // take a body the server fetched for one it has drawn.
            let cached = CachedFeed(url: url, body: fetched.body, entityTag: fetched.entityTag,
                                    lastModified: fetched.lastModified, fetchedAt: Date(), renderedOutput: nil)
            lastGood[index] = (selected.events, selected.summary.generated ?? fetched.lastModifiedDate, cached)
            do { try cache?.store(cached) } catch { log.warning("cache \(cache?.directory ?? ""): not updated: \(error)") }
        }
    }

    private func rebuild() {
        let feeds = origins.indices.compactMap { lastGood[$0] }
        let events = feeds.flatMap(\.events)
        let generated = feeds.compactMap(\.generated).max()
        let next = Catalogue(events: events, generated: generated)
        if next.version != snapshot.version || next.generated != snapshot.generated { snapshot = next }
    }
}
