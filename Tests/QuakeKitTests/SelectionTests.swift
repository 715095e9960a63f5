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

@Suite("Selecting the most recent events", .timeLimit(.minutes(10)))
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

    /// Repeated ids with revised times and `updated` stamps, against a plain
    /// list that applies the same rule to every row: the accumulator's heap
    /// and its shortcut for rows that cannot be kept must change nothing.
    @Test(arguments: [1, 5, 50])
    func repeatedIdsAgreeWithAPlainList(_ limit: Int) {
        var state: UInt64 = UInt64(limit)
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let rows = (0..<3000).map { _ in
            SeismicEvent(id: next(10) == 0 ? "" : "id\(next(400))",
                         time: Date(timeIntervalSince1970: Double(next(200))), latitude: 0, longitude: 0,
                         magnitude: 3, updated: next(4) == 0 ? nil : Date(timeIntervalSince1970: Double(next(50))))
        }
        let plain = Self.plainList(rows, limit: limit)
        var accumulator = MostRecentAccumulator(limit: limit)
        for event in rows { accumulator.offer(event) }
        #expect(accumulator.result() == plain.events)
        #expect(accumulator.duplicates == plain.duplicates)
    }

    /// The selection's rules written out with nothing clever: of each id's
    /// versions one stays (the latest `updated`; the later row on a tie or
    /// when neither has one; a version without `updated` never replaces one
    /// with it), over every row, before anything else; then `admits`; then
    /// the most recent `limit`, equal times in row order. The reference for
    /// the accumulator, its shortcut, the map collector and the spool.
    static func plainList(_ rows: [SeismicEvent], limit: Int?, admits: (SeismicEvent) -> Bool = { $0.magnitude != nil })
        -> (events: [SeismicEvent], duplicates: Int) {
        var staying: [String: Int] = [:]  // id → the row of the version that stays so far
        var duplicates = 0
        for (row, event) in rows.enumerated() where !event.id.isEmpty {
            guard let other = staying[event.id] else { staying[event.id] = row; continue }
            duplicates += 1
            switch (event.updated, rows[other].updated) {
            case let (new?, old?) where new >= old: staying[event.id] = row
            case (nil, nil): staying[event.id] = row
            case (_?, nil): staying[event.id] = row
            default: break
            }
        }
        let kept = rows.indices.filter { row in
            (rows[row].id.isEmpty || staying[rows[row].id] == row) && admits(rows[row])
        }.sorted { rows[$0].time != rows[$1].time ? rows[$0].time > rows[$1].time : $0 < $1 }
        return (kept.prefix(limit ?? kept.count).map { rows[$0] }, duplicates)
    }

    /// Synthetic rows with repeated ids, revised origin times, `updated`
    /// stamps or none, blank ids, ids that are not ASCII, ids with blanks
    /// around them, rows without magnitude; times mostly falling as the file
    /// goes on, as in a feed (newest first). Enough rows for parallel decoding.
    /// `updated` is random, so an old row often revises a recent one, unless
    /// `revisionsFollowTime`: then a row's `updated` follows its time, as real
    /// revisions do (an event is revised after it happened).
    static func feedWithRepeats(seed: UInt64, rows: Int = 30_000, idInTwoColumns: Bool = false,
                                revisionsFollowTime: Bool = false) -> Data {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        func stamp(_ seconds: Int) -> String { CivilTime.iso8601(Date(timeIntervalSince1970: Double(seconds))) }
        // The pre-2013 layout makes the id of two columns: network and event code.
        var lines = [idInTwoColumns ? "time,latitude,longitude,depth,mag,src,eqid,updated"
                                    : "time,latitude,longitude,depth,mag,id,updated"]
        for row in 0..<rows {
            let time = 1_700_000_000 - row * 10 + (next(20) == 0 ? next(400_000) - 200_000 : 0)
            let ids = idInTwoColumns ? ["us,\(next(2000))", ",", "  ci, \(next(50)) ", "é,\(next(30))"]
                                     : ["us\(next(2000))", "", "  ci\(next(50)) ", "é\(next(30))"]
            let id = ids[next(10) < 7 ? 0 : next(4)]
            let magnitude = next(15) == 0 ? "" : "\(next(12) - 2).\(next(10))"  // -2.x … 9.x, all plausible
            let updated = next(5) == 0 ? "" : stamp((revisionsFollowTime ? time : 1_700_000_000) + next(1000))
            let depth = next(8) == 0 ? "" : "\(next(40))"
            lines.append("\(stamp(time)),\(next(180) - 90),\(next(360) - 180),\(depth),\(magnitude),\(id),\(updated)")
        }
        return Data(lines.joined(separator: "\n").utf8)
    }

    static let options = FeedOptions(now: Date(timeIntervalSince1970: 1_800_000_000))

    /// Every event read plainly, then selected by ``plainList(_:limit:)``: the reference for the faster paths.
    static func plainSelection(_ data: Data, _ selection: EventSelection) throws
        -> (events: [SeismicEvent], duplicates: Int, summary: FeedSummary) {
        var all: [SeismicEvent] = []
        let summary = try FeedReader(options: options).read(.bytes(data, name: "t.csv")) { all.append($0) }
        let plain = plainList(all, limit: selection.limit) { plainlyAdmits(selection, $0) }
        return (plain.events, plain.duplicates, summary)
    }

    /// The selection's numeric rules written out one by one here, not through
    /// ``NumericAdmission``, which the faster paths share with `admits`: a
    /// magnitude, inside the region and box, within the time window, and
    /// within the magnitude and depth bounds (a bound on a missing depth is
    /// not passed). Types and the expression are the filter's own.
    static func plainlyAdmits(_ selection: EventSelection, _ event: SeismicEvent) -> Bool {
        let filter = selection.filter
        guard let magnitude = event.magnitude else { return false }
        for box in [selection.region, filter.bbox].compactMap({ $0 }) {
            // The tests' boxes do not cross the antimeridian.
            precondition(box.west <= box.east)
            guard (box.south...box.north).contains(event.latitude), (box.west...box.east).contains(event.longitude)
            else { return false }
        }
        if let since = filter.since, event.time < since { return false }
        if let until = filter.until, event.time > until { return false }
        if let low = filter.minimumMagnitude, magnitude < low { return false }
        if let high = filter.maximumMagnitude, magnitude > high { return false }
        if filter.minimumDepth != nil || filter.maximumDepth != nil {
            guard let depth = event.depth else { return false }
            if let low = filter.minimumDepth, depth < low { return false }
            if let high = filter.maximumDepth, depth > high { return false }
        }
        return filter.matchesTypesAndExpression(event)
    }

    /// The reader passes over rows a full selection cannot use, without
    /// making their events; the same rows must be selected and the same
    /// repeats counted as when every event is made and offered. Ids made of
    /// two columns are never passed over (their hash is not one field's bytes).
    /// On a feed whose old rows revise recent ones at random, the selection
    /// reads it again with a larger reserve until it is whole.
    @Test(arguments: [(1, false), (20, false), (300, false), (300, true)])
    func passingOverRowsChangesNothing(_ limit: Int, _ idInTwoColumns: Bool) throws {
        let selection = EventSelection(limit: limit)
        for revisionsFollowTime in [false, true] {
            let data = Self.feedWithRepeats(seed: 99 &+ UInt64(limit), idInTwoColumns: idInTwoColumns,
                                            revisionsFollowTime: revisionsFollowTime)
            let plain = try Self.plainSelection(data, selection)
            let passing = try QuakeMap.select(from: .bytes(data, name: "t.csv"), feed: Self.options, selection: selection)
            #expect(passing.events == plain.events)
            #expect(passing.duplicates == plain.duplicates)
            #expect(passing.summary == plain.summary)
            #expect(passing.events.count == limit)
            #expect(plain.summary.rejected == 0 && plain.summary.withoutMagnitude > 1000)
        }

        let data = Self.feedWithRepeats(seed: 99 &+ UInt64(limit), idInTwoColumns: idInTwoColumns, revisionsFollowTime: true)
        let plain = try Self.plainSelection(data, selection)

        // The same through the reader, counting the rows passed over: most, or none (a kept id is never passed over, and a third of the ids here are kept).
        final class Counting {
            var accumulator: MostRecentAccumulator
            var passedOver = 0
            var asked = 0
            init(_ accumulator: MostRecentAccumulator) { self.accumulator = accumulator }
        }
        // One pass with the default reserve: exact for this feed, whose revisions come later in time.
        let counting = Counting(MostRecentAccumulator(selection: selection))
        let rowPassing = FeedReader.RowPassing(
            passableThrough: { counting.accumulator.passableThrough() },
            passesOver: { time, hash in
                counting.asked += 1
                let passes = counting.accumulator.passesOver(time: time, idHash: hash)
                if passes { counting.passedOver += 1 }
                return passes
            })
        let revisions = counting.accumulator.revisions
        _ = try FeedReader(options: Self.options).read(.bytes(data, name: "t.csv"), passing: rowPassing,
                                                       revisions: revisions) {
            counting.accumulator.offer($0, version: revisions.current)
        }
        #expect(counting.accumulator.result() == plain.events)
        #expect(!counting.accumulator.isShort)
        // The first batch is decoded before the selection is full: none of it can be passed over.
        #expect(idInTwoColumns ? counting.passedOver == 0 : counting.passedOver > 12_000,
                "\(counting.passedOver) passed over, of \(counting.asked) passable")
    }

    /// A map without a limit finds repeated ids after reading, by sorting id
    /// hashes; it must keep the versions and count the repeats that offering
    /// every event in turn does (its events stay in feed order). With ids of
    /// one column and of two, without a filter, with filters of numbers only
    /// (rows go straight to map events) and with one that reads text.
    @Test(arguments: [false, true], [nil, "numbers", "text"])
    func mapWithoutLimitResolvesRepeatsLikeOfferingInTurn(idInTwoColumns: Bool, filtered: String?) throws {
        let data = Self.feedWithRepeats(seed: 5, idInTwoColumns: idInTwoColumns)
        var selection = EventSelection(limit: nil)
        if filtered != nil {
            selection.region = try GeoBox(west: -60, south: -50, east: 150, north: 80)
            selection.filter = EventFilter(since: Date(timeIntervalSince1970: 1_699_800_000), minimumMagnitude: 2,
                                           maximumDepth: 300)
        }
        if filtered == "text" { selection.filter.excludedTypes = ["quarry blast"] }
        let map = try QuakeMap.select(from: .bytes(data, name: "t.csv"), feed: Self.options, selection: selection, as: MapEvent.self)
        let plain = try Self.plainSelection(data, selection)
        let newestFirst = map.events.enumerated()
            .sorted { $0.element.time != $1.element.time ? $0.element.time > $1.element.time : $0.offset < $1.offset }
            .map(\.element)
        #expect(newestFirst == plain.events.compactMap(MapEvent.init))
        #expect(map.duplicates == plain.duplicates)
        #expect(map.summary == plain.summary)
        #expect(map.duplicates > 1000)
        // Repeats settled before the filters leave fewer than filtering first did; still hundreds.
        #expect(map.events.count > 500, "\(map.events.count) kept")
    }

    /// Two ids whose hashes collide are still told apart, each keeping its own
    /// latest version.
    @Test func idsWithTheSameHashStayApart() throws {
        #expect(FNV1a.id("us41232") == FNV1a.id("us136624"))
        let csv = """
            time,latitude,longitude,mag,id,updated
            2024-01-01T00:00:00.000Z,1,1,3,us41232,2024-01-02T00:00:00.000Z
            2024-01-01T01:00:00.000Z,2,2,4,us136624,2024-01-02T00:00:00.000Z
            2024-01-01T02:00:00.000Z,3,3,5,us41232,2024-01-03T00:00:00.000Z
            2024-01-01T03:00:00.000Z,4,4,6,us136624,2024-01-01T00:00:00.000Z
            """
        let map = try QuakeMap.select(from: .bytes(Data(csv.utf8), name: "t.csv"), feed: Self.options,
                                      selection: EventSelection(limit: nil), as: MapEvent.self)
        #expect(map.events.map(\.id) == ["us136624", "us41232"])
        #expect(map.events.map(\.magnitude) == [4, 5])
        #expect(map.duplicates == 2)
    }
}
