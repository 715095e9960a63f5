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

/// The spooled list (what `list --limit 0` writes) against the in-memory
/// one: ``EventListEncoder`` over ``QuakeMap/select(from:feed:selection:)``.
@Suite("Spooled event lists", .timeLimit(.minutes(10)))
struct EventListSpoolTests {
    static let formats = EventListFormat.allCases.filter(EventListSpool.spools)
    /// The formats of the large generated feeds: QuakeML's events are ten times a CSV line's and go the
    /// same way through the spool's bytes, so the small feeds check it.
    static let largeFormats = formats.filter { $0 != .quakeml }

    static let selections: [EventSelection] = [
        EventSelection(limit: nil),
        EventSelection(limit: 37),
        EventSelection(limit: nil, filter: EventFilter(minimumMagnitude: 2.5)),
        EventSelection(limit: nil, region: try? GeoBox(west: -130, south: 20, east: -60, north: 50)),
    ]

    static func inMemory(_ source: FeedSource, _ selection: EventSelection, _ format: EventListFormat,
                         feed: FeedOptions = FeedOptions()) throws -> Data {
        try EventListEncoder().encode(QuakeMap.select(from: source, feed: feed, selection: selection).events, as: format)
    }

    static func spooled(_ source: FeedSource, _ selection: EventSelection, _ format: EventListFormat,
                        feed: FeedOptions = FeedOptions()) throws -> (Data, EventListSpool) {
        let spool = try EventListSpool(from: source, feed: feed, selection: selection, format: format)
        return (try spool.data(), spool)
    }

    static var sharedFeeds: [String] {
        guard RealFeeds.available else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: RealFeeds.folder)) ?? [])
            .filter { !$0.hasSuffix(".md") }.sorted()
    }

    @Test(.enabled(if: RealFeeds.available, "../shared/data/usgs is not beside the repository: real-feed comparison skipped"),
          arguments: sharedFeeds)
    func sameBytesAsTheInMemoryListOnSharedFeeds(_ file: String) throws {
        let source = FeedSource.file(RealFeeds.folder + "/" + file)
        for format in Self.largeFormats {
            for selection in Self.selections {
                let expected = try Self.inMemory(source, selection, format)
                let (got, spool) = try Self.spooled(source, selection, format)
                #expect(got == expected, "\(file) as \(format), limit \(selection.limit.map(String.init) ?? "none")")
                let selected = try QuakeMap.select(from: source, selection: selection)
                #expect(spool.count == selected.events.count)
                #expect(spool.duplicates == selected.duplicates)
                #expect(spool.summary == selected.summary)
            }
        }
    }

    /// A feed with what settles the order: repeated ids with and without
    /// `updated` (older, newer, equal), equal times, and the quirks that
    /// take the formatter's slow paths; big enough to spill to a file
    /// (more than the 4 MiB kept in memory) and to be radix-sorted.
    static func generatedFeed(rows: Int) -> String {
        var text = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type\n"
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let places = ["10 km N of Town, State", "Ocean \"ridge\"", "Pāhala, Hawaii", "south of the Fiji Islands",
                      "a|pipe", "", "Zürich, ,comma", "tab\there"]
        let magnitudes = ["1.5", "", "-0.3", "2.03", "4.123456", "0.00001", "7", "3.14159265358979", "1e-4", "6.5"]
        let numbers = ["12.5", "-33.1234567", "0.001", "45", "-0", "179.99999999", "1e2", "0.1"]
        for row in 0..<rows {
            // Times repeat (ties) and go back and forth, as merged feeds do.
            let second = 1_700_000_000 - next(rows / 3 + 1) * 7
            let millis = next(4) == 0 ? 0 : next(1000)
            let time = CivilTime.iso8601(Date(timeIntervalSince1970: Double(second) + Double(millis) / 1000))
            let id = next(5) == 0 ? "rep\(next(rows / 20 + 1))" : (next(50) == 0 ? "" : "ev\(row)")
            let updated = next(3) == 0 ? "" : CivilTime.iso8601(Date(timeIntervalSince1970: Double(1_700_000_000 + next(20))))
            let place = places[next(places.count)]
            let quotedPlace = place.contains(",") || place.contains("\"")
                ? "\"" + place.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : place
            let latitude = next(10) == 0 ? numbers[next(numbers.count)] : String(Double(next(180_000) - 90_000) / 1000)
            let longitude = next(10) == 0 ? numbers[next(numbers.count)] : String(Double(next(3_600_000) - 1_800_000) / 10_000)
            let depth = next(20) == 0 ? "" : (next(3) == 0 ? numbers[next(numbers.count)].replacingOccurrences(of: "-", with: "")
                                                 : String(Double(next(700_000)) / 1000))
            let magnitude = magnitudes[next(magnitudes.count)]
            let type = next(10) == 0 ? "quarry blast" : "earthquake"
            text += "\(time),\(latitude),\(longitude),\(depth),\(magnitude),ml,,,,,us,\(id),\(updated),\(quotedPlace),\(type)\n"
        }
        return text
    }

    @Test func sameBytesOnAGeneratedFeedThatSpillsToAFile() throws {
        let feed = Data(Self.generatedFeed(rows: 60_000).utf8)
        let source = FeedSource.bytes(feed, name: "generated")
        // Without a limit: with one, the in-memory selection settles repeated ids among the events it keeps.
        // Every format unfiltered (the spill); the filter and the region in two of them.
        for format in Self.largeFormats {
            for selection in Self.selections where selection.limit == nil
                && ([.csv, .geojson].contains(format) || selection == Self.selections[0]) {
                let expected = try Self.inMemory(source, selection, format)
                let (got, spool) = try Self.spooled(source, selection, format)
                #expect(got == expected, "\(format), limit \(selection.limit.map(String.init) ?? "none")")
                if selection.limit == nil && selection.filter == EventFilter() && selection.region == nil {
                    #expect(spool.duplicates > 1000, "the feed repeats ids")
                    #expect(spool.isSpilled, "the spool left memory")
                }
            }
        }
    }

    /// Rows are admitted and encoded on the decoding threads, a part of a
    /// batch each: CRLF line ends, line breaks inside quoted places (a
    /// parallel scan's guessed cut can land in one), rejected rows and rows
    /// without a magnitude between them, and a filter that reads text (its
    /// rows are admitted per event, not by the bounds alone).
    @Test func sameBytesWhenRowsAreListedInParallelParts() throws {
        var feed = Self.generatedFeed(rows: 24_000).replacingOccurrences(of: "\n", with: "\r\n")
        // A place broken over lines, long enough to straddle the guessed cuts of a window.
        let broken = "\"line one,\r\nline two\nand \"\"three\"\"\r\n\""
        var lines = feed.components(separatedBy: "\r\n")
        for index in stride(from: 1, to: lines.count - 1, by: 97) {
            lines[index] = lines[index].replacingOccurrences(of: ",ml,", with: ",\(broken),")
        }
        for index in stride(from: 5, to: lines.count - 1, by: 503) { lines[index] = "not a time" + lines[index] }
        feed = lines.joined(separator: "\r\n")
        let source = FeedSource.bytes(Data(feed.utf8), name: "crlf")
        let selections = [EventSelection(limit: nil),
                          EventSelection(limit: nil, filter: EventFilter(excludedTypes: ["quarry blast"])),
                          EventSelection(limit: nil, filter: EventFilter(minimumMagnitude: 2, maximumDepth: 300))]
        // Every format unfiltered; the filters (admitted per event, or by the bounds alone) in two of them.
        for format in Self.largeFormats {
            for selection in [.csv, .json].contains(format) ? selections : [selections[0]] {
                let expected = try Self.inMemory(source, selection, format)
                let (got, spool) = try Self.spooled(source, selection, format)
                #expect(got == expected, "\(format), filter \(selection.filter)")
                let selected = try QuakeMap.select(from: source, selection: selection)
                #expect(spool.summary == selected.summary)
                #expect(spool.summary.rejected > 30, "the feed has rejected rows")
            }
        }
    }

    /// A feed that is only a header, with blank lines after it, lists nothing.
    @Test func aHeaderAloneListsNothing() throws {
        let feed = Data(("time,latitude,longitude,depth,mag,id\r\n" + String(repeating: "\r\n", count: 5_000)).utf8)
        for format in Self.formats {
            let (got, spool) = try Self.spooled(.bytes(feed, name: "header"), EventSelection(limit: nil), format)
            #expect(spool.count == 0)
            #expect(got == (try Self.inMemory(.bytes(feed, name: "header"), EventSelection(limit: nil), format)))
        }
    }

    @Test func smallFeedsStayInMemoryAndAgreeToo() throws {
        let feed = Data(Self.generatedFeed(rows: 300).utf8)
        for format in Self.formats {
            let selection = EventSelection(limit: nil)
            let expected = try Self.inMemory(.bytes(feed, name: "small"), selection, format)
            let (got, spool) = try Self.spooled(.bytes(feed, name: "small"), selection, format)
            #expect(got == expected, "\(format)")
            #expect(!spool.isSpilled)
        }
        let empty = Data("time,latitude,longitude,mag\n".utf8)
        for format in Self.formats {
            let expected = try Self.inMemory(.bytes(empty, name: "empty"), EventSelection(limit: nil), format)
            #expect(try Self.spooled(.bytes(empty, name: "empty"), EventSelection(limit: nil), format).0 == expected)
        }
    }

    @Test func aFileReadFromDiskAgreesWithTheSameBytesInMemory() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let feed = Data(Self.generatedFeed(rows: 5_000).utf8)
        try feed.write(to: url)
        let fromFile = try Self.spooled(.file(url.path), EventSelection(limit: nil), .csv).0
        #expect(fromFile == (try Self.spooled(.bytes(feed, name: "same"), EventSelection(limit: nil), .csv).0))
        #expect(fromFile == (try Self.inMemory(.file(url.path), EventSelection(limit: nil), .csv)))
    }

    @Test func strictModeThrowsAsTheReaderDoes() throws {
        let feed = Data("time,latitude,longitude,mag\n2020-01-01T00:00:00Z,1,2,3\nnot a time,1,2,3\n".utf8)
        #expect(throws: FeedError.self) {
            _ = try EventListSpool(from: .bytes(feed, name: "bad"), feed: FeedOptions(strict: true),
                                   selection: EventSelection(limit: nil), format: .csv)
        }
    }

    // MARK: The formatter

    /// Values from the feeds' range and beyond: few and many decimals, tiny and huge.
    static func sampleNumbers() -> [Double] {
        var values: [Double] = [0, -0.0, 0.1, 0.2, 0.3, 1.5, -2.75, 0.001, 0.0001, 0.00001, 1e-7, 123_456_789.123,
                                999_999_999.5, 1e9 + 0.5, 1e15, 1e16, 1.7976931348623157e308, Double.leastNonzeroMagnitude, .nan, .infinity,
                                -.infinity, 0.1 + 0.2, 1.0 / 3, 179.99999999, -33.1234567, 4.123456]
        var state: UInt64 = 12345
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let integer = Double(Int64(bitPattern: state >> 20) % 2_000_000) - 1_000_000
            let decimals = Int(state % 9)
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            values.append(integer / scale)
            values.append(Double(bitPattern: state >> 2) )
        }
        return values
    }

    @Test func numbersAreWrittenAsSwiftDescribesThem() throws {
        for value in Self.sampleNumbers() {
            var bytes: [UInt8] = []
            EventLineEncoder.appendNumber(value, to: &bytes)
            // The reference: an integer value as an integer, anything else as Swift's own shortest round-trip text.
            let expected = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
            #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(value.bitPattern)")
        }
    }

    @Test func jsonNumbersAreWrittenAsJSONEncoderWritesThem() throws {
        for value in Self.sampleNumbers() where value.isFinite {
            var bytes: [UInt8] = []
            EventLineEncoder.appendJSONNumber(value, to: &bytes)
            let encoded = try JSONEncoder().encode([value])
            #expect(bytes == Array(encoded.dropFirst().dropLast()), "\(value.bitPattern)")
        }
    }

    @Test func jsonStringsAreEscapedAsJSONEncoderEscapesThem() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var texts = ["plain", "a/b", "quote \" and \\ backslash", "Pāhala", "emoji 🌋", "\u{7F}del", "\u{85}next",
                     "\u{2028}sep", "e\u{301}"]
        texts += (0..<32).map { "c\(Character(Unicode.Scalar(UInt8($0))))c" }
        for text in texts {
            var bytes: [UInt8] = []
            EventLineEncoder.appendJSONString(text, to: &bytes)
            let encoded = try encoder.encode([text])
            #expect(bytes == Array(encoded.dropFirst().dropLast()), "\(Array(text.unicodeScalars))")
        }
    }

    /// Every pair of the pieces that matter to CSV and FDSN text, alone and inside other text.
    static func hostileFields() -> [String] {
        let pieces = [",", "\"", "a", "é", "\u{301}", "\r", "\n", "\r\n", "|", "\u{85}", "\u{2028}", "\u{2029}", "\u{7F}",
                      "\t", " ", "Pāhala", "\u{600}", "\u{200D}", "🌋", "<", "&"]
        var fields = [""] + pieces
        for first in pieces { for second in pieces { fields.append(first + second); fields.append("x" + first + second + "y") } }
        return fields
    }

    @Test func csvFieldsAreQuotedByRFC4180() throws {
        for field in Self.hostileFields() {
            var csv: [UInt8] = []
            EventLineEncoder.appendCSVField(field, to: &csv)
            // Decided on scalars, as a CSV reader splits: "\r\n" is one Character but two scalars.
            let special = field.unicodeScalars.contains { [",", "\"", "\r", "\n"].contains($0) }
            let doubled = field.unicodeScalars.flatMap { $0 == "\"" ? ["\"", "\""] : [$0] }
            let expected = special ? "\"" + String(String.UnicodeScalarView(doubled)) + "\"" : field
            #expect(String(decoding: csv, as: UTF8.self) == expected, "\(Array(field.unicodeScalars))")
        }
        var crlf: [UInt8] = []
        EventLineEncoder.appendCSVField("Fiji\r\nIslands", to: &crlf)
        #expect(crlf == Array("\"Fiji\r\nIslands\"".utf8))
    }

    @Test func fdsnTextFieldsKeepOneLineAndOneField() throws {
        for field in Self.hostileFields() {
            var text: [UInt8] = []
            EventLineEncoder.appendPipeSafe(field, to: &text)
            let expected = String(String.UnicodeScalarView(field.unicodeScalars.map { scalar -> Unicode.Scalar in
                if scalar == "|" { return "/" }
                let breaks = scalar.value < 0x20 || scalar.value == 0x7F || [0x85, 0x2028, 0x2029].contains(scalar.value)
                return breaks ? " " : scalar
            }))
            #expect(String(decoding: text, as: UTF8.self) == expected, "\(Array(field.unicodeScalars))")
        }
    }

    /// Details of every kind, some absent, hostile text among them.
    static func details(_ index: Int, _ field: String) -> EventDetails {
        var details = EventDetails()
        if index % 3 != 0 { details[.gap] = .number(Double(index) * 1.5) }
        if index % 4 != 1 { details[.nst] = .integer(Int64(index)) }
        if index % 5 != 2 { details[.locationSource] = .text("src" + field) }
        if index % 2 == 0 { details[.alert] = .text("green") }
        if index % 7 == 3 { details[.tsunami] = .integer(1) }
        if index % 3 == 1 { details[.horizontalError] = .number(0.125) }
        return details
    }

    @Test func jsonListsAreWhatJSONEncoderWritesForTheReferenceTypes() throws {
        let events = Self.hostileFields().enumerated().map { index, field in
            SeismicEvent(id: "id\(index)" + field, time: Date(timeIntervalSince1970: 1_590_000_000 + Double(index) * 61.25),
                         latitude: Double(index % 170) - 85.125, longitude: Double(index % 359) - 179.5,
                         depth: index % 7 == 0 ? nil : Double(index) / 3, magnitude: index % 5 == 0 ? nil : Double(index % 80) / 10,
                         magnitudeType: index % 3 == 0 ? nil : "m" + field, place: field, eventType: "earthquake",
                         network: index % 4 == 0 ? nil : "us", updated: index % 6 == 0 ? nil : Date(timeIntervalSince1970: 1_600_000_000),
                         status: index % 2 == 0 ? nil : "reviewed", details: Self.details(index, field))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for count in [0, 1, events.count] {
            let some = Array(events.prefix(count))
            let json = try EventListEncoder().encode(some, as: .json)
            #expect(json == (try encoder.encode(some.map(ListedEventReference.init))) + Data("\n".utf8))
            let geojson = try EventListEncoder().encode(some, as: .geojson)
            #expect(geojson == (try encoder.encode(GeoJSONCollectionReference(events: some))) + Data("\n".utf8))
        }
    }

    @Test func timesAreWrittenAsCivilTimeWritesThem() throws {
        var state: UInt64 = 99
        var dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.0005), Date(timeIntervalSince1970: 0.0005),
                     Date(timeIntervalSince1970: -62_135_596_800), Date(timeIntervalSince1970: 253_402_300_799.999),
                     Date(timeIntervalSince1970: 1e15), Date(timeIntervalSince1970: -1e13)]
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            dates.append(Date(timeIntervalSince1970: Double(Int64(bitPattern: state) % 300_000_000_000) / 1000 * 37))
        }
        for date in dates {
            var bytes: [UInt8] = []
            EventLineEncoder.appendISO8601(date, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == CivilTime.iso8601(date), "\(date.timeIntervalSince1970)")
            var fdsn: [UInt8] = []
            EventLineEncoder.appendISO8601(date, zoneLetter: false, to: &fdsn)
            #expect(String(decoding: fdsn, as: UTF8.self) == String(CivilTime.iso8601(date).dropLast()))
        }
    }
}
