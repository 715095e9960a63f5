import ArgumentParser
import Foundation
import QuakeCommand
import QuakeKit
import Testing
@testable import QuakeServer

/// A date, an instant and a one-day interval mean the same on the command
/// line (`--since`/`--until`) and in the server's `datetime`: one rule
/// (``TimeBound``), so `list --since D --until D` and `datetime=D/D` answer alike.
@Suite("One meaning for a time bound", .timeLimit(.minutes(10)))
struct TimeBoundAgreementTests {
    static let texts = ["2020-06-05", "2020-06-05T12:30:00Z", "2020-06-05T12:30:00.250Z", "2024-02-29", "1999-12-31"]

    @Test(arguments: texts)
    func theCommandLineAndTheServerReadAnEndAlike(_ text: String) throws {
        let options = try FilterOptions.parse(["--since", text, "--until", text])
        let cli = try options.filter()
        let server = try FeatureQuery([("datetime", "\(text)/\(text)")], allowed: ["datetime"])
        #expect(cli.since == server.filter.since)
        #expect(cli.until == server.filter.until)
        let single = try FeatureQuery([("datetime", text)], allowed: ["datetime"])
        #expect(single.filter.since == cli.since && single.filter.until == cli.until)
    }

    @Test func aDateIsTheWholeUTCDay() throws {
        let filter = try FilterOptions.parse(["--since", "2020-06-05", "--until", "2020-06-05"]).filter()
        #expect(filter.since == Date(timeIntervalSince1970: 1_591_315_200))
        #expect(filter.until == Date(timeIntervalSince1970: 1_591_401_599_999 / 1000))
        // Times as the readers make them: epoch milliseconds / 1000.
        let events = [0, 86_399_999, 86_400_000, -1].map {
            SeismicEvent(id: "t\($0)", time: Date(timeIntervalSince1970: Double(1_591_315_200_000 + $0) / 1000),
                         latitude: 0, longitude: 0, magnitude: 3)
        }
        #expect(EventSelection(limit: nil, filter: filter).select(events).map(\.id).sorted() == ["t0", "t86399999"])
    }
}
