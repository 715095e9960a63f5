import Foundation
import QuakeCatalogue
import QuakeKit

/// One immutable state of the served catalogue: every event of every feed,
/// newest first, and what tiles and maps draw of them. Requests read a
/// snapshot while a refresh builds the next one.
package struct FeedSnapshot: Sendable {
    /// The events, newest first (ties: by id), one per id.
    package let events: [SeismicEvent]
    /// The drawable events (those with a magnitude), newest first.
    let mapEvents: [MapEvent]
    /// The latest feed generation time, for age colours and the footer.
    package let generated: Date?
    /// Who the data is from (the feeds' ``FeedSummary/sources``), for the footer and the web map.
    package let sources: [String]
    /// When this snapshot was made.
    package let loadedAt: Date
    /// Changes whenever the events do: part of every ETag.
    package let version: String
    /// Event ids to positions in ``events``.
    private let positions: [String: Int]
    /// Which events a box and a time window hold, without a scan.
    let index: EventIndex
    /// What vector tiles are cut from, made when first asked.
    let vectorTiles = VectorTileIndexes()

    /// A snapshot of `events`, which may hold repeated ids (the latest update wins).
    package init(events: [SeismicEvent], generated: Date?, sources: [String] = [], loadedAt: Date = Date()) {
        // Repeated ids are settled before anything is asked of the catalogue, as on the command line.
        let sorted = RevisionPolicy.settled(events).sorted { lhs, rhs in
            lhs.time != rhs.time ? lhs.time > rhs.time : lhs.id < rhs.id
        }
        self.events = sorted
        self.mapEvents = sorted.compactMap(MapEvent.init)
        self.generated = generated
        self.sources = sources
        self.loadedAt = loadedAt
        var positions: [String: Int] = [:]
        for (index, event) in sorted.enumerated() where !event.id.isEmpty { positions[event.id] = index }
        self.positions = positions
        self.index = EventIndex(sorted)
        self.version = Self.digest(sorted)
    }

    /// The event with this id.
    package func event(id: String) -> SeismicEvent? {
        positions[id].map { events[$0] }
    }

    /// A hash of what the events show, as 16 hex digits. Numbers go in as their
    /// bits, not as text: formatting every number of a large catalogue on each
    /// refresh would cost more than the rest of the rebuild.
    private static func digest(_ events: [SeismicEvent]) -> String {
        var hash = FNV1a()
        for event in events {
            hash.mix(event.id)
            hash.mix(event.place)
            hash.mix(event.eventType)
            hash.mix(event.magnitudeType ?? "")
            hash.mix(event.network ?? "")
            hash.mix(event.status ?? "")
            hash.mix(event.time.timeIntervalSince1970.bitPattern)
            hash.mix(event.latitude.bitPattern)
            hash.mix(event.longitude.bitPattern)
            hash.mix((event.depth ?? .nan).bitPattern)
            hash.mix((event.magnitude ?? .nan).bitPattern)
            hash.mix((event.updated?.timeIntervalSince1970 ?? .nan).bitPattern)
            if let mechanism = event.mechanism { hash.mix(CatalogueSchema.text(mechanism)) }
        }
        return hash.hex
    }
}

/// The cluster indexes of a snapshot's events for vector tiles: made when a tile first asks for
/// a filter, and kept for the few filters asked last (a page's filter asks for many tiles).
final class VectorTileIndexes: Sendable {
    /// An index, and for each of its events the position in the snapshot's events.
    struct Entry: Sendable {
        let filter: EventFilter
        let index: ClusterIndex
        let positions: [Int]
    }

    private let entries = Locked<[Entry]>([])
    /// Filters kept besides the unfiltered index: each costs 36 bytes an event it admits (28 of index, 8 of position).
    private static let kept = 4

    /// The index of the events of `events` (those with a magnitude) that `filter` admits.
    func entry(for filter: EventFilter, events: [SeismicEvent], budget: Int) -> Entry {
        if let found = entries.withLock({ $0.first { $0.filter == filter } }) { return found }
        var positions: [Int] = []
        for (position, event) in events.enumerated() where event.magnitude != nil && (filter == EventFilter() || filter.matches(event)) {
            positions.append(position)
        }
        let entry = Entry(filter: filter, index: ClusterIndex(positions.lazy.map { TilePoint(events[$0]) }, budget: budget),
                          positions: positions)
        entries.withLock { entries in
            guard !entries.contains(where: { $0.filter == filter }) else { return }
            // The unfiltered index stays; filtered ones go oldest first.
            if entries.count > Self.kept, let oldest = entries.firstIndex(where: { $0.filter != EventFilter() }) {
                entries.remove(at: oldest)
            }
            entries.append(entry)
        }
        return entry
    }
}
