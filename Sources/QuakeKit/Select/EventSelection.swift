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
        let ranked = Ranked(event: event, order: offered)
        offered += 1
        if !event.id.isEmpty, let existing = current[event.id] {
            duplicates += 1
            guard EventSelection.isNewer(event.updated, than: existing.updated) else { return }
            superseded.insert(existing.order)
            current[event.id] = nil
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
            if current[removed.event.id]?.order == removed.order { current[removed.event.id] = nil }
            remember(ranked)
        }
    }

    /// The events kept, most recent first; equal times in the order offered.
    public func result() -> [SeismicEvent] {
        let ranked = selection.limit == nil ? all : Array(kept.unordered)
        return ranked.filter { !superseded.contains($0.order) }.sorted(by: >).map(\.event)
    }

    private mutating func remember(_ ranked: Ranked) {
        if !ranked.event.id.isEmpty { current[ranked.event.id] = (ranked.order, ranked.event.updated) }
    }

    /// Drops replaced versions from the bottom of the heap, so they never hold a place.
    private mutating func purgeSuperseded() {
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
        guard event.magnitude != nil else { return false }
        if let region, !region.contains(latitude: event.latitude, longitude: event.longitude) { return false }
        return filter.matches(event)
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
