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

@Suite("Reading the GeoJSON feed", .timeLimit(.minutes(10)))
struct GeoJSONFeedTests {
    /// A synthetic summary feed in the USGS layout, one feature per line.
    static func feed(_ features: [String]) -> String {
        #"{"type":"FeatureCollection","metadata":{"generated":1763769480000,"title":"Synthetic"},"features":["#
            + features.joined(separator: ",\n") + #"],"bbox":[-180,-90,0,180,90,700]}"#
    }

    static func feature(id: String = "us7000abcd", mag: String = "4.6", time: String = "1763769000123",
                        coordinates: String = "[178.1,-17.7,560.5]", type: String = #""earthquake""#) -> String {
        #"{"type":"Feature","properties":{"mag":\#(mag),"place":"Fiji region","time":\#(time),"updated":1763769300000,"#
            + #""tz":null,"type":\#(type),"magType":"mww","net":"us","status":"reviewed"},"#
            + #""geometry":{"type":"Point","coordinates":\#(coordinates)},"id":"\#(id)"}"#
    }

    @Test func readsFeaturesAndTheGenerationTime() throws {
        let (events, summary) = try Fixtures.read(Self.feed([
            Self.feature(),
            Self.feature(id: "ak1", mag: "null", coordinates: "[-150.1,61.2,null]", type: "null"),
        ]))
        #expect(summary.rows == 2 && summary.events == 1 && summary.withoutMagnitude == 1)
        #expect(summary.generated == Date(timeIntervalSince1970: 1_763_769_480))
        let fiji = events[0]
        #expect(fiji.id == "us7000abcd")
        #expect(CivilTime.iso8601(fiji.time) == "2025-11-21T23:50:00.123Z")
        #expect((fiji.latitude, fiji.longitude, fiji.depth) == (-17.7, 178.1, 560.5))
        #expect(fiji.magnitude == 4.6 && fiji.magnitudeType == "mww" && fiji.place == "Fiji region")
        #expect(fiji.network == "us" && fiji.status == "reviewed")
        #expect(events[1].magnitude == nil && events[1].depth == nil && events[1].eventType == "earthquake")
    }

    /// A map without a limit reads GeoJSON through the same admission and
    /// repeated-id rule as a CSV feed.
    @Test func mapWithoutLimitReadsGeoJSON() throws {
        let text = Self.feed([
            Self.feature(),
            Self.feature(id: "ak1", mag: "null"),
            Self.feature(id: "us7000abcd", mag: "5.1", time: "1763769100000"),
            Self.feature(id: "nc2", mag: "2.0", coordinates: "[-122.1,37.5,8]"),
        ])
        let map = try QuakeMap.select(from: .bytes(Data(text.utf8), name: "feed.geojson"),
                                            feed: FeedOptions(now: Date(timeIntervalSince1970: 1_763_800_000)),
                                            selection: EventSelection(limit: nil, region: GeoBox(west: 170, south: -30,
                                                                                                  east: 180, north: 0)),
                                      as: MapEvent.self)
        #expect(map.events.map(\.magnitude) == [5.1])
        #expect(map.duplicates == 1)
        #expect(map.summary.rows == 4 && map.summary.events == 3 && map.summary.withoutMagnitude == 1)
    }

    @Test(arguments: [
        (feature(coordinates: "[10,95.2,1]"), "test.csv: feature 1 (us7000abcd): property 'latitude': '95.2' is outside -90…90"),
        (feature(coordinates: "[10]"), "test.csv: feature 1 (us7000abcd): property 'latitude' is empty"),
        (feature(time: "null"), "test.csv: feature 1 (us7000abcd): property 'time' is empty"),
        (feature(mag: #""big""#), "test.csv: feature 1 (us7000abcd): property 'mag': 'big' is not a number"),
        (#"{"type":"Feature","properties":{}}"#, "test.csv: feature 1: property 'geometry.coordinates' is missing"),
        ("42", "test.csv: feature 1: is not a GeoJSON Feature"),
    ])
    func badFeaturesAreRejectedWithEvidence(_ feature: String, _ message: String) throws {
        let (events, summary) = try Fixtures.read(Self.feed([feature, Self.feature(id: "ok")]))
        #expect(events.map(\.id) == ["ok"])
        #expect(summary.rejections.map(\.message) == [message])
        #expect(summary.rejections.first?.line == nil)
    }

    /// Found by fuzz-geojson: a time of 1.7e19 ms overflowed when it was written in a message.
    @Test func timesOutsideTheCalendarAreRejectedNotACrash() throws {
        let (events, summary) = try Fixtures.read(Self.feed([
            #"{"type":"Feature","properties":{"time":17000000714564000000},"geometry":{"coordinates":[1,-0]}}"#,
            #"{"type":"Feature","properties":{"time":1e300,"updated":-1e300},"geometry":{"coordinates":[1,2]}}"#,
            Self.feature(id: "ok").replacingOccurrences(of: "1763769300000", with: "99999999999999999999"),
        ]))
        // An impossible 'updated' rejects its feature, as a CSV row's does.
        #expect(events.isEmpty)
        #expect(summary.rejections.map(\.reason) == Array(repeating: "is outside the years 0001…9999", count: 3))
        #expect(summary.rejections.map(\.column) == ["time", "time", "updated"])
        #expect(CivilTime.iso8601(Date(timeIntervalSince1970: 1e300)) == "(a time out of range)")
    }

    @Test func strictStopsAtTheFirstBadFeature() {
        #expect(throws: FeedError.self) {
            try Fixtures.read(Self.feed([Self.feature(coordinates: "[200,0,0]")]), strict: true)
        }
    }
}
