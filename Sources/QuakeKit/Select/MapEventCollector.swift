import Foundation

/// Keeps every event the reader's selection admitted, reduced to a
/// ``MapEvent`` (``FeedReader/readMapRows(_:admitting:_:)``): the no-limit
/// selection of a map, in a quarter of the memory of keeping ``SeismicEvent`` values.
///
/// Repeated ids follow ``MostRecentAccumulator``'s rule: the version with the
/// latest `updated` stays (the later row on a tie, or when neither has one).
/// They are found once all events are in, by sorting (id hash, row) keys,
/// rather than by a hash table probed per row: with a million ids such a
/// table is far larger than the caches, and every probe was a cache miss.
struct MapEventCollector {
    private var events: [MapEvent] = []
    // `updated` of each kept event in seconds, NaN for none (8 bytes, not
    // an optional's 16); parallel to `events`.
    private var updated: [Double] = []
    // Id hash in the high half, row in the low half, for rows with an id.
    private var keys: [UInt64] = []
    /// Id and place of the largest events, for labels: rows bring a place
    /// only when they may be among them (``EventDecoder/MapRow/place``).
    private var largest = PlaceCandidates()

    /// Event id → place of the largest events seen.
    var places: [String: String] { largest.places }

    /// A collector with room for about `expectedRows` events, so a big
    /// feed's arrays are made once instead of doubled into fresh memory as
    /// they grow (half of what a million events touch). Room never used
    /// costs address space, not memory.
    init(expectedRows: Int = 0) {
        events.reserveCapacity(expectedRows)
        updated.reserveCapacity(expectedRows)
        keys.reserveCapacity(expectedRows)
    }

    /// Adds `rows`, which come after every row added before.
    mutating func append(_ rows: [EventDecoder.MapRow]) {
        precondition(events.count + rows.count < Int(UInt32.max), "more than 2^32 events")
        for row in rows {
            if let hash = row.idHash { keys.append(UInt64(hash) << 32 | UInt64(events.count)) }
            if let place = row.place {
                largest.offer(magnitude: row.event.magnitude, time: row.event.time, (row.event.id, place))
            }
            events.append(row.event)
            updated.append(row.updated)
        }
    }

    /// The kept events in the order they came, and how many rows repeated an id.
    mutating func finish() -> (events: [MapEvent], duplicates: Int) {
        RadixSort.sortByHighHalf(&keys)
        var dropped: [Bool] = []
        var duplicates = 0
        var start = 0
        while start < keys.count {
            var end = start + 1
            while end < keys.count && keys[end] >> 32 == keys[start] >> 32 { end += 1 }
            if end - start > 1 {
                if dropped.isEmpty { dropped = Array(repeating: false, count: events.count) }
                duplicates += resolve(keys[start..<end].map { Int($0 & 0xFFFF_FFFF) }, dropped: &dropped)
            }
            start = end
        }
        keys = []
        updated = []
        guard !dropped.isEmpty else { return (events, duplicates) }
        var kept = 0
        for index in events.indices where !dropped[index] {
            events[kept] = events[index]
            kept += 1
        }
        events.removeSubrange(kept...)
        return (events, duplicates)
    }

    /// Applies the repeated-id rule to rows (in row order) whose ids share a
    /// hash, marking the versions that do not stay; returns the repeats.
    private func resolve(_ rows: [Int], dropped: inout [Bool]) -> Int {
        var repeats = 0
        var pending = rows
        // Rows with the same hash usually share the id too; a collision leaves some for the next round.
        while let first = pending.first {
            var current = first
            var others: [Int] = []
            for row in pending.dropFirst() {
                guard events[row].id == events[first].id else {
                    others.append(row)
                    continue
                }
                repeats += 1
                if EventSelection.isNewer(date(updated[row]), than: date(updated[current])) {
                    dropped[current] = true
                    current = row
                } else {
                    dropped[row] = true
                }
            }
            pending = others
        }
        return repeats
    }

    private func date(_ seconds: Double) -> Date? {
        seconds.isNaN ? nil : Date(timeIntervalSinceReferenceDate: seconds)
    }
}
