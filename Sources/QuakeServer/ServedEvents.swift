import Foundation
import Hummingbird
import QuakeCatalogue
import QuakeKit

/// What one request reads: the feeds' events held in memory, or a catalogue in
/// a database at one state. Either way the same filter decides (``EventFilter``,
/// CQL2 by its evaluator); a database only narrows first, through its indexes.
package enum ServedEvents: Sendable {
    case memory(FeedSnapshot)
    case database(QuakeCatalogue.Catalogue, CatalogueState)

    /// Changes whenever the events do: part of every ETag.
    var version: String {
        switch self {
        case .memory(let snapshot): return snapshot.version
        case .database(_, let state): return state.tag
        }
    }

    /// "Now" of the age colours: the feeds' generation time, or the catalogue's last ingest.
    var generated: Date? {
        switch self {
        case .memory(let snapshot): return snapshot.generated
        case .database(_, let state): return state.changed
        }
    }

    /// When the events served last changed: when this snapshot of the feeds was made, or the
    /// catalogue's last ingest (`nil`: none recorded).
    var changed: Date? {
        switch self {
        case .memory(let snapshot): return snapshot.loadedAt
        case .database(_, let state): return state.changed
        }
    }

    /// Who the data is from, for the footer and the web map: the feeds' sources, or those the
    /// catalogue's ingests recorded.
    var sources: [String] {
        switch self {
        case .memory(let snapshot): return snapshot.sources
        case .database(_, let state): return state.sources
        }
    }

    /// The events served (those with a magnitude).
    var count: Int {
        switch self {
        case .memory(let snapshot): return snapshot.events.count
        case .database(_, let state): return state.events
        }
    }

    /// The oldest and newest event time.
    var interval: (oldest: Date?, newest: Date?) {
        switch self {
        case .memory(let snapshot): return (snapshot.events.last?.time, snapshot.events.first?.time)
        case .database(_, let state): return (state.oldest, state.newest)
        }
    }

    /// Where the page after one begins: further on by an offset (events in memory), or after the
    /// last event's cursor (a database: a deep page reads only its own rows).
    enum NextPage: Sendable, Hashable {
        case offset(Int)
        case cursor(CatalogueCursor)
    }

    /// A page of what `filter` admits, newest first (after `cursor`, then `offset` skipped);
    /// `matched` when it is known without counting every match in a database (a count could read
    /// millions of rows); where the next page begins, when there is one.
    ///
    /// - Throws: ``Problem`` (400) for a cursor given to events held in memory (they page by offset).
    func page(_ filter: EventFilter, after cursor: CatalogueCursor?, offset: Int,
              limit: Int) async throws -> (events: [SeismicEvent], matched: Int?, next: NextPage?) {
        switch self {
        case .memory(let snapshot):
            guard cursor == nil else {
                throw Problem.badParameter("cursor", "this server reads feeds, not a catalogue, and pages by offset: follow its next links")
            }
            // Positions, not copies: copying twelve thousand events costs more than encoding a page;
            // without a filter, the page is a slice and nothing is collected.
            let events = snapshot.events
            let page: [SeismicEvent], matched: Int
            if filter == EventFilter() {
                page = Array(events.dropFirst(offset).prefix(limit))
                matched = events.count
            } else {
                let found = snapshot.index.page(matching: filter, offset: offset, limit: limit)
                page = found.positions.map { events[$0] }
                matched = found.matched
            }
            return (page, matched, offset + page.count < matched ? .offset(offset + page.count) : nil)
        case .database(let catalogue, let state):
            // Past the last event nothing is read.
            guard offset < state.events else { return ([], filter == EventFilter() ? state.events : nil, nil) }
            let found = try await catalogue.page(filter, after: cursor, offset: offset, limit: limit)
            // Known without counting: the whole catalogue, or a last page reached by offset alone (after a
            // cursor, what came before is not counted).
            let last = found.next == nil && cursor == nil && (offset == 0 || !found.events.isEmpty)
            let matched = filter == EventFilter() ? state.events : last ? offset + found.events.count : nil
            return (found.events, matched, found.next.map(NextPage.cursor))
        }
    }

    /// How many events `filter` admits; `nil` from a database when more than `budget`
    /// would have to be read to tell (the count of the whole catalogue is always known).
    /// Counted as the events stream past, a page at a time: none is kept.
    func count(_ filter: EventFilter, budget: Int) async throws -> Int? {
        switch self {
        case .memory(let snapshot):
            return filter == EventFilter() ? snapshot.events.count : snapshot.index.page(matching: filter, offset: 0, limit: 0).matched
        case .database(let catalogue, let state):
            guard filter != EventFilter() else { return state.events }
            var found = 0
            _ = try await catalogue.forEach(EventSelection(limit: budget + 1, filter: filter)) { _ in found += 1 }
            return found <= budget ? found : nil
        }
    }

    /// The event with this id.
    func event(id: String) async throws -> SeismicEvent? {
        switch self {
        case .memory(let snapshot): return snapshot.event(id: id)
        case .database(let catalogue, _): return try await catalogue.event(id: id)
        }
    }

    /// The most events a map of at most `limit` may hold: what its render is weighed by
    /// (``RenderGate/slots(forEvents:)``) and its collector sized for, before anything is read.
    func mapEvents(limit: Int) -> Int { min(limit, count) }

    /// The `limit` most recent events `filter` admits, newest first, as a map draws them (with
    /// the places of the largest, for labels): streamed from a database, so that a map of a
    /// whole catalogue holds a map event per event, never a whole one.
    func newest(_ filter: EventFilter, limit: Int) async throws -> MapSelection {
        switch self {
        case .memory(let snapshot):
            return try await MapSelection.collecting(expected: mapEvents(limit: limit)) { append in
                var taken = 0
                for event in snapshot.events where limit > 0 && (filter == EventFilter() || filter.matches(event)) {
                    try append(event)
                    taken += 1
                    if taken == limit { break }
                }
                return FeedSummary(rows: taken, events: taken)
            }
        case .database(let catalogue, _):
            return try await MapSelection.collecting(expected: mapEvents(limit: limit)) {
                try await catalogue.forEach(EventSelection(limit: limit, filter: filter), $0)
            }
        }
    }

    /// The events `filter` admits that a tile's layer needs for `tile`: in memory all
    /// of them (the layer reads only those near the tile); from a database, of each tile
    /// whose circles could reach it (`reach` tiles around), the `limit` largest, which are
    /// what the layer keeps of that tile.
    func drawable(_ filter: EventFilter, for tile: TileID, reach: Int, limit: Int?) async throws -> [MapEvent] {
        switch self {
        case .memory(let snapshot):
            return filter == EventFilter() ? snapshot.mapEvents : snapshot.events.lazy.filter(filter.matches).compactMap(MapEvent.init)
        case .database(let catalogue, let state):
            let side = 1 << tile.zoom
            let columns = Set((-reach...reach).map { ((tile.x + $0) % side + side) % side })
            let rows = max(0, tile.y - reach)...min(side - 1, tile.y + reach)
            var seen = Set<String>()
            var events: [MapEvent] = []
            for column in columns.sorted() {
                for row in rows {
                    let box = Self.box(zoom: tile.zoom, x: column, y: row)
                    // A few over the limit: events on a seam are read by both tiles, and the layer decides.
                    let count = limit.map { $0 + 16 } ?? state.events
                    for event in try await catalogue.largest(filter, in: box, count: max(1, count)) {
                        guard seen.insert(CatalogueSchema.key(event)).inserted, let drawable = MapEvent(event) else { continue }
                        events.append(drawable)
                    }
                }
            }
            // Newest first, as a feed's events come: the layer breaks ties by order.
            return events.sorted { $0.time > $1.time }
        }
    }

    /// The vector tile of `tile`: the events `filter` admits, each a point or counted in one cluster
    /// (``ClusterIndex``), and within the buffer its neighbours' features. In memory, cut from an
    /// index of the snapshot kept per filter; from a database, from the events of the tile and its
    /// eight neighbours, read for the request, or cut from the catalogue's index once built
    /// (``CatalogueTileIndex``).
    func vectorTile(_ filter: EventFilter, for tile: TileID, budget: Int, catalogueIndex: CatalogueTileIndex) async throws -> Data {
        switch self {
        case .memory(let snapshot):
            let entry = snapshot.vectorTiles.entry(for: filter, events: snapshot.events, budget: budget)
            let features = entry.index.features(for: tile, buffer: TilePyramid.vectorBuffer)
            return VectorTileEncoder.tile(features, events: snapshot.events, positions: entry.positions)
        case .database(let catalogue, let state):
            if filter == EventFilter(), let built = catalogueIndex.index(catalogue, at: state) {
                // Clusters from the index; the single events' properties read by key, in one query.
                let features = built.index.features(for: tile, buffer: TilePyramid.vectorBuffer)
                var keys: [String] = []
                for case .event(let index) in features.map(\.kind) { keys.append(built.keys[index]) }
                let found = try await catalogue.events(keys: keys)
                // An event gone since the index was read: the tile is cut from what is there now.
                if found.count == Set(keys).count {
                    return VectorTileEncoder.tile(features, events: { found[built.keys[$0]]! })
                }
            }
            // Of each event streamed past, its key and position alone (a low zoom's read is most of the
            // catalogue); the single events' properties are read again by key.
            var near = filter
            near.bbox = Self.neighbourhood(of: tile)
            var keys: [String] = [], points: [TilePoint] = []
            _ = try await catalogue.forEach(EventSelection(limit: nil, filter: near)) { event in
                keys.append(CatalogueSchema.key(event))
                points.append(TilePoint(event))
            }
            let features = ClusterIndex(points, budget: budget).features(for: tile, buffer: TilePyramid.vectorBuffer)
            var singles: [String] = []
            for case .event(let index) in features.map(\.kind) { singles.append(keys[index]) }
            let found = try await catalogue.events(keys: singles)
            guard found.count == Set(singles).count else {
                throw Problem(.serviceUnavailable, "the catalogue changed while the tile was read; try again", retryAfter: 1)
            }
            return VectorTileEncoder.tile(features, events: { found[keys[$0]]! })
        }
    }

    /// The box of a tile and the eight around it; the whole band of longitudes where they cross the antimeridian.
    static func neighbourhood(of tile: TileID) -> GeoBox {
        let side = 1 << tile.zoom
        let north = box(zoom: tile.zoom, x: 0, y: max(0, tile.y - 1)).north
        let south = box(zoom: tile.zoom, x: 0, y: min(side - 1, tile.y + 1)).south
        guard tile.x > 0, tile.x + 1 < side else { return GeoBox(uncheckedWest: -180, south: south, east: 180, north: north) }
        return GeoBox(uncheckedWest: box(zoom: tile.zoom, x: tile.x - 1, y: 0).west, south: south,
                      east: box(zoom: tile.zoom, x: tile.x + 1, y: 0).east, north: north)
    }

    /// A Web Mercator tile's bounds in degrees; the first and last rows reach the poles, where
    /// the projection puts every event beyond its ±85.05°.
    static func box(zoom: Int, x: Int, y: Int) -> GeoBox {
        let side = Double(1 << zoom)
        func latitude(_ row: Int) -> Double {
            if row == 0 { return 90 }
            if row == 1 << zoom { return -90 }
            return atan(sinh(.pi * (1 - 2 * Double(row) / side))) * 180 / .pi
        }
        let west = Double(x) / side * 360 - 180, east = Double(x + 1) / side * 360 - 180
        return GeoBox(uncheckedWest: west, south: latitude(y + 1), east: east, north: latitude(y))
    }
}
