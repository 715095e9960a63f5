/// Finds the records of a line-oriented text format in windows of bytes:
/// ``CSVScanner`` for the comma-separated feeds, ``PipeScanner`` for the FDSN
/// event text format. Both fill a ``CSVBatch`` with field slices, so one
/// ``EventDecoder`` judges the rows of either.
///
/// Every window starts at a record boundary (``ChunkReader`` carries an
/// incomplete last record over); only the line number crosses windows.

package protocol RecordScanner: AnyObject {
    /// The source's display name, for errors.
    var sourceName: String { get }
    /// Longest record accepted.
    var maximumRecordBytes: Int { get }
    /// The physical line the next window starts on.
    var line: Int { get }

    init(sourceName: String, maximumRecordBytes: Int)

    /// Goes on from `line`, in the middle of a stream (no byte order mark).
    func restart(line: Int)

    /// Scans `window` into `batch` (emptied first): every record that ends
    /// with a line break, and, when `isLast`, the one the input ends in; at
    /// most `limit` records.
    ///
    /// - Returns: how many bytes were used up: the start of the first
    ///   incomplete record, which the next window must begin with.
    func scan(_ window: UnsafeRawBufferPointer, isLast: Bool, limit: Int, into batch: inout CSVBatch) throws -> Int
}

extension RecordScanner {
    /// Scans every record of `window` (see ``scan(_:isLast:limit:into:)``).
    package func scan(_ window: UnsafeRawBufferPointer, isLast: Bool, into batch: inout CSVBatch) throws -> Int {
        try scan(window, isLast: isLast, limit: .max, into: &batch)
    }
}
