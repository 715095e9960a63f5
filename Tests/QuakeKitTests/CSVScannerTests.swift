import Foundation
import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

@Suite("CSV records (RFC 4180)", .timeLimit(.minutes(10)))
struct CSVScannerTests {
    /// Every record as (line, fields), read `chunkSize` bytes at a time.
    func records(_ text: String, chunkSize: Int = 1 << 20, copying: Bool = false) throws -> [(Int, [String])] {
        try records(Array(text.utf8), chunkSize: chunkSize, copying: copying)
    }

    /// `copying`: through the read loop that files and pipes take, else as slices of memory.
    func records(_ bytes: [UInt8], chunkSize: Int = 1 << 20, maximumRecordBytes: Int = 1 << 20,
                 copying: Bool = false) throws -> [(Int, [String])] {
        let scanner = CSVScanner(sourceName: "t.csv", maximumRecordBytes: maximumRecordBytes)
        var batch = CSVBatch()
        var result: [(Int, [String])] = []
        try ChunkReader.forEachWindow(of: .bytes(Data(bytes), name: "t.csv"), chunkSize: chunkSize,
                                      copyingBytes: copying) { window, isLast in
            let used = try scanner.scan(window, isLast: isLast, into: &batch)
            batch.withRecords(0..<batch.count) { records in
                for record in records {
                    result.append((record.line, (0..<record.fieldCount).map { record.string($0) }))
                }
            }
            return used
        }
        return result
    }

    @Test func quotedFieldsWithCommasDoubledQuotesAndLineBreaks() throws {
        let text = "a,b,c\n1,\"x, y\",\"say \"\"hi\"\"\"\n2,\"two\nlines\",z\n3,,\n"
        let rows = try records(text)
        #expect(rows.map(\.1) == [["a", "b", "c"], ["1", "x, y", "say \"hi\""], ["2", "two\nlines", "z"], ["3", "", ""]])
        #expect(rows.map(\.0) == [1, 2, 3, 5])
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func lineEndings(_ ending: String) throws {
        let text = ["h1,h2", "1,2", "3,4"].joined(separator: ending) + ending
        let rows = try records(text)
        #expect(rows.map(\.1) == [["h1", "h2"], ["1", "2"], ["3", "4"]])
        #expect(rows.map(\.0) == [1, 2, 3])
    }

    @Test func byteOrderMarkBlankLinesAndNoFinalNewline() throws {
        let rows = try records([0xEF, 0xBB, 0xBF] + Array("h\n\n1\n\n2".utf8))
        #expect(rows.map(\.1) == [["h"], ["1"], ["2"]])
        #expect(rows.map(\.0) == [1, 3, 5])
    }

    @Test func utf8PlaceNamesSurviveIntact() throws {
        let rows = try records("place\n\"5 km S of Guánica, Puerto Rico\"\n`Ohonua\n")
        #expect(rows.map(\.1) == [["place"], ["5 km S of Guánica, Puerto Rico"], ["`Ohonua"]])
    }

    @Test(arguments: [1, 2, 3, 7], [false, true])
    func windowBoundariesDoNotChangeTheResult(_ chunkSize: Int, _ copying: Bool) throws {
        let text = "\u{FEFF}a,b\r\n\"q\"\"x\",\"multi\r\nline\"\r\n\r\nlast,row"
        let whole = try records(text)
        let chunked = try records(text, chunkSize: chunkSize, copying: copying)
        #expect(whole.map(\.1) == chunked.map(\.1))
        #expect(whole.map(\.0) == chunked.map(\.0))
        #expect(whole.map(\.1) == [["a", "b"], ["q\"x", "multi\r\nline"], ["last", "row"]])
    }

    /// Random records built from known fields, so the expected fields and
    /// lines are known without another parser: plain fields of every length
    /// around the eight-byte words the scanner reads (blanks, dashes, UTF-8,
    /// quotes inside), empty ones, quoted ones with commas, doubled quotes and
    /// line breaks; records ended by LF, CRLF or CR; read whole, and in
    /// windows of 1 to 200 bytes (the scanner reads plain rows 64 bytes at a time).
    @Test(arguments: [1, 2, 3])
    func randomRecordsComeBackFieldForField(_ seed: UInt64) throws {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let plainBytes = Array("ab9.- \t\"".utf8) + Array("é".utf8)
        let anyBytes = plainBytes + Array(",\r\n".utf8)
        var text: [UInt8] = []
        var expected: [(Int, [String])] = []
        var line = 1
        for _ in 0..<400 {
            var fields: [[UInt8]] = []
            var encoded: [[UInt8]] = []
            var breaks = 0
            for _ in 0..<(1 + next(24)) {
                let length = next(5) == 0 ? next(40) : [0, 1, 7, 8, 9, 15, 16, 17][next(8)]
                if next(4) == 0 {
                    let value = (0..<length).map { _ in anyBytes[next(anyBytes.count)] }
                    fields.append(value)
                    encoded.append([UInt8(ascii: "\"")] + value.flatMap { $0 == UInt8(ascii: "\"") ? [$0, $0] : [$0] }
                                   + [UInt8(ascii: "\"")])
                    // A lone CR, or CRLF, counts as one line break inside quotes too.
                    var index = 0
                    while index < value.count {
                        if value[index] == ASCII.cr {
                            breaks += 1
                            if index + 1 < value.count && value[index + 1] == ASCII.lf { index += 1 }
                        } else if value[index] == ASCII.lf {
                            breaks += 1
                        }
                        index += 1
                    }
                } else {
                    // An unquoted field may hold a quote, but not begin with one.
                    var value = (0..<length).map { _ in plainBytes[next(plainBytes.count)] }
                    if value.first == UInt8(ascii: "\"") { value[0] = UInt8(ascii: "a") }
                    fields.append(value)
                    encoded.append(value)
                }
            }
            // A record of one empty field is a blank line: no record.
            if fields.count == 1 && encoded[0].isEmpty { encoded[0] = Array("x".utf8); fields[0] = encoded[0] }
            text += Array(encoded.joined(separator: [UInt8(ascii: ",")]))
            text += [["\n"], ["\r", "\n"], ["\r"]][next(3)].map { UInt8(ascii: $0) }
            expected.append((line, fields.map { String(decoding: $0, as: UTF8.self) }))
            line += 1 + breaks
        }
        for chunkSize in [1 << 20, 200, 129, 65, 64, 9, 8, 7, 1] {
            let got = try records(text, chunkSize: chunkSize)
            #expect(got.map(\.1) == expected.map(\.1), "chunks of \(chunkSize)")
            #expect(got.map(\.0) == expected.map(\.0), "chunks of \(chunkSize)")
        }
    }

    @Test func unterminatedQuoteNamesTheLineItOpened() throws {
        #expect(throws: FeedError.unterminatedQuote(source: "t.csv", line: 2)) {
            try records("a,b\n1,\"never closed\n2,3\n")
        }
    }

    @Test func nulByteIsBinaryData() throws {
        #expect(throws: FeedError.binaryData(source: "t.csv", line: 2, column: 3)) {
            try records(Array("a,b\n1,".utf8) + [0] + Array("2\n".utf8))
        }
        // Past the first 64 bytes of a long plain row (inside its second block of 64), and in its last field.
        let row = (0..<60).map { "f\($0)" }.joined(separator: ",")
        #expect(throws: FeedError.binaryData(source: "t.csv", line: 2, column: 101)) {
            try records(Array("h\n".utf8) + Array(row.utf8.prefix(100)) + [0] + Array(row.utf8.dropFirst(100)) + [10])
        }
        #expect(throws: FeedError.binaryData(source: "t.csv", line: 2, column: row.utf8.count + 1)) {
            try records(Array("h\n".utf8) + Array(row.utf8) + [0] + Array(String(repeating: "x", count: 80).utf8))
        }
    }

    @Test func recordLongerThanTheLimitIsRefused() throws {
        #expect(throws: FeedError.recordTooLong(source: "t.csv", line: 2, limit: 16)) {
            try records(Array(("h\n\"" + String(repeating: "x", count: 100)).utf8), maximumRecordBytes: 16)
        }
        #expect(throws: FeedError.recordTooLong(source: "t.csv", line: 2, limit: 16), "empty fields count too") {
            try records(Array(("h\n" + String(repeating: ",", count: 100)).utf8), maximumRecordBytes: 16)
        }
    }

    /// A row of plain fields is measured every 64 bytes, so a line of commas
    /// is refused before it has filled the batch with a field per comma.
    @Test func aLongRowIsRefusedWithinItsFirstBlocks() throws {
        let scanner = CSVScanner(sourceName: "t.csv", maximumRecordBytes: 16)
        var batch = CSVBatch()
        let text = Array(String(repeating: ",", count: 10_000).utf8)
        #expect(throws: FeedError.recordTooLong(source: "t.csv", line: 1, limit: 16)) {
            try text.withUnsafeBytes { _ = try scanner.scan($0, isLast: true, into: &batch) }
        }
        #expect(batch.fieldCount <= 64)
    }

    /// Every way of cutting a tricky feed into windows gives the records of the
    /// whole: doubled quotes, text after a closing quote, stray quotes, CR, CRLF
    /// and LF inside and outside quotes, blank lines, a BOM, no final newline.
    @Test func everyCutGivesTheSameRecords() throws {
        let text = "\u{FEFF}id,place,n\r\n1,\"a \"\"b\"\" c\",2\r\r\n2,\"x\"tail\"q,3\n3,un\"quoted,\"\"\n4,\"cr\rlf\r\nlf\nend\",5\r6,,"
        let whole = try records(text)
        #expect(whole.map(\.1) == [["id", "place", "n"], ["1", "a \"b\" c", "2"], ["2", "xtail\"q", "3"],
                                   ["3", "un\"quoted", ""], ["4", "cr\rlf\r\nlf\nend", "5"], ["6", "", ""]])
        #expect(whole.map(\.0) == [1, 2, 4, 5, 6, 10])
        for size in 1...12 {
            for copying in [false, true] {
                let cut = try records(text, chunkSize: size, copying: copying)
                #expect(cut.map(\.1) == whole.map(\.1), "chunk size \(size), copying \(copying)")
                #expect(cut.map(\.0) == whole.map(\.0), "chunk size \(size), copying \(copying)")
            }
        }
    }
}

/// Records found in parts on several cores are those of one plain scan, and
/// a cut that lands inside a quoted field, or a fault, falls back to one scan.
@Suite("CSV records found in parallel", .timeLimit(.minutes(10)))
struct ParallelRecordScannerTests {
    /// (line, fields) of every record of `text`, by a plain scan or in `parts`.
    func records(_ text: String, parts: Int, rescans: UnsafeMutablePointer<Int>? = nil) throws -> [(Int, [String])] {
        let scanner = CSVScanner(sourceName: "t.csv")
        let parallel = ParallelRecordScanner(primary: scanner, parts: parts, minimumBytes: 1)
        defer { rescans?.pointee = parallel.rescans }
        var result: [(Int, [String])] = []
        try Data(text.utf8).withUnsafeBytes { window in
            _ = try parallel.scan(window, isLast: true) { batch in
                batch.withRecords(0..<batch.count) { records in
                    for record in records { result.append((record.line, (0..<record.fieldCount).map { record.string($0) })) }
                }
            }
        }
        return result
    }

    @Test(arguments: [2, 3, 5, 16])
    func partsGiveThePlainScansRecords(_ parts: Int) throws {
        // Quoted line breaks everywhere, so some cuts land inside quotes and some do not.
        var text = ""
        for index in 0..<400 {
            switch index % 4 {
            case 0: text += "\(index),\"two\nlines\",x\n"
            case 1: text += "\(index),plain,\"a \"\"quote\"\"\"\r\n"
            case 2: text += "\n\(index),\"cr\rand\r\nlf\",y\r"
            default: text += "\(index),,\n"
            }
        }
        let plain = try records(text, parts: 1)
        // Here cuts may land inside quotes (then the window is scanned again whole): either way, the same records.
        let cut = try records(text, parts: parts)
        #expect(cut.map(\.0) == plain.map(\.0))
        #expect(cut.map(\.1) == plain.map(\.1))
        #expect(plain.count == 400)
    }

    @Test(arguments: [2, 3, 4, 5, 16])
    func cutsBetweenRecordsNeedNoRescan(_ parts: Int) throws {
        let text = (0..<500).map { "\($0),\"a, b\",\"q \"\"x\"\"\"\r\n" }.joined()
        var rescans = -1
        let cut = try records(text, parts: parts, rescans: &rescans)
        #expect(rescans == 0)
        #expect(cut.map(\.0) == Array(1...500))
        #expect(cut.last?.1 == ["499", "a, b", "q \"x\""])
    }

    @Test func aCutInsideQuotesIsCaughtAndRescanned() throws {
        let text = "id,text\n1,\"" + String(repeating: "line\n", count: 400) + "\"\n2,end\n"
        var rescans = -1
        let cut = try records(text, parts: 3, rescans: &rescans)
        #expect(rescans == 1)
        #expect(cut.map(\.0) == [1, 2, 403])
    }

    @Test func aFaultInALaterPartIsReportedAtItsRealLine() throws {
        let text = String(repeating: "a,b\n", count: 300) + "1,\u{0}2\n" + String(repeating: "c,d\n", count: 300)
        #expect(throws: FeedError.binaryData(source: "t.csv", line: 301, column: 3)) {
            try records(text, parts: 4)
        }
    }
}

/// A regular file is read a chunk ahead on another thread: whatever the
/// chunk size and however much of each window the consumer takes, the
/// windows carry the file's bytes in order, each once, and the last is whole.
@Suite("Reading a file ahead", .timeLimit(.minutes(10)))
struct ReadAheadTests {
    @Test(arguments: [1, 7, 4096, 1 << 20])
    func windowsCarryTheFileInOrder(_ chunkSize: Int) throws {
        var state: UInt64 = 99
        let bytes = (0..<(chunkSize == 1 ? 20_000 : 3_000_000)).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ahead-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var seen: [UInt8] = []
        var windows = 0
        try ChunkReader.forEachWindow(of: .file(path), chunkSize: chunkSize) { window, isLast in
            windows += 1
            // Takes a varying share of each window, as a scanner leaves an incomplete record.
            let used = isLast ? window.count : window.count * (windows % 4) / 4
            seen.append(contentsOf: window[..<used])
            return used
        }
        let firstDifference = zip(seen, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(seen.count == bytes.count && firstDifference == nil,
                "\(seen.count) bytes of \(bytes.count), first difference at \(firstDifference ?? -1)")
        #expect(windows >= bytes.count / max(chunkSize, 1) / 2)
    }

    @Test func anEmptyFileIsOneEmptyLastWindow() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ahead-\(UUID().uuidString)").path
        try Data().write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var calls: [(Int, Bool)] = []
        try ChunkReader.forEachWindow(of: .file(path)) { window, isLast in
            calls.append((window.count, isLast))
            return window.count
        }
        #expect(calls.count == 1 && calls[0] == (0, true))
    }

    /// The consumer's error ends the reading with no read left in flight over freed memory.
    @Test func theConsumersErrorStopsTheReading() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ahead-\(UUID().uuidString)").path
        try Data(repeating: 65, count: 5_000_000).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        struct Stop: Error {}
        var windows = 0
        #expect(throws: Stop.self) {
            try ChunkReader.forEachWindow(of: .file(path), chunkSize: 65_536) { window, _ in
                windows += 1
                if windows == 3 { throw Stop() }
                return window.count
            }
        }
        #expect(windows == 3)
    }
}
