import Foundation
import HeapModule
import QuakeModel
import QuakeParse

/// Which events make it onto the map: the most recent ones that have a magnitude.
public struct EventSelection: Sendable, Hashable {
    /// The default number of events kept: 300, the seed's choice.
    public static let defaultLimit = 300

    /// How many events to keep; `nil` keeps all.
    package var limit: Int?
    /// Only events inside this box count (before the limit); `nil` takes the whole world.
    package var region: GeoBox?
    /// Only events that pass this filter count (before the limit).
    package var filter: EventFilter
    /// Whether the job uses fields beyond a map event's own (`--color alert` does): a map's
    /// read then decodes every field, as it does when the filter names one.
    package var readsDetails = false

    /// Creates a selection keeping at most `limit` events (`nil`: all), inside
    /// `region`, that pass `filter`.
    public init(limit: Int? = EventSelection.defaultLimit, region: GeoBox? = nil, filter: EventFilter = EventFilter()) {
        self.limit = limit
        self.region = region
        self.filter = filter
    }

    /// The selected events, most recent first; among equal times, file order.
    /// Events without a magnitude cannot be drawn and are never selected.
    package func select<S: Sequence>(_ events: S) -> [SeismicEvent] where S.Element == SeismicEvent {
        // Events in memory can be offered again: with a reserve as large as the input, never short.
        let events = Array(events)
        var accumulator = MostRecentAccumulator(selection: self, reserve: events.count, expectedRows: events.count)
        for event in events { accumulator.offer(event) }
        return accumulator.result()
    }
}

/// Keeps the N most recent events seen so far in O(N) memory (and a
/// ``RevisionLedger`` of 16 bytes a row), so a feed of any length streams
/// through it.
///
/// Repeated ids follow ``RevisionPolicy``, settled before the selection's
/// filters: among the events it keeps, a newer version of a kept id replaces
/// it at once; every row's version also goes into the ledger, and once all
/// are in, a kept event that a version it never saw replaces (one the filters
/// refused, or one passed over as too old) leaves. So that leaving never
/// makes the selection short, it keeps a reserve of more events than its
/// limit; ``isShort`` says when even the reserve was not enough, and
/// ``QuakeMap/select(from:feed:selection:)`` then reads again with a larger one.
package struct MostRecentAccumulator {
    /// An event with its arrival order and version; "less" means "less worth keeping".
    private struct Ranked: Comparable {
        package let event: SeismicEvent
        package let order: Int
        package let version: Int?

        package static func < (lhs: Ranked, rhs: Ranked) -> Bool {
            if lhs.event.time != rhs.event.time { return lhs.event.time < rhs.event.time }
            return lhs.order > rhs.order
        }

        package static func == (lhs: Ranked, rhs: Ranked) -> Bool { lhs.order == rhs.order }
    }

    private let selection: EventSelection
    /// How many events are kept: the limit and the reserve.
    private let capacity: Int?
    private var kept = Heap<Ranked>()
    private var all: [Ranked] = []
    /// The version of each id among the kept events: its place in the order
    /// offered and its `updated`, all that replacing it needs.
    private var current: [String: (order: Int, updated: Date?)] = [:]
    /// Kept entries that a newer version replaced; skipped, and purged lazily.
    private var superseded: Set<Int> = []
    private var offered = 0
    /// The most recent time of an admitted event let go or passed over for
    /// being older than all kept: no event at or before it may come in after
    /// (one let go was worth more), and the reserve is all that stands in for them.
    private var floor: Date?
    /// The ids in `current`, approximately (never a false "no"); kept only
    /// with a limit, since only a full selection asks it.
    private var keptIDs = IDFilter()
    /// Every version met, for the settlement at the end.
    package let revisions: RevisionLedger
    /// How many rows repeated an id (set by ``result()``).
    package private(set) var duplicates = 0
    /// Whether the selection may be short: more kept events were replaced by
    /// versions never offered than the reserve holds (set by ``result()``).
    package private(set) var isShort = false

    /// Creates an accumulator for a selection's limit, region and filter,
    /// keeping `reserve` events beyond the limit (default: as many as the
    /// limit, at least 256).
    package init(selection: EventSelection, reserve: Int? = nil, expectedRows: Int = 0) {
        self.selection = selection
        capacity = selection.limit.map { $0 + (reserve ?? max($0, 256)) }
        revisions = RevisionLedger(expectedRows: expectedRows)
    }

    /// Creates an accumulator keeping at most `limit` events (`nil`: all).
    package init(limit: Int?) {
        self.init(selection: EventSelection(limit: limit))
    }

    /// Considers one event, recording its version first; events without a
    /// magnitude, outside the region, or failing the filter are passed over.
    package mutating func offer(_ event: SeismicEvent) {
        offer(event, version: revisions.record(id: event.id, updated: event.updated))
    }

    /// Considers one event whose version is recorded already.
    package mutating func offer(_ event: SeismicEvent, version: Int?) {
        guard selection.admits(event) else { return }
        // Most rows of a long feed change nothing; the id filter says so without the dictionary.
        if passesOver(time: event.time, idHash: event.id.isEmpty ? nil : FNV1a.id(event.id)) {
            offered += 1
            return
        }
        let ranked = Ranked(event: event, order: offered, version: version)
        offered += 1
        if !event.id.isEmpty, let existing = current[event.id] {
            guard RevisionPolicy.isNewer(event.updated, than: existing.updated) else { return }
            superseded.insert(existing.order)
            forget(event.id)
        }
        // It replaced its older version, but events more recent than it were let go: it cannot come in.
        if let floor, event.time <= floor { return }
        guard let capacity else {
            all.append(ranked)
            remember(ranked)
            return
        }
        guard selection.limit! > 0 else { return }
        purgeSuperseded()
        if kept.count - superseded.count < capacity {
            kept.insert(ranked)
            remember(ranked)
        } else if let weakest = kept.min, weakest < ranked {
            let removed = kept.replaceMin(with: ranked)
            if current[removed.event.id]?.order == removed.order { forget(removed.event.id) }
            remember(ranked)
            lowerBound(removed.event.time)
        } else {
            lowerBound(event.time)
        }
    }

    /// Offers every event `reader` reads from `source`, letting it pass over
    /// the rows that could change nothing (``FeedReader/RowPassing``) and
    /// recording every valid row's version.
    package mutating func offerAll(from reader: FeedReader, _ source: FeedSource) throws -> FeedSummary {
        // The reader's calls come in turn, on this thread; the box only lets three closures share the accumulator.
        let box = Box(self)
        defer { self = box.value }
        let passing = FeedReader.RowPassing(passableThrough: { box.value.passableThrough() },
                                            passesOver: { box.value.passesOver(time: $0, idHash: $1) })
        let revisions = self.revisions
        return try reader.read(source, passing: passing, revisions: revisions) {
            box.value.offer($0, version: revisions.current)
        }
    }

    private final class Box {
        // Unchecked: the calls never overlap (see above), and the runtime's
        // check on every row's question cost more than the question.
        @exclusivity(unchecked) package var value: MostRecentAccumulator
        package init(_ value: MostRecentAccumulator) { self.value = value }
    }

    /// Rows at or before this time can change the selection only through
    /// their id (``passesOver(time:idHash:)``): the least recent kept event's
    /// once the selection is full, else ``floor``; `nil` while neither is.
    package mutating func passableThrough() -> Date? {
        guard let capacity, selection.limit! > 0 else { return nil }
        purgeSuperseded()
        guard kept.count - superseded.count >= capacity else { return floor }
        guard let weakest = kept.min?.event.time else { return floor }
        return floor.map { max(weakest, $0) } ?? weakest
    }

    /// Whether offering a valid row of `time`, whose id hashes to `idHash`
    /// (`nil`: it has none), would change nothing now: the row is no more
    /// recent than ``passableThrough()`` (a tie loses to the earlier row),
    /// and it repeats no kept id. `false` means "offer it". The hash is asked
    /// for only once the time has not settled it. Its version is in the
    /// ledger either way.
    package mutating func passesOver(time: Date, idHash: @autoclosure () -> UInt32?) -> Bool {
        guard let threshold = passableThrough(), time <= threshold else { return false }
        let passes = idHash().map { !keptIDs.mightContain(hash: $0) } ?? true
        if passes { lowerBound(time) }
        return passes
    }

    /// The kept events, most recent first (equal times in the order offered),
    /// less those a version they never met replaces; at most the limit.
    package mutating func result() -> [SeismicEvent] {
        let candidates = (capacity == nil ? all : Array(kept.unordered)).filter { !superseded.contains($0.order) }
        let ranked: [Ranked]
        if candidates.count > revisions.count / 8 {
            // Most rows are kept: one sort of every version costs less than a table of them.
            let settlement = revisions.settle()
            duplicates = settlement.duplicates
            ranked = candidates.filter { settlement.stays($0.version) }.sorted(by: >)
        } else {
            let settlement = revisions.settle(candidates: candidates.compactMap(\.version))
            duplicates = settlement.duplicates
            ranked = candidates.filter { $0.version.map(settlement.staying.contains) ?? true }.sorted(by: >)
        }
        guard let limit = selection.limit else { return ranked.map(\.event) }
        isShort = ranked.count < limit && floor != nil
        return ranked.prefix(limit).map(\.event)
    }

    private mutating func lowerBound(_ time: Date) {
        if floor.map({ time > $0 }) ?? true { floor = time }
    }

    private mutating func remember(_ ranked: Ranked) {
        guard !ranked.event.id.isEmpty else { return }
        current[ranked.event.id] = (ranked.order, ranked.event.updated)
        // Without a limit nothing is passed over, so nothing asks the filter.
        if capacity != nil { keptIDs.insert(ranked.event.id) }
    }

    private mutating func forget(_ id: String) {
        current[id] = nil
        if capacity != nil { keptIDs.remove(id) }
    }

    /// Drops replaced versions from the bottom of the heap, so they never hold a place.
    private mutating func purgeSuperseded() {
        guard !superseded.isEmpty else { return }
        while let weakest = kept.min, superseded.contains(weakest.order) {
            kept.removeMin()
            superseded.remove(weakest.order)
        }
    }
}

extension EventSelection {
    /// Whether `event` can be selected at all: it has a magnitude, lies in the
    /// region, and passes the filter.
    package func admits(_ event: SeismicEvent) -> Bool {
        event.magnitude != nil && admitsIgnoringMagnitude(event)
    }

    /// Whether `event` is in the region and passes the filter, with or
    /// without a magnitude: what a catalogue keeps (it keeps events no map draws).
    package func admitsIgnoringMagnitude(_ event: SeismicEvent) -> Bool {
        NumericAdmission(filter, region: region).admits(event) && filter.matchesTypesAndExpression(event)
    }

    /// What the reader needs to admit rows for this selection on its decoding
    /// threads: the bounds alone when the filter reads no text (no call per row).
    package var rowAdmission: RowAdmission {
        RowAdmission(numeric: filter.isNumeric ? NumericAdmission(filter, region: region) : nil,
                     admits: { [self] event in admits(event) })
    }
}

/// A counting Bloom filter with one hash over ids: "no" is certain, "maybe" is
/// checked in the dictionary. With a few hundred ids in 8192 slots, about 4 %
/// of other ids get a "maybe".
package struct IDFilter: Sendable {
    private var counts = [UInt32](repeating: 0, count: 8192)

    private func slot(_ id: String) -> Int { Int(FNV1a.id(id) & 8191) }

    package mutating func insert(_ id: String) { counts[slot(id)] += 1 }

    package mutating func remove(_ id: String) { counts[slot(id)] -= 1 }

    package func mightContain(hash: UInt32) -> Bool { counts[Int(hash & 8191)] > 0 }
}
