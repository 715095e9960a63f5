import Foundation
import QuakeKit

/// What one ingest writes: the events of a feed, repeated ids settled
/// (``RevisionPolicy``), in feed order.
package struct IngestBatch: Sendable {
    /// The settled events, in feed order, and whether each passed the ingest's
    /// filters: one that did not is never added, but still revises the event
    /// of its id when the catalogue holds it, so no stale version stays behind.
    package var events: [(event: SeismicEvent, admitted: Bool)] = []
    /// `--keep`: events older than this go, in the same transaction.
    package var keepSince: Date?
    /// `--sync`: the query whose newest `updated` is remembered, and that time.
    package var syncMark: (query: String, newestUpdated: Date)?
    /// Who the feed's data is from (its ``FeedSummary/sources``): recorded, to be credited.
    package var sources: [String] = []

    package init() {}
}

/// What an ingest changed.
package struct IngestCounts: Sendable, Hashable {
    /// Events the catalogue did not hold.
    package var new = 0
    /// Stored events a newer version replaced.
    package var updated = 0
    /// Stored events met again, equal or older.
    package var unchanged = 0
    /// Events removed by `--keep`.
    package var pruned = 0

    package init(new: Int = 0, updated: Int = 0, unchanged: Int = 0, pruned: Int = 0) {
        self.new = new
        self.updated = updated
        self.unchanged = unchanged
        self.pruned = pruned
    }
}

/// Where a read resumes: after the event of this time and sequence number.
package struct CatalogueCursor: Sendable, Hashable {
    package var timeMilliseconds: Int64
    package var seq: Int64
}

/// Which state of its events a catalogue is in: what a server tags its answers with.
package struct CatalogueState: Sendable, Hashable {
    /// Made once, when the catalogue is created: two catalogues never share a tag.
    package var instance: String
    /// Moves on with every ingest that changed an event.
    package var version: Int64
    /// Events with a magnitude (those anything here selects).
    package var events: Int
    /// When an ingest last changed it.
    package var changed: Date?
    /// The newest and oldest time of those events.
    package var newest: Date?
    package var oldest: Date?
    /// The largest magnitude: how far a circle may reach.
    package var largestMagnitude: Double?
    /// Who the data is from, as its ingests recorded it, in the order first recorded.
    package var sources: [String] = []

    package init(instance: String, version: Int64, events: Int, changed: Date? = nil, newest: Date? = nil, oldest: Date? = nil,
                 largestMagnitude: Double? = nil) {
        self.largestMagnitude = largestMagnitude
        self.instance = instance
        self.version = version
        self.events = events
        self.changed = changed
        self.newest = newest
        self.oldest = oldest
    }

    /// The instance and the version: equal tags, equal events.
    package var tag: String { "\(instance)-\(version)" }
}

/// One database behind a catalogue: SQLite or PostgreSQL.
package protocol CatalogueStore: Sendable {
    /// Writes `batch` in one transaction; creates or migrates the schema first.
    func ingest(_ batch: IngestBatch) async throws -> IngestCounts
    /// Up to `count` events `predicate` lets through, most recent first (equal
    /// times in feed order), after `cursor`.
    func events(_ predicate: CataloguePredicate, after cursor: CatalogueCursor?, count: Int) async throws
        -> [(event: SeismicEvent, cursor: CatalogueCursor)]
    /// Up to `count` events `predicate` lets through, largest magnitude first (then newest).
    func largest(_ predicate: CataloguePredicate, count: Int) async throws -> [SeismicEvent]
    /// Which state the events are in.
    func state() async throws -> CatalogueState
    /// Calls `changed` with each new state another process's ingest announces, until
    /// cancelled; returns at once where the database cannot announce (SQLite, a hot standby).
    func watch(_ changed: @escaping @Sendable () async -> Void) async throws
    /// The newest `updated` remembered for a `--sync` query, if any.
    func syncMark(_ query: String) async throws -> Date?
    /// Gives the connection back.
    func close() async
}

extension SeismicEvent {
    /// Calls `body` with each stored value, in ``CatalogueSchema/columns`` order (the key first): the
    /// stored properties, every detail column (`nil` where absent), the type's key. No array a row:
    /// an ingest writes millions.
    package func forEachCatalogueValue(typeKey: String, _ body: (SQLValue?) -> Void) {
        body(.text(CatalogueSchema.key(self)))
        body(.text(id))
        body(.integer(CatalogueSchema.milliseconds(time)))
        body(.real(latitude))
        body(.real(longitude))
        body(depth.map(SQLValue.real))
        body(magnitude.map(SQLValue.real))
        body(magnitudeType.map(SQLValue.text))
        body(.text(place))
        body(.text(eventType))
        body(network.map(SQLValue.text))
        body(updated.map { .integer(CatalogueSchema.milliseconds($0)) })
        body(status.map(SQLValue.text))
        body(mechanism.map { .text(CatalogueSchema.text($0)) })
        // One column a detail field, in field order: the cursor reads each entry once.
        var cursor = EventDetails.Cursor(details)
        for field in CatalogueSchema.detailFields {
            body(cursor.value(of: field).map(CatalogueSchema.sqlValue))
        }
        body(.text(typeKey))
    }
}

/// ``EventType/normalized(_:)`` of each type spelling met, made once: a feed spells its types a
/// few ways, and normalizing a million of them costs seconds.
package struct TypeKeys {
    private var keys: [String: String] = [:]

    package init() {}

    package mutating func key(_ type: String) -> String {
        if let key = keys[type] { return key }
        let key = EventType.normalized(type)
        keys[type] = key
        return key
    }
}
