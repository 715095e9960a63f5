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

/// The spooled statistics (what `stats` without a limit prints) against the
/// in-memory ones: ``CatalogStatistics`` over ``QuakeMap/select(from:feed:selection:)``.
@Suite("Spooled statistics", .timeLimit(.minutes(10)))
struct StatisticsSpoolTests {
    static let selections: [EventSelection] = [
        EventSelection(limit: nil),
        EventSelection(limit: nil, filter: EventFilter(minimumMagnitude: 2.5)),
        EventSelection(limit: nil, region: try? GeoBox(west: -130, south: 20, east: -60, north: 50)),
        EventSelection(limit: nil, filter: EventFilter(excludedTypes: ["quarry blast"])),
    ]

    static let fits: [(MagnitudeBinning, CompletenessMethod)] = [
        (.tenth, .standard),
        ((try? MagnitudeBinning(width: 0.2)) ?? .tenth, .maximumCurvature(correction: 0)),
        (.tenth, .fixed(1.05)),
    ]

    /// Checks the spooled figures, summary and duplicates against the in-memory ones, and the printed forms too.
    static func expectSame(_ source: FeedSource, _ selection: EventSelection, binning: MagnitudeBinning = .tenth,
                           completeness: CompletenessMethod = .standard, _ label: String) throws {
        let selected = try QuakeMap.select(from: source, selection: selection)
        let expected = CatalogStatistics(selected.events, binning: binning, completeness: completeness)
        let spooled = try QuakeMap.statistics(from: source, selection: selection, binning: binning, completeness: completeness)
        #expect(spooled.events.count == 1)
        let got = try #require(spooled.events.first)
        #expect(got == expected, "\(label)")
        #expect(got.text == expected.text, "\(label)")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(got) == encoder.encode(expected), "\(label)")
        #expect(spooled.summary == selected.summary, "\(label)")
        #expect(spooled.duplicates == selected.duplicates, "\(label)")
    }

    static var sharedFeeds: [String] { EventListSpoolTests.sharedFeeds }

    @Test(.enabled(if: RealFeeds.available, "../shared/data/usgs is not beside the repository: real-feed comparison skipped"),
          arguments: sharedFeeds)
    func sameFiguresAsInMemoryOnSharedFeeds(_ file: String) throws {
        let source = FeedSource.file(RealFeeds.folder + "/" + file)
        for (index, selection) in Self.selections.enumerated() {
            try Self.expectSame(source, selection, "\(file), selection \(index)")
        }
        for (binning, completeness) in Self.fits {
            try Self.expectSame(source, EventSelection(limit: nil), binning: binning, completeness: completeness,
                                "\(file), \(completeness.name)")
        }
    }

    /// The list tests' feed (repeated ids with and without `updated`, equal
    /// times, empty and negative magnitudes, empty depths), with types in
    /// every spelling that normalizes (and some that do not), big enough to
    /// spill the spool to a file.
    static func generatedFeed(rows: Int) -> Data {
        let types = ["earthquake", "Earthquake", "eq", "", "quarry", "Quarry_Blast", "explosion", "  earth_quake ",
                     "ice quake", "Éboulement"]
        var lines = EventListSpoolTests.generatedFeed(rows: rows).split(separator: "\n", omittingEmptySubsequences: false)
        for index in 1..<lines.count where !lines[index].isEmpty {
            guard let comma = lines[index].lastIndex(of: ",") else { continue }
            lines[index] = lines[index][...comma] + types[(index * 7) % types.count]
        }
        return Data(lines.joined(separator: "\n").utf8)
    }

    @Test func sameFiguresOnAGeneratedFeedWithRepeatedIDsAndTies() throws {
        let source = FeedSource.bytes(Self.generatedFeed(rows: 60_000), name: "generated")
        for (index, selection) in Self.selections.enumerated() {
            try Self.expectSame(source, selection, "generated, selection \(index)")
        }
        for (binning, completeness) in Self.fits {
            try Self.expectSame(source, EventSelection(limit: nil), binning: binning, completeness: completeness,
                                "generated, \(completeness.name)")
        }
        let statistics = try #require(try QuakeMap.statistics(from: source).events.first)
        #expect(statistics.types.count >= 5, "the feed's types: \(statistics.types)")
        #expect(try QuakeMap.statistics(from: source).duplicates > 1000, "the feed repeats ids")
    }

    @Test func emptyAndTinyFeeds() throws {
        let header = "time,latitude,longitude,depth,mag,id,updated,type\n"
        let feeds = [
            header,
            header + "2020-01-01T00:00:00Z,1,2,,3,a,,\n",
            header + "2020-01-01T00:00:00Z,1,2,5,3,a,2020-01-02T00:00:00Z,eq\n2020-01-01T00:00:01Z,1,2,-1,-0.5,a,,quarry\n",
        ]
        for (index, feed) in feeds.enumerated() {
            try Self.expectSame(.bytes(Data(feed.utf8), name: "tiny"), EventSelection(limit: nil), "feed \(index)")
        }
        let none = try #require(try QuakeMap.statistics(from: .bytes(Data(header.utf8), name: "empty")).events.first)
        #expect(none.count == 0 && none.first == nil && none.magnitudeRange == nil)
    }
}
