import Foundation
#if canImport(Glibc)
import Glibc
#endif
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeWrite

/// Every selected event of a feed, most recent first, in a list format,
/// with memory bounded independent of the feed's size: what
/// `quakemap list --limit 0` writes.
///
/// Reading encodes each admitted event at once into a spool (a few MiB in
/// memory, then an unlinked temporary file) and keeps 20 bytes of it in
/// memory: its time, its version in the revision ledger and where its line
/// starts. Repeated ids are then settled (`RevisionPolicy`, over every
/// row, before the filters), the rest sorted
/// by time (radix, stable: equal times keep file order), and
/// ``write(_:)`` copies the lines in that order from the mapped spool.
/// The bytes are those `EventListEncoder` writes for the selection's
/// events.
public final class EventListSpool: @unchecked Sendable, Hashable {
    /// The format the lines are in.
    public let format: EventListFormat
    /// The columns of a CSV or JSON list.
    package let columns: EventColumns
    /// Counts and rejections from reading the feed.
    package var summary: FeedSummary { spool.summary }
    /// Rows that repeated an event id; only the latest version of each is listed.
    package var duplicates: Int { spool.duplicates }
    /// How many events are listed.
    public var count: Int { spool.count }

    private let spool: EventSpool
    /// Whether the spool went to a temporary file (for tests).
    package var isSpilled: Bool { spool.isSpilled }

    /// Whether `format` can be spooled: every list format (CSV, FDSN text, JSON, GeoJSON,
    /// QuakeML, a table).
    package static func spools(_ format: EventListFormat) -> Bool {
        EventLineEncoder.streams(format) || format == .table
    }

    /// Reads `source` and spools every event `selection` admits, once
    /// repeated ids are settled over the whole feed (``RevisionPolicy``); a
    /// limit keeps the most recent, as ``QuakeMap/select(from:feed:selection:)`` does.
    ///
    /// - Throws: ``FeedError`` as ``FeedReader`` does; ``WriteError`` when
    ///   the temporary file cannot be written.
    package init(from source: FeedSource, feed: FeedOptions = FeedOptions(), selection: EventSelection = EventSelection(limit: nil),
                format: EventListFormat, columns: EventColumns = .usgs) throws {
        precondition(Self.spools(format), "\(format) is not spooled")
        self.format = format
        self.columns = columns
        // Rows are about 100 bytes or more; a close guess saves the arrays' regrowth.
        let expectedRows = (source.byteCount ?? 0) / 110
        guard format != .table else {
            spool = try EventSpool(from: source, feed: feed, selection: selection, expectedRows: expectedRows) {
                event, bytes in TableRecord.append(EventListEncoder.tableCells(event), to: &bytes)
            }
            return
        }
        let encoder = EventLineEncoder(format: format, columns: columns)
        spool = try EventSpool(from: source, feed: feed, selection: selection, expectedRows: expectedRows) {
            event, bytes in encoder.append(event, to: &bytes)
        }
    }

    /// Spools the events `produce` hands to the function it is given, already selected and in
    /// order (a catalogue's, page by page), and keeps the summary it returns: memory stays
    /// that of one record, whatever the count.
    package init(format: EventListFormat, columns: EventColumns = .usgs,
                 produce: ((SeismicEvent) throws -> Void) async throws -> FeedSummary) async throws {
        precondition(Self.spools(format), "\(format) is not spooled")
        self.format = format
        self.columns = columns
        guard format != .table else {
            spool = try await EventSpool(produce: produce) { event, bytes in
                TableRecord.append(EventListEncoder.tableCells(event), to: &bytes)
            }
            return
        }
        let encoder = EventLineEncoder(format: format, columns: columns)
        spool = try await EventSpool(produce: produce) { event, bytes in encoder.append(event, to: &bytes) }
    }

    /// Writes the list, calling `sink` with pieces of up to a MiB in order.
    public func write(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        if format == .table { return try writeTable(sink) }
        var out = Self.piece()
        let writer = EventLineEncoder(format: format, columns: columns)
        writer.appendOpening(to: &out)
        var written = 0
        try spool.forEachRecord { line in
            writer.appendSeparator(before: written, to: &out)
            out.append(contentsOf: line)
            written += 1
            try Self.hand(&out, to: sink)
        }
        writer.appendClosing(count: count, to: &out)
        try Self.hand(&out, to: sink, atEnd: true)
    }

    /// An empty piece of output, with room for a MiB and a line.
    private static func piece() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(pieceBytes + 4096)
        return out
    }

    private static let pieceBytes = 1 << 20

    /// Hands `out` to `sink` and empties it once it holds a MiB (`atEnd`: whatever it holds).
    private static func hand(_ out: inout [UInt8], to sink: (UnsafeRawBufferPointer) throws -> Void,
                             atEnd: Bool = false) throws {
        guard atEnd || out.count >= pieceBytes else { return }
        try out.withUnsafeBytes { try sink($0) }
        out.removeAll(keepingCapacity: true)
    }

    /// A table's columns are as wide as their widest cell: one pass over the
    /// spool finds the widths (each record carries its cells' lengths), a
    /// second writes the lines, through ``EventListEncoder``'s own line maker.
    private func writeTable(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        var widths = EventListEncoder.tableHeader.map(\.count)
        spool.forEachRecord { record in
            TableRecord.forEachCell(of: record) { column, characters, _ in widths[column] = max(widths[column], characters) }
        }
        var out = Self.piece()
        for line in [EventListEncoder.tableLine(EventListEncoder.tableHeader, widths: widths),
                     EventListEncoder.tableRule(widths: widths)] {
            out.append(contentsOf: line.utf8)
            out.append(ASCII.lf)
        }
        var cells: [String] = []
        try spool.forEachRecord { record in
            cells.removeAll(keepingCapacity: true)
            TableRecord.forEachCell(of: record) { _, _, bytes in cells.append(String(decoding: bytes, as: UTF8.self)) }
            out.append(contentsOf: EventListEncoder.tableLine(cells, widths: widths).utf8)
            out.append(ASCII.lf)
            try Self.hand(&out, to: sink)
        }
        try Self.hand(&out, to: sink, atEnd: true)
    }

    /// The whole list in memory, for tests and small selections.
    public func data() throws -> Data {
        var data = Data()
        try write { data.append(contentsOf: $0) }
        return data
    }

    /// Identity: a spool is one reading of a feed.
    public static func == (lhs: EventListSpool, rhs: EventListSpool) -> Bool { lhs === rhs }

    /// Identity: a spool is one reading of a feed.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A table row as a spool record: for each cell its length in characters
/// (what the column's width counts) and in bytes (4 bytes each), then its UTF-8.
private enum TableRecord {
    package static func append(_ cells: [String], to bytes: inout [UInt8]) {
        for var cell in cells {
            withUnsafeBytes(of: UInt32(cell.count).littleEndian) { bytes.append(contentsOf: $0) }
            cell.withUTF8 { utf8 in
                withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
                bytes.append(contentsOf: utf8)
            }
        }
    }

    package static func forEachCell(of record: UnsafeRawBufferPointer, _ body: (Int, Int, UnsafeRawBufferPointer) -> Void) {
        var offset = 0, column = 0
        while offset < record.count {
            let characters = Int(UInt32(littleEndian: record.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            let length = Int(UInt32(littleEndian: record.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)))
            body(column, characters, UnsafeRawBufferPointer(rebasing: record[(offset + 8)..<(offset + 8 + length)]))
            offset += 8 + length
            column += 1
        }
    }
}

/// The selected events of a feed as records of the caller's making, in the
/// order ``EventSelection`` lists them (most recent first, equal times in
/// file order), after repeated ids are settled (``RevisionPolicy``): what
/// ``EventListSpool`` writes lines from and `stats` folds figures from,
/// with memory bounded independent of the feed's size.
///
/// Reading makes each admitted event's record at once, on the decoding
/// threads, into a spool (a few MiB in memory, then an unlinked temporary
/// file), and keeps 20 bytes of it in memory: its time, its version in the
/// ``RevisionLedger`` (where every valid row's version goes, 16 bytes a row)
/// and where it starts. Repeated ids are then settled (``RevisionPolicy``,
/// before the filters), and the rest sorted by time (radix, stable): 12
/// bytes an event stay (where it starts, its place in the order).
package struct EventSpool {
    /// Counts and rejections from reading the feed.
    package let summary: FeedSummary
    /// Rows that repeated an event id; only the latest version of each is kept.
    package let duplicates: Int
    /// How many events there are.
    public var count: Int { inOrder ?? order.count }

    private let storage: SpoolStorage
    /// Whether the spool went to a temporary file.
    package var isSpilled: Bool { storage.isSpilled }
    /// Where each record starts in the spool, and one past the last.
    private let offsets: [UInt64]
    /// The records to visit, in order.
    private let order: [UInt32]
    /// Records spooled in their order (a catalogue's), each after its length: how many. They are
    /// read back one after another, with neither offsets nor an order kept (no memory an event).
    private let inOrder: Int?

    /// Reads `source` and spools a record, made by `record` (which appends
    /// to the bytes it is given; called on several threads at once), of
    /// every event `selection` admits; a limit keeps the most recent after
    /// repeated ids are settled over the whole feed.
    ///
    /// - Throws: ``FeedError`` as ``FeedReader`` does; ``WriteError`` when
    ///   the temporary file cannot be written.
    package init(from source: FeedSource, feed: FeedOptions, selection: EventSelection, expectedRows: Int,
         record: @escaping @Sendable (SeismicEvent, inout [UInt8]) -> Void) throws {
        let storage = SpoolStorage()
        var keys: [UInt64] = [], versions: [Int32] = [], offsets: [UInt64] = []
        keys.reserveCapacity(expectedRows)
        versions.reserveCapacity(expectedRows)
        offsets.reserveCapacity(expectedRows + 1)
        // Admitted and recorded on the decoding threads, a part of a batch at a time.
        let listing = RowListing(admission: selection.rowAdmission) { event, rows in
            record(event, &rows.bytes)
            rows.ends.append(rows.bytes.count)
            rows.keys.append(Self.sortKey(event.time))
        }
        let revisions = RevisionLedger(expectedRows: expectedRows)
        summary = try FeedReader(options: feed).readListedRows(source, listing: listing, revisions: revisions) {
            rows, firstVersion in
            guard keys.count + rows.count < UInt32.max, firstVersion + rows.count < Int32.max else {
                throw WriteError.writeFailed(path: "<spool>", errno: EFBIG)
            }
            let base = storage.size
            offsets.append(base)
            for end in rows.ends.dropLast() { offsets.append(base + UInt64(end)) }
            try rows.bytes.withUnsafeBytes { try storage.append($0) }
            keys.append(contentsOf: rows.keys)
            for version in rows.versions { versions.append(version < 0 ? -1 : Int32(firstVersion) + version) }
        }
        offsets.append(storage.size)
        try storage.finish()
        self.storage = storage
        self.offsets = offsets
        let settlement = revisions.settle()
        duplicates = settlement.duplicates
        var order: [UInt32] = []
        order.reserveCapacity(keys.count)
        for index in keys.indices where settlement.stays(versions[index] < 0 ? nil : Int(versions[index])) {
            order.append(UInt32(index))
        }
        versions = []
        RadixSort.sortIndices(&order, byKeys: keys)
        if let limit = selection.limit, limit < order.count { order.removeLast(order.count - limit) }
        self.order = order
        inOrder = nil
    }

    /// Spools a record of each event `produce` hands over, kept in their order, and the summary it returns.
    package init(produce: ((SeismicEvent) throws -> Void) async throws -> FeedSummary,
                 record: @escaping (SeismicEvent, inout [UInt8]) -> Void) async throws {
        let storage = SpoolStorage()
        var count = 0, bytes: [UInt8] = []
        summary = try await produce { event in
            // Its length first, filled in once the record is made.
            bytes.removeAll(keepingCapacity: true)
            bytes.append(contentsOf: [0, 0, 0, 0])
            record(event, &bytes)
            guard let length = UInt32(exactly: bytes.count - 4) else { throw WriteError.writeFailed(path: "<spool>", errno: EFBIG) }
            withUnsafeBytes(of: length.littleEndian) { bytes.replaceSubrange(0..<4, with: $0) }
            try bytes.withUnsafeBytes { try storage.append($0) }
            count += 1
        }
        try storage.finish()
        self.storage = storage
        offsets = []
        order = []
        inOrder = count
        duplicates = 0
    }

    /// Calls `body` with each kept record (the bytes `record` made), in order.
    package func forEachRecord(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        if inOrder != nil { return try forEachRecordInOrder(body) }
        // Each fault maps a neighbourhood of the spool: a record in order finds
        // it mapped, one elsewhere maps another, so the mapping is given back
        // after a few jumps (or a few MiB in order).
        var jumps = 0, sinceRelease = 0, previousStart: UInt64 = 0, previousEnd: UInt64 = 0
        for index in order {
            let start = offsets[Int(index)], end = offsets[Int(index) + 1]
            try storage.withBytes(from: start, to: end) { try body($0) }
            // A feed oldest first is read backwards: the record before the last one is no jump either.
            if start != previousEnd && end != previousStart { jumps += 1 }
            previousStart = start
            previousEnd = end
            sinceRelease += 1
            if jumps >= 32 || sinceRelease >= 16_384 {
                storage.release()
                jumps = 0
                sinceRelease = 0
            }
        }
        storage.release()
    }

    /// ``forEachRecord(_:)`` of records spooled in order, each after its length.
    private func forEachRecordInOrder(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var start: UInt64 = 0, sinceRelease = 0
        let end = storage.size
        while start + 4 <= end {
            let length = storage.withBytes(from: start, to: start + 4) { UInt64($0.loadUnaligned(as: UInt32.self).littleEndian) }
            try storage.withBytes(from: start + 4, to: start + 4 + length) { try body($0) }
            start += 4 + length
            sinceRelease += 1
            if sinceRelease >= 16_384 {
                storage.release()
                sinceRelease = 0
            }
        }
        storage.release()
    }

    /// Ascending keys for descending times: the order ``EventSelection`` lists.
    private static func sortKey(_ time: Date) -> UInt64 {
        let bits = time.timeIntervalSince1970.bitPattern
        // IEEE order as unsigned order, then reversed.
        let ascending = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        return ~ascending
    }
}

/// The spooled records: in memory up to a few MiB, then in an unlinked
/// temporary file, mapped for reading once complete.
private final class SpoolStorage {
    private static let bufferBytes = 4 << 20
    private var buffer: [UInt8] = []
    private var descriptor: Int32 = -1
    private var written: UInt64 = 0
    private var mapped: UnsafeRawBufferPointer?
    private var path = "<spool>"

    package init() { buffer.reserveCapacity(Self.bufferBytes) }

    deinit {
        if let mapped, let base = mapped.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), mapped.count) }
        if descriptor >= 0 { close(descriptor) }
    }

    package var size: UInt64 { written + UInt64(buffer.count) }

    package var isSpilled: Bool { descriptor >= 0 }

    /// Keeps `bytes` in memory while the spool stays under the buffer's
    /// size; past it, the buffer and then `bytes` go straight to the file.
    /// Once the spool is a file, large pieces go straight there: copying
    /// them into the buffer first would be one more serial copy of the list.
    package func append(_ bytes: UnsafeRawBufferPointer) throws {
        let direct = isSpilled && bytes.count >= 1 << 16
        if !direct && buffer.count + bytes.count < Self.bufferBytes { return buffer.append(contentsOf: bytes) }
        try flush()
        try AtomicFileWriter.writeAll(bytes, to: descriptor, path: path)
        written += UInt64(bytes.count)
    }

    /// Ends writing: a spool that never left memory stays there; a file is mapped.
    package func finish() throws {
        guard descriptor >= 0 else { return }
        try flush()
        buffer = []
        guard written > 0 else { return }
        guard let base = mmap(nil, Int(written), PROT_READ, MAP_SHARED, descriptor, 0), base != MAP_FAILED else {
            throw WriteError(errno: errno, stage: .write, path: path)
        }
        mapped = UnsafeRawBufferPointer(start: base, count: Int(written))
    }

    package func withBytes<T>(from start: UInt64, to end: UInt64, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        if let mapped {
            return try body(UnsafeRawBufferPointer(rebasing: mapped[Int(start)..<Int(end)]))
        }
        return try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[Int(start)..<Int(end)])) }
    }

    /// Lets the kernel take back the mapped pages read so far (they stay in the page cache).
    package func release() {
        guard let mapped, let base = mapped.baseAddress else { return }
        madvise(UnsafeMutableRawPointer(mutating: base), mapped.count, MADV_DONTNEED)
    }

    private func flush() throws {
        if descriptor < 0 { try create() }
        try buffer.withUnsafeBytes { try AtomicFileWriter.writeAll($0, to: descriptor, path: path) }
        written += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    private func create() throws {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/quakemap-list-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard descriptor >= 0 else { throw WriteError(errno: errno, stage: .create, path: path) }
        // Unlinked at once: nothing is left behind, however the process ends.
        unlink(path)
        self.descriptor = descriptor
    }
}
