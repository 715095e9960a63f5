import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import QuakeCatalogue
import QuakeFetch
import QuakeKit

/// A feed read and selected, with how it was got.
package struct LoadedFeed<Event: Sendable & Hashable> {
    package var selection: SelectedEvents<Event>
    /// Set when the feed came from `--url` and the fetch succeeded (also when
    /// its body did not parse and the cached feed stood in).
    package var fetched: FetchedFeed?
    /// Set when the cached feed stood in for a failed fetch or a bad fetched feed.
    package var staleFrom: Date?
    /// `Last-Modified` of the body that was read (the cached entry's when stale).
    package var lastModified: Date?
    /// How `--fdsn` got the body, when it did (not when the cache stood in).
    package var fdsn: FDSNClient.Result?
    /// The catalogue read, when `--catalogue` was the input (no password in it).
    package var catalogue: String?
    /// With `--decluster` (``FeedLoader/declustering``): each selected event's cluster, in the
    /// order of `selection.events`.
    package var clusters: [ClusterAssignment]?

    /// The feed's own time: GeoJSON `metadata.generated`, else HTTP `Last-Modified`.
    package var generated: Date? { selection.summary.generated ?? lastModified }

    /// The same load, its events replaced by `events` (a summary of them, say).
    package func replacingEvents<Other>(_ events: [Other]) -> LoadedFeed<Other> {
        LoadedFeed<Other>(selection: SelectedEvents(events: events, summary: selection.summary, duplicates: selection.duplicates,
                                                    places: selection.places),
                          fetched: fetched, staleFrom: staleFrom, lastModified: lastModified, fdsn: fdsn, catalogue: catalogue)
    }
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
    package var selection: EventSelection
    package let log: Logger
    /// `--now`: also the "now" against which events in the future are rejected.
    package var now: Date?
    /// The filters as typed: `--fdsn` keys its cache by `--since`/`--until` as
    /// given, so that `--since 30d` finds yesterday's body.
    package var filters: FilterOptions?

    package init(input: InputOptions, fetch: FetchArguments, selection: EventSelection, log: Logger, now: Date? = nil,
                 filters: FilterOptions? = nil) {
        self.input = input
        self.fetch = fetch
        self.selection = selection
        self.log = log
        self.now = now
        self.filters = filters
    }

    /// A loader of the `limit` most recent events (0: all) that `filters` pass,
    /// with `--now` pinned as the filters say: what every command but `render` loads. `readsDetails`:
    /// the job uses fields beyond a map event's own (``EventSelection/readsDetails``).
    package init(input: InputOptions, fetch: FetchArguments, limit: Int, filters: FilterOptions, log: Logger,
                 readsDetails: Bool = false) throws {
        var selection = try SelectionOptions.selection(limit: limit, filteredBy: filters)
        selection.readsDetails = readsDetails
        self.init(input: input, fetch: fetch, selection: selection, log: log, now: try filters.pinnedNow(), filters: filters)
    }

    private var feedOptions: FeedOptions {
        var options = input.feedOptions
        options.now = now
        return options
    }

    /// `--sync`: ask the FDSN service only for events updated after this.
    package var updatedAfter: Date?

    /// `--decluster`: events are declustered by ``load(ifChangedOutput:as:)`` (``load()``), all
    /// that the filters pass, before the limit keeps the most recent (see
    /// ``SelectedEvents/declustered(_:limit:)``).
    package var declustering: SelectionDeclustering?

    /// Loads the feed and selects whole events.
    package func load() async throws -> Outcome<SeismicEvent> {
        try await load(as: SeismicEvent.self)
    }

    /// Loads the feed (or the catalogue) and selects events as `type`; with
    /// `ifChangedOutput`, stops early when nothing changed since the last render there.
    package func load<Event: CatalogueReadable>(ifChangedOutput: String? = nil, as type: Event.Type) async throws -> Outcome<Event> {
        if let declustering {
            // Every matching event is read, declustered, and only then limited: one rule, here.
            var everything = self
            everything.declustering = nil
            everything.selection.limit = nil
            var loaded: LoadedFeed<Event>
            switch try await everything.load(ifChangedOutput: ifChangedOutput, as: type) {
            case .unchanged(let url): return .unchanged(url: url)
            case .loaded(let feed): loaded = feed
            }
            let (selection, clusters) = try loaded.selection.declustered(declustering, limit: selection.limit)
            loaded.selection = selection
            loaded.clusters = clusters
            return .loaded(loaded)
        }
        return try await load(ifChangedOutput: ifChangedOutput, reading: { source, feed, selection in
            try QuakeMap.select(from: source, feed: feed, selection: selection, as: Event.self)
        }, fromCatalogue: { try await Event.fromCatalogue($0, $1) })
    }

    /// Loads the feed and reads it with `reading` (given the feed options
    /// and the selection): `list` spools its lines rather than keeping events.
    /// From `--catalogue`, `fromCatalogue` reads the open catalogue (streaming its events, so that
    /// a whole catalogue costs what a whole file does).
    package func load<Event>(
        ifChangedOutput: String? = nil,
        reading: @escaping (FeedSource, FeedOptions, EventSelection) async throws -> SelectedEvents<Event>,
        fromCatalogue: (Catalogue, EventSelection) async throws -> SelectedEvents<Event>
    ) async throws -> Outcome<Event> {
        let feedOptions = feedOptions, selection = selection
        if let catalogue = input.catalogue {
            try input.checkCatalogueIsTheOnlyInput()
            let location = try CatalogueLocation(catalogue)
            var loaded = LoadedFeed(selection: try await Catalogue.using(location, writing: false) {
                try await fromCatalogue($0, selection)
            })
            loaded.catalogue = location.description
            return .loaded(loaded)
        }
        let select = { (source: FeedSource) in try await reading(source, feedOptions, selection) }
        if let source = try input.localSource() {
            let selected = try await select(source)
            return .loaded(LoadedFeed(selection: selected))
        }
        if let fdsn = try input.fdsnFeed(selection: selection, filters: filters) {
            var query = fdsn.query
            if let now { query.now = now }
            query.updatedAfter = updatedAfter
            return try await loadFDSN(query, key: fdsn.cacheKey, ifChangedOutput: ifChangedOutput, select: select)
        }
        let url = input.url ?? ""
        // Read once: the request is conditional on it, it is the stale body, and
        // it says what was last rendered where.
        let cached = fetch.cache?.entry(for: url)
        let retrieved = try await retrieval.retrieve(url, previous: cached, fallingBack: { cached, error in
            log.warning("\(error.message); using the cached feed fetched \(CivilTime.iso8601(cached.fetchedAt)) (--stale-ok)")
        }) { body, _ -> SelectedEvents<Event>? in
            if let output = ifChangedOutput, let cached, cached.body == body,
               cached.renderedOutput == Self.absolute(output), FileManager.default.fileExists(atPath: output) {
                return nil
            }
            return try await select(.bytes(body, name: url))
        }
        guard let selected = retrieved.parsed else { return .unchanged(url: url) }
        var loaded = LoadedFeed(selection: selected, lastModified: retrieved.lastModified)
        switch retrieved.source {
        case .fresh(let fetched), .notModified(let fetched):
            loaded.fetched = fetched
        case let .stale(cached, _, response):
            loaded.fetched = response
            loaded.staleFrom = cached.fetchedAt
        }
        return .loaded(loaded)
    }

    /// `--fdsn`: every slice fetched into one body, cached and falling back
    /// like a `--url` feed under the whole query's key.
    private func loadFDSN<Event>(_ query: FDSNQuery, key: String, ifChangedOutput: String?,
                                 select: (FeedSource) async throws -> SelectedEvents<Event>) async throws -> Outcome<Event> {
        let cached = fetch.cache?.entry(for: key)
        let client = FDSNClient(fetch: fetch.options)
        // Not among JSON log lines: a machine reads those.
        let progress = ProgressLine(enabled: !input.quiet && input.logFormat == .text && isatty(STDERR_FILENO) == 1)
        let log = log
        var result: FDSNClient.Result?
        let retrieved = try await retrieval.retrieve(key, previous: cached, fetching: { _ in
            defer { progress.clear() }
            let got = try await client.events(for: query) { report in
                switch report {
                case .request(let url): log.debug("GET \(url)")
                case let .progress(done, known): progress.show("\(query.service.name ?? query.service.baseURL): \(done) of \(known) slices")
                case .notice(let text): log.warning("\(text)")
                }
            }
            result = got
            return got.fetchedFeed(key: key)
        }, fallingBack: { cached, error in
            log.warning("\(error.message); using the cached answer fetched \(CivilTime.iso8601(cached.fetchedAt)) (--stale-ok)")
        }) { body, _ -> SelectedEvents<Event>? in
            if let output = ifChangedOutput, let cached, cached.body == body,
               cached.renderedOutput == Self.absolute(output), FileManager.default.fileExists(atPath: output) {
                return nil
            }
            return try await select(.bytes(body, name: query.service.name ?? query.service.queryURL))
        }
        guard let selected = retrieved.parsed else { return .unchanged(url: key) }
        var loaded = LoadedFeed(selection: selected)
        // The service answered: it is credited first, before what its documents name.
        let service = Self.credit(query)
        loaded.selection.summary.sources.removeAll { $0 == service }
        loaded.selection.summary.sources.insert(service, at: 0)
        switch retrieved.source {
        case .fresh(let fetched), .notModified(let fetched):
            loaded.fetched = fetched
            loaded.fdsn = result
        case let .stale(cached, _, response):
            loaded.fetched = response
            loaded.staleFrom = cached.fetchedAt
        }
        return .loaded(loaded)
    }

    /// How an FDSN service asked is credited: first, before what its documents name.
    package static func credit(_ query: FDSNQuery) -> String {
        Credits.fdsnService(name: query.service.name, baseURL: query.service.baseURL)
    }

    private var retrieval: FeedRetrieval {
        FeedRetrieval(fetch: fetch.options, cache: fetch.cache, staleOk: fetch.staleOk)
    }

    /// After a successful run: keeps the body and its validators for the next
    /// conditional request (not a stale one: it is cached already). A cache
    /// that cannot be written costs only a warning.
    package func remember<Event>(_ loaded: LoadedFeed<Event>, renderedOutput: String?) {
        guard let cache = fetch.cache, let fetched = loaded.fetched, loaded.staleFrom == nil else { return }
        do {
            try retrieval.remember(fetched, renderedOutput: renderedOutput.map { .path(Self.absolute($0)) } ?? .previous)
        } catch {
            log.warning("cache \(cache.directory) not updated: \(error)")
        }
    }

    package static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

/// What can be selected from a catalogue as from a feed: whole events, or what a map draws of them.
package protocol CatalogueReadable: SelectableEvent, DeclusterableEvent {
    /// What `selection` selects from `catalogue`, kept as this type.
    static func fromCatalogue(_ catalogue: Catalogue, _ selection: EventSelection) async throws -> SelectedEvents<Self>
}

extension SeismicEvent: CatalogueReadable {
    package static func fromCatalogue(_ catalogue: Catalogue, _ selection: EventSelection) async throws -> FeedSelection {
        try await catalogue.select(selection)
    }
}

extension MapEvent: CatalogueReadable {
    /// Each event reduced to what a map draws as it streams from the catalogue (a quarter of a
    /// whole event's memory, as from a file), with the places of the largest for labels.
    package static func fromCatalogue(_ catalogue: Catalogue, _ selection: EventSelection) async throws -> MapSelection {
        let stored = try await catalogue.state().events
        return try await MapSelection.collecting(expected: min(selection.limit ?? stored, stored)) {
            try await catalogue.forEach(selection, $0)
        }
    }
}
