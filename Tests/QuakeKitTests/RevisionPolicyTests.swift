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

/// A repeated id is one event, its newest version (``RevisionPolicy``), and
/// the filters apply to that version: every path that selects events must
/// give the same answer. A path that settled repeats after its filters (or
/// with a rule of its own) would keep the superseded California version below.
@Suite("One rule for repeated ids", .timeLimit(.minutes(10)))
struct RevisionPolicyTests {
    static let header = "time,latitude,longitude,depth,mag,magType,id,updated,place,type"
    /// Event X: first located in California, then revised (a later `updated`) to 10° N 10° E.
    static let california = "2026-11-20T10:00:00.000Z,35,-115,8,4.2,ml,X,2026-11-20T10:05:00.000Z,Southern California,earthquake"
    static let revised = "2026-11-20T10:00:01.000Z,10,10,10,4.4,mb,X,2026-11-20T12:00:00.000Z,Revised far away,earthquake"
    static let neighbour = "2026-11-20T09:00:00.000Z,34,-116,5,3.1,ml,Y,2026-11-20T09:10:00.000Z,Also California,earthquake"
    static let box = try! GeoBox(west: -120, south: 30, east: -110, north: 40)
    static let options = FeedOptions(now: Date(timeIntervalSince1970: 1_800_000_000))

    /// The ids each path selects inside the box, for a feed of `rows`, and the number each should select.
    static func answers(_ rows: [String], expected: Int) throws -> [String: (ids: [String], expected: Int)] {
        let source = FeedSource.bytes(Data(([header] + rows).joined(separator: "\n").utf8), name: "revised.csv")
        var answers: [String: [String]] = [:], results: [String: (ids: [String], expected: Int)] = [:]
        for limit in [nil, 1, 300] as [Int?] {
            let selection = EventSelection(limit: limit, filter: EventFilter(bbox: box))
            let name = limit.map { "limit \($0)" } ?? "no limit"
            answers["select, \(name)"] = try QuakeMap.select(from: source, feed: options, selection: selection).events.map(\.id)
            answers["map, \(name)"] = try QuakeMap.select(from: source, feed: options, selection: selection, as: MapEvent.self)
                .events.map(\.id)
            for format in [EventListFormat.csv, .json] {
                let spool = try EventListSpool(from: source, feed: options, selection: selection, format: format)
                answers["spool \(format), \(name)"] = Array(repeating: "?", count: spool.count)
            }
            answers["statistics, \(name)"] = Array(repeating: "?", count: try QuakeMap.statistics(
                from: source, feed: options, selection: selection).events[0].count)
            var all: [SeismicEvent] = []
            _ = try FeedReader(options: options).read(source) { all.append($0) }
            answers["in memory, \(name)"] = selection.select(all).map(\.id)
            for (path, ids) in answers where results[path] == nil { results[path] = (ids, min(expected, limit ?? expected)) }
        }
        return results
    }

    @Test(arguments: [[california, neighbour, revised], [revised, neighbour, california], [neighbour, revised, california]])
    func aRevisionThatLeavesTheBoxTakesTheEventWithIt(_ rows: [String]) throws {
        for (path, answer) in try Self.answers(rows, expected: 1) {
            // Y stays; X's newest version lies outside the box, so X is not in it, by any path.
            #expect(answer.ids.count == answer.expected, "\(path): \(answer.ids)")
            #expect(!answer.ids.contains("X"), "\(path): \(answer.ids)")
        }
        let inside = try Self.answers(rows.map { $0.replacingOccurrences(of: ",10,10,10,", with: ",36,-114,10,") }, expected: 2)
        for (path, answer) in inside {
            // Revised to a place inside the box, X is there once, as its newest version.
            #expect(answer.ids.count == answer.expected, "\(path): \(answer.ids)")
        }
    }

    /// The policy itself, on `updated` as dates and as seconds (NaN for none).
    @Test func theNewestUpdateWinsAndTiesGoToTheLaterRow() {
        let early = Date(timeIntervalSince1970: 100), late = Date(timeIntervalSince1970: 200)
        #expect(RevisionPolicy.isNewer(late, than: early))
        #expect(!RevisionPolicy.isNewer(early, than: late))
        #expect(RevisionPolicy.isNewer(early, than: early))
        #expect(!RevisionPolicy.isNewer(nil, than: early))
        #expect(RevisionPolicy.isNewer(early, than: nil))
        #expect(RevisionPolicy.isNewer(nil, than: nil))
        #expect(RevisionPolicy.isNewer(200, than: 100) && !RevisionPolicy.isNewer(100, than: 200))
        #expect(!RevisionPolicy.isNewer(.nan, than: 100) && RevisionPolicy.isNewer(100, than: .nan) && RevisionPolicy.isNewer(.nan, than: .nan))
    }

    /// The ledger settles a million-key-sized problem the same as a dictionary would, on random
    /// versions with collisions of the folded hash among them.
    @Test func theLedgerKeepsWhatADictionaryWould() {
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let ids = (0..<5000).map { _ in "id\(next(800))" } + ["us41232", "us136624", "us41232"]
        let updated = ids.map { _ in next(4) == 0 ? nil : Date(timeIntervalSince1970: Double(next(30))) }
        let ledger = RevisionLedger()
        let versions = zip(ids, updated).map { ledger.record(id: $0, updated: $1) }
        let settlement = ledger.settle()
        var staying: [String: Int] = [:]
        for (row, id) in ids.enumerated() {
            if let other = staying[id], !RevisionPolicy.isNewer(updated[row], than: updated[other]) { continue }
            staying[id] = row
        }
        for (row, id) in ids.enumerated() {
            #expect(settlement.stays(versions[row]) == (staying[id] == row), "row \(row) \(id)")
        }
        #expect(settlement.duplicates == ids.count - Set(ids).count)
        // Settling a few candidates alone gives the same verdicts and count.
        let candidates = stride(from: 0, to: ids.count, by: 7).map { versions[$0]! }
        let few = ledger.settle(candidates: candidates)
        for candidate in candidates { #expect(few.staying.contains(candidate) == settlement.stays(candidate)) }
        #expect(few.duplicates == settlement.duplicates)
    }
}
