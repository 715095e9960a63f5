import Foundation
import QuakeCatalogue
import QuakeKit

/// What the FDSN event service reads: the matches newest first, read as the answer is written,
/// and every match for the other orders and the lists of names.
extension ServedEvents {
    /// The events `filter` admits, newest first, the first `skipping` left out, at most `limit`:
    /// in memory, their positions (the events are not copied); from a database, a page at a time
    /// after the last one's cursor, so that an answer of any length holds one page. The first page
    /// is read before the answer starts (an empty one is FDSN's "no data").
    func newestFirst(_ filter: EventFilter, skipping: Int, limit: Int, page: Int) async throws -> FDSNEvents {
        switch self {
        case .memory(let snapshot):
            let events = snapshot.events
            let positions: [Int]
            if filter == EventFilter() {
                let start = min(skipping, events.count)
                positions = Array(start..<(start + min(limit, events.count - start)))
            } else {
                var found: [Int] = [], seen = 0
                snapshot.index.forEachMatch(filter) { position in
                    if seen >= skipping && found.count < limit { found.append(position) }
                    seen += 1
                }
                positions = found
            }
            let reader = PositionReader(positions: positions, page: page)
            return .pages(isEmpty: positions.isEmpty) { await reader.next().map { $0.map { events[$0] } } }
        case .database(let catalogue, _):
            let first = try await catalogue.page(filter, offset: skipping, limit: min(page, limit))
            let reader = CataloguePageReader(catalogue: catalogue, filter: filter, first: first, limit: limit, page: page)
            return .pages(isEmpty: first.events.isEmpty) { try await reader.next() }
        }
    }

    /// Calls `body` with every event `filter` admits, newest first.
    func forEachMatch(_ filter: EventFilter, _ body: (SeismicEvent) -> Void) async throws {
        switch self {
        case .memory(let snapshot):
            if filter == EventFilter() {
                snapshot.events.forEach(body)
            } else {
                snapshot.index.forEachMatch(filter) { body(snapshot.events[$0]) }
            }
        case .database(let catalogue, _):
            _ = try await catalogue.forEach(EventSelection(limit: nil, filter: filter), body)
        }
    }
}

/// Hands out a list of positions a page at a time.
private actor PositionReader {
    private let positions: [Int]
    private let page: Int
    private var start = 0

    init(positions: [Int], page: Int) {
        self.positions = positions
        self.page = page
    }

    func next() -> ArraySlice<Int>? {
        guard start < positions.count else { return nil }
        defer { start += page }
        return positions[start..<min(start + page, positions.count)]
    }
}

/// Reads a catalogue's matches a page at a time, each after the last one's cursor: the next page
/// is read while this one is written (the database on its own threads).
private actor CataloguePageReader {
    private let catalogue: QuakeCatalogue.Catalogue
    private let filter: EventFilter
    private let page: Int
    private var pending: [SeismicEvent]?
    private var cursor: CatalogueCursor?
    private var remaining: Int
    private var upcoming: Task<(events: [SeismicEvent], next: CatalogueCursor?), Error>?

    init(catalogue: QuakeCatalogue.Catalogue, filter: EventFilter, first: (events: [SeismicEvent], next: CatalogueCursor?),
         limit: Int, page: Int) {
        self.catalogue = catalogue
        self.filter = filter
        self.page = page
        pending = first.events
        cursor = first.next
        remaining = limit - first.events.count
    }

    func next() async throws -> [SeismicEvent]? {
        if let pending {
            self.pending = nil
            readAhead()
            return pending.isEmpty ? nil : pending
        }
        guard let reading = upcoming else { return nil }
        upcoming = nil
        let found = try await reading.value
        cursor = found.next
        remaining -= found.events.count
        readAhead()
        return found.events.isEmpty ? nil : found.events
    }

    private func readAhead() {
        guard remaining > 0, let after = cursor else { return }
        let catalogue = catalogue, filter = filter, count = min(page, remaining)
        upcoming = Task { try await catalogue.page(filter, after: after, limit: count) }
    }
}
