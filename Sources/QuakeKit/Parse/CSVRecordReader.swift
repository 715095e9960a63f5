/// An RFC 4180 record reader fed chunk by chunk.
///
/// Written by hand rather than taken from a CSV package because it has to
/// stream with bounded memory, report the physical line of every record and of
/// every fault, refuse binary input, and run at the speed of the byte loop; the
/// listed CSV packages load whole files into strings or lose line numbers.
///
/// Quoted fields may hold commas, doubled quotes and line breaks; records end
/// with LF, CRLF or a lone CR; the last record may lack a line break; a UTF-8
/// byte order mark at the very start is dropped; blank lines are skipped.
struct CSVRecordReader {
    /// Longest record accepted: a quote that is never closed must not swallow the input.
    static let defaultMaximumRecordBytes = 1 << 20

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }

    let sourceName: String
    let maximumRecordBytes: Int
    private var state = State.fieldStart
    private var record = CSVRecord()
    private var line = 1
    private var column = 1
    private var lastWasCR = false
    private var atStreamStart = true
    private var bomProgress = 0
    private var recordHasContent = false

    init(sourceName: String, maximumRecordBytes: Int = CSVRecordReader.defaultMaximumRecordBytes) {
        self.sourceName = sourceName
        self.maximumRecordBytes = maximumRecordBytes
        record.reset(line: 1)
    }

    /// Parses `chunk`, calling `emit` for each complete non-blank record.
    mutating func consume(
        _ chunk: UnsafeRawBufferPointer,
        emit: (inout CSVRecord) throws -> Void
    ) throws {
        var index = 0
        if atStreamStart { index = skipByteOrderMark(chunk) }
        while index < chunk.count {
            let byte = chunk[index]
            index += 1
            if byte == 0 {
                throw FeedError.binaryData(source: sourceName, line: line, column: column)
            }
            // A CR ends the line; an LF right after it belongs to the same break:
            // it ends nothing more, and inside quotes it is kept, uncounted.
            if byte == ASCII.lf && lastWasCR {
                lastWasCR = false
                if state == .quoted { try append(byte) }
                continue
            }
            lastWasCR = false
            switch state {
            case .fieldStart, .unquoted, .quoteInQuoted:
                switch byte {
                case ASCII.comma:
                    try endField()
                case ASCII.lf, ASCII.cr:
                    lastWasCR = byte == ASCII.cr
                    try endRecord(emit: emit)
                    newLine()
                    continue
                case ASCII.quote where state == .fieldStart:
                    state = .quoted
                    recordHasContent = true
                case ASCII.quote where state == .quoteInQuoted:
                    try append(ASCII.quote)
                    state = .quoted
                default:
                    // A stray quote inside an unquoted field, or text after a
                    // closing quote, is kept literally, as lenient readers do.
                    try append(byte)
                    state = .unquoted
                    index = try appendPlainRun(chunk, from: index, stoppingAtComma: true)
                }
            case .quoted:
                if byte == ASCII.quote {
                    state = .quoteInQuoted
                } else {
                    try append(byte)
                    if byte == ASCII.lf || byte == ASCII.cr {
                        lastWasCR = byte == ASCII.cr
                        newLine()
                        continue
                    }
                    index = try appendPlainRun(chunk, from: index, stoppingAtComma: false)
                }
            }
            column += 1
        }
    }

    /// Ends the stream: emits a last record without a line break, or reports an open quote.
    mutating func finish(emit: (inout CSVRecord) throws -> Void) throws {
        if state == .quoted {
            throw FeedError.unterminatedQuote(source: sourceName, line: record.line)
        }
        try endRecord(emit: emit)
    }

    private mutating func skipByteOrderMark(_ chunk: UnsafeRawBufferPointer) -> Int {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        var index = 0
        while bomProgress < 3, index < chunk.count {
            guard chunk[index] == bom[bomProgress] else {
                // Not a BOM after all: give back the bytes we held.
                let held = bomProgress
                bomProgress = 3
                atStreamStart = false
                for byte in bom[0..<held] { record.bytes.append(byte) }
                if held > 0 { state = .unquoted; recordHasContent = true }
                return index
            }
            bomProgress += 1
            index += 1
        }
        if bomProgress == 3 { atStreamStart = false }
        return index
    }

    /// Copies the run of ordinary bytes starting at `start` in one go (the
    /// common case by far) and returns where it ends; the bytes that need the
    /// state machine — quotes, line breaks, NUL and, outside quotes, commas — stop it.
    private mutating func appendPlainRun(
        _ chunk: UnsafeRawBufferPointer, from start: Int, stoppingAtComma: Bool
    ) throws -> Int {
        var end = start
        while end < chunk.count {
            let byte = chunk[end]
            if byte == ASCII.quote || byte == ASCII.lf || byte == ASCII.cr || byte == 0
                || (stoppingAtComma && byte == ASCII.comma) { break }
            end += 1
        }
        guard end > start else { return start }
        record.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
        column += end - start
        if record.bytes.count > maximumRecordBytes {
            throw FeedError.recordTooLong(source: sourceName, line: record.line, limit: maximumRecordBytes)
        }
        return end
    }

    private mutating func append(_ byte: UInt8) throws {
        record.bytes.append(byte)
        recordHasContent = true
        if record.bytes.count > maximumRecordBytes {
            throw FeedError.recordTooLong(source: sourceName, line: record.line, limit: maximumRecordBytes)
        }
    }

    /// Each field counts as a byte too, so a line of commas is bounded like any other.
    private mutating func endField() throws {
        record.fieldEnds.append(record.bytes.count)
        state = .fieldStart
        if record.fieldEnds.count + record.bytes.count > maximumRecordBytes {
            throw FeedError.recordTooLong(source: sourceName, line: record.line, limit: maximumRecordBytes)
        }
    }

    private mutating func endRecord(emit: (inout CSVRecord) throws -> Void) throws {
        defer {
            state = .fieldStart
            recordHasContent = false
        }
        guard recordHasContent || !record.fieldEnds.isEmpty else { return }
        try endField()
        try emit(&record)
        record.reset(line: line)
    }

    private mutating func newLine() {
        line += 1
        column = 1
        // A record that has not started yet starts on the new line.
        if !recordHasContent && record.fieldEnds.isEmpty {
            record.line = line
        }
    }
}

enum ASCII {
    static let lf = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")
    static let comma = UInt8(ascii: ",")
    static let quote = UInt8(ascii: "\"")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
}
