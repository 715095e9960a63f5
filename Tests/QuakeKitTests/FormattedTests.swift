import Foundation
import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeScene
@testable import QuakeWrite

/// Times and numbers for people come from one place (``Formatted``): the map's footer, a
/// label, the animation clock, the report's table and the `table` list format say the same
/// instant and the same magnitude in the same words, checked against Foundation's calendar.
@Suite("One way to write times and numbers", .timeLimit(.minutes(10)))
struct FormattedTests {
    /// Instants where slicing text or rounding differently would show: a second's last
    /// millisecond before midnight, leap days (1600 is a leap year, a century), before 1970.
    static let instants: [Date] = [
        Date(timeIntervalSince1970: 1_585_698_724.9996),   // 2020-03-31T23:52:04.9996
        Date(timeIntervalSince1970: 1_582_934_399.0004),   // 2020-02-28T23:59:59
        Date(timeIntervalSince1970: 1_583_020_799.9999),   // 2020-02-29T23:59:59.9999 → the next day
        Date(timeIntervalSince1970: -1_000_000_000.25),    // 1938
        Date(timeIntervalSince1970: -11_670_912_001),      // 1600-02-29T23:59:59 (Foundation's calendar turns Julian before 1582)
    ]

    /// The UTC fields Foundation's Gregorian calendar gives the millisecond-rounded instant.
    static func reference(_ date: Date) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let rounded = Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: rounded)
    }

    @Test(arguments: instants)
    func everyPlaceWritesTheSameInstant(_ date: Date) throws {
        let c = Self.reference(date)
        let seconds = String(format: "%04d-%02d-%02d %02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
        #expect(Formatted.time(date, .seconds) == seconds)
        #expect(Formatted.time(date, .minutes) == String(seconds.prefix(16)))
        #expect(SceneBuilder.minutes(date) == String(seconds.prefix(16)), "the map's footer")
        #expect(Animation.clockText(date) == seconds + " UTC", "the animation's clock")
        #expect(ReportLayout.tableTime(date) == seconds, "the report's table")
        let event = SeismicEvent(id: "x", time: date, latitude: 0, longitude: 0, depth: 10, magnitude: 6.45)
        #expect(EventListEncoder.tableCells(event)[0] == seconds, "the table list format")
        #expect(CivilTime.iso8601(date).replacingOccurrences(of: "T", with: " ").hasPrefix(seconds), "the feeds' own format")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let label = "\(c.day!) \(months[c.month! - 1]) \(c.year!) " + String(seconds.suffix(8).prefix(5))
        #expect(SceneBuilder.labelDate(date, withYear: true) == label, "a label")
    }

    @Test func aMagnitudeReadsTheSameOnAMapLabelAndInATable() {
        // The doubles nearest 6.45, -1.05 and 0.05 lie above them, 9.95's below; 6.25 is exact and goes to even.
        for (magnitude, text) in [(6.45, "6.5"), (-1.05, "-1.1"), (0.05, "0.1"), (9.95, "9.9"), (6.25, "6.2")] {
            #expect(Formatted.fixed(magnitude, 1) == text)
            #expect(SceneBuilder.labelText(magnitude: magnitude, time: Self.instants[0], place: nil, withYear: false)
                .hasPrefix("M \(text) · "))
            let event = SeismicEvent(id: "x", time: Self.instants[0], latitude: 0, longitude: 0, depth: 10, magnitude: magnitude)
            #expect(EventListEncoder.tableCells(event)[1] == text)
        }
        #expect(Formatted.grouped(19_813) == "19,813" && Formatted.grouped(-3) == "−3")
        #expect(Formatted.minusSigns("magnitudes -1.6 to 6.8, a-b") == "magnitudes −1.6 to 6.8, a-b")
    }
}
