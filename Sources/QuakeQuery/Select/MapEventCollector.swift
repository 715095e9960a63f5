import Foundation
import QuakeModel
import QuakeParse

/// Keeps every event the reader's selection admitted, reduced to a
/// ``MapEvent`` (``FeedReader/readMapRows(_:admitting:revisions:_:)``): the no-limit
/// selection of a map, in a quarter of the memory of keeping ``SeismicEvent`` values.
///
/// Repeated ids follow ``RevisionPolicy``, settled over every valid row
/// before the filters: the reader records every row's version in a
/// ``RevisionLedger``, and ``finish(_:)`` keeps an admitted event only if its
/// version is the one that stays.
package struct MapEventCollector {
    private var events: [MapEvent] = []
    /// Each kept event's version in the ledger, -1 for none; parallel to `events`.
    private var versions: [Int32] = []
    /// Id and place of the largest events, for labels: rows bring a place
    /// only when they may be among them (``EventDecoder/MapRow/place``).
    private var largest = PlaceCandidates()

    /// Event id → place of the largest events seen.
    package var places: [String: String] { largest.places }

    /// A collector with room for about `expectedRows` events, so a big
    /// feed's arrays are made once instead of doubled into fresh memory as
    /// they grow (half of what a million events touch). Room never used
    /// costs address space, not memory.
    package init(expectedRows: Int = 0) {
        events.reserveCapacity(expectedRows)
        versions.reserveCapacity(expectedRows)
    }

    /// Adds `rows`, which come after every row added before; a row's version
    /// in the ledger is `firstVersion` plus its own.
    package mutating func append(_ rows: [EventDecoder.MapRow], firstVersion: Int) {
        precondition(firstVersion + rows.count < Int(Int32.max), "more than 2^31 versions")
        for row in rows {
            if let place = row.place {
                largest.offer(magnitude: row.event.magnitude, time: row.event.time, (row.event.id, place))
            }
            events.append(row.event)
            versions.append(row.version < 0 ? -1 : Int32(firstVersion) + row.version)
        }
    }

    /// The kept events in the order they came, less those another version
    /// replaces, and how many rows repeated an id.
    package mutating func finish(_ settlement: RevisionLedger.Settlement) -> (events: [MapEvent], duplicates: Int) {
        defer { versions = [] }
        var kept = 0
        for index in events.indices where settlement.stays(versions[index] < 0 ? nil : Int(versions[index])) {
            if kept != index { events[kept] = events[index] }
            kept += 1
        }
        events.removeSubrange(kept...)
        return (events, settlement.duplicates)
    }
}
