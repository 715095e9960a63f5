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

@Suite("Times", .timeLimit(.minutes(10)))
struct TimeParserTests {
    func epoch(_ text: String) -> Double? {
        TimeParser.parse(ArraySlice(text.utf8))?.timeIntervalSince1970
    }

    @Test(arguments: [
        ("2020-06-11T15:27:04.123Z", 1_591_889_224.123),
        ("2020-06-11T15:27:04Z", 1_591_889_224),
        ("2020-06-11 15:27:04.123", 1_591_889_224.123),
        ("2020-06-11T17:27:04.123+02:00", 1_591_889_224.123),
        ("2020-06-11T07:27:04.123-0800", 1_591_889_224.123),
        ("1970-01-01T00:00:00.000Z", 0),
        ("1969-12-31T23:59:59.000Z", -1),
        ("2024-02-29T00:00:00Z", 1_709_164_800),
        ("Saturday, May 21, 2011 09:06:50 UTC", 1_305_968_810),
        ("May 21, 2011 09:06:50 UTC", 1_305_968_810),
    ])
    func readsEveryEra(_ text: String, _ expected: Double) throws {
        let seconds = try #require(epoch(text))
        #expect(abs(seconds - expected) < 0.0005)
    }

    @Test(arguments: [
        "", "yesterday", "2020-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2020-06-11T24:00:00Z",
        "2020-06-11T15:61:00Z", "2020-06-11", "2020-06-11T15:27:04.Z", "2020-06-11T15:27:04Zjunk",
        "Funday, Smarch 21, 2011 09:06:50 UTC", "May 21, 2011 09:06:50 PST",
    ])
    func rejectsWhatIsNotATime(_ text: String) {
        #expect(epoch(text) == nil)
    }

    @Test func readsTheDateAndTimeUTCPair() throws {
        let date = try #require(TimeParser.parse(date: ArraySlice("2010/11/02".utf8), time: ArraySlice("06:39:55.6".utf8)))
        #expect(CivilTime.iso8601(date) == "2010-11-02T06:39:55.600Z")
        #expect(TimeParser.parse(date: ArraySlice("2010/02/30".utf8), time: ArraySlice("06:39:55".utf8)) == nil)
    }

    @Test func writesISO8601WithMilliseconds() {
        #expect(CivilTime.iso8601(Date(timeIntervalSince1970: 1_591_889_224.123)) == "2020-06-11T15:27:04.123Z")
        #expect(CivilTime.iso8601(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000Z")
        #expect(CivilTime.iso8601(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
    }

    @Test func civilDaysRoundTripAcrossCenturies() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let (year, month, day) = CivilTime.date(daysSinceEpoch: days)
            #expect(CivilTime.daysSinceEpoch(year: year, month: month, day: day) == days)
        }
    }

    /// The fixed-position path for today's spelling gives what the general path gives
    /// (a leading blank sends the same text the general way), and refuses what it refuses.
    @Test func feedSpellingFastPathAgreesWithTheGeneralPath() {
        var state: UInt64 = 11
        for _ in 0..<2_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            // 1900 … 2100: days before the epoch count down, a path of their own.
            let milliseconds = Int64(state >> 1) % 6_311_433_600_000 - 2_208_988_800_000
            let text = CivilTime.iso8601(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            #expect(text.utf8.count == 24)
            let fast = TimeParser.parse(ArraySlice(text.utf8)), general = TimeParser.parse(ArraySlice((" " + text).utf8))
            #expect(fast != nil && fast == general, "\(text)")
        }
        for bad in ["2020-02-30T00:00:00.000Z", "2020-06-11T24:00:00.000Z", "2020-06-11T15:60:00.000Z",
                    "2020-06-11T15:27:61.000Z", "2020-06-1xT15:27:04.123Z", "2020-13-11T15:27:04.123Z",
                    "2020-00-11T15:27:04.123Z", "2020-06-00T15:27:04.123Z", "2020-06-11T15:27:04.1/3Z",
                    "2020-06-11T15:27:04.12:Z", "2019-02-29T00:00:00.000Z"] {
            #expect(TimeParser.parse(ArraySlice(bad.utf8)) == nil, "\(bad)")
        }
    }

    /// Any one byte of a feed time changed to any value: the fast path (which
    /// checks a word of bytes at once) takes only what the general path takes,
    /// and reads the same time from it.
    @Test func everyOneByteChangeIsJudgedAsTheGeneralPathJudgesIt() {
        let text = Array("2019-12-31T23:59:58.999Z".utf8)
        var accepted = 0
        for index in text.indices {
            for value in 0...255 {
                var changed = text
                changed[index] = UInt8(value)
                let fast = TimeParser.parse(ArraySlice(changed)), general = TimeParser.parse(ArraySlice([ASCII.space] + changed))
                if fast != general { Issue.record("byte \(index) = \(value): \(String(describing: fast)) ≠ \(String(describing: general))") }
                if fast != nil { accepted += 1 }
            }
        }
        // The test means something only if changes are accepted too: other
        // digits that still make a time, and the separators the general path
        // also takes ('t' or a blank for 'T', ',' for '.').
        #expect(accepted > 100)
    }
}
