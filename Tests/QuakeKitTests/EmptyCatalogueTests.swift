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

/// A feed with a header and no rows, or a FeatureCollection with no features,
/// is a quiet day's feed (USGS `significant_day` most days): an empty
/// catalogue, read, selected, drawn and tiled like any other. No bytes, blank
/// lines only, or something that is not a feed, stay errors.
@Suite("Empty catalogues", .timeLimit(.minutes(10)))
struct EmptyCatalogueTests {
    /// The header line of every CSV layout the reader knows (column names only).
    static let headers: [(layout: String, header: String)] = [
        ("22 columns", Fixtures.header22),
        ("15 columns", "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type"),
        ("eqs7day", "Src,Eqid,Version,Datetime,Lat,Lon,Magnitude,Depth,NST,Region"),
        ("Date,TimeUTC", "Date,TimeUTC,Latitude,Longitude,Magnitude,Depth"),
    ]

    /// The ways a header-only file starts and ends: final newline or not, CRLF, a byte order mark, blank lines after.
    static let spellings: [(name: String, before: String, after: String)] = [
        ("LF", "", "\n"),
        ("no final newline", "", ""),
        ("CRLF", "", "\r\n"),
        ("BOM", "\u{FEFF}", "\n"),
        ("BOM and CRLF, blank lines after", "\u{FEFF}", "\r\n\r\n\n"),
    ]

    /// The USGS GeoJSON summary feed on a quiet day: its metadata, no features, no `bbox`.
    static let quietGeoJSON = """
        {"type":"FeatureCollection","metadata":{"generated":1795305492000,\
        "url":"https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/significant_day.geojson",\
        "title":"USGS Significant Earthquakes, Past Day","status":200,"api":"1.14.1","count":0},"features":[]}
        """

    @Test(arguments: headers)
    func aHeaderWithoutRowsIsAnEmptyCatalogue(_ layout: String, _ header: String) throws {
        for (name, before, after) in Self.spellings {
            let (events, summary) = try Fixtures.read(before + header + after)
            #expect(events.isEmpty, "\(layout), \(name)")
            // The USGS's layouts credit it even empty; a layout with no network column credits none.
            var empty = FeedSummary()
            empty.sources = summary.sources.isEmpty ? [] : [Credits.usgs]
            #expect(summary == empty, "\(layout), \(name): no rows, no events, no rejections")
        }
    }

    @Test func aFeatureCollectionWithoutFeaturesIsAnEmptyCatalogueWithItsTimeAndTitle() throws {
        let (events, summary) = try Fixtures.read(Self.quietGeoJSON)
        #expect(events.isEmpty)
        #expect(summary.rows == 0 && summary.events == 0 && summary.rejected == 0)
        #expect(summary.generated.map(CivilTime.iso8601) == "2026-11-21T23:58:12.000Z")
        #expect(summary.title == "USGS Significant Earthquakes, Past Day")
        // The least a FeatureCollection can be.
        let bare = try Fixtures.read(#"  {"type":"FeatureCollection","features":[]}"#)
        #expect(bare.events.isEmpty && bare.summary == FeedSummary())
    }

    @Test func aFeedTitleIsOneShortLine() {
        #expect(GeoJSONFeedDecoder.title(" USGS\tAll\r\nEarthquakes,\u{0007}Past Hour ") == "USGS All Earthquakes, Past Hour")
        #expect(GeoJSONFeedDecoder.title(" \n ") == nil)
        #expect(GeoJSONFeedDecoder.title(42) == nil)
        let long = GeoJSONFeedDecoder.title(String(repeating: "x", count: 100_000))
        #expect(long?.count == FeedSummary.maximumTitleLength && long?.hasSuffix("…") == true)
    }

    @Test func strictModeChangesNothing() throws {
        let (events, summary) = try Fixtures.read(Fixtures.header22 + "\n", strict: true)
        var empty = FeedSummary()
        empty.sources = [Credits.usgs]
        #expect(events.isEmpty && summary == empty)
    }

    /// What is not a feed at all stays an error, with the message it had.
    @Test func noBytesBlankLinesAndNonFeedsAreStillErrors() {
        #expect(throws: FeedError.empty(source: "test.csv")) { try Fixtures.read("") }
        #expect(throws: FeedError.empty(source: "test.csv")) { try Fixtures.read("\n\r\n\n") }
        // Spaces make a header line, one with none of the columns.
        #expect(throws: FeedError.missingColumns(source: "test.csv", missing: ["time", "latitude", "longitude"], header: ["   "])) {
            try Fixtures.read("   \n")
        }
        #expect(throws: FeedError.notCSV(source: "test.csv", reason: "this is a JSON array, neither a CSV nor a GeoJSON feed")) {
            try Fixtures.read("[]")
        }
        #expect(throws: FeedError.missingColumns(source: "test.csv", missing: ["time", "latitude", "longitude"],
                                                 header: ["<!DOCTYPE html><html><body>Service unavailable</body></html>"])) {
            try Fixtures.read("<!DOCTYPE html><html><body>Service unavailable</body></html>\n")
        }
        #expect(throws: FeedError.malformedGeoJSON(source: "test.csv", reason: "the FeatureCollection has no \"features\" array")) {
            try Fixtures.read(#"{"type":"FeatureCollection","metadata":{"count":0}}"#)
        }
    }

    @Test func everySelectionOfAnEmptyFeedIsEmpty() throws {
        for text in [Fixtures.header22 + "\n", Self.quietGeoJSON] {
            let source = FeedSource.bytes(Data(text.utf8), name: "quiet")
            let whole = try QuakeMap.select(from: source)
            #expect(whole.events.isEmpty && whole.summary.rows == 0 && whole.duplicates == 0)
            #expect(try QuakeMap.select(from: source, as: MapEvent.self).events.isEmpty)
            #expect(try QuakeMap.select(from: source, selection: EventSelection(limit: nil), as: MapEvent.self).events.isEmpty)
        }
    }

    @Test func statisticsOfNothingAreZeroAndNulls() throws {
        let statistics = CatalogStatistics([])
        #expect(statistics.text == """
            events     0
            first      —
            last       —
            magnitude  —
            depth      —
            Mc, b      not enough events for Mc and b: no magnitudes, 50 needed
            types

            """)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(statistics), as: UTF8.self)
            == #"{"count":0,"depth":null,"first":null,"gutenbergRichter":{"eventsAboveMc":0,"mc":null,"minimumEvents":50,"#
            + #""problem":"not enough events for Mc and b: no magnitudes, 50 needed"},"last":null,"magnitude":null,"types":{}}"#)
    }

    @Test func theMapOfNothingSaysSoWithTheFeedsTitleAndTime() throws {
        let source = FeedSource.bytes(Data(Self.quietGeoJSON.utf8), name: "significant_day.geojson")
        let selection = try QuakeMap.select(from: source)
        let scene = SceneBuilder(options: MapOptions(width: 1200).crediting(selection.summary))
            .scene(for: selection.events, feedGenerated: selection.summary.generated, feedTitle: selection.summary.title)
        let texts = scene.overlay.texts.map(\.text)
        #expect(texts.first == "No earthquakes — USGS Significant Earthquakes, Past Day")
        #expect(texts.contains("Feed generated 2026-11-21 23:58 UTC · 0 events · Data: USGS · Made with Natural Earth · Plate boundaries: Bird (2003)"))
        #expect(texts.contains("Magnitude") && texts.contains("M3") && texts.contains("M7"), "the legend is drawn")
        #expect(scene.circles.isEmpty && !scene.polygons.isEmpty)

        // A CSV names neither: the title says only that there is nothing.
        let csv = SceneBuilder(options: MapOptions(width: 1200)).scene(for: [SeismicEvent]())
        #expect(csv.overlay.texts.map(\.text).first == "No earthquakes")
        #expect(csv.overlay.texts.map(\.text).contains("0 events · Made with Natural Earth · Plate boundaries: Bird (2003)"))
        // The feed's title is for the empty map only; a map with events keeps its time span.
        let busy = SceneBuilder(options: MapOptions(width: 1200))
            .scene(for: [Fixtures.event("a", magnitude: 5)], feedTitle: "USGS Significant Earthquakes, Past Day")
        #expect(busy.overlay.texts.first?.text == "1 earthquake, 2026-11-21 10:00 – 2026-11-21 10:00 UTC")

        for format in [ImageFormat.png, .pdf, .svg] {
            let data = try QuakeMap.render(selection, options: MapOptions(width: 400), format: format)
            #expect(data.count > 1000, "\(format)")
        }
        let image = try RasterImage(png: QuakeMap.render(selection, options: MapOptions(width: 400)))
        #expect(image.width == 400 && image.height == 200)
    }

    @Test func anEmptyPyramidHasNoTiles() throws {
        var written = 0
        let summary = try TilePyramid(zooms: 0...4, options: try TileOptions())
            .render([], feedGenerated: Date(timeIntervalSince1970: 1_795_305_492)) { _, _ in written += 1 }
        #expect(summary == TilePyramid.Summary(tiles: 0, bytes: 0, droppedByLimit: 0))
        #expect(written == 0)
    }
}
