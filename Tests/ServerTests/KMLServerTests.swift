import Foundation
import QuakeKit
import Testing

/// The items as KML and KMZ (the pages of the GeoJSON items), and the network link to them.
@Suite("quakemap-server KML", .timeLimit(.minutes(10)), .serialized)
struct KMLServerTests {
    static func count(_ text: String, _ piece: String) -> Int { text.components(separatedBy: piece).count - 1 }

    @Test func itemsAsKMLArePagesOfTheSameEvents() async throws {
        var rows = ServerFixtures.sixty
        rows[59].place = "Between <Alpha> & Beta"
        try await ServerTests.withServer(rows) { server in
            let page = try await server.get("/collections/quakes/items?f=kml&limit=25&bbox=-180,-90,180,90")
            #expect(page.status == 200 && page.headers["content-type"] == "application/vnd.google-earth.kml+xml")
            #expect(page.headers["etag"] != nil)
            #expect(Self.count(page.text, "<Placemark>") == 25)
            // Newest first, as the GeoJSON page: q59 (M 6.9) at 00:59.
            #expect(page.text.contains("<name>M 6.9 – Between &lt;Alpha&gt; &amp; Beta</name>"))
            #expect(page.text.contains("<TimeStamp><when>2026-11-21T00:59:00.000Z</when></TimeStamp>"))
            #expect(page.text.contains("<Data name=\"id\"><value>q59</value></Data>"))
            #expect(page.text.contains("<Style id=\"m6\"><IconStyle><color>993675ff</color>"))
            // The next page by the same parameters, as an atom:link.
            #expect(page.text.contains("<atom:link rel=\"next\" href=\"\(server.base)/collections/quakes/items?f=kml&amp;limit=25&amp;bbox=-180%2C-90%2C180%2C90&amp;offset=25\"/>"))
            let geoJSON = try await server.get("/collections/quakes/items?limit=25&offset=50")
            let last = try await server.get("/collections/quakes/items?f=kml&limit=25&offset=50")
            #expect(Self.count(last.text, "<Placemark>") == (geoJSON.json["features"] as? [Any])?.count)
            #expect(!last.text.contains("rel=\"next\""))
            #expect(last.headers["link"]?.contains("offset=25>; rel=\"prev\"") == true, "\(last.headers)")

            let kmz = try await server.get("/collections/quakes/items?f=kmz&limit=5")
            #expect(kmz.status == 200 && kmz.headers["content-type"] == "application/vnd.google-earth.kmz")
            #expect(kmz.body.starts(with: [0x50, 0x4B, 0x03, 0x04]) && kmz.body.count > 30)
        }
    }

    @Test func aNetworkLinkLoadsTheSameItemsAsKMLAgainAndAgain() async throws {
        try await ServerTests.withServer { server in
            let link = try await server.get("/collections/quakes/items?f=kml-network-link&filter=mag%3E%3D4&limit=100")
            #expect(link.status == 200 && link.headers["content-type"] == "application/vnd.google-earth.kml+xml")
            #expect(link.text.contains("<href>\(server.base)/collections/quakes/items?filter=mag%3E%3D4&amp;limit=100&amp;f=kml</href>"))
            #expect(link.text.contains("<refreshMode>onInterval</refreshMode>\n<refreshInterval>300</refreshInterval>"))
            let every = try await server.get("/collections/quakes/items?f=kml-network-link&refresh=60")
            #expect(every.text.contains("<refreshInterval>60</refreshInterval>"))
            // What it points at answers: 30 events of M ≥ 4.
            let items = try await server.get("/collections/quakes/items?filter=mag%3E%3D4&limit=100&f=kml")
            #expect(Self.count(items.text, "<Placemark>") == 30)
        }
    }

    @Test(arguments: [
        ("f=kml-network-link&refresh=5", "refresh"),
        ("f=kml-network-link&refresh=soon", "refresh"),
        ("f=kml&refresh=300", "refresh"),
        ("f=kml-network-link&bbox=1,2,3", "bbox"),
        ("f=kml&datetime=yesterday", "datetime"),
        ("f=gpx", "f"),
    ])
    func badParametersAreProblems(query: String, parameter: String) async throws {
        try await ServerTests.withServer { server in
            let reply = try await server.get("/collections/quakes/items?\(query)")
            #expect(reply.status == 400 && reply.headers["content-type"] == "application/problem+json", "\(query)")
            #expect(reply.json["parameter"] as? String == parameter, "\(query): \(reply.text)")
        }
    }
}
