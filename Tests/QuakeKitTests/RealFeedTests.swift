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

/// The real USGS feeds in `../shared/data/usgs/` (not part of this repository).
/// Each must load with the counts its PROVENANCE.md gives, and render (CSV and GeoJSON).
@Suite("Real USGS feeds", .timeLimit(.minutes(10)), .enabled(if: RealFeeds.available, "../shared/data/usgs is not beside the repository: real-feed tests skipped"))
struct RealFeedTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        let file: String
        let rows: Int
        let withoutMagnitude: Int
        let negativeMagnitudes: Int
        let maximumMagnitude: Double
        var testDescription: String { file }
    }

    static let expectations = [
        Expectation(file: "all_month_2020-06.csv", rows: 19_816, withoutMagnitude: 3, negativeMagnitudes: 816, maximumMagnitude: 6.8),
        Expectation(file: "all_month_2022-03.csv", rows: 10_134, withoutMagnitude: 1, negativeMagnitudes: 285, maximumMagnitude: 6.8),
        Expectation(file: "all_month_2015-12_15col.csv", rows: 7_268, withoutMagnitude: 0, negativeMagnitudes: 102, maximumMagnitude: 7.6),
        Expectation(file: "4.5_week_2020-04.csv", rows: 75, withoutMagnitude: 0, negativeMagnitudes: 0, maximumMagnitude: 6.5),
        Expectation(file: "significant_month_2024-05.csv", rows: 7, withoutMagnitude: 0, negativeMagnitudes: 0, maximumMagnitude: 6.5),
        Expectation(file: "eqs7day-M1_2011-05.txt", rows: 911, withoutMagnitude: 0, negativeMagnitudes: 0, maximumMagnitude: 6.5),
    ]

    @Test(arguments: expectations)
    func loadsWithTheDocumentedCountsAndRenders(_ expected: Expectation) throws {
        var events: [SeismicEvent] = []
        let summary = try FeedReader(options: FeedOptions(strict: true))
            .read(.file(RealFeeds.folder + "/" + expected.file)) { events.append($0) }
        #expect(summary.rows == expected.rows)
        #expect(summary.rejected == 0)
        #expect(summary.withoutMagnitude == expected.withoutMagnitude)
        #expect(summary.events == expected.rows - expected.withoutMagnitude)
        #expect(events.filter { ($0.magnitude ?? 0) < 0 }.count == expected.negativeMagnitudes)
        #expect(events.compactMap(\.magnitude).max() == expected.maximumMagnitude)
        #expect(Set(events.map(\.id)).count == events.count, "ids are unique in every file")

        let selected = EventSelection().select(events)
        #expect(selected.count == min(300, expected.rows - expected.withoutMagnitude))
        let image = try RasterImage(png: try QuakeMap.pngData(for: selected, options: MapOptions(width: 1024)))
        #expect(image.width == 1024 && image.height == 512)
    }

    @Test func typesAndPlacesOfTheLargestFileAreKept() throws {
        var types: [String: Int] = [:]
        var nonASCII = 0
        _ = try FeedReader().read(.file(RealFeeds.folder + "/all_month_2020-06.csv")) { event in
            types[event.eventType, default: 0] += 1
            if event.place.unicodeScalars.contains(where: { !$0.isASCII }) { nonASCII += 1 }
        }
        #expect(types == ["earthquake": 19_572, "quarry blast": 108, "ice quake": 68, "explosion": 63,
                          "other event": 3, "chemical explosion": 2])
        #expect(nonASCII == 260)
    }

    @Test func theFifteenColumnMaximumIsTheDeepPeruBrazilEvent() throws {
        let selected = try QuakeMap.select(from: .file(RealFeeds.folder + "/all_month_2015-12_15col.csv"),
                                           selection: EventSelection(limit: nil))
        let largest = try #require(selected.events.max { ($0.magnitude ?? 0) < ($1.magnitude ?? 0) })
        #expect(largest.id == "us100040x6")
        #expect(CivilTime.iso8601(selected.events[0].time).hasPrefix("2015-12-22T18:45"))
    }

    @Test func preTwentyThirteenIdsKeepLeadingZeros() throws {
        var ids: [String] = []
        _ = try FeedReader().read(.file(RealFeeds.folder + "/eqs7day-M1_2011-05.txt")) { ids.append($0.id) }
        // 128 Eqids start with a zero (nn, uu, uw, nm, ne, at); every Src is two letters.
        #expect(ids.filter { $0.dropFirst(2).hasPrefix("0") }.count == 128)
        #expect(ids.filter { $0.hasPrefix("nn00") }.count == 78)
        #expect(Set(ids).count == 911)
    }

    @Test func oldGeoJSONFeedLoadsWithItsQuirks() throws {
        var events: [SeismicEvent] = []
        let summary = try FeedReader(options: FeedOptions(strict: true))
            .read(.file(RealFeeds.folder + "/all_week_2014-04.geojson")) { events.append($0) }
        #expect(summary.rows == 1_513 && summary.events == 1_513)
        #expect(summary.generated == Date(timeIntervalSince1970: 1_397_564_044))
        #expect(events.filter { ($0.magnitude ?? 0) < 0 }.count == 11)
        #expect(events.compactMap(\.magnitude).min() == -0.7)
        #expect(events.compactMap(\.depth).min() == -9.9)
        let largest = try #require(events.max { ($0.magnitude ?? 0) < ($1.magnitude ?? 0) })
        #expect(largest.magnitude == 7.6 && largest.place.contains("Kirakira, Solomon Islands"))
        #expect(Dictionary(grouping: events, by: \.eventType).mapValues(\.count)
                == ["earthquake": 1_486, "quarry": 15, "quarry_blast": 12])
    }

    @Test func modernGeoJSONFeedLoadsAndRenders() throws {
        let selected = try QuakeMap.select(from: .file(RealFeeds.folder + "/4.5_week_2020-10.geojson"))
        #expect(selected.summary.rows == 91 && selected.events.count == 91)
        #expect(selected.summary.generated == Date(timeIntervalSince1970: 1_602_348_208))
        #expect(selected.events.compactMap(\.magnitude).min() == 4.5)
        #expect(selected.events.compactMap(\.magnitude).max() == 6.3)
        #expect(selected.events.contains { $0.place == "34 km S of Andalgalá, Argentina" })
        _ = try RasterImage(png: QuakeMap.pngData(for: selected.events, options: MapOptions(width: 512)))
    }
}

enum RealFeeds {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/data/usgs").path

    static var available: Bool { FileManager.default.fileExists(atPath: folder + "/PROVENANCE.md") }
}
