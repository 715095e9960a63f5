import Foundation
import QuakeKit
import Testing
@testable import QuakeServer

/// A date, an instant and a one-day interval mean in the server's `datetime` what
/// ``TimeBound/span(_:)`` says, the one rule the command line's `--since`/`--until` also read
/// (`CLITests`' `aDateIsTheWholeUTCDayOnTheCommandLine`): `datetime=D/D` and
/// `list --since D --until D` answer alike.
@Suite("One meaning for a time bound", .timeLimit(.minutes(10)))
struct TimeBoundAgreementTests {
    static let texts = ["2020-06-05", "2020-06-05T12:30:00Z", "2020-06-05T12:30:00.250Z", "2024-02-29", "1999-12-31"]

    @Test(arguments: texts)
    func theServerReadsAnEndAsTheRuleDoes(_ text: String) throws {
        let span = try #require(TimeBound.span(text))
        let interval = try FeatureQuery([("datetime", "\(text)/\(text)")], allowed: ["datetime"])
        #expect(interval.filter.since == span.lowerBound && interval.filter.until == span.upperBound)
        let single = try FeatureQuery([("datetime", text)], allowed: ["datetime"])
        #expect(single.filter.since == span.lowerBound && single.filter.until == span.upperBound)
        #expect(try TimeBound.parse(text, now: Date(), as: .lower) == span.lowerBound)
        #expect(try TimeBound.parse(text, now: Date(), as: .upper) == span.upperBound)
    }

    @Test func aDateIsTheWholeUTCDay() throws {
        let span = try #require(TimeBound.span("2020-06-05"))
        #expect(span.lowerBound == Date(timeIntervalSince1970: 1_591_315_200))
        #expect(span.upperBound == Date(timeIntervalSince1970: 1_591_401_599_999 / 1000))
        // Times as the readers make them: epoch milliseconds / 1000.
        let events = [0, 86_399_999, 86_400_000, -1].map {
            SeismicEvent(id: "t\($0)", time: Date(timeIntervalSince1970: Double(1_591_315_200_000 + $0) / 1000),
                         latitude: 0, longitude: 0, magnitude: 3)
        }
        let filter = EventFilter(since: span.lowerBound, until: span.upperBound)
        #expect(EventSelection(limit: nil, filter: filter).select(events).map(\.id).sorted() == ["t0", "t86399999"])
    }
}
