import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Every selected event of a feed, most recent first, in a list format,
/// with memory bounded independent of the feed's size: what
/// `quakemap list --limit 0` writes.
///
/// Reading encodes each admitted event at once into a spool (a few MiB in
/// memory, then an unlinked temporary file) and keeps 20 bytes of it in
/// memory: its time, its id's 32-bit hash (0 for no id: the low bit is
/// always set otherwise) and where its line starts. Repeated ids
/// are then settled as ``EventSelection`` settles them (the later `updated`
/// wins; a hash match is confirmed on the ids themselves), the rest sorted
/// by time (radix, stable: equal times keep file order), and
/// ``write(_:)`` copies the lines in that order from the mapped spool.
/// The bytes are those ``EventListEncoder`` writes for the selection's
/// events.
public final class EventListSpool: @unchecked Sendable, Hashable {
    /// The format the lines are in.
    public let format: EventListFormat
    /// Counts and rejections from reading the feed.
    public var summary: FeedSummary { spool.summary }
    /// Rows that repeated an event id; only the latest version of each is listed.
    public var duplicates: Int { spool.duplicates }
    /// How many events are listed.
    public var count: Int { spool.count }

    private let spool: EventSpool
    /// Whether the spool went to a temporary file (for tests).
    var isSpilled: Bool { spool.isSpilled }

    /// Whether `format` can be spooled (CSV, FDSN text, JSON, GeoJSON, a
    /// table); QuakeML is written whole by ``EventListEncoder``.
    public static func spools(_ format: EventListFormat) -> Bool {
        EventLineEncoder.streams(format) || format == .table
    }

    /// Reads `source` and spools every event `selection` admits; a limit
    /// keeps the most recent after repeated ids are settled over the whole
    /// feed. (``EventSelection`` with a limit settles them among the events
    /// it keeps, so when an old version has already left those, a later,
    /// not newer, version can stay there and not here.) `list` spools only
    /// without a limit, where the two agree.
    ///
    /// - Throws: ``FeedError`` as ``FeedReader`` does; ``WriteError`` when
    ///   the temporary file cannot be written.
    public init(from source: FeedSource, feed: FeedOptions = FeedOptions(), selection: EventSelection = EventSelection(limit: nil),
                format: EventListFormat) throws {
        precondition(Self.spools(format), "\(format) is not spooled")
        self.format = format
        // Rows are about 100 bytes or more; a close guess saves the arrays' regrowth.
        let expectedRows = (source.byteCount ?? 0) / 110
        guard format != .table else {
            spool = try EventSpool(from: source, feed: feed, selection: selection, expectedRows: expectedRows) {
                event, bytes in TableRecord.append(EventListEncoder.tableCells(event), to: &bytes)
            }
            return
        }
        let encoder = EventLineEncoder(format: format)
        spool = try EventSpool(from: source, feed: feed, selection: selection, expectedRows: expectedRows) {
            event, bytes in encoder.append(event, to: &bytes)
        }
    }

    /// Writes the list, calling `sink` with pieces of up to a MiB in order.
    public func write(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        if format == .table { return try writeTable(sink) }
        var out = Self.piece()
        let writer = EventLineEncoder(format: format)
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
    static func append(_ cells: [String], to bytes: inout [UInt8]) {
        for var cell in cells {
            withUnsafeBytes(of: UInt32(cell.count).littleEndian) { bytes.append(contentsOf: $0) }
            cell.withUTF8 { utf8 in
                withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
                bytes.append(contentsOf: utf8)
            }
        }
    }

    static func forEachCell(of record: UnsafeRawBufferPointer, _ body: (Int, Int, UnsafeRawBufferPointer) -> Void) {
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
/// file order), after repeated ids are settled as it settles them: what
/// ``EventListSpool`` writes lines from and `stats` folds figures from,
/// with memory bounded independent of the feed's size.
///
/// Reading makes each admitted event's record at once, on the decoding
/// threads, into a spool (a few MiB in memory, then an unlinked temporary
/// file), and keeps 20 bytes of it in memory: its time, its id's 32-bit
/// hash (0 for no id: the low bit is always set otherwise) and where it
/// starts. Repeated ids are then settled (the later `updated` wins; a hash
/// match is confirmed on the ids themselves), the hashes dropped, and the
/// rest sorted by time (radix, stable): 12 bytes an event stay (where it
/// starts, its place in the order).
struct EventSpool {
    /// Counts and rejections from reading the feed.
    let summary: FeedSummary
    /// Rows that repeated an event id; only the latest version of each is kept.
    let duplicates: Int
    /// How many events there are.
    var count: Int { order.count }

    private let storage: SpoolStorage
    /// Whether the spool went to a temporary file.
    var isSpilled: Bool { storage.isSpilled }
    /// Where each record starts in the spool, and one past the last.
    private let offsets: [UInt64]
    /// The records to visit, in order.
    private let order: [UInt32]

    /// Reads `source` and spools a record, made by `record` (which appends
    /// to the bytes it is given; called on several threads at once), of
    /// every event `selection` admits; a limit keeps the most recent after
    /// repeated ids are settled over the whole feed.
    ///
    /// - Throws: ``FeedError`` as ``FeedReader`` does; ``WriteError`` when
    ///   the temporary file cannot be written.
    init(from source: FeedSource, feed: FeedOptions, selection: EventSelection, expectedRows: Int,
         record: @escaping @Sendable (SeismicEvent, inout [UInt8]) -> Void) throws {
        let storage = SpoolStorage()
        var keys: [UInt64] = [], hashes: [UInt32] = [], offsets: [UInt64] = []
        keys.reserveCapacity(expectedRows)
        hashes.reserveCapacity(expectedRows)
        offsets.reserveCapacity(expectedRows + 1)
        // Admitted and recorded on the decoding threads, a part of a batch at a time.
        let listing = RowListing(admission: selection.rowAdmission) { event, rows in
            Self.appendHeader(of: event, to: &rows.bytes)
            record(event, &rows.bytes)
            rows.ends.append(rows.bytes.count)
            rows.keys.append(Self.sortKey(event.time))
            rows.tags.append(event.id.isEmpty ? 0 : FNV1a.id(event.id) | 1)
        }
        summary = try FeedReader(options: feed).readListedRows(source, listing: listing) { rows in
            guard keys.count + rows.count < UInt32.max else {
                throw WriteError.writeFailed(path: "<spool>", errno: EFBIG)
            }
            let base = storage.size
            offsets.append(base)
            for end in rows.ends.dropLast() { offsets.append(base + UInt64(end)) }
            try rows.bytes.withUnsafeBytes { try storage.append($0) }
            keys.append(contentsOf: rows.keys)
            hashes.append(contentsOf: rows.tags)
        }
        offsets.append(storage.size)
        try storage.finish()
        self.storage = storage
        self.offsets = offsets
        var dropped = [Bool](repeating: false, count: keys.count)
        duplicates = try Self.settleRepeatedIDs(hashes: &hashes, dropped: &dropped, storage: storage, offsets: offsets)
        var order: [UInt32] = []
        order.reserveCapacity(keys.count)
        for index in keys.indices where !dropped[index] { order.append(UInt32(index)) }
        dropped = []
        RadixSort.sortIndices(&order, byKeys: keys)
        if let limit = selection.limit, limit < order.count { order.removeLast(order.count - limit) }
        self.order = order
    }

    /// Calls `body` with each kept record (the bytes `record` made), in order.
    func forEachRecord(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        // Each fault maps a neighbourhood of the spool: a record in order finds
        // it mapped, one elsewhere maps another, so the mapping is given back
        // after a few jumps (or a few MiB in order).
        var jumps = 0, sinceRelease = 0, previousStart: UInt64 = 0, previousEnd: UInt64 = 0
        for index in order {
            let start = offsets[Int(index)], end = offsets[Int(index) + 1]
            try storage.withBytes(from: start, to: end) { bytes in
                try body(UnsafeRawBufferPointer(rebasing: bytes[Self.headerLength(bytes)...]))
            }
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

    // MARK: Records

    // A record: `updated` present (1 byte), its bits (8), the id's length (4), the id, the encoded event.

    private static func appendHeader(of event: SeismicEvent, to record: inout [UInt8]) {
        record.append(event.updated == nil ? 0 : 1)
        withUnsafeBytes(of: (event.updated?.timeIntervalSince1970 ?? 0).bitPattern.littleEndian) {
            record.append(contentsOf: $0)
        }
        var id = event.id
        id.withUTF8 { bytes in
            withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { record.append(contentsOf: $0) }
            record.append(contentsOf: bytes)
        }
    }

    private static func headerLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        13 + Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 9, as: UInt32.self)))
    }

    private static func header(_ bytes: UnsafeRawBufferPointer) -> (updated: Date?, id: [UInt8]) {
        let bits = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 1, as: UInt64.self))
        let updated = bytes[0] == 0 ? nil : Date(timeIntervalSince1970: Double(bitPattern: bits))
        return (updated, Array(bytes[13..<headerLength(bytes)]))
    }

    /// Ascending keys for descending times: the order ``EventSelection`` lists.
    private static func sortKey(_ time: Date) -> UInt64 {
        let bits = time.timeIntervalSince1970.bitPattern
        // IEEE order as unsigned order, then reversed.
        let ascending = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        return ~ascending
    }

    /// Marks every version of a repeated id but the one that stays (in file
    /// order, a version replaces the kept one when ``EventSelection/isNewer(_:than:)``);
    /// returns how many rows repeated an id. Frees `hashes`.
    private static func settleRepeatedIDs(hashes: inout [UInt32], dropped: inout [Bool], storage: SpoolStorage,
                                          offsets: [UInt64]) throws -> Int {
        var withID: [UInt32] = []
        withID.reserveCapacity(hashes.count)
        for index in hashes.indices where hashes[index] != 0 { withID.append(UInt32(index)) }
        RadixSort.sortIndices(&withID, byKeys: hashes)
        var duplicates = 0
        var runStart = 0
        while runStart < withID.count {
            let hash = hashes[Int(withID[runStart])]
            var runEnd = runStart + 1
            while runEnd < withID.count, hashes[Int(withID[runEnd])] == hash { runEnd += 1 }
            if runEnd - runStart > 1 {
                // The run is in file order (the sort is stable); a hash collision makes several ids of one run.
                var kept: [[UInt8]: (index: Int, updated: Date?)] = [:]
                for position in runStart..<runEnd {
                    let index = Int(withID[position])
                    let (updated, id) = try storage.copyingBytes(from: offsets[index], to: offsets[index + 1]) { header($0) }
                    guard let existing = kept[id] else {
                        kept[id] = (index, updated)
                        continue
                    }
                    duplicates += 1
                    if EventSelection.isNewer(updated, than: existing.updated) {
                        dropped[existing.index] = true
                        kept[id] = (index, updated)
                    } else {
                        dropped[index] = true
                    }
                }
            }
            runStart = runEnd
        }
        hashes = []
        return duplicates
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

    init() { buffer.reserveCapacity(Self.bufferBytes) }

    deinit {
        if let mapped, let base = mapped.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), mapped.count) }
        if descriptor >= 0 { close(descriptor) }
    }

    var size: UInt64 { written + UInt64(buffer.count) }

    var isSpilled: Bool { descriptor >= 0 }

    /// Keeps `bytes` in memory while the spool stays under the buffer's
    /// size; past it, the buffer and then `bytes` go straight to the file.
    /// Once the spool is a file, large pieces go straight there: copying
    /// them into the buffer first would be one more serial copy of the list.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        let direct = isSpilled && bytes.count >= 1 << 16
        if !direct && buffer.count + bytes.count < Self.bufferBytes { return buffer.append(contentsOf: bytes) }
        try flush()
        try AtomicFileWriter.writeAll(bytes, to: descriptor, path: path)
        written += UInt64(bytes.count)
    }

    /// Ends writing: a spool that never left memory stays there; a file is mapped.
    func finish() throws {
        guard descriptor >= 0 else { return }
        try flush()
        buffer = []
        guard written > 0 else { return }
        guard let base = mmap(nil, Int(written), PROT_READ, MAP_SHARED, descriptor, 0), base != MAP_FAILED else {
            throw WriteError(errno: errno, stage: .write, path: path)
        }
        mapped = UnsafeRawBufferPointer(start: base, count: Int(written))
    }

    func withBytes<T>(from start: UInt64, to end: UInt64, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        if let mapped {
            return try body(UnsafeRawBufferPointer(rebasing: mapped[Int(start)..<Int(end)]))
        }
        return try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[Int(start)..<Int(end)])) }
    }

    /// The bytes, read into memory rather than through the mapping: a
    /// fault there maps a whole neighbourhood of pages (a large folio), so
    /// reads scattered over the spool would leave most of it resident.
    func copyingBytes<T>(from start: UInt64, to end: UInt64, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        guard mapped != nil else { return try withBytes(from: start, to: end, body) }
        var copy = [UInt8](repeating: 0, count: Int(end - start))
        try copy.withUnsafeMutableBytes { copy in
            var done = 0
            while done < copy.count {
                let count = pread(descriptor, copy.baseAddress! + done, copy.count - done, off_t(start) + off_t(done))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw WriteError(errno: count < 0 ? errno : EIO, stage: .write, path: path) }
                done += count
            }
        }
        return try copy.withUnsafeBytes { try body($0) }
    }

    /// Lets the kernel take back the mapped pages read so far (they stay in the page cache).
    func release() {
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
