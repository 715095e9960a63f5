import Foundation

/// The repeated-id rule, in one place. A feed may list an event id more than
/// once (a revision, or two feeds read as one); the versions are one event:
/// the one with the latest `updated` stays, the later row when their
/// `updated` are equal or neither has one, and a version without `updated`
/// never replaces one that has it.
///
/// The rule is settled over every valid row of the input *before* any filter
/// applies: a revision that moves an event out of a box takes it out of the
/// box, however the older version lies. Every path that selects events (maps,
/// lists and statistics, with or without a limit, streamed or kept, and the
/// server's catalogue) calls this one rule.
package enum RevisionPolicy {
    /// Whether a version with `candidate` as its `updated`, coming after one
    /// with `existing`, replaces it.
    package static func isNewer(_ candidate: Date?, than existing: Date?) -> Bool {
        switch (candidate, existing) {
        case let (new?, old?): return new >= old
        case (nil, _?): return false
        default: return true
        }
    }

    /// `events` (in input order) less the versions another one replaces, in their order.
    package static func settled(_ events: [SeismicEvent]) -> [SeismicEvent] {
        let ledger = RevisionLedger(expectedRows: events.count)
        let versions = events.map { ledger.record(id: $0.id, updated: $0.updated) }
        let settlement = ledger.settle()
        return zip(events, versions).compactMap { settlement.stays($1) ? $0 : nil }
    }

    /// ``isNewer(_:than:)`` in SQL, for a database that settles versions
    /// itself: `candidate` and `existing` name columns of `updated` (NULL for
    /// none). Tested against the Swift rule in both catalogue databases.
    package static func sqlIsNewer(_ candidate: String, than existing: String) -> String {
        "(\(existing) IS NULL OR \(candidate) >= \(existing))"
    }

    /// ``isNewer(_:than:)`` on `updated` in seconds, NaN for none.
    @inline(__always)
    package static func isNewer(_ candidate: Double, than existing: Double) -> Bool {
        if existing.isNaN { return true }
        return !candidate.isNaN && candidate >= existing
    }
}

/// Every version a read met: for each valid row with an id, in row order, its
/// id's 64-bit hash and its `updated` (16 bytes a row). Readers record into
/// it (``FeedReader``) whatever the filters say of the row; once the input is
/// read, ``settle()`` applies ``RevisionPolicy`` to all of them, and a
/// selection keeps an admitted row only if its version is the one that stays.
///
/// Ids are told apart by their 64-bit FNV-1a hash: two different ids of a
/// million share one with a chance of about 3·10⁻⁸.
package final class RevisionLedger {
    private var keys: [UInt64] = []
    /// `updated` in seconds since 1970, NaN for none; parallel to `keys`.
    private var updated: [Double] = []

    /// A ledger with room for about `expectedRows` versions.
    package init(expectedRows: Int = 0) {
        keys.reserveCapacity(expectedRows)
        updated.reserveCapacity(expectedRows)
    }

    /// The version of the event a reader is handing over (`nil`: it has no id).
    package var current: Int?

    /// How many versions there are; the next one recorded gets this number.
    package var count: Int { keys.count }

    /// Records a version and returns its number.
    @discardableResult
    package func record(key: UInt64, updated: Double) -> Int {
        keys.append(key)
        self.updated.append(updated)
        return keys.count - 1
    }

    /// Records `id`'s version; `nil` (nothing recorded) for an event without an id.
    @discardableResult
    package func record(id: String, updated: Date?) -> Int? {
        guard !id.isEmpty else { return nil }
        return record(key: Self.key(id), updated: updated?.timeIntervalSince1970 ?? .nan)
    }

    /// Records versions a decoding thread made, in row order; their numbers start at the returned one.
    package func record(keys: [UInt64], updated: [Double]) -> Int {
        let first = self.keys.count
        self.keys.append(contentsOf: keys)
        self.updated.append(contentsOf: updated)
        return first
    }

    /// The key of an id: its 64-bit FNV-1a hash.
    package static func key(_ id: String) -> UInt64 {
        var id = id
        return id.withUTF8 { key(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// ``key(_:)`` of an id still in the feed's bytes.
    package static func key(bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = FNV1a()
        hash.mix(bytes: bytes)
        return hash.value
    }

    /// The outcome of the rule over every version.
    package struct Settlement: Sendable {
        /// One flag per version: `true` where another version of its id stays.
        private let replaced: [Bool]
        /// How many versions repeated an id met before.
        package let duplicates: Int

        package init(replaced: [Bool], duplicates: Int) {
            self.replaced = replaced
            self.duplicates = duplicates
        }

        /// Whether the version numbered `version` stays (`nil`, an event without an id, always does).
        package func stays(_ version: Int?) -> Bool {
            guard let version, !replaced.isEmpty else { return true }
            return !replaced[version]
        }
    }

    /// Which of `candidates` (version numbers) stay, and how many versions
    /// repeated an id: the rule applied to the candidates' ids alone, in one
    /// pass over the ledger, which then counts the repeats by sorting its
    /// keys in place. For a selection of a few hundred of a million rows:
    /// it needs no memory beyond the ledger's, which it empties.
    package func settle(candidates: [Int]) -> (staying: Set<Int>, duplicates: Int) {
        var winners: [UInt64: Int] = [:]
        for candidate in candidates { winners[keys[candidate]] = -1 }
        for version in keys.indices {
            guard let winner = winners[keys[version]] else { continue }
            if winner < 0 || RevisionPolicy.isNewer(updated[version], than: updated[winner]) { winners[keys[version]] = version }
        }
        let staying = Set(candidates.filter { winners[keys[$0]] == $0 })
        updated = []
        RadixSort.sortValues(&keys)
        var duplicates = 0
        for index in keys.indices.dropFirst() where keys[index] == keys[index - 1] { duplicates += 1 }
        keys = []
        return (staying, duplicates)
    }

    /// Applies ``RevisionPolicy`` to every version. Versions are sorted by
    /// their key folded to 32 bits, with the version number beside it (one
    /// radix sort of 64-bit words, which stays in the caches' favour); a run
    /// of one folded key holds one id or, rarely, a few, told apart by the
    /// whole key, and of each id one version stays.
    package func settle() -> Settlement {
        guard keys.count > 1 else { return Settlement(replaced: [], duplicates: 0) }
        precondition(keys.count < Int(UInt32.max), "more than 2^32 versions")
        var packed = [UInt64](repeating: 0, count: keys.count)
        for (version, key) in keys.enumerated() {
            packed[version] = UInt64(UInt32(truncatingIfNeeded: key ^ key >> 32)) << 32 | UInt64(version)
        }
        RadixSort.sortByHighHalf(&packed)
        var replaced: [Bool] = []
        var duplicates = 0
        var start = 0
        while start < packed.count {
            var end = start + 1
            while end < packed.count && packed[end] >> 32 == packed[start] >> 32 { end += 1 }
            if end - start > 1 {
                if replaced.isEmpty { replaced = [Bool](repeating: false, count: keys.count) }
                duplicates += settleRun(packed[start..<end].map { Int($0 & 0xFFFF_FFFF) }, replaced: &replaced)
            }
            start = end
        }
        return Settlement(replaced: replaced, duplicates: duplicates)
    }

    /// Settles versions (in row order) whose keys fold alike, id by id; returns the repeats.
    private func settleRun(_ versions: [Int], replaced: inout [Bool]) -> Int {
        var repeats = 0
        var pending = versions
        while let first = pending.first {
            var kept = first
            var others: [Int] = []
            for version in pending.dropFirst() {
                guard keys[version] == keys[first] else {
                    others.append(version)
                    continue
                }
                repeats += 1
                if RevisionPolicy.isNewer(updated[version], than: updated[kept]) {
                    replaced[kept] = true
                    kept = version
                } else {
                    replaced[version] = true
                }
            }
            pending = others
        }
        return repeats
    }
}
