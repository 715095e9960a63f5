import Foundation
import Logging
import QuakeFetch
import QuakeKit

/// A feed read and selected, with how it was got.
package struct LoadedFeed<Event: Sendable & Hashable> {
    package var selection: SelectedEvents<Event>
    /// Set when the feed came from `--url`.
    package var fetched: FetchedFeed?
    /// Set when the cached feed stood in for a failed fetch or a bad fetched feed.
    package var staleFrom: Date?
    /// The body to cache once the run has succeeded (fresh fetches only).
    package var bodyToRemember: Data?

    /// The feed's own time: GeoJSON `metadata.generated`, else HTTP `Last-Modified`.
    package var generated: Date? { selection.summary.generated ?? fetched?.lastModifiedDate }
}

/// Gets the feed from a file, standard input or `--url`, with the cache and
/// `--stale-ok` rules, and selects the events.
package struct FeedLoader {
    package enum Outcome<Event: Sendable & Hashable> {
        case loaded(LoadedFeed<Event>)
        /// `--if-changed`: the feed is the one last rendered to this output.
        case unchanged(url: String)
    }

    package let input: InputOptions
    package let fetch: FetchArguments
    package let selection: EventSelection
    package let log: Logger
    /// `--now`: also the "now" against which events in the future are rejected.
    package var now: Date?

    package init(input: InputOptions, fetch: FetchArguments, selection: EventSelection, log: Logger, now: Date? = nil) {
        self.input = input
        self.fetch = fetch
        self.selection = selection
        self.log = log
        self.now = now
    }

    private var feedOptions: FeedOptions {
        var options = input.feedOptions
        options.now = now
        return options
    }

    /// Loads the feed and selects whole events.
    package func load() async throws -> Outcome<SeismicEvent> {
        try await load(select: QuakeMap.select)
    }

    /// Loads the feed; with `ifChangedOutput`, stops early when nothing changed since the last render there.
    package func load<Event>(
        ifChangedOutput: String? = nil,
        select: (FeedSource, FeedOptions, EventSelection) throws -> SelectedEvents<Event>
    ) async throws -> Outcome<Event> {
        if let source = try input.localSource() {
            let selected = try select(source, feedOptions, selection)
            return .loaded(LoadedFeed(selection: selected))
        }
        let url = input.url ?? ""
        let cache = fetch.cache
        let cached = cache?.entry(for: url)
        var body: Data
        var fetched: FetchedFeed?
        var staleFrom: Date?
        do {
            let result = try await FeedFetcher(options: fetch.options).fetch(url, cached: cached)
            fetched = result
            body = result.body
        } catch let error as FetchError {
            guard fetch.staleOk, let cached, error != .invalidURL(url) else { throw error }
            log.warning("\(error.message); using the cached feed fetched \(QuakeMap.timestamp(cached.fetchedAt)) (--stale-ok)")
            body = cached.body
            staleFrom = cached.fetchedAt
        }

        if let output = ifChangedOutput, let cached, cached.body == body,
           cached.renderedOutput == Self.absolute(output), FileManager.default.fileExists(atPath: output) {
            return .unchanged(url: url)
        }

        do {
            let selected = try select(.bytes(body, name: url), feedOptions, selection)
            return .loaded(LoadedFeed(selection: selected, fetched: fetched, staleFrom: staleFrom,
                                      bodyToRemember: staleFrom == nil ? body : nil))
        } catch let error as FeedError {
            // A fetched feed that does not parse is as bad as a failed fetch.
            guard fetch.staleOk, staleFrom == nil, let cached, cached.body != body else { throw error }
            log.warning("\(error.message); using the cached feed fetched \(QuakeMap.timestamp(cached.fetchedAt)) (--stale-ok)")
            let selected = try select(.bytes(cached.body, name: url), feedOptions, selection)
            return .loaded(LoadedFeed(selection: selected, fetched: fetched, staleFrom: cached.fetchedAt))
        }
    }

    /// After a successful run: keeps the body and its validators for the next
    /// conditional request. A cache that cannot be written costs only a warning.
    package func remember<Event>(_ loaded: LoadedFeed<Event>, renderedOutput: String?) {
        guard let cache = fetch.cache, let fetched = loaded.fetched, let body = loaded.bodyToRemember else { return }
        let previous = cache.entry(for: fetched.url)
        let entry = CachedFeed(url: fetched.url, body: body, entityTag: fetched.entityTag,
                               lastModified: fetched.lastModified, fetchedAt: Date(),
                               renderedOutput: renderedOutput.map(Self.absolute) ?? previous?.renderedOutput)
        do {
            try cache.store(entry)
        } catch {
            log.warning("cache \(cache.directory) not updated: \(error)")
        }
    }

    package static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
