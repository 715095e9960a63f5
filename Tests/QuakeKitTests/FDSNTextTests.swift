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

/// The FDSN event text format (`#EventID|Time|…`): read by header name, the
/// rows judged by the CSV's rules, and written back by `EventListEncoder`.
@Suite("FDSN event text", .timeLimit(.minutes(10)))
struct FDSNTextTests {
    static let header13 = "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName"

    /// A 13-column row (no EventType).
    static func row13(id: String = "us0001", time: String = "2020-06-30T23:51:22.060", latitude: String = "10.5",
                      longitude: String = "-20.25", depth: String = "12.3", magType: String = "mb",
                      magnitude: String = "4.6", place: String = "Somewhere far") -> String {
        "\(id)|\(time)|\(latitude)|\(longitude)|\(depth)|us|us|us|\(id)|\(magType)|\(magnitude)|us|\(place)"
    }

    static func read(_ text: String, strict: Bool = false, name: String = "test.txt") throws
        -> (events: [SeismicEvent], summary: FeedSummary) {
        var events: [SeismicEvent] = []
        let summary = try FeedReader(options: FeedOptions(strict: strict, now: Fixtures.date("2026-11-26T00:00:00Z")))
            .read(.bytes(Data(text.utf8), name: name)) { events.append($0) }
        return (events, summary)
    }

    /// What both header layouts below must give.
    static let expected = SeismicEvent(
        id: "us0001", time: Fixtures.date("2020-06-30T23:51:22.060Z"), latitude: 10.5, longitude: -20.25,
        depth: 12.3, magnitude: 4.6, magnitudeType: "mb", place: "Somewhere far", eventType: "earthquake",
        network: "us")

    @Test(arguments: [
        ("the 13 columns", header13 + "\n" + row13() + "\n"),
        ("with EventType", header13 + "|EventType\n" + row13() + "|earthquake\n"),
        ("blanks around names and values (IRIS, ObsPy)",
         "#EventID | Time | Latitude | Longitude | Depth/km | Author | Catalog | Contributor | ContributorID | MagType | Magnitude | MagAuthor | EventLocationName\n"
            + " us0001 | 2020-06-30T23:51:22.060 | 10.5 | -20.25 | 12.3 | us | us | us | us0001 | mb | 4.6 | us | Somewhere far \n"),
        ("tabs around values", header13 + "\n" + row13().replacingOccurrences(of: "|", with: "\t|\t") + "\n"),
        ("a blank between # and the first name", "# EventID" + header13.dropFirst(8) + "\n" + row13() + "\n"),
        ("extra columns", header13 + "|EventType|Quality|Region code\n" + row13() + "|earthquake|A|17\n"),
        ("columns in another order, names in other cases",
         "#magnitude|EVENTLOCATIONNAME|eventid|latitude|LONGITUDE|time|depth/KM|magtype|Contributor\n"
            + "4.6|Somewhere far|us0001|10.5|-20.25|2020-06-30T23:51:22.060Z|12.3|mb|us\n"),
        ("CRLF line ends", header13 + "\r\n" + row13() + "\r\n"),
        ("lone CR line ends", header13 + "\r" + row13() + "\r"),
        ("a byte order mark and no final line break", "\u{FEFF}" + header13 + "\n" + row13()),
        ("blank lines before the header and between rows", "\n\n" + header13 + "\n\n" + row13() + "\n\n"),
        ("blanks, a BOM and lines before the header", " \r\n\t\n\u{FEFF}  \r" + header13 + "\n" + row13() + "\n"),
    ])
    func headerVariantsGiveTheSameEvent(_ variant: String, _ text: String) throws {
        let (events, summary) = try Self.read(text)
        #expect(summary == FeedSummary(rows: 1, events: 1, withoutMagnitude: 0, rejected: 0), "\(variant)")
        // The stored fields here; the columns with no stored field are checked below.
        #expect(events.map { event in var event = event; event.details = EventDetails(); return event } == [Self.expected],
                "\(variant)")
    }

    @Test func everyColumnIsKeptInItsOwnFieldAndWrittenBack() throws {
        let text = Self.header13 + "|EventType\n"
            + "us0001|2020-06-30T23:51:22.060|10.5|-20.25|12.3|ISC|ISC-REV|us|us6000abcd|mb|4.6|NEIC|Somewhere far|earthquake\n"
        let (events, _) = try Self.read(text)
        let event = try #require(events.first)
        #expect(event.network == "us" && event.id == "us0001")
        #expect(event.details[.locationSource] == .text("ISC") && event.details[.catalog] == .text("ISC-REV"))
        #expect(event.details[.contributorId] == .text("us6000abcd") && event.details[.magSource] == .text("NEIC"))
        let written = String(decoding: try EventListEncoder().encode(events, as: .text), as: UTF8.self)
        #expect(written == text)
    }

    @Test func linesAreCountedFromTheFirstWhateverStandsBeforeTheHeader() throws {
        let text = " \r\n\t\n  \r\n" + Self.header13 + "\n" + Self.row13(latitude: "-95") + "\n"
        let (_, summary) = try Self.read(text)
        #expect(summary.rejections.map(\.message) == ["test.txt:5: column 'Latitude': '-95' is outside -90…90"])
    }

    @Test func eventTypeIsReadAndEmptyMeansEarthquake() throws {
        let text = Self.header13 + "|EventType\n" + Self.row13(id: "a") + "|quarry blast\n"
            + Self.row13(id: "b") + "|\n" + Self.row13(id: "c") + "| explosion \n"
        let (events, _) = try Self.read(text)
        #expect(events.map(\.eventType) == ["quarry blast", "earthquake", "explosion"])
    }

    @Test func emptyValuesBehaveAsEmptyCSVFields() throws {
        let text = Self.header13 + "\n" + Self.row13(depth: "", magType: "", magnitude: "", place: "") + "\n"
        let (events, summary) = try Self.read(text)
        #expect(summary == FeedSummary(rows: 1, events: 0, withoutMagnitude: 1, rejected: 0))
        let event = try #require(events.first)
        #expect(event.depth == nil && event.magnitude == nil && event.magnitudeType == nil && event.place == "")
    }

    @Test(arguments: [
        ("2020-06-30T23:51:22", "2020-06-30T23:51:22.000Z"),
        ("2020-06-30T23:51:22.1", "2020-06-30T23:51:22.100Z"),
        ("2020-06-30T23:51:22.06", "2020-06-30T23:51:22.060Z"),
        ("2020-06-30T23:51:22.0604", "2020-06-30T23:51:22.060Z"),
        ("2020-06-30T23:51:22.060449", "2020-06-30T23:51:22.060Z"),
        ("2020-06-30T23:51:22.0605Z", "2020-06-30T23:51:22.061Z"),
        ("2020-06-30T23:51:22.060Z", "2020-06-30T23:51:22.060Z"),
    ])
    func timesWithAndWithoutZoneAndUpToSixFractionDigits(_ written: String, _ instant: String) throws {
        let (events, _) = try Self.read(Self.header13 + "\n" + Self.row13(time: written) + "\n")
        #expect(events.map { CivilTime.iso8601($0.time) } == [instant])
    }

    @Test(arguments: [
        (row13(latitude: "95"), "test.txt:3: column 'Latitude': '95' is outside -90…90"),
        (row13(longitude: ""), "test.txt:3: column 'Longitude' is empty"),
        (row13(time: "yesterday"),
         "test.txt:3: column 'Time': 'yesterday' is not a time (expected ISO 8601, e.g. 2020-06-11T15:27:04.123Z)"),
        (row13(magnitude: "big"), "test.txt:3: column 'Magnitude': 'big' is not a number"),
        (row13(depth: "9000"), "test.txt:3: column 'Depth/km': '9000' is outside -15…1000 km"),
        ("us9|2020-06-30T23:51:22|1|2", "test.txt:3: row has 4 fields, the header has 13"),
        (row13() + "|extra", "test.txt:3: row has 14 fields, the header has 13"),
    ])
    func badRowsAreRejectedWithLineAndColumn(_ row: String, _ message: String) throws {
        let text = Self.header13 + "\n" + Self.row13(id: "ok1") + "\n" + row + "\n" + Self.row13(id: "ok2") + "\r\n"
        let (events, summary) = try Self.read(text)
        #expect(events.map(\.id) == ["ok1", "ok2"])
        #expect(summary.rows == 3 && summary.rejected == 1)
        #expect(summary.rejections.map(\.message) == [message])
    }

    @Test func strictModeStopsAtTheFirstRejection() throws {
        let text = Self.header13 + "\n" + Self.row13() + "\n" + Self.row13(latitude: "-91") + "\n"
        #expect {
            try Self.read(text, strict: true)
        } throws: { error in
            (error as? FeedError)?.message == "test.txt:3: column 'Latitude': '-91' is outside -90…90"
        }
    }

    @Test func missingColumnsAreNamedAsTheFormatNamesThem() throws {
        let text = "#EventID|Time|Lat|Lon|Magnitude\n"
        #expect {
            try Self.read(text)
        } throws: { error in
            (error as? FeedError)?.message
                == "test.txt:1: required column 'Latitude', 'Longitude' not found in the header (EventID,Time,Lat,Lon,Magnitude)"
        }
    }

    @Test func aColumnNamedTwiceIsAmbiguous() throws {
        #expect(throws: FeedError.duplicateColumn(source: "test.txt", name: "Magnitude", columns: [11, 14])) {
            try Self.read(Self.header13 + "|Magnitude\n")
        }
    }

    @Test func headerOnlyIsAnEmptyCatalogue() throws {
        for text in [Self.header13 + "\n", Self.header13, Self.header13 + "|EventType\r\n"] {
            let (events, summary) = try Self.read(text)
            #expect(events.isEmpty)
            #expect(summary == FeedSummary(rows: 0, events: 0, withoutMagnitude: 0, rejected: 0))
        }
    }

    @Test func aNulByteIsBinaryDataWithItsLineAndColumn() throws {
        let text = Self.header13 + "\n" + Self.row13() + "\nus2|2020\u{0}|1\n"
        #expect(throws: FeedError.binaryData(source: "test.txt", line: 3, column: 9)) { try Self.read(text) }
    }

    @Test func aHashLineWithoutEventIDIsStillReadAsCSV() throws {
        // Not FDSN text: a CSV whose header happens to start with '#'; it lacks CSV columns as ever.
        #expect(throws: FeedError.missingColumns(source: "test.txt", missing: ["time", "latitude", "longitude"],
                                                      header: ["#time|latitude|longitude"])) {
            try Self.read("#time|latitude|longitude\n")
        }
    }

    /// Cut anywhere, the scanner finds the same records on the same lines.
    @Test func pipeScannerGivesTheSameRecordsWhereverTheWindowsEnd() throws {
        let text = Array(("\u{FEFF}" + Self.header13 + "\r\n" + Self.row13() + "\r\n\n" + Self.row13(place: " a  b ")
                          + "\r" + Self.row13(id: "x") + "\n|\n" + Self.row13(id: "last")).utf8)
        func records(_ chunk: Int) throws -> [[String]] {
            let scanner = PipeScanner(sourceName: "t.txt")
            var batch = CSVBatch(), found: [[String]] = [], start = 0, end = min(chunk, text.count)
            while true {
                let isLast = end == text.count
                let used = try text[start..<end].withUnsafeBytes { try scanner.scan($0, isLast: isLast, into: &batch) }
                for index in 0..<batch.count {
                    batch.withRecord(index) { record in
                        found.append(["\(record.line)"] + (0..<record.fieldCount).map { record.string($0) })
                    }
                }
                if isLast { return found }
                start += used
                end = min(text.count, max(end + chunk, start + 1))
            }
        }
        let whole = try records(text.count)
        #expect(whole.map(\.first) == ["1", "2", "4", "5", "6", "7"])
        #expect(whole[2][13] == " a  b ")
        #expect(whole[4] == ["6", "", ""])
        for chunk in 1...40 { #expect(try records(chunk) == whole, "windows of \(chunk) bytes") }
    }

    @Test func aLineLongerThanTheLimitIsRefused() throws {
        let scanner = PipeScanner(sourceName: "t.txt", maximumRecordBytes: 16)
        var batch = CSVBatch()
        let text = Array("a|b\n0123456789|0123456789\n".utf8)
        #expect(throws: FeedError.recordTooLong(source: "t.txt", line: 2, limit: 16)) {
            _ = try text.withUnsafeBytes { try scanner.scan($0, isLast: true, into: &batch) }
        }
    }

    // MARK: - Writing

    @Test func writesTheHeaderAndOneLinePerEvent() throws {
        let event = SeismicEvent(id: "ak0001", time: Fixtures.date("2020-06-30T23:51:22.06Z"), latitude: 61.25,
                                 longitude: -150, depth: 0.1, magnitude: 1, magnitudeType: "ml",
                                 place: "8 km N of Anchorage, Alaska", eventType: "earthquake", network: "ak")
        let text = String(decoding: try EventListEncoder().encode([event], as: .text), as: UTF8.self)
        #expect(text == EventListEncoder.fdsnTextHeader + "\n"
            + "ak0001|2020-06-30T23:51:22.060|61.25|-150|0.1|||ak||ml|1||8 km N of Anchorage, Alaska|earthquake\n")
    }

    @Test func separatorsAndLineBreaksInTextCannotBreakTheFile() throws {
        let event = SeismicEvent(id: "x|1", time: Fixtures.date("2024-01-01T00:00:00Z"), latitude: 1, longitude: 2,
                                 place: "North | South\nline\r two\tthree", eventType: "ice|quake")
        let data = try EventListEncoder().encode([event], as: .text)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty)
        #expect(lines[1].split(separator: "|", omittingEmptySubsequences: false).count == 14)
        let (events, _) = try Self.read(String(decoding: data, as: UTF8.self))
        #expect(events.map(\.place) == ["North / South line  two three"])
        #expect(events.map(\.id) == ["x/1"])
        #expect(events.map(\.eventType) == ["ice/quake"])
    }

    /// Events made here, with the values a writer is most likely to spoil:
    /// long fractions, negative depths and magnitudes, missing values, odd places.
    static func madeEvents(count: Int) -> [SeismicEvent] {
        var generator = SplitMix64(state: 19)
        let types = ["earthquake", "quarry blast", "explosion", "ice quake"]
        return (0..<count).map { index in
            let missing = index % 97 == 0
            return SeismicEvent(
                id: "tx\(index)",
                time: Date(timeIntervalSince1970: Double(1_500_000_000_000 + Int(generator.next() % 250_000_000_000)) / 1000),
                latitude: Double.random(in: 0..<1, using: &generator) * 180 - 90, longitude: Double.random(in: 0..<1, using: &generator) * 360 - 180,
                depth: missing ? nil : (Double.random(in: 0..<1, using: &generator) * 700 - 3).rounded(toPlaces: index % 5),
                magnitude: missing ? nil : (Double.random(in: 0..<1, using: &generator) * 9 - 1).rounded(toPlaces: index % 4),
                magnitudeType: missing ? nil : ["ml", "mb", "Mww", "md"][index % 4],
                place: index % 11 == 0 ? "" : "\(index % 300) km W of Ünïcode Town, Ω",
                eventType: types[index % types.count], network: "tx")
        }
    }

    @Test func whatIsWrittenReadsBackToTheSameEvents() throws {
        // Enough rows that the reader scans and decodes on all cores.
        let events = Self.madeEvents(count: 30_000)
        let data = try EventListEncoder().encode(events, as: .text)
        #expect(data.count > ParallelRecordScanner<PipeScanner>.defaultMinimumBytes)
        let (read, summary) = try Self.read(String(decoding: data, as: UTF8.self), strict: true)
        #expect(summary.rows == events.count)
        #expect(read == events)
        // And the same events as the CSV written from them.
        let (fromCSV, _) = try Self.read(String(decoding: try EventListEncoder().encode(events, as: .csv), as: UTF8.self),
                                         strict: true, name: "test.csv")
        #expect(read.map(Listed.init) == fromCSV.map(Listed.init))
    }

    /// What both formats carry (CSV as `list` writes it has no network).
    struct Listed: Equatable {
        let id: String, time: Date, latitude: Double, longitude: Double, depth: Double?, magnitude: Double?
        let magnitudeType: String?, place: String, eventType: String
        init(_ event: SeismicEvent) {
            (id, time, latitude, longitude, depth, magnitude) =
                (event.id, event.time, event.latitude, event.longitude, event.depth, event.magnitude)
            (magnitudeType, place, eventType) = (event.magnitudeType, event.place, event.eventType)
        }
    }

    @Test(.enabled(if: RealFeeds.available, "../shared/data/usgs is not beside the repository: round trips skipped"),
          arguments: ["all_month_2020-06.csv", "all_month_2022-03.csv", "all_month_2015-12_15col.csv",
                      "4.5_week_2020-04.csv", "significant_month_2024-05.csv", "eqs7day-M1_2011-05.txt",
                      "4.5_week_2020-10.geojson", "all_week_2014-04.geojson"])
    func everySharedFeedRoundTrips(_ file: String) throws {
        var events: [SeismicEvent] = []
        _ = try FeedReader(options: FeedOptions(strict: true)).read(.file(RealFeeds.folder + "/" + file)) {
            events.append($0)
        }
        #expect(!events.isEmpty)
        let data = try EventListEncoder().encode(events, as: .text)
        var read: [SeismicEvent] = []
        let summary = try FeedReader(options: FeedOptions(strict: true))
            .read(.bytes(data, name: file + ".txt")) { read.append($0) }
        #expect(summary.rows == events.count && summary.rejected == 0)
        #expect(read.count == events.count)
        for (written, back) in zip(events, read) {
            #expect(Listed(back) == Listed(written))
            #expect(back.network == written.network)
        }
    }
}

private extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let scale = Double([1, 10, 100, 1000, 10000][places])
        return (self * scale).rounded() / scale
    }
}
