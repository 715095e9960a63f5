import FeedTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import QuakeKit
import QuakeServer
import Testing

/// The server over a quiet day's feed (a header with no rows, a
/// FeatureCollection with no features): it starts, and every endpoint
/// answers with an empty collection, empty tiles, a map of no events.
@Suite("quakemap-server over an empty catalogue", .timeLimit(.minutes(10)), .serialized)
struct EmptyCatalogueServerTests {
    /// The USGS GeoJSON summary feed on a quiet day: its metadata, no features, no `bbox`.
    static let quietGeoJSON = """
        {"type":"FeatureCollection","metadata":{"generated":1795305492000,\
        "url":"https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/significant_day.geojson",\
        "title":"USGS Significant Earthquakes, Past Day","status":200,"api":"1.14.1","count":0},"features":[]}
        """

    @Test(arguments: [("header only", ServerFixtures.header + "\n"), ("no features", quietGeoJSON)])
    func servesAnEmptyCollection(_ name: String, _ feed: String) async throws {
        let path = try ServerFixtures.file(feed)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try await RunningServer.start([.local(.file(path))])
        defer { server.stop() }

        let items = try await server.get("/collections/quakes/items")
        #expect(items.status == 200 && items.headers["content-type"] == "application/geo+json")
        #expect(items.json["numberMatched"] as? Int == 0 && items.json["numberReturned"] as? Int == 0)
        #expect((items.json["features"] as? [Any])?.isEmpty == true)
        let rels = (items.json["links"] as? [[String: Any]] ?? []).compactMap { $0["rel"] as? String }
        #expect(rels.sorted() == ["collection", "self"], "no next page of nothing")
        let filtered = try await server.get("/collections/quakes/items?filter=mag%20%3E%205&bbox=0,0,10,10")
        #expect(filtered.status == 200 && filtered.json["numberMatched"] as? Int == 0)

        let collection = try await server.get("/collections/quakes").json
        #expect(collection["description"] as? String == "0 seismic events, newest first")
        let temporal = (collection["extent"] as? [String: Any])?["temporal"] as? [String: Any]
        #expect((temporal?["interval"] as? [[Any]])?.first?.allSatisfy { $0 is NSNull } == true, "an open interval")

        for tilePath in ["/tiles/0/0/0.png", "/tiles/3/5/2.png"] {
            let tile = try await server.get(tilePath)
            #expect(tile.status == 200 && tile.headers["content-type"] == "image/png", "\(tilePath)")
            let image = try RasterImage(png: tile.body)
            #expect(image.width == 256 && image.height == 256)
            #expect(stride(from: 3, to: image.rgba.count, by: 4).allSatisfy { image.rgba[$0] == 0 }, "a transparent tile")
        }

        let map = try await server.get("/map.png?width=512")
        #expect(map.status == 200 && map.headers["content-type"] == "image/png")
        let image = try RasterImage(png: map.body)
        #expect(image.width == 512 && image.height == 256)
        // Land is drawn: the middle of Africa has the land colour (#4B5563).
        let africa = image.pixel(x: 256 + 20 * 512 / 360, y: 128 - 5 * 256 / 180)
        #expect((africa.red, africa.green, africa.blue) == (0x4B, 0x55, 0x63), "\(africa)")

        let health = try await server.get("/healthz")
        #expect(health.status == 200)
        #expect(health.json["status"] as? String == "ok" && health.json["events"] as? Int == 0)
    }

    /// The executable starts on a header-only feed (it used to exit 65) and says how many events it serves.
    @Test func theExecutableStartsOnAHeaderOnlyFeed() async throws {
        let path = try ServerFixtures.file(ServerFixtures.header + "\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (process, _, port, text) = try ServerProcessTests.start([path, "--port", "0"])
        defer { process.terminate(); process.waitUntilExit() }
        let bound = try #require(port, "the server did not start: \(text)")
        #expect(text.contains("serving 0 events from \(path) on http://127.0.0.1:\(bound)/"), "\(text)")
        let (body, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(bound)/healthz")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("\"events\":0"))
    }

    /// A URL feed that goes quiet is a good refresh, not a failed one: the
    /// collection empties and `/healthz` counts no failure.
    @Test func aFeedThatGoesQuietEmptiesTheCollection() async throws {
        let upstream = try LoopbackServer()
        defer { upstream.stop() }
        upstream.route("/significant_day.csv", [.response(status: 200, body: ServerFixtures.csv(Array(ServerFixtures.sixty.prefix(2)))),
                                               .response(status: 200, body: ServerFixtures.header + "\n")])
        let server = try await RunningServer.start([.url(upstream.baseURL + "/significant_day.csv")])
        defer { server.stop() }
        #expect(try await server.get("/collections/quakes/items").json["numberMatched"] as? Int == 2)
        #expect(await server.store.refresh())
        #expect(try await server.get("/collections/quakes/items").json["numberMatched"] as? Int == 0)
        let health = try await server.get("/healthz").json
        #expect(health["events"] as? Int == 0 && health["failedRefreshes"] as? Int == 0)
    }
}
