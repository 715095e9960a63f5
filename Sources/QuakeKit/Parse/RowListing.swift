import Foundation

/// How a list's read records the events it admits
/// (``FeedReader/readListedRows(_:listing:_:)``), on the decoding threads:
/// each thread admits and records its own rows, so the hand-over, which is
/// serial, only copies bytes. The spool builds it from the selection and its
/// line encoder and hands it in, so reading names neither.
struct RowListing: Sendable {
    /// Which valid rows are listed: the bounds alone when they decide (no
    /// event is made for a row they refuse), else `admits` per event.
    let admission: RowAdmission
    /// Appends an admitted event's record to `rows` (its bytes, then one
    /// `end`, `key` and `tag`). Called on several threads at once, each
    /// with its own `rows`.
    let record: @Sendable (SeismicEvent, inout ListedRows) -> Void
}

/// The records of admitted rows, in row order: their bytes end to end, and
/// for each where it ends in `bytes` and the two numbers the lister keeps
/// in memory (for the spool, a sort key and an id hash).
struct ListedRows {
    var bytes: [UInt8] = []
    var ends: [Int] = []
    var keys: [UInt64] = []
    var tags: [UInt32] = []

    /// How many records there are.
    var count: Int { ends.count }

    /// Empties the arrays; their storage stays for the next batch.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        tags.removeAll(keepingCapacity: true)
    }
}
