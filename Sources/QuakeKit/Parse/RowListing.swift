import Foundation

/// How a list's read records the events it admits
/// (``FeedReader/readListedRows(_:listing:revisions:_:)``), on the decoding threads:
/// each thread admits and records its own rows, so the hand-over, which is
/// serial, only copies bytes. The spool builds it from the selection and its
/// line encoder and hands it in, so reading names neither.
struct RowListing: Sendable {
    /// Which valid rows are listed: the bounds alone when they decide (no
    /// event is made for a row they refuse), else `admits` per event.
    let admission: RowAdmission
    /// Appends an admitted event's record to `rows` (its bytes, then one
    /// `end` and `key`). Called on several threads at once, each with its
    /// own `rows`; the reader adds the row's version.
    let record: @Sendable (SeismicEvent, inout ListedRows) -> Void
}

/// The records of admitted rows, in row order: their bytes end to end, and
/// for each where it ends in `bytes`, the number the lister keeps in memory
/// (for the spool, a sort key) and the row's version (in the part that
/// decoded it until the hand-over, then in the ``RevisionLedger``; -1 for none).
struct ListedRows {
    var bytes: [UInt8] = []
    var ends: [Int] = []
    var keys: [UInt64] = []
    var versions: [Int32] = []

    /// How many records there are.
    var count: Int { ends.count }

    /// Empties the arrays; their storage stays for the next batch.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        versions.removeAll(keepingCapacity: true)
    }
}
