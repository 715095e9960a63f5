import Foundation
import Testing
@testable import QuakeKit

@Suite("Selecting the most recent events")
struct SelectionTests {
    let events = [
        Fixtures.event("a", time: "2026-11-21T01:00:00.000Z"),
        Fixtures.event("b", time: "2026-11-21T03:00:00.000Z"),
        Fixtures.event("c", time: "2026-11-21T02:00:00.000Z"),
        Fixtures.event("none", time: "2026-11-21T09:00:00.000Z", magnitude: nil),
        Fixtures.event("d", time: "2026-11-21T03:00:00.000Z"),
        Fixtures.event("e", time: "2026-11-21T00:30:00.000Z"),
    ]

    @Test func keepsTheMostRecentFirstAndEqualTimesInFileOrder() {
        #expect(EventSelection(limit: 3).select(events).map(\.id) == ["b", "d", "c"])
        #expect(EventSelection(limit: 1).select(events).map(\.id) == ["b"])
    }

    @Test func noLimitKeepsEveryEventWithAMagnitude() {
        #expect(EventSelection(limit: nil).select(events).map(\.id) == ["b", "d", "c", "a", "e"])
        #expect(EventSelection(limit: 100).select(events).map(\.id) == ["b", "d", "c", "a", "e"])
        #expect(EventSelection(limit: 0).select(events).isEmpty)
    }

    @Test func defaultIsThreeHundred() {
        #expect(EventSelection().limit == 300)
    }

    @Test(arguments: [1, 7, 50, 299, 1000])
    func streamingAgreesWithSortingEverything(_ limit: Int) {
        var generator = SystemRandomNumberGenerator()
        // Few distinct times, so ties are common.
        let many = (0..<600).map { index in
            SeismicEvent(id: "\(index)", time: Date(timeIntervalSince1970: Double(Int.random(in: 0..<40, using: &generator))),
                         latitude: 0, longitude: 0, magnitude: Bool.random(using: &generator) ? 3 : nil)
        }
        let expected = many.enumerated()
            .filter { $0.element.magnitude != nil }
            .sorted { $0.element.time != $1.element.time ? $0.element.time > $1.element.time : $0.offset < $1.offset }
            .prefix(limit).map(\.element.id)
        #expect(EventSelection(limit: limit).select(many).map(\.id) == Array(expected))
    }
}
