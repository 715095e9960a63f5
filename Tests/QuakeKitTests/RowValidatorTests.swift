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

/// One rule in one place: the same event, written in each format the readers
/// take (CSV, FDSN text, GeoJSON with numbers and with strings, QuakeML), gets
/// the same verdict in each, the same reason and evidence, and under
/// `--strict` the same error. A reader that judged a value by a copy of its
/// own would part from the others here.
@Suite("One row validator", .timeLimit(.minutes(10)))
struct RowValidatorTests {
    static let now = Fixtures.date("2026-11-22T00:00:00Z")

    /// An event's values as text, written alike (as far as each format can) in every format.
    struct Row: Sendable, CustomTestStringConvertible {
        var time = "2026-11-20T10:00:00.123Z"
        var latitude = "38.25"
        var longitude = "142.5"
        /// Kilometres; QuakeML gets it in metres.
        var depth = "35.5"
        var magnitude = "5.4"
        /// Blank: no revision. FDSN text has no column for it.
        var updated = ""
        var testDescription: String {
            "time \(time), latitude \(latitude), longitude \(longitude), depth \(depth), magnitude \(magnitude), updated \(updated)"
        }
    }

    enum Format: String, CaseIterable, Sendable {
        case csv, fdsnText, geoJSON, geoJSONStrings, quakeML

        /// FDSN event text has no `updated` column.
        func carries(_ row: Row) -> Bool { self != .fdsnText || row.updated.isEmpty }

        func document(_ row: Row) -> String {
            switch self {
            case .csv:
                return "time,latitude,longitude,depth,mag,magType,net,id,updated,place,type\n"
                    + "\(row.time),\(row.latitude),\(row.longitude),\(row.depth),\(row.magnitude),mww,us,us7000abcd,"
                    + "\(row.updated),\"Somewhere, Japan\",earthquake\n"
            case .fdsnText:
                return "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType\n"
                    + "us7000abcd|\(row.time)|\(row.latitude)|\(row.longitude)|\(row.depth)|us|us|us|us7000abcd|mww|"
                    + "\(row.magnitude)|us|Somewhere, Japan|earthquake\n"
            case .geoJSON, .geoJSONStrings:
                // Numbers as JSON numbers where the text is one; anything else, and every value in the second, a string.
                let numbers = self == .geoJSON
                func number(_ text: String) -> String { numbers && Self.isJSONNumber(text) ? text : Self.quoted(text) }
                let updated = row.updated.isEmpty ? "null" : Self.quoted(row.updated)
                return #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"us7000abcd","properties":{"#
                    + #""mag":\#(number(row.magnitude)),"place":"Somewhere, Japan","time":\#(Self.quoted(row.time)),"#
                    + #""updated":\#(updated),"type":"earthquake","magType":"mww","net":"us"},"#
                    + #""geometry":{"type":"Point","coordinates":[\#(number(row.longitude)),\#(number(row.latitude)),"#
                    + #"\#(number(row.depth))]}}]}"#
            case .quakeML:
                let metres = DecimalShift.shifted(row.depth.utf8, by: 3).map { String(decoding: $0, as: UTF8.self) } ?? row.depth
                let updated = row.updated.isEmpty ? "" : "<creationInfo><creationTime>\(row.updated)</creationTime></creationInfo>"
                return QuakeMLTests.document("""
                    <event catalog:eventsource="us" catalog:eventid="7000abcd" publicID="quakeml:x/event/us7000abcd">
                    <description><type>earthquake name</type><text>Somewhere, Japan</text></description>
                    <origin publicID="quakeml:x/origin/1"><time><value>\(row.time)</value></time>
                    <latitude><value>\(row.latitude)</value></latitude><longitude><value>\(row.longitude)</value></longitude>
                    <depth><value>\(metres)</value></depth></origin>
                    <magnitude publicID="quakeml:x/magnitude/1"><mag><value>\(row.magnitude)</value></mag><type>mww</type></magnitude>
                    <type>earthquake</type>\(updated)
                    </event>

                    """)
            }
        }

        static func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }

        static func isJSONNumber(_ text: String) -> Bool {
            text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil
        }

        func read(_ row: Row, strict: Bool = false) throws -> (events: [SeismicEvent], summary: FeedSummary) {
            var events: [SeismicEvent] = []
            let summary = try FeedReader(options: FeedOptions(strict: strict, now: RowValidatorTests.now))
                .read(.bytes(Data(document(row).utf8), name: "event")) { events.append($0) }
            return (events, summary)
        }
    }

    /// A hostile value, the field it is in, and the reason every format must give.
    struct Hostile: Sendable, CustomTestStringConvertible {
        let row: Row
        let reason: String
        /// The value the message shows; for a depth QuakeML shows its metres with their unit.
        let shown: String?
        let shownInMetres: String?
        var testDescription: String { "\(row.testDescription): \(reason)" }

        init(_ change: (inout Row) -> Void, _ reason: String, shown: String?, inMetres: String? = nil) {
            var row = Row()
            change(&row)
            self.row = row
            self.reason = reason
            self.shown = shown
            shownInMetres = inMetres
        }
    }

    static let notATime = "is not a time (expected ISO 8601, e.g. 2020-06-11T15:27:04.123Z)"

    static let hostile: [Hostile] = [
        Hostile({ $0.updated = "yesterday" }, notATime, shown: "yesterday"),
        Hostile({ $0.updated = "2020-02-30T00:00:00Z" }, notATime, shown: "2020-02-30T00:00:00Z"),
        Hostile({ $0.time = "2020-13-45" }, notATime, shown: "2020-13-45"),
        Hostile({ $0.time = "yesterday" }, notATime, shown: "yesterday"),
        Hostile({ $0.time = "" }, "is empty", shown: nil),
        Hostile({ $0.time = "2026-11-24T00:00:00.000Z" }, "is in the future (after 2026-11-22T00:00:00.000Z + 1 day)",
                shown: "2026-11-24T00:00:00.000Z"),
        Hostile({ $0.latitude = "91" }, "is outside -90…90", shown: "91"),
        Hostile({ $0.latitude = "-90.5" }, "is outside -90…90", shown: "-90.5"),
        Hostile({ $0.latitude = "" }, "is empty", shown: nil),
        Hostile({ $0.latitude = "abc" }, "is not a number", shown: "abc"),
        Hostile({ $0.latitude = "NaN" }, "is not a finite number", shown: "NaN"),
        Hostile({ $0.longitude = "-181" }, "is outside -180…180", shown: "-181"),
        Hostile({ $0.longitude = "" }, "is empty", shown: nil),
        Hostile({ $0.longitude = "0x1p3" }, "is not a number", shown: "0x1p3"),
        Hostile({ $0.depth = "1200" }, "is outside -15…1000 km", shown: "1200", inMetres: "1200000 m"),
        Hostile({ $0.depth = "-16" }, "is outside -15…1000 km", shown: "-16", inMetres: "-16000 m"),
        Hostile({ $0.depth = "deep" }, "is not a number", shown: "deep"),
        Hostile({ $0.depth = "inf" }, "is not a finite number", shown: "inf"),
        Hostile({ $0.magnitude = "12" }, "is outside -5…10", shown: "12"),
        Hostile({ $0.magnitude = "-5.5" }, "is outside -5…10", shown: "-5.5"),
        Hostile({ $0.magnitude = "NaN" }, "is not a finite number", shown: "NaN"),
        Hostile({ $0.magnitude = "inf" }, "is not a finite number", shown: "inf"),
        Hostile({ $0.magnitude = "big" }, "is not a number", shown: "big"),
    ]

    @Test(arguments: hostile)
    func aHostileValueGetsOneVerdictInEveryFormat(_ hostile: Hostile) throws {
        for format in Format.allCases where format.carries(hostile.row) {
            let (events, summary) = try format.read(hostile.row)
            #expect(events.isEmpty, "\(format): \(events)")
            #expect(summary.rows == 1 && summary.rejected == 1, "\(format)")
            let rejection = try #require(summary.rejections.first, "\(format)")
            #expect(rejection.reason == hostile.reason, "\(format): \(rejection.message)")
            let shown = format == .quakeML ? hostile.shownInMetres ?? hostile.shown : hostile.shown
            #expect(rejection.value == shown, "\(format): \(rejection.message)")
            // Strict: the same rejection ends the read, as the same error (exit 65 on the command line).
            #expect(throws: FeedError.rejectedRow(rejection), "\(format)") { try format.read(hostile.row, strict: true) }
        }
    }

    /// Values at the limits, blanks around them, empty optional fields:
    /// accepted alike, as the same event.
    static let valid: [Row] = [
        Row(),
        Row(latitude: "90", longitude: "-180", depth: "-15", magnitude: "-5"),
        Row(latitude: "-90", longitude: "180", depth: "1000", magnitude: "10"),
        Row(depth: "", magnitude: ""),
        Row(latitude: " 38.25 ", magnitude: " 5.4 "),
        Row(time: "2026-11-23T00:00:00.000Z"),
        Row(updated: "2026-11-20T12:30:00.000Z"),
    ]

    @Test(arguments: valid)
    func aValidRowIsTheSameEventInEveryFormat(_ row: Row) throws {
        var expected: SeismicEvent?
        for format in Format.allCases where format.carries(row) {
            let (events, summary) = try format.read(row, strict: true)
            #expect(summary.rows == 1 && summary.rejected == 0, "\(format)")
            let event = try #require(events.first, "\(format)")
            #expect(event.id == "us7000abcd" && event.place == "Somewhere, Japan" && event.network == "us", "\(format)")
            // The formats carry different details (FDSN text's Author, say): the stored fields are compared here.
            var stored = event
            stored.details = EventDetails()
            if let expected { #expect(stored == expected, "\(format)") } else { expected = stored }
        }
        #expect(expected?.latitude == Double(row.latitude.trimmingCharacters(in: .whitespaces)))
    }

    /// The reasons are worded in the validator alone: a reader that spelled
    /// one again (and so could word or judge it differently) fails here.
    @Test func noReaderWordsAReasonOfItsOwn() throws {
        let folder = URL(fileURLWithPath: ParserAgreementTests.repository + "/Sources/QuakeParse")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.contains { $0.lastPathComponent == "RowValidator.swift" })
        let reasons = [#""is outside"#, #""is not a number""#, #""is not a finite number""#, #""is not a time"#,
                       #""is in the future"#, #""is empty""#, #""is not a date and time"#]
        for file in files where file.lastPathComponent != "RowValidator.swift" {
            let source = try String(contentsOf: file, encoding: .utf8)
            for reason in reasons {
                #expect(!source.contains(reason), "\(file.lastPathComponent) words \(reason)… itself")
            }
        }
    }
}
