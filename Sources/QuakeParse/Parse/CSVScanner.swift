// Parse/ — bytes to events: USGS CSV (every era's layout) and GeoJSON feeds read, each row checked
// (FeedRejection, FeedError), decoded on all cores. It knows no selection: a map's read is handed a RowAdmission.

import CByteScan
import Foundation

/// Finds the RFC 4180 records in a window of bytes without copying them.
///
/// Written by hand rather than taken from a CSV package because it has to
/// stream with bounded memory, report the physical line of every record and of
/// every fault, refuse binary input, and run at the speed of the byte loop; the
/// listed CSV packages load whole files into strings or lose line numbers.
///
/// Quoted fields may hold commas, doubled quotes and line breaks; records end
/// with LF, CRLF or a lone CR; the last record may lack a line break; a UTF-8
/// byte order mark at the very start is dropped; blank lines are skipped. A
/// stray quote inside an unquoted field, or text after a closing quote, is
/// kept literally, as lenient readers do.
///
/// A field is a slice of the window itself, except where its text is not one
/// run of the input (doubled quotes, text after a closing quote): those few are
/// unescaped into an arena owned by the scanner. Every window starts at a
/// record boundary (``ChunkReader`` carries an incomplete last record over),
/// so no state but the line number crosses windows.
package final class CSVScanner: RecordScanner {
    /// Longest record accepted: a quote that is never closed must not swallow the input.
    package static let defaultMaximumRecordBytes = 1 << 20

    package let sourceName: String
    package let maximumRecordBytes: Int
    /// The physical line the next window starts on.
    package private(set) var line = 1
    private var atStreamStart = true
    private var arena: UnsafeMutableRawBufferPointer
    private var arenaUsed = 0

    package init(sourceName: String, maximumRecordBytes: Int = CSVScanner.defaultMaximumRecordBytes) {
        self.sourceName = sourceName
        self.maximumRecordBytes = maximumRecordBytes
        arena = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 1)
    }

    deinit {
        arena.deallocate()
    }

    /// Goes on from `line`, in the middle of a stream (no byte order mark).
    package func restart(line: Int) {
        self.line = line
        atStreamStart = false
    }

    /// Scans `window` into `batch` (emptied first): every record that ends
    /// with a line break, and, when `isLast`, the one the input ends in.
    /// The batch's fields point into `window` and into the scanner's arena:
    /// both must stay as they are until the next call.
    ///
    /// - Returns: how many bytes were used up: the start of the first
    ///   incomplete record, which the next window must begin with.
    /// - Parameter limit: stop after this many records (the reader takes the
    ///   header alone, to judge it before the bytes after it).
    package func scan(_ window: UnsafeRawBufferPointer, isLast: Bool, limit: Int = .max, into batch: inout CSVBatch) throws -> Int {
        batch.removeAll()
        guard let base = window.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        let end = window.count
        var position = 0
        if atStreamStart {
            // Wait for three bytes before deciding whether they are a byte order mark.
            if end < 3 && !isLast { return 0 }
            if end >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { position = 3 }
            atStreamStart = false
        }
        if arena.count < end {
            arena.deallocate()
            arena = UnsafeMutableRawBufferPointer.allocate(byteCount: end, alignment: 1)
        }
        arenaUsed = 0
        var lineStart = position
        while position < end && batch.count < limit {
            // Blank lines are no records.
            let first = base[position]
            if first == ASCII.lf || first == ASCII.cr {
                if first == ASCII.cr && position + 1 == end && !isLast { return position }
                position += first == ASCII.cr && position + 1 < end && base[position + 1] == ASCII.lf ? 2 : 1
                line += 1
                lineStart = position
                continue
            }
            let recordLine = line, fieldsBefore = batch.fieldCount
            switch try scanRecord(base, end: end, isLast: isLast, from: position, lineStart: lineStart, into: &batch) {
            case .complete(let next, let lines):
                batch.endRecord(line: recordLine)
                position = next
                line += lines
                lineStart = next
            case .incomplete:
                let fields = batch.fieldCount - fieldsBefore
                batch.dropFields(after: fieldsBefore)
                try checkLength(end - position, fields: fields, line: recordLine)
                return position
            }
        }
        return position
    }

    private enum RecordOutcome {
        /// The record ended; the next one starts at `next`, `lines` line breaks later.
        case complete(next: Int, lines: Int)
        case incomplete
    }

    /// Scans one record starting at `start` (not a line break).
    private func scanRecord(_ base: UnsafePointer<UInt8>, end: Int, isLast: Bool, from start: Int,
                            lineStart startOfLine: Int, into batch: inout CSVBatch) throws -> RecordOutcome {
        var position = start
        var lines = 0, lineStart = startOfLine
        var fieldCount = 0
        while true {
            // One field starts here.
            fieldCount += 1
            if position < end && base[position] == ASCII.quote {
                position += 1
                // The text is one run of the input unless a doubled quote or text
                // after the closing quote splits it; then it is built in the arena.
                var runStart = position
                var unescapedStart: Int?
                while true {
                    while position < end {
                        position = Self.quotedStop(base, from: position, end: end)
                        guard position < end else { break }
                        let byte = base[position]
                        if byte == ASCII.quote { break }
                        if byte == 0 { throw binary(line: line + lines, column: position - lineStart + 1) }
                        if byte == ASCII.lf || byte == ASCII.cr {
                            // CRLF inside quotes is kept whole and counts as one line.
                            if byte == ASCII.cr {
                                if position + 1 == end && !isLast { return .incomplete }
                                if position + 1 < end && base[position + 1] == ASCII.lf { position += 1 }
                            }
                            lines += 1
                            lineStart = position + 1
                        }
                        position += 1
                    }
                    if position >= end {
                        try checkLength(position - start, fields: fieldCount, line: line)
                        if isLast { throw FeedError.unterminatedQuote(source: sourceName, line: line) }
                        return .incomplete
                    }
                    // A quote: doubled, it is one quote of the text; else it closes.
                    if position + 1 == end && !isLast { return .incomplete }
                    guard position + 1 < end && base[position + 1] == ASCII.quote else { break }
                    if unescapedStart == nil { unescapedStart = arenaUsed }
                    appendToArena(base + runStart, count: position + 1 - runStart)
                    position += 2
                    runStart = position
                }
                let runEnd = position
                position += 1
                // Text after the closing quote joins the field, literally.
                let tailStart = position
                position = Self.unquotedEnd(base, from: position, end: end)
                if position < end && base[position] == 0 {
                    throw binary(line: line + lines, column: position - lineStart + 1)
                }
                if unescapedStart == nil && position == tailStart {
                    batch.appendField(UnsafeRawBufferPointer(start: base + runStart, count: runEnd - runStart))
                } else {
                    let start = unescapedStart ?? arenaUsed
                    appendToArena(base + runStart, count: runEnd - runStart)
                    appendToArena(base + tailStart, count: position - tailStart)
                    batch.appendField(UnsafeRawBufferPointer(start: arena.baseAddress! + start, count: arenaUsed - start))
                }
            } else {
                var fieldStart = position
                position = try unquotedRun(base, from: position, end: end, fieldStart: &fieldStart,
                                           fieldCount: &fieldCount, recordStart: start, into: &batch)
                if position < end && base[position] == 0 {
                    throw binary(line: line + lines, column: position - lineStart + 1)
                }
                batch.appendField(UnsafeRawBufferPointer(start: base + fieldStart, count: position - fieldStart))
            }
            try checkLength(position - start, fields: fieldCount, line: line)
            // What ends the field: a comma, a line break, or the end of the input.
            if position >= end {
                return isLast ? .complete(next: end, lines: lines) : .incomplete
            }
            let byte = base[position]
            if byte == ASCII.comma {
                position += 1
                continue
            }
            // A line break ends the record; CR at the window's edge may still have its LF to come.
            if byte == ASCII.cr {
                if position + 1 == end && !isLast { return .incomplete }
                position += position + 1 < end && base[position + 1] == ASCII.lf ? 2 : 1
            } else {
                position += 1
            }
            return .complete(next: position, lines: lines + 1)
        }
    }

    /// Where a run of unquoted fields from `start` ends: at a line break, a
    /// NUL, the window's end, or a comma left to the general path (one before
    /// a quote or at the window's end, and any in the last 63 bytes, which
    /// ``unquotedEnd`` reads). Each field the run completes on the way is
    /// added to `batch` (and counted in `fieldCount`, `fieldStart` moved
    /// after its comma), so the plain fields of a row, most of a feed, are
    /// found 64 bytes at a time, each comma, line break and NUL a bit of a
    /// mask, instead of by a search started again at every field. What it
    /// adds and throws is what ``scanRecord`` would, field by field: the
    /// length is checked once per 64 bytes, at the last comma, as it only grows.
    @inline(__always)
    private func unquotedRun(_ base: UnsafePointer<UInt8>, from start: Int, end: Int, fieldStart: inout Int,
                             fieldCount: inout Int, recordStart: Int, into batch: inout CSVBatch) throws -> Int {
        var position = start
        while position &+ 64 <= end {
            let stops = qk_field_stops64(base + position)
            // Only the commas before the first line break or NUL end fields here.
            let firstBreak = stops.breaks & (0 &- stops.breaks)
            var commas = stops.commas & (firstBreak &- 1)
            let room = batch.room(for: commas.nonzeroBitCount)
            var added = 0
            while commas != 0 {
                let at = position &+ commas.trailingZeroBitCount
                // The general path takes a quoted field, and a field that starts at the window's end.
                guard at &+ 1 < end && base[at &+ 1] != ASCII.quote else {
                    batch.added(added)
                    fieldCount &+= added
                    return at
                }
                room[added] = UnsafeRawBufferPointer(start: base + fieldStart, count: at &- fieldStart)
                added &+= 1
                fieldStart = at &+ 1
                commas &= commas &- 1
            }
            batch.added(added)
            fieldCount &+= added
            try checkLength(fieldStart - 1 - recordStart, fields: fieldCount - 1, line: line)
            if stops.breaks != 0 { return position &+ stops.breaks.trailingZeroBitCount }
            position &+= 64
        }
        return Self.unquotedEnd(base, from: position, end: end)
    }

    /// Comma, line breaks and NUL end an unquoted run; every byte above ',' is ordinary.
    @inline(__always)
    private static func endsUnquoted(_ byte: UInt8) -> Bool {
        byte <= ASCII.comma && (byte == ASCII.comma || byte == ASCII.lf || byte == ASCII.cr || byte == 0)
    }

    /// Where the unquoted run from `start` ends: its first comma, line break
    /// or NUL, or `end`. All four are below '-'; most bytes of a feed are not.
    @inline(__always)
    private static func unquotedEnd(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
        firstStop(base, from: start, end: end, candidates: { bytes($0, below: ASCII.comma + 1) }, stops: endsUnquoted)
    }

    /// Where a quoted run from `start` stops: its first quote, line break or
    /// NUL, or `end`. The candidates are the bytes below 14 (NUL, LF and CR
    /// among them) and the zero bytes of the word XOR a row of quotes: the
    /// blanks of a quoted place name are not candidates, so they cost nothing.
    @inline(__always)
    private static func quotedStop(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
        firstStop(base, from: start, end: end,
                  candidates: { bytes($0, below: 14) | bytes($0 ^ 0x2222_2222_2222_2222, below: 1) },
                  stops: { $0 == ASCII.quote || $0 == ASCII.lf || $0 == ASCII.cr || $0 == 0 })
    }

    /// The first byte at or after `start` for which `stops` holds, or `end`,
    /// eight bytes at a time: `candidates` flags every byte of a word that may
    /// stop the run (and perhaps a few more), and the flagged bytes, taken from
    /// the word rather than read again, are checked with `stops`.
    @inline(__always)
    package static func firstStop(_ base: UnsafePointer<UInt8>, from start: Int, end: Int,
                                  candidates: (UInt64) -> UInt64, stops: (UInt8) -> Bool) -> Int {
        var position = start
        while position &+ 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            var flags = candidates(word)
            while flags != 0 {
                let bit = flags.trailingZeroBitCount
                if stops(UInt8(truncatingIfNeeded: word >> (bit & ~7))) { return position &+ bit >> 3 }
                flags &= flags &- 1
            }
            position &+= 8
        }
        while position < end, !stops(base[position]) { position += 1 }
        return position
    }

    /// Bit 7 of each byte of `word` that is below `limit` (at most 128), and
    /// maybe of a few more: for a byte b < 128, `(b - n) & ~b & 0x80` is set
    /// when b < n; a borrow from a lower byte can set it for a byte equal to
    /// n too, never clear it. Callers check the flagged bytes themselves.
    @inline(__always)
    package static func bytes(_ word: UInt64, below limit: UInt8) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        return (word &- ones &* UInt64(limit)) & ~word & (ones &* 0x80)
    }

    private func appendToArena(_ bytes: UnsafePointer<UInt8>, count: Int) {
        guard count > 0 else { return }
        (arena.baseAddress! + arenaUsed).copyMemory(from: bytes, byteCount: count)
        arenaUsed += count
    }

    /// Each field counts as a byte too, so a line of commas is bounded like any other.
    private func checkLength(_ bytes: Int, fields: Int, line: Int) throws {
        if bytes + fields > maximumRecordBytes {
            throw FeedError.recordTooLong(source: sourceName, line: line, limit: maximumRecordBytes)
        }
    }

    private func binary(line: Int, column: Int) -> FeedError {
        FeedError.binaryData(source: sourceName, line: line, column: column)
    }
}

/// The records of one window, their fields stored flat.
///
/// A batch is a reference: copies share one storage, which only the batch's
/// owner scans into; the others only read it. The scanner appends some
/// twenty fields per record, and writing them through a pointer spares an
/// array's uniqueness and capacity checks on every one.
package struct CSVBatch {
    private let storage = Storage()

    package var count: Int { storage.lines.count }
    package var fieldCount: Int { storage.fieldCount }

    @inline(__always)
    package func appendField(_ field: UnsafeRawBufferPointer) {
        storage.append(field)
    }

    /// Where the next `count` fields go, written through the pointer and
    /// then counted with ``added(_:)``: the scanner's block loop writes a
    /// block's fields without a capacity check on each.
    @inline(__always)
    fileprivate func room(for count: Int) -> UnsafeMutablePointer<UnsafeRawBufferPointer> {
        storage.room(for: count)
    }

    @inline(__always)
    fileprivate func added(_ count: Int) {
        storage.fieldCount &+= count
    }

    package func endRecord(line: Int) {
        storage.recordEnds.append(storage.fieldCount)
        storage.lines.append(line)
    }

    package func dropFields(after count: Int) {
        storage.fieldCount = count
    }

    /// Moves every record `offset` lines down: for records found from the middle of a stream.
    package func shiftLines(by offset: Int) {
        guard offset != 0 else { return }
        for index in storage.lines.indices { storage.lines[index] += offset }
    }

    package func removeAll() {
        storage.fieldCount = 0
        storage.recordEnds.removeAll(keepingCapacity: true)
        storage.lines.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with record `index`, which must not escape it.
    package func withRecord<T>(_ index: Int, _ body: (CSVRecord) throws -> T) rethrows -> T {
        try withRecords(index..<(index + 1)) { try body($0.first!) }
    }

    /// Calls `body` with the records in `range`, which must not escape it.
    package func withRecords<T>(_ range: Range<Int>, _ body: (CSVRecords) throws -> T) rethrows -> T {
        try body(CSVRecords(fields: UnsafeBufferPointer(start: storage.fields, count: storage.fieldCount),
                            recordEnds: storage.recordEnds, lines: storage.lines, range: range))
    }

    /// Field slices (a growable buffer written through a pointer), and where
    /// each record's fields end and on which line it starts.
    private final class Storage {
        package private(set) var fields: UnsafeMutablePointer<UnsafeRawBufferPointer>
        private var capacity = 1024
        // Unchecked: a batch is used by one scanner at a time, and the
        // runtime's exclusivity check on every record's append cost more
        // than the append.
        @exclusivity(unchecked) package var fieldCount = 0
        @exclusivity(unchecked) package var recordEnds: [Int] = []
        @exclusivity(unchecked) package var lines: [Int] = []

        package init() {
            fields = .allocate(capacity: capacity)
        }

        deinit {
            fields.deallocate()
        }

        @inline(__always)
        package func append(_ field: UnsafeRawBufferPointer) {
            if fieldCount == capacity { grow() }
            (fields + fieldCount).initialize(to: field)
            fieldCount += 1
        }

        @inline(__always)
        package func room(for count: Int) -> UnsafeMutablePointer<UnsafeRawBufferPointer> {
            while fieldCount &+ count > capacity { grow() }
            return fields + fieldCount
        }

        private func grow() {
            let bigger = UnsafeMutablePointer<UnsafeRawBufferPointer>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: fields, count: fieldCount)
            fields.deallocate()
            fields = bigger
            capacity *= 2
        }
    }
}

/// A run of a batch's records, valid inside ``CSVBatch/withRecords(_:_:)``.
package struct CSVRecords: RandomAccessCollection {
    fileprivate let fields: UnsafeBufferPointer<UnsafeRawBufferPointer>
    fileprivate let recordEnds: [Int]
    fileprivate let lines: [Int]
    package let range: Range<Int>

    package var startIndex: Int { range.lowerBound }
    package var endIndex: Int { range.upperBound }

    package subscript(index: Int) -> CSVRecord {
        let first = index == 0 ? 0 : recordEnds[index - 1]
        return CSVRecord(line: lines[index], fields: UnsafeBufferPointer(rebasing: fields[first..<recordEnds[index]]))
    }
}

/// One record: its physical line and its fields' bytes (borrowed, not owned).
package struct CSVRecord {
    package let line: Int
    package let fields: UnsafeBufferPointer<UnsafeRawBufferPointer>

    package var fieldCount: Int { fields.count }

    package func field(_ index: Int) -> UnsafeRawBufferPointer { fields[index] }

    package func string(_ index: Int) -> String {
        String(decoding: fields[index], as: UTF8.self)
    }

    package func isBlank(_ index: Int) -> Bool {
        fields[index].allSatisfy { $0 == ASCII.space || $0 == ASCII.tab }
    }

    /// Field `index` without the blanks around it.
    package func trimmed(_ index: Int) -> UnsafeRawBufferPointer {
        let bytes = fields[index]
        var start = 0, end = bytes.count
        while start < end, bytes[start] == ASCII.space || bytes[start] == ASCII.tab { start += 1 }
        while end > start, bytes[end - 1] == ASCII.space || bytes[end - 1] == ASCII.tab { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    package func trimmedString(_ index: Int) -> String? {
        let trimmed = trimmed(index)
        guard trimmed.count > 0 else { return nil }
        let text = String(decoding: trimmed, as: UTF8.self)
        // A byte order mark inside a field: the rule every reader keeps text by.
        guard memchr(trimmed.baseAddress!, 0xEF, trimmed.count) != nil else { return text }
        return RowValidator.text(text)
    }
}

/// Bytes the scanners and writers look for, inlined where they are used: across the stages a
/// stored constant would cost a call per byte.
package enum ASCII {
    @inlinable package static var lf: UInt8 { UInt8(ascii: "\n") }
    @inlinable package static var cr: UInt8 { UInt8(ascii: "\r") }
    @inlinable package static var comma: UInt8 { UInt8(ascii: ",") }
    @inlinable package static var quote: UInt8 { UInt8(ascii: "\"") }
    @inlinable package static var space: UInt8 { UInt8(ascii: " ") }
    @inlinable package static var pipe: UInt8 { UInt8(ascii: "|") }
    @inlinable package static var tab: UInt8 { UInt8(ascii: "\t") }
}
