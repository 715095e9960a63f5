import Foundation
import Testing
@testable import QuakeModel
@testable import QuakeParse

/// The streamed GeoJSON reader: the same events whatever the windows, every skeleton fault
/// refused with its line and column, and features handed over as they complete.
@Suite("Streamed GeoJSON")
struct GeoJSONStreamTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func feature(_ index: Int, id: String? = nil) -> String {
        """
        {"type":"Feature","id":"\(id ?? "ev\(index)")","properties":{"mag":\(Double(index % 50) / 10 + 1),\
        "place":"a \\"quoted\\" place, {braces} [and] brackets","time":\(1_700_000_000_000 + index * 60_000),\
        "updated":\(1_700_000_000_000 + index * 60_000),"type":"earthquake","net":"us"},\
        "geometry":{"type":"Point","coordinates":[\(Double(index % 360) - 179.5),\(Double(index % 170) - 85),\(index % 700)]}}
        """
    }

    static func collection(_ count: Int, typeLast: Bool = false) -> String {
        let features = (0..<count).map { feature($0) }.joined(separator: ",\n")
        let metadata = #""metadata":{"generated":1700000000000,"title":"USGS All Earthquakes, Past Day"}"#
        return typeLast ? "{\(metadata),\"features\":[\n\(features)\n],\"type\":\"FeatureCollection\"}\n"
            : "{\"type\":\"FeatureCollection\",\(metadata),\"features\":[\n\(features)\n]}\n"
    }

    /// `text` read through the stream in windows of `size` bytes.
    static func stream(_ text: String, window size: Int) throws -> (events: [SeismicEvent], rejected: [FeedRejection], stream: GeoJSONStream) {
        let stream = GeoJSONStream(decoder: GeoJSONFeedDecoder(source: "feed.geojson", options: FeedOptions(now: now)))
        var events: [SeismicEvent] = [], rejected: [FeedRejection] = []
        let bytes = Array(text.utf8)
        var start = 0
        repeat {
            let end = min(bytes.count, start + size)
            try bytes[start..<end].withUnsafeBytes { window in
                try stream.parse(window, isLast: end == bytes.count) { outcome in
                    switch outcome {
                    case .event(let event): events.append(event)
                    case .rejected(let rejection): rejected.append(rejection)
                    }
                }
            }
            start = end
        } while start < bytes.count
        return (events, rejected, stream)
    }

    @Test(arguments: [1, 7, 64, 4096, 1 << 20])
    func windowsOfAnySizeGiveTheSameEvents(size: Int) throws {
        let text = Self.collection(120)
        let read = try Self.stream(text, window: size)
        #expect(read.events.count == 120 && read.rejected.isEmpty)
        #expect(read.events.map(\.id) == (0..<120).map { "ev\($0)" })
        #expect(read.events[7].place == "a \"quoted\" place, {braces} [and] brackets")
        #expect(read.stream.generated == Date(timeIntervalSince1970: 1_700_000_000) && read.stream.title == "USGS All Earthquakes, Past Day")
        // The same as the whole-file reader of FeedReader, and with the type after the features.
        var whole: [SeismicEvent] = []
        _ = try FeedReader(options: FeedOptions(now: Self.now)).read(.bytes(Data(text.utf8), name: "feed.geojson")) { whole.append($0) }
        #expect(whole == read.events)
        #expect(try Self.stream(Self.collection(30, typeLast: true), window: size).events.count == 30)
    }

    /// A bad feature is a rejection with its position; the others are read.
    @Test func aBadFeatureIsRejectedByItsIndex() throws {
        let bad = Self.feature(1).replacingOccurrences(of: "\"mag\":1.1", with: "\"mag\":\"lots\"")
        let text = "{\"type\":\"FeatureCollection\",\"features\":[\(Self.feature(0)),\(bad),\(Self.feature(2))]}"
        let read = try Self.stream(text, window: 10)
        #expect(read.events.map(\.id) == ["ev0", "ev2"])
        let rejection = try #require(read.rejected.first)
        #expect(rejection.location == .feature(2, id: "ev1") && rejection.column == "mag" && rejection.value == "lots")
    }

    /// Faults of the skeleton, each named with where it is.
    @Test(arguments: [
        ("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\"} {\"type\":\"Feature\"}]}", "line 1, column 60: no ',' or ']' after feature 1"),
        ("{\"type\":\"FeatureCollection\"\n \"features\":[]}", "line 2, column 2: no ',' or '}' after the value of \"type\""),
        ("{\"type\":\"FeatureCollection\",\"features\":[]} x", "more after the end of the document"),
        ("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\"", "it ends before the document does"),
        ("{type:\"FeatureCollection\"}", "line 1, column 2: a key is not a string"),
        ("{\"type\" \"FeatureCollection\"}", "no ':' after the key \"type\""),
        ("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"x\":tru}]}", "feature 1 is not valid JSON"),
        ("{\"type\":\"FeatureCollection\"}", "the FeatureCollection has no \"features\" array"),
        ("{\"type\":\"Topology\",\"features\":[]}", "the top level is not a FeatureCollection or a Feature"),
    ])
    func brokenDocumentsSayWhere(_ text: String, _ expected: String) {
        do {
            _ = try Self.stream(text, window: 5)
            Issue.record("read: \(text)")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }
}
