import Foundation

/// The largest events seen so far, at most `capacity` of them, each with a
/// payload (its id and place): the candidates for a map's labels, kept while
/// a feed streams past so that a million rows cost one comparison each.
///
/// Larger magnitude ranks first; among equal magnitudes the more recent; then
/// the one offered first.
package struct LargestEvents<Payload> {
    /// How many candidates readers keep: more than a map labels
    /// (`MapOptions.maximumLabelCount`), so a few repeated ids among them do
    /// not leave a labelled event without its place.
    package static var candidateCount: Int { 64 }

    package struct Entry {
        package let magnitude: Double
        package let time: Date
        package let order: Int
        package let payload: Payload
    }

    package let capacity: Int
    /// Best first.
    package private(set) var entries: [Entry] = []
    private var offered = 0
    /// What an event offered next must outrank to be kept, kept up to date by ``offer(magnitude:time:_:)``.
    /// A stored value of a non-generic type, so that a reader in another module asks it for every row
    /// without calling into this generic type (unspecialised there, each call looked up `Entry`'s metadata).
    package private(set) var threshold: LargestEventsThreshold

    package init(capacity: Int = candidateCount) {
        self.capacity = max(0, capacity)
        threshold = capacity > 0 ? .any : .none
    }

    /// Whether `a` ranks above `b`.
    package static func ranks(_ a: (magnitude: Double, time: Date, order: Int), above b: (magnitude: Double, time: Date, order: Int)) -> Bool {
        LargestEventsThreshold.ranks(a, above: b)
    }

    /// Whether an event of this magnitude and time, offered next, would be kept:
    /// asked before making its payload.
    package func wouldKeep(magnitude: Double, time: Date) -> Bool {
        threshold.admits(magnitude: magnitude, time: time)
    }

    /// Offers an event; kept if it ranks among the `capacity` largest so far.
    package mutating func offer(magnitude: Double, time: Date, _ payload: @autoclosure () -> Payload) {
        defer {
            offered += 1
            if entries.count >= capacity, let last = entries.last {
                threshold = .rank(magnitude: last.magnitude, time: last.time, order: last.order, next: offered)
            }
        }
        guard wouldKeep(magnitude: magnitude, time: time) else { return }
        let key = (magnitude, time, offered)
        // Few entries: a linear search for the slot is as quick as any.
        let slot = entries.firstIndex { !Self.ranks(($0.magnitude, $0.time, $0.order), above: key) } ?? entries.count
        entries.insert(Entry(magnitude: magnitude, time: time, order: offered, payload: payload()), at: slot)
        if entries.count > capacity { entries.removeLast() }
    }
}

extension LargestEvents where Payload == (id: String, place: String) {
    /// Event id → place of the kept events with both; of repeated ids the
    /// later offered.
    package var places: [String: String] {
        var places: [String: String] = [:]
        for entry in entries.sorted(by: { $0.order < $1.order }) where !entry.payload.id.isEmpty && !entry.payload.place.isEmpty {
            places[entry.payload.id] = entry.payload.place
        }
        return places
    }

    /// The places of the largest of `events` (see ``places``).
    package static func places(of events: [SeismicEvent]) -> [String: String] {
        var largest = LargestEvents()
        for event in events {
            guard let magnitude = event.magnitude else { continue }
            largest.offer(magnitude: magnitude, time: event.time, (event.id, event.place))
        }
        return largest.places
    }
}

/// The label candidates a reader keeps: id and place of the largest events.
package typealias PlaceCandidates = LargestEvents<(id: String, place: String)>

/// ``LargestEvents/wouldKeep(magnitude:time:)``'s answer, held as a value: the rank to beat.
package enum LargestEventsThreshold: Sendable {
    /// Nothing is kept (a capacity of 0).
    case none
    /// Anything is kept (fewer than the capacity so far).
    case any
    /// The last kept event's rank, and the order the next offered one would get.
    case rank(magnitude: Double, time: Date, order: Int, next: Int)

    /// Whether an event of this magnitude and time, offered next, would be kept.
    @inline(__always)
    package func admits(magnitude: Double, time: Date) -> Bool {
        switch self {
        case .none: false
        case .any: true
        case .rank(let lastMagnitude, let lastTime, let order, let next):
            Self.ranks((magnitude, time, next), above: (lastMagnitude, lastTime, order))
        }
    }

    /// Whether `a` ranks above `b`: larger magnitude, then more recent, then offered first.
    package static func ranks(_ a: (magnitude: Double, time: Date, order: Int), above b: (magnitude: Double, time: Date, order: Int)) -> Bool {
        if a.magnitude != b.magnitude { return a.magnitude > b.magnitude }
        if a.time != b.time { return a.time > b.time }
        return a.order < b.order
    }
}
