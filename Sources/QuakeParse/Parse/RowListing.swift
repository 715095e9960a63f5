import Foundation
import QuakeModel

/// How a list's read records the events it admits
/// (``FeedReader/readListedRows(_:listing:revisions:_:)``), on the decoding threads:
/// each thread admits and records its own rows, so the hand-over, which is
/// serial, only copies bytes. The spool builds it from the selection and its
/// line encoder and hands it in, so reading names neither.
package struct RowListing: Sendable {
    /// Which valid rows are listed: the bounds alone when they decide (no
    /// event is made for a row they refuse), else `admits` per event.
    package let admission: RowAdmission
    /// Appends an admitted event's record to `rows` (its bytes, then one
    /// `end` and `key`). Called on several threads at once, each with its
    /// own `rows`; the reader adds the row's version.
    package let record: @Sendable (SeismicEvent, inout ListedRows) -> Void

    package init(admission: RowAdmission, record: @escaping @Sendable (SeismicEvent, inout ListedRows) -> Void) {
        self.admission = admission
        self.record = record
    }
}

/// The records of admitted rows, in row order: their bytes end to end, and
/// for each where it ends in `bytes`, the number the lister keeps in memory
/// (for the spool, a sort key) and the row's version (in the part that
/// decoded it until the hand-over, then in the ``RevisionLedger``; -1 for none).
package struct ListedRows {
    package var bytes: [UInt8] = []
    package var ends: [Int] = []
    package var keys: [UInt64] = []
    package var versions: [Int32] = []

    /// How many records there are.
    package var count: Int { ends.count }

    /// Empties the arrays; their storage stays for the next batch.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        versions.removeAll(keepingCapacity: true)
    }
}
