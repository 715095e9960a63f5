import Foundation
import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeScene

/// The data's credit comes from the data: each reader names its source, and the map's footer
/// credits it through one wording (``Credits``).
@Suite("Attribution from the data")
struct AttributionTests {
    static func footer(_ source: FeedSource) throws -> String {
        let selection = try QuakeMap.select(from: source)
        let scene = SceneBuilder(options: MapOptions(width: 1600).crediting(selection.summary))
            .scene(for: selection.events, feedGenerated: selection.summary.generated)
        return try #require(scene.overlay.texts.map(\.text).first { $0.contains(" events") || $0.contains(" event ") })
    }

    @Test func aUSGSLayoutIsCreditedToTheUSGS() throws {
        let csv = "time,latitude,longitude,depth,mag,magType,net,id\n2026-11-20T10:00:00Z,10,20,5,4.5,mb,us,us1\n"
        let footer = try Self.footer(.bytes(Data(csv.utf8), name: "feed.csv"))
        #expect(footer.contains("Data: USGS"), "\(footer)")
    }

    @Test func aCSVOfNoKnownSourceCreditsNone() throws {
        let csv = "time,latitude,longitude,depth,mag\n2026-11-20T10:00:00Z,10,20,5,4.5\n"
        let footer = try Self.footer(.bytes(Data(csv.utf8), name: "mine.csv"))
        #expect(!footer.contains("Data:"), "\(footer)")
    }

    @Test func gcmtIsCreditedForNDKNotTheUSGS() throws {
        let footer = try Self.footer(.bytes(Data(MechanismTests.record.utf8), name: "gcmt.ndk"))
        #expect(footer.contains("Data: Global CMT Project") && !footer.contains("USGS"), "\(footer)")
    }

    @Test func theWordingIsOneAndCountsTheRest() {
        #expect(Credits.data([]) == nil)
        #expect(Credits.data(["EMSC"]) == "Data: EMSC")
        #expect(Credits.data(["A", "B", "C", "D", "E"]) == "Data: A, B, C and 2 more")
        #expect(Credits.fdsnService(name: "emsc", baseURL: "https://www.seismicportal.eu/fdsnws/event/1/") == "EMSC")
        #expect(Credits.fdsnService(name: nil, baseURL: "http://127.0.0.1:8080/fdsnws/event/1/") == "127.0.0.1:8080")
        #expect(PlateBoundaries.bird2003.credit == Credits.plates)
        var summary = FeedSummary()
        summary.credit("USGS")
        summary.credit("USGS")
        summary.credit("")
        summary.credit(nil)
        #expect(summary.sources == ["USGS"])
    }
}
