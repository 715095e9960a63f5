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
/// A feed with a header and no rows is a good feed with no events (a quiet
/// day's `significant_day`): the server starts on it, and a refresh to it
/// empties that feed's part of the catalogue.
public actor CatalogueStore {
    private let origins: [FeedOrigin]
    private let feed: FeedOptions
    private let filter: EventFilter
    private let fetch: FetchOptions
    private let cache: FeedCache?
    private let staleOk: Bool
    private let log: Logger
    private var lastGood: [Int: Feed] = [:]
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

    /// One feed's last good state.
    private struct Feed: Sendable {
        var events: [SeismicEvent]
        var generated: Date?
        var cached: CachedFeed?
    }

    /// How feeds are read; parsing runs off the actor, so requests reading the
    /// catalogue never wait behind a refresh.
    private struct Reader: Sendable {
        let feed: FeedOptions
        let filter: EventFilter
        let fetch: FetchOptions
        let cache: FeedCache?
        let log: Logger

        func select(_ source: FeedSource) throws -> FeedSelection {
            var selection = EventSelection(limit: nil)
            selection.filter = filter
            return try QuakeMap.select(from: source, feed: feed, selection: selection)
        }

        /// The feed read again; `nil` when a URL answered 304 (nothing changed).
        func read(_ origin: FeedOrigin, previous: Feed?) async throws -> Feed? {
            switch origin {
            case .local(let source):
                let selected = try select(source)
                return Feed(events: selected.events, generated: selected.summary.generated)
            case .url(let url):
                let fetched = try await FeedFetcher(options: fetch).fetch(url, cached: previous?.cached)
                if fetched.fromCache && previous != nil { return nil }
                let selected = try select(.bytes(fetched.body, name: url))
                // No rendered output: a `render --if-changed` sharing this cache must not
                // take a body the server fetched for one it has drawn.
                let cached = CachedFeed(url: url, body: fetched.body, entityTag: fetched.entityTag,
                                        lastModified: fetched.lastModified, fetchedAt: Date(), renderedOutput: nil)
                do { try cache?.store(cached) } catch { log.warning("cache \(cache?.directory ?? ""): not updated: \(error)") }
                return Feed(events: selected.events, generated: selected.summary.generated ?? fetched.lastModifiedDate,
                            cached: cached)
            }
        }

        /// The cached body of a URL that cannot be fetched, for `--stale-ok`.
        func stale(_ url: String, after error: any Error) -> Feed? {
            guard let cached = cache?.entry(for: url), let selected = try? select(.bytes(cached.body, name: url)) else { return nil }
            log.warning("\(error); serving the cached feed fetched \(QuakeMap.timestamp(cached.fetchedAt)) (--stale-ok)")
            return Feed(events: selected.events, generated: selected.summary.generated, cached: cached)
        }
    }

    private var reader: Reader { Reader(feed: feed, filter: filter, fetch: fetch, cache: cache, log: log) }

    /// Reads every feed. At start, any failure is thrown: a server must not come
    /// up with a feed missing (unless `staleOk` finds it in the cache).
    public func load() async throws {
        let reader = reader
        for (index, origin) in origins.enumerated() {
            do {
                lastGood[index] = try await reader.read(origin, previous: nil)
            } catch {
                guard staleOk, case .url(let url) = origin, let stale = reader.stale(url, after: error) else { throw error }
                lastGood[index] = stale
            }
        }
        await rebuild()
    }

    /// Fetches the URL feeds again; a failure keeps that feed's last good events.
    /// Returns whether the catalogue changed.
    @discardableResult
    public func refresh() async -> Bool {
        let reader = reader
        var changed = false
        for (index, origin) in origins.enumerated() {
            guard case .url = origin else { continue }
            do {
                if let fresh = try await reader.read(origin, previous: lastGood[index]) {
                    lastGood[index] = fresh
                    changed = true
                }
            } catch {
                failedRefreshes += 1
                lastFailure = (Date(), "\(error)")
                log.warning("refresh of \(origin) failed, still serving the last good feed: \(error)")
            }
        }
        guard changed else { return false }
        let before = snapshot.version
        await rebuild()
        return snapshot.version != before
    }

    /// Refreshes every `interval` until the task is cancelled.
    public func refreshForever(every interval: Duration) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            if await refresh() { log.info("catalogue refreshed: \(snapshot.events.count) events") }
        }
    }

    private func rebuild() async {
        let feeds = origins.indices.compactMap { lastGood[$0] }
        let next = await Self.catalogue(of: feeds)
        if next.version != snapshot.version || next.generated != snapshot.generated { snapshot = next }
    }

    /// Merging, sorting and hashing every event: done off the actor.
    private nonisolated static func catalogue(of feeds: [Feed]) async -> Catalogue {
        Catalogue(events: feeds.flatMap(\.events), generated: feeds.compactMap(\.generated).max())
    }
}
