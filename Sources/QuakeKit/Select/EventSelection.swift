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
/// length streams through it.
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

    private let limit: Int?
    private let region: GeoBox?
    private let filter: EventFilter
    private var kept = Heap<Ranked>()
    private var all: [Ranked] = []
    private var offered = 0

    /// Creates an accumulator keeping at most `limit` events (`nil`: all).
    public init(limit: Int?) {
        self.init(selection: EventSelection(limit: limit))
    }

    /// Creates an accumulator for a selection's limit and region.
    public init(selection: EventSelection) {
        self.limit = selection.limit
        self.region = selection.region
        self.filter = selection.filter
    }

    /// Considers one event; events without a magnitude, outside the region, or
    /// failing the filter are passed over.
    public mutating func offer(_ event: SeismicEvent) {
        guard event.magnitude != nil else { return }
        if let region, !region.contains(latitude: event.latitude, longitude: event.longitude) { return }
        guard filter.matches(event) else { return }
        let ranked = Ranked(event: event, order: offered)
        offered += 1
        guard let limit else {
            all.append(ranked)
            return
        }
        guard limit > 0 else { return }
        if kept.count < limit {
            kept.insert(ranked)
        } else if let weakest = kept.min, weakest < ranked {
            kept.replaceMin(with: ranked)
        }
    }

    /// The events kept, most recent first; equal times in the order offered.
    public func result() -> [SeismicEvent] {
        let ranked = limit == nil ? all : Array(kept.unordered)
        return ranked.sorted(by: >).map(\.event)
    }
}
