/// Finds the records of the FDSN event text format (`#EventID|Time|…`) in a
/// window of bytes without copying them.
///
/// The format has no quoting: a `|` always separates fields and a line break
/// always ends a record, which is what makes it simpler (and its parallel
/// scan always right) compared with ``CSVScanner``. What the two share is the
/// rest of the contract: records end with LF, CRLF or a lone CR; the last
/// may lack a line break; a UTF-8 byte order mark at the very start is
/// dropped; blank lines are skipped; a NUL byte is binary data, refused with
/// its line and column; a record longer than the limit is refused, so a file
/// without line breaks cannot fill the memory. Blanks around values are kept
/// here and trimmed where the fields are read, as for CSV.

package final class PipeScanner: RecordScanner {
    package let sourceName: String
    package let maximumRecordBytes: Int
    package private(set) var line = 1
    private var atStreamStart = true

    package init(sourceName: String, maximumRecordBytes: Int = CSVScanner.defaultMaximumRecordBytes) {
        self.sourceName = sourceName
        self.maximumRecordBytes = maximumRecordBytes
    }

    package func restart(line: Int) {
        self.line = line
        atStreamStart = false
    }

    package func scan(_ window: UnsafeRawBufferPointer, isLast: Bool, limit: Int = .max, into batch: inout CSVBatch) throws -> Int {
        batch.removeAll()
        guard let base = window.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        let end = window.count
        var position = 0
        if atStreamStart {
            if end < 3 && !isLast { return 0 }
            if end >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { position = 3 }
            atStreamStart = false
        }
        records: while position < end && batch.count < limit {
            let first = base[position]
            if first == ASCII.lf || first == ASCII.cr {
                if first == ASCII.cr && position + 1 == end && !isLast { return position }
                position += first == ASCII.cr && position + 1 < end && base[position + 1] == ASCII.lf ? 2 : 1
                line += 1
                continue
            }
            let recordStart = position, fieldsBefore = batch.fieldCount
            var fieldStart = position
            while true {
                position = Self.fieldEnd(base, from: position, end: end)
                // Each field counts as a byte too, as in CSVScanner: a line of separators is bounded like any other.
                if position - recordStart + batch.fieldCount - fieldsBefore > maximumRecordBytes {
                    throw FeedError.recordTooLong(source: sourceName, line: line, limit: maximumRecordBytes)
                }
                if position == end {
                    guard isLast else {
                        batch.dropFields(after: fieldsBefore)
                        return recordStart
                    }
                    batch.appendField(UnsafeRawBufferPointer(start: base + fieldStart, count: end - fieldStart))
                    batch.endRecord(line: line)
                    break records
                }
                let byte = base[position]
                if byte == 0 {
                    throw FeedError.binaryData(source: sourceName, line: line, column: position - recordStart + 1)
                }
                if byte == ASCII.cr && position + 1 == end && !isLast {
                    // Its LF may be the next window's first byte.
                    batch.dropFields(after: fieldsBefore)
                    return recordStart
                }
                batch.appendField(UnsafeRawBufferPointer(start: base + fieldStart, count: position - fieldStart))
                if byte == ASCII.pipe {
                    position += 1
                    fieldStart = position
                    continue
                }
                position += byte == ASCII.cr && position + 1 < end && base[position + 1] == ASCII.lf ? 2 : 1
                batch.endRecord(line: line)
                line += 1
                continue records
            }
        }
        return min(position, end)
    }

    /// The first `|`, line break or NUL at or after `start`, or `end`. The
    /// candidates are the bytes below 14 and the zero bytes of the word XOR a
    /// row of `|`: letters, digits and blanks cost nothing.
    @inline(__always)
    private static func fieldEnd(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
        CSVScanner.firstStop(base, from: start, end: end,
                             candidates: { CSVScanner.bytes($0, below: 14)
                                 | CSVScanner.bytes($0 ^ 0x7C7C_7C7C_7C7C_7C7C, below: 1) },
                             stops: { $0 == ASCII.pipe || $0 == ASCII.lf || $0 == ASCII.cr || $0 == 0 })
    }
}
