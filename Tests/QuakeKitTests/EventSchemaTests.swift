import Foundation
import Testing
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeWrite

@Suite("One event schema")
struct EventSchemaTests {
    /// docs/formats.md's table of fields, made from the schema: a field added to `EventField`
    /// fails here until the docs show it. `QUAKEMAP_RECORD_SCHEMA=1` rewrites the table (and fails,
    /// so that it is never left on).
    @Test func theDocumentedTableIsTheSchemas() throws {
        let path = ParserAgreementTests.repository + "/docs/formats.md"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let begin = "<!-- schema table: made from EventField by EventSchemaTests -->\n", end = "<!-- end of schema table -->"
        let start = try #require(text.range(of: begin), "docs/formats.md has no schema table")
        let stop = try #require(text.range(of: end, range: start.upperBound..<text.endIndex))
        let table = Self.table()
        if ProcessInfo.processInfo.environment["QUAKEMAP_RECORD_SCHEMA"] == "1" {
            try (text[..<start.upperBound] + table + text[stop.lowerBound...]).write(toFile: path, atomically: true, encoding: .utf8)
            Issue.record("rewrote the table in \(path); run again without QUAKEMAP_RECORD_SCHEMA")
        }
        #expect(String(text[start.upperBound..<stop.lowerBound]) == table)
    }

    static func table() -> String {
        func cell(_ text: String?) -> String { text.map { "`\($0.replacingOccurrences(of: "|", with: "\\|"))`" } ?? "—" }
        var lines = ["| field | kind | unit | meaning | USGS CSV | USGS GeoJSON | FDSN text | QuakeML 1.2 | catalogue column (SQLite / PostgreSQL) |",
                     "|---|---|---|---|---|---|---|---|---|"]
        for field in EventField.allCases {
            let spec = field.spec
            lines.append("| `\(spec.name)` | \(spec.kind.rawValue) | \(spec.unit ?? "") | \(spec.title) | \(cell(spec.csvColumn)) "
                + "| \(cell(spec.geoJSONProperty)) | \(cell(spec.fdsnTextColumn)) | \(cell(spec.quakeML)) "
                + (spec.catalogued ? "| `\(spec.column)` \(spec.sqliteType) / \(spec.postgresType) |" : "| — (not catalogued) |"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func namesAreUniqueInEveryFormat() {
        for names in [EventField.allCases.map(\.spec.name), EventField.allCases.map(\.spec.column),
                      EventField.allCases.compactMap(\.spec.csvColumn), EventField.allCases.compactMap(\.spec.fdsnTextColumn),
                      EventField.allCases.compactMap(\.spec.geoJSONProperty).filter { $0 != "geometry" }] {
            #expect(Set(names).count == names.count, "\(names)")
        }
        // The USGS CSV's 22 columns in USGS's order.
        #expect(EventColumns.usgs.fields.map(\.spec.name).joined(separator: ",") ==
            "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,"
            + "horizontalError,depthError,magError,magNst,status,locationSource,magSource")
        #expect(EventLineEncoder.fdsnTextFields.count == 14 && EventLineEncoder.fdsnTextFields.allSatisfy { $0.spec.fdsnTextColumn != nil })
        #expect(Set(EventLineEncoder.fdsnTextFields) == Set(EventField.allCases.filter { $0.spec.fdsnTextColumn != nil }))
    }

    @Test func detailsKeepEveryKindAndCompareByValue() throws {
        var one = EventDetails(), other = EventDetails()
        #expect(one.isEmpty && one.byteCount == 0)
        one[.gap] = .number(37.25)
        one[.felt] = .integer(-3)
        one[.alert] = .text("orange ✓")
        one[.nst] = .integer(1 << 40)
        // Set in another order, and one changed and cleared on the way: the same value.
        other[.nst] = .integer(5)
        other[.alert] = .text("orange ✓")
        other[.gap] = .number(37.25)
        other[.felt] = .integer(-3)
        other[.nst] = .integer(1 << 40)
        other[.sig] = .integer(7)
        other[.sig] = nil
        #expect(one == other && one.hashValue == other.hashValue)
        #expect(one.entries.map(\.field) == [.nst, .gap, .felt, .alert])
        #expect(one[.felt] == .integer(-3) && one[.nst] == .integer(1 << 40) && one[.alert] == .text("orange ✓"))
        #expect(one[.rms] == nil)
        let decoded = try JSONDecoder().decode(EventDetails.self, from: try JSONEncoder().encode(one))
        #expect(decoded == one)
    }

    /// A number read from text and the same value set as a `Double` are kept alike (so details
    /// compare by value), read back as the `Double` the text names, and written as
    /// `appendNumber` writes that `Double`, whether kept as a short decimal or as eight bytes.
    @Test func numbersKeptAsShortDecimalsReadAndWriteAsTheirValues() throws {
        var texts = ["0", "7", "-12", "169", "0.2", "1.40587", "-0.001", "0.0005", "0.000001", "10.50", "+3.25",
                     " 4.5 ", "999999999.999999", "1000000000.5", "123456789012345", "999999999999999",
                     "0.1234567", "48.40202792672233", "-0", "-0.0", "000012.500", ".5", "5."]
        var state: UInt64 = 2026
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // 1 to 17 digits, 0 to 8 of them decimals.
            var text = String(String(state >> 8).prefix(Int(state % 17) + 1))
            let scale = Int((state >> 3) % 9)
            if scale > 0 {
                text = String(repeating: "0", count: max(0, scale - text.count + 1)) + text
                text.insert(".", at: text.index(text.endIndex, offsetBy: -scale))
            }
            texts.append(state & 1 == 0 ? "-" + text : text)
        }
        for text in texts {
            let value = try #require(Double(text.trimmingCharacters(in: .whitespaces)), "\(text)")
            var fromText = EventDetails(), fromValue = EventDetails()
            let bytes = Array(text.utf8)
            if let decimal = bytes.withUnsafeBytes({ DecimalParser.decimal($0) }) {
                fromText.appendDecimal(.gap, mantissa: decimal.mantissa, scale: decimal.scale)
            } else {
                fromText[.gap] = .number(value)
            }
            fromValue[.gap] = .number(value)
            #expect(fromText == fromValue, "\(text)")
            #expect(fromText[.gap]?.number?.bitPattern == value.bitPattern, "\(text)")
            var expected: [UInt8] = [], written: [UInt8] = []
            EventLineEncoder.appendNumber(value, to: &expected)
            var cursor = EventDetails.Cursor(fromText)
            switch cursor.stored(of: .gap) {
            case .decimal(let decimal)?: EventLineEncoder.appendDecimal(decimal, to: &written)
            case .number(let number)?: EventLineEncoder.appendNumber(number, to: &written)
            default: Issue.record("\(text) is not kept as a number")
            }
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(text)")
        }
        // The short form is the smaller: a USGS `dmin` in 5 bytes (its byte, 4 of digits and scale), not 9.
        var details = EventDetails()
        details.appendDecimal(.dmin, mantissa: 140587, scale: 5)
        #expect(details.byteCount == 5 && details[.dmin] == .number(1.40587))
    }

    @Test func everyFieldIsAQueryableOfItsKind() throws {
        var event = SeismicEvent(id: "us1", time: Date(timeIntervalSince1970: 0), latitude: 1, longitude: 2, magnitude: 5)
        event.details[.gap] = .number(120)
        event.details[.alert] = .text("yellow")
        event.details[.tsunami] = .integer(1)
        event.details[.horizontalError] = .number(2.5)
        for (text, expected) in [("gap < 180", true), ("gap > 180", false), ("alert = 'yellow'", true),
                                 ("tsunami = 1 AND horizontalError < 5", true), ("rms < 1", false), ("rms IS NULL", true),
                                 ("felt > 0 OR alert IN ('orange', 'red')", false)] {
            let filter = try CQLFilter(text)
            #expect((CQLEvaluator.evaluate(filter.expression, event) == true) == expected, "\(text)")
        }
        #expect(throws: CQLError.self) { try CQLFilter("gap = 'wide'") }
    }
}
