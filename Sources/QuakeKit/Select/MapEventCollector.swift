import Foundation

/// Keeps every event that passes the selection's region and filter, reduced
/// to a ``MapEvent``: the no-limit selection of a map, in a quarter of the
/// memory of keeping ``SeismicEvent`` values.
///
/// Repeated ids follow ``MostRecentAccumulator``'s rule: the version with the
/// latest `updated` stays (the later row on a tie, or when neither has one).
/// Ids are found again through an open-addressing table of indices into the
/// kept events: 4 bytes a slot instead of a dictionary's copy of every id.
struct MapEventCollector {
    private let selection: EventSelection
    private(set) var events: [MapEvent] = []
    // `updated` of each kept event in seconds, NaN for none (8 bytes, not
    // an optional's 16); parallel to `events`.
    private var updated: [Double] = []
    private var superseded: [Bool] = []
    // Each kept event's id hash, so growing the table hashes nothing again.
    private var hashes: [UInt32] = []
    private var slots: [Int32] = Array(repeating: -1, count: 1024)
    private var indexed = 0
    private(set) var duplicates = 0
    private var supersededCount = 0

    init(selection: EventSelection) {
        self.selection = selection
    }

    mutating func offer(_ event: SeismicEvent) {
        guard selection.admits(event), let drawn = MapEvent(event) else { return }
        let stamp = event.updated?.timeIntervalSinceReferenceDate ?? .nan
        guard !event.id.isEmpty else {
            append(drawn, stamp)
            return
        }
        let hash = Self.hash(event.id)
        let slot = findSlot(event.id, hash: hash)
        let existing = Int(slots[slot])
        guard existing >= 0 else {
            slots[slot] = Int32(events.count)
            append(drawn, stamp, hash: hash)
            indexed += 1
            if indexed * 2 > slots.count { grow() }
            return
        }
        duplicates += 1
        let old = updated[existing]
        guard EventSelection.isNewer(event.updated, than: old.isNaN ? nil : Date(timeIntervalSinceReferenceDate: old)) else {
            return
        }
        superseded[existing] = true
        supersededCount += 1
        slots[slot] = Int32(events.count)
        append(drawn, stamp, hash: hash)
    }

    /// The kept events in the order they came.
    func result() -> [MapEvent] {
        guard supersededCount > 0 else { return events }
        return zip(events, superseded).compactMap { $1 ? nil : $0 }
    }

    private mutating func append(_ event: MapEvent, _ stamp: Double, hash: UInt32 = 0) {
        precondition(events.count < Int(Int32.max), "more than 2^31 events")
        events.append(event)
        updated.append(stamp)
        superseded.append(false)
        hashes.append(hash)
    }

    /// FNV-1a: ids are short ASCII, and an unseeded hash is fine for a table
    /// whose worst case is a slow run, not a wrong one.
    private static func hash(_ id: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in id.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }

    /// The slot holding `id`, or the empty slot where it would go (linear probing).
    private func findSlot(_ id: String, hash: UInt32) -> Int {
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while true {
            let index = Int(slots[slot])
            if index < 0 || (hashes[index] == hash && events[index].id == id) { return slot }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        var bigger = [Int32](repeating: -1, count: slots.count * 2)
        let mask = bigger.count - 1
        for index in slots where index >= 0 {
            var slot = Int(hashes[Int(index)]) & mask
            while bigger[slot] >= 0 { slot = (slot + 1) & mask }
            bigger[slot] = index
        }
        slots = bigger
    }
}
