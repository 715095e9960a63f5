import Foundation
import QuakeKit

/// What one ingest writes beside the feed's events.
package struct IngestPlan: Sendable {
    /// `--keep`: events older than this go, in the same transaction.
    package var keepSince: Date?
    /// `--sync`: the query whose newest `updated` is remembered (the newest of the feed's, never
    /// older than `syncFloor`, the time the query asked after).
    package var syncQuery: String?
    package var syncFloor: Date?
    /// Who the data is from, credited before what the feed names (the FDSN service asked).
    package var creditedFirst: [String] = []

    package init(keepSince: Date? = nil) {
        self.keepSince = keepSince
    }
}

/// An ingest's feed as it is read: `stage` is handed each event, in feed order, and whether the
/// ingest's filters pass it. One that does not is never added, but still revises the event of its
/// id when the catalogue holds it, so no stale version stays behind.
package typealias IngestRows = @Sendable (_ stage: (_ event: SeismicEvent, _ admitted: Bool) throws -> Void) throws -> StagedFeed

/// What reading an ingest's feed found.
package struct StagedFeed: Sendable {
    /// The reader's counts and credits.
    package var summary: FeedSummary
    /// The events (by their number among those staged, from 0) another version of their id
    /// replaces (``RevisionPolicy``, over the whole feed), in ascending order.
    package var replaced: [Int]
    /// How many rows repeated an id met before.
    package var duplicates: Int

    package init(summary: FeedSummary, replaced: [Int], duplicates: Int) {
        self.summary = summary
        self.replaced = replaced
        self.duplicates = duplicates
    }
}

/// What an ingest read and changed.
package struct IngestReport: Sendable {
    package var counts = IngestCounts()
    /// The reader's counts and credits.
    package var summary = FeedSummary()
    /// Rows that repeated an event of the feed (by id, or by time and position without one).
    package var duplicates = 0
    /// The feed's events once repeats are settled, and how many of them the filters passed.
    package var events = 0
    package var admitted = 0
    /// The newest `updated` among them (for `--sync`).
    package var newestUpdated: Date?

    package init() {}

    /// Events the filters kept out, less those counted as updated or unchanged (they revised the
    /// catalogue's own version).
    package var outsideFilters: Int {
        events - admitted - max(0, counts.updated + counts.unchanged + counts.new - admitted)
    }
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

    package init(timeMilliseconds: Int64, seq: Int64) {
        self.timeMilliseconds = timeMilliseconds
        self.seq = seq
    }

    /// The cursor as a link carries it (`TIME_SEQ`); clients treat it as opaque.
    package var token: String { "\(timeMilliseconds)_\(seq)" }

    /// The cursor of a ``token``; `nil` for any other text.
    package init?(token: String) {
        let parts = token.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 2, let time = Int64(parts[0]), let seq = Int64(parts[1]), seq > 0 else { return nil }
        self.init(timeMilliseconds: time, seq: seq)
    }
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
    /// The last change stamp an ingest gave (``Catalogue/changes(after:count:)``).
    package var changes: Int64 = 0
    /// The stamp at which an ingest last removed events: a client of the change stream that
    /// last heard of an earlier one cannot be told exactly what changed.
    package var prunedAt: Int64 = 0

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

/// An event as an ingest last created or revised it, with the stamps of that change and of its creation.
package struct CatalogueChange: Sendable {
    package var stamp: Int64
    /// `nil` for an event from before the catalogue kept stamps.
    package var created: Int64?
    package var event: SeismicEvent

    /// Whether a client that heard of the changes up to `stamp` hears of a new event.
    package func isCreation(after stamp: Int64) -> Bool { (created ?? 0) > stamp }
}

/// One database behind a catalogue: SQLite or PostgreSQL.
package protocol CatalogueStore: Sendable {
    /// Stages the events `rows` reads, settles their repeats, and writes them as `plan` says, in one
    /// transaction; creates or migrates the schema first. A feed that fails leaves the catalogue as it was.
    func ingest(_ plan: IngestPlan, rows: @escaping IngestRows) async throws -> IngestReport
    /// Up to `count` events `predicate` lets through, most recent first (equal
    /// times in feed order), after `cursor`.
    func events(_ predicate: CataloguePredicate, after cursor: CatalogueCursor?, count: Int) async throws
        -> [(event: SeismicEvent, cursor: CatalogueCursor)]
    /// Up to `count` events `predicate` lets through, largest magnitude first (then newest).
    func largest(_ predicate: CataloguePredicate, count: Int) async throws -> [SeismicEvent]
    /// Hands `body` the key, position, magnitude and time of every event with a magnitude, in
    /// one read (what vector tiles' cluster index is built from: no whole event is decoded).
    func forEachPosition(_ body: (String, TilePoint) throws -> Void) async throws
    /// The events with these keys that are there.
    func events(keys: [String]) async throws -> [SeismicEvent]
    /// Up to `count` events whose change stamp is after `stamp`, in the order of their stamps.
    func changes(after stamp: Int64, count: Int) async throws -> [CatalogueChange]
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
