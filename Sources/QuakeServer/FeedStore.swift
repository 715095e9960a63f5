import Foundation
import Logging
import QuakeFetch
import QuakeKit

/// Where a served feed comes from.
package enum FeedOrigin: Sendable, CustomStringConvertible {
    /// A local source, read once at start.
    case local(FeedSource)
    /// An http(s) URL, fetched at start and again every refresh interval.
    case url(String)
    /// An FDSN event query, fetched like a URL; its window ends at each fetch's
    /// "now" unless it has an end, and a `since` given as a duration moves with
    /// it (``FDSNQuery/sinceAge``). `cacheKey` keeps its last good answer.
    case fdsn(FDSNQuery, cacheKey: String)

    /// The path or URL.
    package var description: String {
        switch self {
        case .local(let source): return source.displayName
        case .url(let url): return url
        case .fdsn(let query, _): return query.service.queryURL
        }
    }

    /// Whether it is fetched again on refresh.
    package var isRemote: Bool {
        if case .local = self { return false }
        return true
    }
}

/// Holds the catalogue being served and keeps it fresh: each feed's last
/// good events are kept, so a refresh that fails (network, HTTP error, a
/// feed that does not parse) leaves the catalogue as it was and is logged.
/// A feed with a header and no rows is a good feed with no events (a quiet
/// day's `significant_day`): the server starts on it, and a refresh to it
/// empties that feed's part of the catalogue.
package actor FeedStore: EventStore {
    private let origins: [FeedOrigin]
    private let feed: FeedOptions
    private let filter: EventFilter
    private let fetch: FetchOptions
    private let cache: FeedCache?
    private let staleOk: Bool
    private let log: Logger
    private var lastGood: [Int: Feed] = [:]
    private var snapshot = FeedSnapshot(events: [], generated: nil)
    /// Refreshes that failed since the start, for `/healthz`.
    package private(set) var failedRefreshes = 0
    /// When the last refresh of a URL failed, and why.
    package private(set) var lastFailure: (date: Date, message: String)?

    /// A store for `origins`, keeping the events `filter` admits.
    ///
    /// - Parameters:
    ///   - cache: where each URL's last good body is kept between runs (as `quakemap render --url` keeps it).
    ///   - staleOk: when a URL cannot be fetched at start, serve its cached body instead of failing.
    package init(origins: [FeedOrigin], feed: FeedOptions = FeedOptions(), filter: EventFilter = EventFilter(),
                fetch: FetchOptions = FetchOptions(), cache: FeedCache? = nil, staleOk: Bool = false,
                log: Logger = Logger(label: "quakemap-server")) {
        self.origins = origins
        self.feed = feed
        self.filter = filter
        self.fetch = fetch
        self.cache = cache
        self.staleOk = staleOk
        self.log = log
        var instance = FNV1a()
        instance.mix(UUID().uuidString)
        changes = ChangeStream(instance: instance.hex, latest: 0)
    }

    /// What clients of the change stream are told of each refresh that changed events.
    package nonisolated let changes: ChangeStream
    /// The last change stamp given: stamps live as long as the process (the instance says which process).
    private var lastStamp: Int64 = 0

    /// Feeds keep no changes but the stream's recent ones: a client further behind reloads.
    package nonisolated func replay(after stamp: Int64, through: Int64, filter: EventFilter) async throws -> [ChangeStream.Frame]? { nil }

    /// The catalogue now.
    package var catalogue: FeedSnapshot { snapshot }

    package func served() -> ServedEvents { .memory(snapshot) }

    package func health() -> Health {
        Health(status: "ok", source: "feeds", events: snapshot.events.count,
               version: snapshot.version, loadedAt: CivilTime.iso8601(snapshot.loadedAt), failedRefreshes: failedRefreshes,
               lastFailure: lastFailure.map { Health.Failure(at: CivilTime.iso8601($0.date), message: $0.message) })
    }

    /// One feed's last good state.
    private struct Feed: Sendable {
        var events: [SeismicEvent]
        var generated: Date?
        var sources: [String] = []
        /// The body and validators the next request is conditional on.
        var cached: CachedFeed?
    }

    /// How feeds are read; parsing runs off the actor, so requests reading the
    /// catalogue never wait behind a refresh.
    private struct Reader: Sendable {
        let feed: FeedOptions
        let filter: EventFilter
        let retrieval: FeedRetrieval
        let log: Logger

        func select(_ source: FeedSource) throws -> FeedSelection {
            var selection = EventSelection(limit: nil)
            selection.filter = filter
            return try QuakeMap.select(from: source, feed: feed, selection: selection)
        }

        /// The feed read again, and whether its events may have changed (not
        /// after a 304 answering `previous`: those events stand).
        func read(_ origin: FeedOrigin, previous: Feed?) async throws -> (feed: Feed, changed: Bool) {
            switch origin {
            case .local(let source):
                let selected = try select(source)
                return (Feed(events: selected.events, generated: selected.summary.generated, sources: selected.summary.sources), true)
            case .url(let url):
                let options = retrieval.fetch
                return try await remote(url, previous: previous) { known in
                    try await FeedFetcher(options: options).fetch(url, cached: known)
                }
            case .fdsn(var query, let key):
                if query.filter.until == nil { query.now = Date() }
                let client = FDSNClient(fetch: retrieval.fetch)
                let log = log
                return try await remote(key, previous: previous) { _ in
                    try await client.events(for: query) { report in
                        switch report {
                        case .request(let url): log.debug("GET \(url)")
                        case .notice(let text): log.warning("\(text)")
                        case .progress: break
                        }
                    }.fetchedFeed(key: key)
                }
            }
        }

        /// A feed got by `fetching` under `url` (a URL, or an FDSN query's cache
        /// key), with the stale-feed rule and the cache.
        private func remote(_ url: String, previous: Feed?,
                            fetching: (CachedFeed?) async throws -> FetchedFeed) async throws -> (feed: Feed, changed: Bool) {
            let retrieved = try await retrieval.retrieve(url, previous: previous?.cached, fetching: fetching, fallingBack: { cached, error in
                log.warning("\(error); serving the cached feed fetched \(CivilTime.iso8601(cached.fetchedAt)) (--stale-ok)")
            }) { body, source -> FeedSelection? in
                if case .notModified = source, previous != nil { return nil }  // `previous`'s events stand
                return try select(.bytes(body, name: url))
            }
            if let fetched = retrieved.fetched {
                // No rendered output: a `render --if-changed` sharing this cache must not
                // take a body the server fetched for one it has drawn.
                do { try retrieval.remember(fetched, renderedOutput: .none) } catch {
                    log.warning("cache \(retrieval.cache?.directory ?? ""): not updated: \(error)")
                }
            }
            guard let selected = retrieved.parsed else {
                // Only a 304 answering `previous` goes unparsed: its events stand, with the new validators.
                return (Feed(events: previous?.events ?? [], generated: previous?.generated, sources: previous?.sources ?? [],
                             cached: retrieved.entry), false)
            }
            return (Feed(events: selected.events, generated: selected.summary.generated ?? retrieved.lastModified,
                         sources: selected.summary.sources,
                         cached: retrieved.entry), true)
        }
    }

    /// A reader; `staleOk` only at start, since a refresh keeps the last good feed anyway.
    private func reader(staleOk: Bool) -> Reader {
        Reader(feed: feed, filter: filter, retrieval: FeedRetrieval(fetch: fetch, cache: cache, staleOk: staleOk), log: log)
    }

    /// Reads every feed. At start, any failure is thrown: a server must not come
    /// up with a feed missing (unless `staleOk` finds it in the cache).
    package func load() async throws {
        let reader = reader(staleOk: staleOk)
        for (index, origin) in origins.enumerated() {
            lastGood[index] = try await reader.read(origin, previous: nil).feed
        }
        await rebuild()
    }

    /// Fetches the URL feeds again; a failure keeps that feed's last good events.
    /// Returns whether the catalogue changed.
    @discardableResult
    package func refresh() async -> Bool {
        let reader = reader(staleOk: false)
        var changed = false
        for (index, origin) in origins.enumerated() {
            guard origin.isRemote else { continue }
            do {
                let (fresh, eventsChanged) = try await reader.read(origin, previous: lastGood[index])
                lastGood[index] = fresh
                changed = changed || eventsChanged
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
    package func refreshForever(every interval: Duration) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            if await refresh() { log.info("catalogue refreshed: \(snapshot.events.count) events") }
        }
    }

    private func rebuild() async {
        let feeds = origins.indices.compactMap { lastGood[$0] }
        let next = await Self.catalogue(of: feeds)
        if next.version != snapshot.version || next.generated != snapshot.generated || next.sources != snapshot.sources {
            let before = snapshot
            snapshot = next
            if !before.events.isEmpty { tell(from: before, to: next) }
        }
    }

    /// Tells the change stream's clients of the events new or revised in `next`, oldest first, and
    /// to reload when events left (a feed's window moved on): what they show holds those too.
    private func tell(from before: FeedSnapshot, to next: FeedSnapshot) {
        var frames: [ChangeStream.Frame] = []
        for event in next.events.reversed() where !event.id.isEmpty {
            let known = before.event(id: event.id)
            guard known != event else { continue }
            lastStamp += 1
            frames.append(ChangeStream.frame(event, stamp: lastStamp, created: known == nil, instance: changes.instance))
        }
        let removed = before.events.contains { !$0.id.isEmpty && next.event(id: $0.id) == nil }
        if removed { lastStamp += 1 }
        if frames.count > ChangeStream.largestBatch {
            changes.publish([], reloadAt: lastStamp)
        } else {
            changes.publish(frames, reloadAt: removed ? lastStamp : nil)
        }
    }

    /// Merging, sorting and hashing every event: done off the actor.
    private nonisolated static func catalogue(of feeds: [Feed]) async -> FeedSnapshot {
        var sources: [String] = []
        for source in feeds.flatMap(\.sources) where !sources.contains(source) { sources.append(source) }
        return FeedSnapshot(events: feeds.flatMap(\.events), generated: feeds.compactMap(\.generated).max(), sources: sources)
    }
}
