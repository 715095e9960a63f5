import Foundation
import QuakeKit

/// A catalogue kept in a database: what `quakemap ingest` writes and what
/// `--catalogue` reads, the same way whichever database holds it.
package struct Catalogue: Sendable {
    package let location: CatalogueLocation
    private let store: any CatalogueStore
    /// A server's reads in progress (``open(reading:connections:)``); `nil` for a command's.
    package var reads: CatalogueReads? { (store as? CountedReads)?.reads }

    /// Opens the catalogue at `location`, to write (created or migrated as
    /// needed) or to read (it must exist).
    package static func open(_ location: CatalogueLocation, writing: Bool) async throws -> Catalogue {
        switch location {
        case .sqlite(let path):
            return Catalogue(location: location, store: try SQLiteCatalogue(path: path, writing: writing))
        case .postgres(let database):
            return Catalogue(location: location, store: try await PostgresCatalogue.open(database, writing: writing))
        }
    }

    /// Opens the catalogue at `location` to read from many tasks at once, through up to
    /// `connections` connections (a server's requests).
    package static func open(reading location: CatalogueLocation, connections: Int) async throws -> Catalogue {
        switch location {
        case .sqlite(let path):
            let store = try SQLiteCatalogue(path: path, writing: false, concurrently: true)
            return Catalogue(location: location, store: CountedReads(store, connections: SQLiteCatalogue.concurrentReaders))
        case .postgres(let database):
            let connections = max(2, connections)
            let store = try await PostgresCatalogue.open(database, writing: false, connections: connections)
            return Catalogue(location: location, store: CountedReads(store, connections: connections))
        }
    }

    /// Which state the events are in (one row: cheap to ask often).
    package func state() async throws -> CatalogueState { try await store.state() }

    /// Calls `changed` whenever another process's ingest announces a change, until cancelled;
    /// returns at once where the database announces nothing (SQLite), and throws where it
    /// refuses to (a PostgreSQL hot standby): there, poll ``state()``.
    package func watch(_ changed: @escaping @Sendable () async -> Void) async throws { try await store.watch(changed) }

    /// The event with this id, if it has a magnitude (as every selection requires).
    package func event(id: String) async throws -> SeismicEvent? {
        try await store.events(CataloguePredicate(id: id), after: nil, count: 1).first?.event
    }

    /// A page of the events `filter` admits, newest first: those after `cursor` (where a previous
    /// page ended), `offset` of them skipped, then up to `limit`; and, when more follow, the cursor
    /// of the page's last event. The database narrows, the filter decides, as in ``select(_:)``.
    /// A page after a cursor reads only its own rows however deep it lies, and stays in place while
    /// ingests add newer events.
    package func page(_ filter: EventFilter, after cursor: CatalogueCursor? = nil, offset: Int = 0,
                      limit: Int) async throws -> (events: [SeismicEvent], next: CatalogueCursor?) {
        let (end, overflow) = offset.addingReportingOverflow(limit)
        guard !overflow, end < Int.max else { return ([], nil) }
        var selection = EventSelection(limit: end + 1)
        selection.filter = filter
        // The events before the page stream past uncounted in memory: only the page is kept.
        var page: [SeismicEvent] = [], seen = 0, last: CatalogueCursor?
        _ = try await forEach(selection, after: cursor) { event, position in
            if seen >= offset && seen < end {
                page.append(event)
                last = position
            }
            seen += 1
        }
        return (page, seen > end ? last : nil)
    }

    /// The drawable events in the box `region` that `filter` admits, the `count` largest (then
    /// newest): what a tile keeps of the events that reach it. Largest first.
    package func largest(_ filter: EventFilter, in region: GeoBox, count: Int) async throws -> [SeismicEvent] {
        var selection = EventSelection(limit: nil)
        selection.filter = filter
        selection.region = region
        let predicate = CataloguePredicate(selection)
        var found: [SeismicEvent] = []
        // The filter rarely refuses what the database lets through; when it does, ask for more.
        var asked = count
        while true {
            let rows = try await store.largest(predicate, count: asked)
            found = rows.filter { selection.admits($0) }
            if found.count >= count || rows.count < asked { break }
            asked *= 4
        }
        return Array(found.prefix(count))
    }

    /// The key and position of every event with a magnitude, as vector tiles index them.
    package func tilePositions() async throws -> (keys: [String], points: [TilePoint]) {
        var keys: [String] = [], points: [TilePoint] = []
        try await store.forEachPosition { key, point in
            keys.append(key)
            points.append(point)
        }
        return (keys, points)
    }

    /// The events with these keys that are there, by key.
    package func events(keys: [String]) async throws -> [String: SeismicEvent] {
        var found: [String: SeismicEvent] = [:]
        // Within what either database binds in one statement.
        for start in stride(from: 0, to: keys.count, by: 4096) {
            for event in try await store.events(keys: Array(keys[start..<min(start + 4096, keys.count)])) {
                found[CatalogueSchema.key(event)] = event
            }
        }
        return found
    }

    /// Up to `count` events an ingest created or revised after the change stamp `stamp`, in
    /// the order of their stamps (``CatalogueState/changes`` is the last one given).
    package func changes(after stamp: Int64, count: Int) async throws -> [CatalogueChange] {
        try await store.changes(after: stamp, count: count)
    }

    /// Gives the connection back.
    package func close() async { await store.close() }

    /// Opens the catalogue at `location`, runs `body` with it, and closes it whatever `body` does.
    package static func using<Result>(_ location: CatalogueLocation, writing: Bool,
                                      _ body: (Catalogue) async throws -> Result) async throws -> Result {
        let catalogue = try await open(location, writing: writing)
        do {
            let result = try await body(catalogue)
            await catalogue.close()
            return result
        } catch {
            await catalogue.close()
            throw error
        }
    }

    /// Reads `source` into the catalogue in one transaction, as `plan` says: each event staged in
    /// the database as it is read (memory stays that of the repeated-id ledger, 20 bytes a row,
    /// however long the feed), repeated ids settled by ``RevisionPolicy`` over every valid row
    /// before the filters (as every selection does), then stored set-wise. A feed that fails part
    /// way leaves the catalogue as it was.
    package func ingest(_ source: FeedSource, feed: FeedOptions, selection: EventSelection,
                        plan: IngestPlan) async throws -> IngestReport {
        try await store.ingest(plan) { stage in
            let expectedRows = (source.byteCount ?? 0) / 120
            var versions: [Int32] = []
            versions.reserveCapacity(expectedRows)
            let revisions = RevisionLedger(expectedRows: expectedRows)
            let summary = try FeedReader(options: feed).read(source, passing: nil, revisions: revisions) { event in
                try stage(event, selection.admitsIgnoringMagnitude(event))
                versions.append(revisions.current.map(Int32.init) ?? -1)
            }
            let settlement = revisions.settle()
            let replaced = versions.indices.filter { versions[$0] >= 0 && !settlement.stays(Int(versions[$0])) }
            return StagedFeed(summary: summary, replaced: replaced, duplicates: settlement.duplicates)
        }
    }

    /// The newest `updated` a `--sync` ingest of `query` stored.
    package func syncMark(_ query: String) async throws -> Date? {
        try await store.syncMark(query)
    }

    /// The events `selection` selects, as reading the same events from a feed
    /// would select them: the database narrows (``CataloguePredicate``), and
    /// the selection's own filter and limit decide. A limit reads only pages
    /// of the most recent events until it is met. `summary` counts the events read.
    package func select(_ selection: EventSelection) async throws -> FeedSelection {
        var candidates: [SeismicEvent] = []
        let summary = try await forEach(selection) { candidates.append($0) }
        return FeedSelection(events: selection.select(candidates), summary: summary)
    }

    /// Hands `body` each event `selection` selects, newest first (equal times in the order they
    /// were stored), a page at a time: memory stays that of one page however many there are, so
    /// a listing or a map of a whole catalogue streams as one of a file does. Returns the
    /// summary of what was read.
    package func forEach(_ selection: EventSelection, _ body: (SeismicEvent) throws -> Void) async throws -> FeedSummary {
        let read = try await forEach(selection, after: nil) { event, _ in try body(event) }
        var summary = FeedSummary(rows: read, events: read)
        // Who the data is from, as the ingests recorded it: a map of the catalogue credits them as one of the feed would.
        summary.sources = try await store.state().sources
        return summary
    }

    /// ``forEach(_:_:)`` from after `start`, with each event's cursor; returns how many rows were read.
    private func forEach(_ selection: EventSelection, after start: CatalogueCursor?,
                         _ body: (SeismicEvent, CatalogueCursor) throws -> Void) async throws -> Int {
        let predicate = CataloguePredicate(selection)
        let limit = selection.limit
        // Pages of the limit itself: the filter rarely refuses what the database let through, and
        // every row read costs decoding (a server's page of 100 is most of its work).
        let pageSize = limit.map { min(max($0, 16), Self.largestPage) } ?? Self.largestPage
        let store = store
        let fetch = { @Sendable (after: CatalogueCursor?) in try await store.events(predicate, after: after, count: pageSize) }
        var read = 0, admitted = 0
        // The next page is read while this one is handed over (the database on its own thread, the
        // body on this one), whenever this one cannot meet the limit even if the filter admits all of it.
        var next: Task<[(event: SeismicEvent, cursor: CatalogueCursor)], Error>? = limit == 0 ? nil : Task { try await fetch(start) }
        defer { next?.cancel() }
        pages: while let reading = next {
            let page = try await reading.value
            // Where the next page starts, when there is one.
            let more = page.count == pageSize ? page.last?.cursor : nil
            next = nil
            if let more, limit.map({ admitted + page.count < $0 }) ?? true { next = Task { try await fetch(more) } }
            for (event, position) in page {
                read += 1
                guard selection.admits(event) else { continue }
                try body(event, position)
                admitted += 1
                if let limit, admitted >= limit { break pages }
            }
            if let more, next == nil { next = Task { try await fetch(more) } }
        }
        return read
    }

    /// The most events one read of the database asks for: 10,000 events are a few MiB.
    static let largestPage = 10_000
}
