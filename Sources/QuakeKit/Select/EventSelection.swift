import Foundation
import HeapModule

/// Which events make it onto the map: the most recent ones that have a magnitude.
public struct EventSelection: Sendable, Hashable {
    /// The default number of events kept: 300, the seed's choice.
    public static let defaultLimit = 300

    /// How many events to keep; `nil` keeps all.
    public var limit: Int?
    /// Only events inside this box count (before the limit); `nil` takes the whole world.
    public var region: GeoBox?
    /// Only events that pass this filter count (before the limit).
    public var filter: EventFilter

    /// Creates a selection keeping at most `limit` events (`nil`: all), inside
    /// `region`, that pass `filter`.
    public init(limit: Int? = EventSelection.defaultLimit, region: GeoBox? = nil, filter: EventFilter = EventFilter()) {
        self.limit = limit
        self.region = region
        self.filter = filter
    }

    /// The selected events, most recent first; among equal times, file order.
    /// Events without a magnitude cannot be drawn and are never selected.
    public func select<S: Sequence>(_ events: S) -> [SeismicEvent] where S.Element == SeismicEvent {
        var accumulator = MostRecentAccumulator(selection: self)
        for event in events { accumulator.offer(event) }
        return accumulator.result()
    }
}

/// Keeps the N most recent events seen so far in O(N) memory, so a feed of any
/// length streams through it. When the same id comes again (an event the feed
/// lists twice, as updated), only the version with the later `updated` stays;
/// without `updated`, the later row.
public struct MostRecentAccumulator: Sendable {
    /// An event with its arrival order; "less" means "less worth keeping".
    private struct Ranked: Comparable, Sendable {
        let event: SeismicEvent
        let order: Int

        static func < (lhs: Ranked, rhs: Ranked) -> Bool {
            if lhs.event.time != rhs.event.time { return lhs.event.time < rhs.event.time }
            return lhs.order > rhs.order
        }

        static func == (lhs: Ranked, rhs: Ranked) -> Bool { lhs.order == rhs.order }
    }

    private let selection: EventSelection
    private var kept = Heap<Ranked>()
    private var all: [Ranked] = []
    /// The version of each id among the kept events: its place in the order
    /// offered and its `updated`, all that replacing it needs.
    private var current: [String: (order: Int, updated: Date?)] = [:]
    /// Kept entries that a newer version replaced; skipped, and purged lazily.
    private var superseded: Set<Int> = []
    private var offered = 0
    /// The ids in `current`, approximately (never a false "no"); kept only
    /// with a limit, since only a full selection asks it.
    private var keptIDs = IDFilter()
    /// How many rows repeated an id already seen (kept or replaced).
    public private(set) var duplicates = 0

    /// Creates an accumulator keeping at most `limit` events (`nil`: all).
    public init(limit: Int?) {
        self.init(selection: EventSelection(limit: limit))
    }

    /// Creates an accumulator for a selection's limit, region and filter.
    public init(selection: EventSelection) {
        self.selection = selection
    }

    /// Considers one event; events without a magnitude, outside the region, or
    /// failing the filter are passed over.
    public mutating func offer(_ event: SeismicEvent) {
        guard selection.admits(event) else { return }
        // Most rows of a long feed change nothing; the id filter says so without the dictionary.
        if passesOver(time: event.time, idHash: event.id.isEmpty ? nil : FNV1a.id(event.id)) {
            offered += 1
            return
        }
        let ranked = Ranked(event: event, order: offered)
        offered += 1
        if !event.id.isEmpty, let existing = current[event.id] {
            duplicates += 1
            guard EventSelection.isNewer(event.updated, than: existing.updated) else { return }
            superseded.insert(existing.order)
            forget(event.id)
        }
        guard let limit = selection.limit else {
            all.append(ranked)
            remember(ranked)
            return
        }
        guard limit > 0 else { return }
        purgeSuperseded()
        if kept.count - superseded.count < limit {
            kept.insert(ranked)
            remember(ranked)
        } else if let weakest = kept.min, weakest < ranked {
            let removed = kept.replaceMin(with: ranked)
            if current[removed.event.id]?.order == removed.order { forget(removed.event.id) }
            remember(ranked)
        }
    }

    /// Offers every event `reader` reads from `source`, letting it pass over
    /// the rows that could change nothing (``FeedReader/RowPassing``).
    mutating func offerAll(from reader: FeedReader, _ source: FeedSource) throws -> FeedSummary {
        // The reader's calls come in turn, on this thread; the box only lets three closures share the accumulator.
        let box = Box(self)
        defer { self = box.value }
        let passing = FeedReader.RowPassing(passableThrough: { box.value.passableThrough() },
                                            passesOver: { box.value.passesOver(time: $0, idHash: $1) })
        return try reader.read(source, passing: passing) { box.value.offer($0) }
    }

    private final class Box {
        // Unchecked: the calls never overlap (see above), and the runtime's
        // check on every row's question cost more than the question.
        @exclusivity(unchecked) var value: MostRecentAccumulator
        init(_ value: MostRecentAccumulator) { self.value = value }
    }

    /// Rows at or before this time can change the selection only through
    /// their id (``passesOver(time:idHash:)``); `nil` while it is not full.
    mutating func passableThrough() -> Date? {
        guard let limit = selection.limit, limit > 0 else { return nil }
        purgeSuperseded()
        guard kept.count - superseded.count >= limit else { return nil }
        return kept.min?.event.time
    }

    /// Whether offering a valid row of `time`, whose id hashes to `idHash`
    /// (`nil`: it has none), would change nothing: the selection is full, the
    /// row is no more recent than every kept event (a tie loses to the earlier
    /// row), and it repeats no kept id. `false` means "offer it".
    /// The hash is asked for only once the time has not settled it.
    mutating func passesOver(time: Date, idHash: @autoclosure () -> UInt32?) -> Bool {
        guard let limit = selection.limit, limit > 0 else { return false }
        purgeSuperseded()
        guard kept.count - superseded.count >= limit, let weakest = kept.min, time <= weakest.event.time else {
            return false
        }
        return idHash().map { !keptIDs.mightContain(hash: $0) } ?? true
    }

    /// The events kept, most recent first; equal times in the order offered.
    public func result() -> [SeismicEvent] {
        let ranked = selection.limit == nil ? all : Array(kept.unordered)
        return ranked.filter { !superseded.contains($0.order) }.sorted(by: >).map(\.event)
    }

    private mutating func remember(_ ranked: Ranked) {
        guard !ranked.event.id.isEmpty else { return }
        current[ranked.event.id] = (ranked.order, ranked.event.updated)
        // Without a limit nothing is passed over, so nothing asks the filter.
        if selection.limit != nil { keptIDs.insert(ranked.event.id) }
    }

    private mutating func forget(_ id: String) {
        current[id] = nil
        if selection.limit != nil { keptIDs.remove(id) }
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
    func admits(_ event: SeismicEvent) -> Bool {
        event.magnitude != nil && NumericAdmission(filter, region: region).admits(event)
            && filter.matchesTypesAndExpression(event)
    }

    /// What the reader needs to admit rows for this selection on its decoding
    /// threads: the bounds alone when the filter reads no text (no call per row).
    var rowAdmission: RowAdmission {
        RowAdmission(numeric: filter.isNumeric ? NumericAdmission(filter, region: region) : nil,
                     admits: { [self] event in admits(event) })
    }

    /// Which of two versions of one id stays: the later `updated`, the later
    /// row on a tie or when neither says; a version without `updated` never
    /// replaces one with it.
    package static func isNewer(_ candidate: Date?, than existing: Date?) -> Bool {
        switch (candidate, existing) {
        case let (new?, old?): return new >= old
        case (nil, _?): return false
        default: return true
        }
    }
}

/// A counting Bloom filter with one hash over ids: "no" is certain, "maybe" is
/// checked in the dictionary. With a few hundred ids in 8192 slots, about 4 %
/// of other ids get a "maybe".
struct IDFilter: Sendable {
    private var counts = [UInt32](repeating: 0, count: 8192)

    private func slot(_ id: String) -> Int { Int(FNV1a.id(id) & 8191) }

    mutating func insert(_ id: String) { counts[slot(id)] += 1 }

    mutating func remove(_ id: String) { counts[slot(id)] -= 1 }

    func mightContain(hash: UInt32) -> Bool { counts[Int(hash & 8191)] > 0 }
}
