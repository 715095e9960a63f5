import FeedTestServer
import Foundation
import QuakeFetch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import QuakeKit
import QuakeServer
import Testing

/// The service on 127.0.0.1: every endpoint, every refusal.
@Suite("quakemap-server endpoints", .timeLimit(.minutes(10)), .serialized)
struct ServerTests {
    static func withServer(_ rows: [ServerFixtures.Row] = ServerFixtures.sixty, options: ServerOptions = ServerOptions(),
                           _ body: (RunningServer) async throws -> Void) async throws {
        let path = try ServerFixtures.file(ServerFixtures.csv(rows))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try await RunningServer.start([.local(.file(path))], options: options)
        defer { server.stop() }
        try await body(server)
    }

    static func ids(_ reply: RunningServer.Reply) -> [String] {
        (reply.json["features"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func landingConformanceAndCollections() async throws {
        try await Self.withServer { server in
            let landing = try await server.get("/")
            #expect(landing.status == 200 && landing.headers["content-type"] == "application/json")
            let links = landing.json["links"] as? [[String: Any]] ?? []
            #expect(links.contains { $0["rel"] as? String == "conformance" && $0["href"] as? String == "\(server.base)/conformance" })
            #expect(links.contains { $0["rel"] as? String == "data" && $0["href"] as? String == "\(server.base)/collections" })
            #expect(links.contains { $0["rel"] as? String == "service-desc" && $0["href"] as? String == "\(server.base)/api" })
            let api = try await server.get("/api")
            #expect(api.headers["content-type"] == "application/vnd.oai.openapi+json;version=3.0")
            let paths = api.json["paths"] as? [String: Any] ?? [:]
            #expect(api.json["openapi"] as? String == "3.0.3" && paths.keys.contains("/collections/{collectionId}/items"))
            #expect(paths.count == 30, "every route is described: \(paths.keys.sorted())")
            // The query parameters the document lists are those each route takes (its 400 for an unknown one lists them).
            for (path, concrete) in [("/collections/{collectionId}/items", "/collections/quakes/items"), ("/count", "/count"),
                                     ("/tiles/{z}/{x}/{y}.png", "/tiles/0/0/0.png"), ("/map.png", "/map.png"),
                                     ("/tiles/land/{z}/{x}/{y}.png", "/tiles/land/0/0/0.png"),
                                     ("/tiles/basemap/{z}/{x}/{y}.mvt", "/tiles/basemap/0/0/0.mvt"),
                                     ("/collections/{collectionId}/tiles/{tileMatrixSetId}/{tileMatrix}/{tileRow}/{tileCol}",
                                      "/collections/quakes/tiles/WebMercatorQuad/0/0/0"),
                                     ("/collections/{collectionId}/changes", "/collections/quakes/changes")] {
                let operation = (paths[path] as? [String: Any])?["get"] as? [String: Any] ?? [:]
                let described = ((operation["parameters"] as? [[String: Any]]) ?? [])
                    .filter { $0["in"] as? String == "query" }.compactMap { $0["name"] as? String }.sorted()
                let refusal = try await server.get(concrete + "?nonsense=1").json["detail"] as? String ?? ""
                let taken = refusal.components(separatedBy: "this endpoint takes ").last?.components(separatedBy: ", ").sorted() ?? []
                #expect(described == taken, "\(path): the document lists \(described), the route takes \(taken)")
            }
            // And every path described answers: the document names no route the server lacks.
            for path in paths.keys {
                let concrete = path.replacingOccurrences(of: "{collectionId}", with: "quakes")
                    .replacingOccurrences(of: "{featureId}", with: "q00")
                    .replacingOccurrences(of: "{tileMatrixSetId}", with: "WebMercatorQuad")
                    .replacingOccurrences(of: "{tileMatrix}/{tileRow}/{tileCol}", with: "0/0/0")
                    .replacingOccurrences(of: "{z}/{x}/{y}", with: "0/0/0")
                // The change stream never ends: its head alone.
                let reply = try await server.get(concrete, method: path.hasSuffix("/changes") ? "HEAD" : "GET")
                #expect(reply.status == 200, "\(path) → \(concrete): \(reply.status)")
            }

            let conformance = try await server.get("/conformance").json["conformsTo"] as? [String] ?? []
            #expect(conformance.contains("http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core"))
            #expect(conformance.contains("http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter"))
            #expect(conformance.contains("http://www.opengis.net/spec/cql2/1.0/conf/cql2-text"))

            let collections = try await server.get("/collections").json["collections"] as? [[String: Any]] ?? []
            #expect(collections.map { $0["id"] as? String } == ["quakes"])
            let collection = try await server.get("/collections/quakes").json
            let temporal = (collection["extent"] as? [String: Any])?["temporal"] as? [String: Any]
            #expect((temporal?["interval"] as? [[String]])?.first == ["2026-11-21T00:00:00.000Z", "2026-11-21T00:59:00.000Z"])
            let queryables = try await server.get("/collections/quakes/queryables")
            #expect(queryables.headers["content-type"] == "application/schema+json")
            #expect((queryables.json["properties"] as? [String: Any])?.keys.contains("mag") == true)
        }
    }

    @Test func itemsPageNewestFirstAndNextLinksWalkTheWholeCollection() async throws {
        try await Self.withServer { server in
            let first = try await server.get("/collections/quakes/items")
            #expect(first.status == 200 && first.headers["content-type"] == "application/geo+json")
            // The default page (1,000) holds the whole small collection, and says there is no next page.
            #expect(first.json["numberMatched"] as? Int == 60 && first.json["numberReturned"] as? Int == 60)
            #expect(Self.ids(first) == (0...59).reversed().map { String(format: "q%02d", $0) })
            #expect((first.json["links"] as? [[String: Any]])?.contains { $0["rel"] as? String == "next" } == false)
            var seen: [String] = []
            var next: String? = "/collections/quakes/items?limit=7"
            var pages = 0
            while let path = next {
                let page = try await server.get(path)
                seen += Self.ids(page)
                let links = page.json["links"] as? [[String: Any]] ?? []
                next = (links.first { $0["rel"] as? String == "next" }?["href"] as? String).map {
                    String($0.dropFirst(server.base.count))
                }
                pages += 1
            }
            #expect(pages == 9 && seen == (0...59).reversed().map { String(format: "q%02d", $0) })
            let feature = (first.json["features"] as? [[String: Any]])?.first
            let properties = feature?["properties"] as? [String: Any]
            #expect(properties?["time"] as? String == "2026-11-21T00:59:00.000Z" && properties?["mag"] as? Double == 6.9)
            #expect((feature?["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [-131, 29])
            for huge in ["50000", "99999999999999999999999"] {
                let capped = try await server.get("/collections/quakes/items?limit=\(huge)")
                #expect(capped.status == 200 && capped.json["numberReturned"] as? Int == 60, "a limit over the maximum is lowered")
            }
            // Links stay ASCII: a filter with an accented letter is percent-encoded in `next`.
            let accented = try await server.get("/collections/quakes/items?limit=1&filter=place%20%3C%3E%20'Montr%C3%A9al'")
            let link = (accented.json["links"] as? [[String: Any]])?.first { $0["rel"] as? String == "next" }?["href"] as? String ?? ""
            #expect(link.contains("Montr%C3%A9al") && link.allSatisfy { $0.isASCII }, "\(link)")
        }
    }

    @Test(arguments: [
        ("bbox=175,-90,-175,90", (5...15).map { $0 }),                  // across the antimeridian
        ("bbox=-180,-90,180,-25", (0...5).map { $0 }),
        ("datetime=2026-11-21T00:10:00Z", [10]),
        ("datetime=2026-11-21T00:10:00Z/2026-11-21T00:12:00Z", [10, 11, 12]),
        ("datetime=../2026-11-21T00:02:00Z", [0, 1, 2]),
        ("datetime=2026-11-21T00:57:00Z/", [57, 58, 59]),
        ("datetime=2026-11-20", []),
        // A date means its whole UTC day, in `datetime` and in a CQL2 `DATE` alike.
        ("datetime=../2026-11-21", (0...59).map { $0 }), ("filter=time%20%3C%3D%20DATE('2026-11-21')", (0...59).map { $0 }),
        ("filter=time%20%3D%20DATE('2026-11-21')", (0...59).map { $0 }), ("filter=time%20%3E%20DATE('2026-11-21')", []),
        ("filter=mag%20%3E%3D%206.5", (55...59).map { $0 }),
        ("filter=place%20LIKE%20'Beyond%25'%20AND%20mag%20%3C%201.5&filter-lang=cql2-text", [1, 3]),
        ("filter=S_INTERSECTS(geometry,BBOX(-180,20,180,90))&bbox=-180,-90,0,90", (50...59).map { $0 }),
    ])
    func itemsFilter(query: String, expected: [Int]) async throws {
        try await Self.withServer { server in
            let reply = try await server.get("/collections/quakes/items?limit=100&\(query)")
            #expect(reply.status == 200, "\(reply.text)")
            #expect(Set(Self.ids(reply)) == Set(expected.map { String(format: "q%02d", $0) }), "\(query)")
            #expect(reply.json["numberMatched"] as? Int == expected.count)
        }
    }

    @Test func oneItemAndItsAbsence() async throws {
        try await Self.withServer { server in
            let item = try await server.get("/collections/quakes/items/q07")
            #expect(item.status == 200 && item.json["id"] as? String == "q07")
            #expect((item.json["properties"] as? [String: Any])?["place"] as? String == "Beyond Beta")
            let missing = try await server.get("/collections/quakes/items/nope")
            #expect(missing.status == 404 && missing.headers["content-type"] == "application/problem+json")
            #expect(missing.json["detail"] as? String == "no event with id 'nope' in collection 'quakes'")
        }
    }

    @Test(arguments: [
        ("/collections/quakes/items?bbox=1,2,3", "bbox", "bbox: '1,2,3' is not W,S,E,N (four numbers separated by commas)"),
        ("/collections/quakes/items?bbox=0x10,0,20,10", "bbox", "bbox: W '0x10' is not a number"),
        ("/collections/quakes/items?bbox=0,0,10,10,0,5", "bbox", "bbox: six numbers (with heights) are not served; give W,S,E,N"),
        ("/collections/quakes/items?bbox=0,50,10,10", "bbox", "bbox: south 50.0 must be below north 10.0"),
        ("/collections/quakes/items?datetime=yesterday", "datetime", nil),
        ("/collections/quakes/items?datetime=../..", "datetime", "datetime: '../..' leaves both ends open"),
        ("/collections/quakes/items?datetime=2026-11-22/2026-11-21", "datetime", nil),
        ("/collections/quakes/items?limit=0", "limit", "limit: '0' is not a whole number of at least 1"),
        ("/collections/quakes/items?limit=ten", "limit", nil),
        ("/collections/quakes/items?offset=-1", "offset", nil),
        ("/collections/quakes/items?filter=mag%20%3E%3D", "filter", "filter: at column 7: expected a value after '>='"),
        ("/collections/quakes/items?filter=mag%3E1&filter-lang=cql2-json", "filter-lang", nil),
        ("/collections/quakes/items?colour=red", "colour", nil),
        ("/collections/quakes/items?limit=1&limit=2", "limit", "limit: given more than once"),
        ("/collections/quakes/items?bbox-crs=EPSG:3857", "bbox-crs", nil),
        ("/tiles/1/0/0.png?limit=4", "limit", nil),
        ("/map.png?width=20", "width", "width: '20' is not a whole number in 64…4096"),
        ("/map.png?color=blue", "color", nil),
        ("/map.png?symbol=ball", "symbol", "symbol: 'ball' is not circle, beachball"),
        ("/map.png?symbol=beachball&mechanism=half", "mechanism", nil),
        ("/map.png?layer=b", "layer", "layer: 'b' is not bvalue, bvalue-sigma, mc"),
        ("/map.png?layer=mc&spacing=0", "spacing", "spacing: invalid b-value grid: node spacing 0.0° is outside 0.001…30"),
        ("/map.png?layer=mc&spacing=west", "spacing", "spacing: 'west' is not a number of degrees"),
    ] as [(String, String, String?)])
    func badRequestsNameTheParameter(path: String, parameter: String, detail: String?) async throws {
        try await Self.withServer { server in
            let reply = try await server.get(path)
            #expect(reply.status == 400)
            #expect(reply.headers["content-type"] == "application/problem+json")
            #expect(reply.json["parameter"] as? String == parameter, "\(reply.text)")
            if let detail { #expect(reply.json["detail"] as? String == detail) }
        }
    }

    @Test(arguments: ["/nope", "/collections/earthquakes", "/collections/earthquakes/items", "/tiles/2/4/0.png",
                      "/tiles/1/0/0.jpg", "/tiles/23/0/0.png", "/tiles/a/b/c.png"])
    func unknownPathsAreNotFound(path: String) async throws {
        try await Self.withServer { server in
            let reply = try await server.get(path)
            #expect(reply.status == 404, "\(reply.text)")
            #expect(reply.headers["content-type"] == "application/problem+json")
        }
    }

    @Test func headAnswersLikeGetAndOtherMethodsAreNotAllowed() async throws {
        try await Self.withServer { server in
            let get = try await server.get("/tiles/0/0/0.png")
            let head = try await server.get("/tiles/0/0/0.png", method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.headers["content-length"] == String(get.body.count) && head.headers["etag"] == get.headers["etag"])
            let post = try await server.get("/collections/quakes/items", method: "POST")
            #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD")
            #expect(post.json["detail"] as? String == "POST is not served: every resource here is read-only (GET, HEAD)")
        }
    }

    @Test func tilesAreTheLibrarysTilesWithETags() async throws {
        try await Self.withServer { server in
            let reply = try await server.get("/tiles/1/0/0.png")
            #expect(reply.status == 200 && reply.headers["content-type"] == "image/png")
            let catalogue = await server.store.catalogue
            let events = catalogue.events.compactMap(MapEvent.init)
            let expected = try TileLayer(events: events, zoom: 1, options: TileOptions())
                .pngData(for: TileID(zoom: 1, x: 0, y: 0))
            #expect(reply.body == expected, "the served tile is the pyramid's tile, byte for byte")
            let tag = try #require(reply.headers["etag"])
            let again = try await server.get("/tiles/1/0/0.png", headers: ["If-None-Match": tag])
            #expect(again.status == 304 && again.body.isEmpty)
            let weak = try await server.get("/tiles/1/0/0.png", headers: ["If-None-Match": "\"other\", W/\(tag)"])
            #expect(weak.status == 304, "a weak validator from a proxy matches too")
            let filtered = try await server.get("/tiles/1/0/0.png?filter=mag%20%3E%209")
            #expect(filtered.status == 200 && filtered.headers["etag"] != tag)
            let empty = try RasterImage(png: filtered.body)
            #expect(empty.width == 256 && !empty.rgba.contains { $0 != 0 }, "no event matches: a transparent tile")
            let changed = try await server.get("/tiles/1/0/0.png?filter=mag%20%3E%209", headers: ["If-None-Match": tag])
            #expect(changed.status == 200, "another query is another image")
        }
    }

    @Test func mapsHonourWidthRegionAndLimit() async throws {
        try await Self.withServer { server in
            let world = try await server.get("/map.png?width=400")
            #expect(world.status == 200 && world.headers["content-type"] == "image/png")
            let image = try RasterImage(png: world.body)
            #expect(image.width == 400 && image.height == 200)
            let region = try RasterImage(png: try await server.get("/map.png?width=300&bbox=160,-20,-160,20&limit=5").body)
            #expect(region.width == 300 && region.height == 300)
        }
    }

    @Test("a b-value layer is the library's b-value map of every matching event, not the newest 300")
    func bValueLayerIsTheLibrarysMap() async throws {
        // 2,000 events of b = 1 over a box, at evenly spaced quantiles, in a USGS CSV.
        var rows = ["time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type"]
        for index in 0..<2000 {
            let quantile = (Double(index % 200) + 0.5) / 200
            let magnitude = (1.95 - log10(1 - quantile)) * 100
            let time = Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 60)
            rows.append("\(CivilTime.iso8601(time)),\(34 + Double(index % 40) * 0.05),\(-120 + Double(index / 40) * 0.06),5,"
                        + "\(magnitude.rounded() / 100),ml,,,,,ci,ci\(index),\(CivilTime.iso8601(time)),here,earthquake")
        }
        let path = try ServerFixtures.file(rows.joined(separator: "\n") + "\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try await RunningServer.start([.local(.file(path))], options: ServerOptions())
        defer { server.stop() }
        let reply = try await server.get("/map.png?layer=bvalue&bbox=-121,33,-116,37&width=400&spacing=0.5")
        #expect(reply.status == 200 && reply.headers["content-type"] == "image/png")
        let selection = try QuakeMap.select(from: .file(path), selection: EventSelection(limit: nil), as: MapEvent.self)
        let box = try GeoBox(west: -121, south: 33, east: -116, north: 37)
        let expected = try QuakeMap.bValueMap(selection, grid: BValueGridOptions(spacing: 0.5),
                                              options: MapOptions(width: 400, region: box))
        let drawn = try RasterImage(png: reply.body), reference = try RasterImage(png: expected)
        #expect(drawn.width == reference.width && drawn.height == reference.height)
        let differing = zip(drawn.rgba, reference.rgba).count { abs(Int($0) - Int($1)) > 2 }
        #expect(differing == 0, "\(differing) channels differ")
        let mc = try await server.get("/map.png?layer=mc&bbox=-121,33,-116,37&width=400&spacing=0.5")
        #expect(mc.status == 200 && mc.body != reply.body, "another layer is another picture")
    }

    @Test func mapsDrawBeachballsWhenAsked() async throws {
        // A made-up event in GCMT's NDK columns: a thrust at 10.2° N, 120.3° E.
        let ndk = """
            PDEW 2020/01/01 12:00:00.0  10.00  120.00  30.0 5.5 5.7 SYNTHETIC ISLANDS REGION
            C202001011200A   B: 10   20  40 S: 10   20  50 M:  0    0   0 CMT: 1 TRIHD:  2.0
            CENTROID:      4.0 0.1  10.20 0.01  120.30 0.01  35.0  0.5 FREE S-20200201000000
            24  2.000 0.010 -1.000 0.010 -1.000 0.010  0.500 0.010 -0.500 0.010  0.250 0.010
            V10   2.300 80  90   0.000  5 200  -2.300  9 290   2.300 200 36   90  20 54   90

            """
        let path = try ServerFixtures.file(ndk)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try await RunningServer.start([.local(.file(path))], options: ServerOptions())
        defer { server.stop() }
        let box = "bbox=110,0,130,20&width=400"
        let circle = try await server.get("/map.png?\(box)")
        let ball = try await server.get("/map.png?\(box)&symbol=beachball")
        let full = try await server.get("/map.png?\(box)&symbol=beachball&mechanism=full")
        #expect(circle.status == 200 && ball.status == 200 && full.status == 200)
        #expect(Set([circle.headers["etag"], ball.headers["etag"], full.headers["etag"]]).count == 3)
        // White (the dilatational quadrants) around the event only when it is a ball.
        func white(_ reply: RunningServer.Reply) throws -> Int {
            let image = try RasterImage(png: reply.body)
            let (cx, cy) = (Int((120.3 - 110) / 20 * 400), Int((20 - 10.2) / 20 * 400))
            var count = 0
            for y in (cy - 12)...(cy + 12) {
                for x in (cx - 12)...(cx + 12) {
                    let at = (y * image.width + x) * 4
                    if image.rgba[at] == 255 && image.rgba[at + 1] == 255 && image.rgba[at + 2] == 255 { count += 1 }
                }
            }
            return count
        }
        #expect(try white(circle) == 0)
        #expect(try white(ball) > 60)
        // The relief under the same map: the land of Luzon (16–17.5° N, 121° E) lighter than the
        // Philippine Sea floor east of it, which the flat map draws in one colour.
        let relief = try await server.get("/map.png?\(box)&basemap=relief")
        #expect(relief.status == 200 && relief.headers["etag"] != circle.headers["etag"])
        func light(_ reply: RunningServer.Reply, _ latitude: Double, _ longitude: Double) throws -> Double {
            let image = try RasterImage(png: reply.body)
            let pixel = image.pixel(x: Int((longitude - 110) / 20 * 400), y: Int((20 - latitude) / 20 * 400))
            return 0.2126 * Double(pixel.red) + 0.7152 * Double(pixel.green) + 0.0722 * Double(pixel.blue)
        }
        let land = try [(17.5, 121.5), (17.0, 121.2), (16.0, 120.8)].map { try light(relief, $0.0, $0.1) }
        let sea = try [(15.0, 127.5), (13.0, 128.5)].map { try light(relief, $0.0, $0.1) }
        #expect(land.min()! > 1.3 * sea.max()!, "land \(land), sea \(sea)")
        #expect(try light(circle, 15.0, 127.5) == light(circle, 13.0, 128.5))
        #expect(try await server.get("/map.png?\(box)&basemap=etopo").status == 400)
    }

    @Test func slowDrawingGets503WhileOtherRequestsAnswer() async throws {
        var options = ServerOptions()
        options.renderTimeout = .milliseconds(1)
        options.concurrentRenders = 1
        let many = (0..<20_000).map { index in
            ServerFixtures.Row(id: "m\(index)", time: "2026-11-21T00:00:00.000Z", latitude: Double(index % 170) - 85,
                               longitude: Double(index % 359) - 179, magnitude: "7")
        }
        try await Self.withServer(many, options: options) { server in
            let slow = try await server.get("/map.png?width=4096&limit=20000")
            #expect(slow.status == 503 && slow.headers["retry-after"] == "5", "\(slow.text)")
            let health = try await server.get("/healthz")
            #expect(health.status == 200 && health.json["events"] as? Int == 20_000)
        }
    }

    @Test func aFailedRefreshKeepsServingTheLastGoodFeed() async throws {
        let upstream = try LoopbackServer()
        defer { upstream.stop() }
        let first = ServerFixtures.csv(Array(ServerFixtures.sixty.prefix(3)))
        let second = ServerFixtures.csv(Array(ServerFixtures.sixty.prefix(5)))
        upstream.route("/feed.csv", [.response(status: 200, body: first), .response(status: 200, body: second),
                                     .response(status: 500, body: "down")])
        let server = try await RunningServer.start([.url(upstream.baseURL + "/feed.csv")])
        defer { server.stop() }
        #expect(try await server.get("/collections/quakes/items").json["numberMatched"] as? Int == 3)
        #expect(await server.store.refresh())
        #expect(try await server.get("/collections/quakes/items").json["numberMatched"] as? Int == 5)
        #expect(await server.store.refresh() == false)
        let health = try await server.get("/healthz").json
        #expect(try await server.get("/collections/quakes/items").json["numberMatched"] as? Int == 5)
        #expect(health["failedRefreshes"] as? Int == 1 && health["status"] as? String == "ok")
    }

    @Test func withStaleOkAnUnreachableFeedStartsFromTheCache() async throws {
        let upstream = try LoopbackServer()
        defer { upstream.stop() }
        upstream.route("/feed.csv", [.response(status: 503, body: "down")])
        let url = upstream.baseURL + "/feed.csv"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-cache-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = FeedCache(directory: folder)
        try cache.store(CachedFeed(url: url, body: Data(ServerFixtures.csv(Array(ServerFixtures.sixty.prefix(4))).utf8),
                                   entityTag: nil, lastModified: nil, fetchedAt: Date(), renderedOutput: nil))
        let fetch = FetchOptions(timeout: LoopbackServer.patientSeconds, retries: 0)
        let stale = FeedStore(origins: [.url(url)], fetch: fetch, cache: cache, staleOk: true)
        try await stale.load()
        #expect(await stale.catalogue.events.count == 4)
        let strict = FeedStore(origins: [.url(url)], fetch: fetch, cache: cache, staleOk: false)
        await #expect(throws: FetchError.self) { try await strict.load() }
    }

    /// The start-up request is conditional on the cache, as `quakemap render --url`'s is; a 304
    /// serves the cached body and keeps the cache current; a cached body that no longer
    /// parses is reported, not hidden behind the fetch's error.
    @Test func startUpIsConditionalOnTheCacheAndAnUnparsableCacheIsReported() async throws {
        let upstream = try LoopbackServer()
        defer { upstream.stop() }
        upstream.route("/feed.csv", [.response(status: 304, headers: [("ETag", "\"v2\"")])])
        let url = upstream.baseURL + "/feed.csv"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-cache-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = FeedCache(directory: folder)
        let body = Data(ServerFixtures.csv(Array(ServerFixtures.sixty.prefix(4))).utf8)
        try cache.store(CachedFeed(url: url, body: body, entityTag: "\"v1\"", lastModified: nil,
                                   fetchedAt: Date(timeIntervalSince1970: 0), renderedOutput: "/maps/quakes.png"))
        let fetch = FetchOptions(timeout: LoopbackServer.patientSeconds, retries: 0)
        let store = FeedStore(origins: [.url(url)], fetch: fetch, cache: cache)
        try await store.load()
        #expect(await store.catalogue.events.count == 4)
        #expect(upstream.requests.first?.headers["if-none-match"] == "\"v1\"")
        let kept = try #require(cache.entry(for: url))
        #expect(kept.body == body && kept.entityTag == "\"v2\"" && kept.fetchedAt > Date(timeIntervalSince1970: 0))
        #expect(kept.renderedOutput == nil, "a render --if-changed must not take the server's body for its own")

        upstream.route("/feed.csv", [.response(status: 503, body: "down")])
        try cache.store(CachedFeed(url: url, body: Data("garbage\u{0}".utf8), entityTag: nil, lastModified: nil,
                                   fetchedAt: Date(), renderedOutput: nil))
        let stale = FeedStore(origins: [.url(url)], fetch: fetch, cache: cache, staleOk: true)
        await #expect(throws: FeedError.self) { try await stale.load() }
    }

    @Test func severalFeedsAreOneCollectionWithTheLatestUpdateOfEachEvent() async throws {
        var older = Array(ServerFixtures.sixty.prefix(2))
        var newer = older
        newer[0].magnitude = "5.5"
        newer[0].updated = "2026-11-22T00:00:00.000Z"
        older.append(ServerFixtures.Row(id: "only-a", time: "2026-11-20T00:00:00.000Z", latitude: 0, longitude: 0, magnitude: "2"))
        let a = try ServerFixtures.file(ServerFixtures.csv(older)), b = try ServerFixtures.file(ServerFixtures.csv(newer))
        defer { [a, b].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let server = try await RunningServer.start([.local(.file(a)), .local(.file(b))])
        defer { server.stop() }
        let items = try await server.get("/collections/quakes/items")
        #expect(Set(Self.ids(items)) == ["q00", "q01", "only-a"])
        let q00 = try await server.get("/collections/quakes/items/q00").json["properties"] as? [String: Any]
        #expect(q00?["mag"] as? Double == 5.5)
    }

    /// Event X, first in California, then revised to 10° N 10° E: the box holds no X, on the
    /// server as through the library (and on the command line: AdversarialInputTests), whichever
    /// version comes first.
    @Test(arguments: [false, true])
    func aRevisionThatLeavesTheBoxTakesTheEventWithIt(revisionFirst: Bool) async throws {
        let california = ServerFixtures.Row(id: "X", time: "2026-11-20T10:00:00.000Z", latitude: 35, longitude: -115,
                                            magnitude: "4.2", updated: "2026-11-20T10:05:00.000Z")
        let revised = ServerFixtures.Row(id: "X", time: "2026-11-20T10:00:01.000Z", latitude: 10, longitude: 10,
                                         magnitude: "4.4", updated: "2026-11-20T12:00:00.000Z")
        let neighbour = ServerFixtures.Row(id: "Y", time: "2026-11-20T09:00:00.000Z", latitude: 34, longitude: -116,
                                           magnitude: "3.1", updated: "2026-11-20T09:10:00.000Z")
        let rows = revisionFirst ? [revised, neighbour, california] : [california, neighbour, revised]
        let library = try QuakeMap.select(from: .bytes(Data(ServerFixtures.csv(rows).utf8), name: "revised.csv"),
                                          selection: EventSelection(limit: nil, filter: EventFilter(
                                              bbox: try GeoBox(west: -120, south: 30, east: -110, north: 40))))
        #expect(library.events.map(\.id) == ["Y"])
        try await Self.withServer(rows) { server in
            let inBox = try await server.get("/collections/quakes/items?bbox=-120,30,-110,40")
            #expect(Self.ids(inBox) == library.events.map(\.id))
            let x = try await server.get("/collections/quakes/items/X").json["geometry"] as? [String: Any]
            #expect((x?["coordinates"] as? [Double])?.prefix(2) == [10, 10])
        }
    }
}

/// The `quakemap-server` executable: start-up line, access log, a clean stop, and refusals.
@Suite("quakemap-server executable", .timeLimit(.minutes(10)), .serialized)
struct ServerProcessTests {
    static let executable = BuiltExecutable.url(named: "quakemap-server")

    /// Starts the server; returns the process, its standard error pipe, and the port it
    /// printed or, when it ended instead, everything it printed.
    static func start(_ arguments: [String]) throws -> (process: Process, errors: Pipe, port: Int?, text: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The start-up line names the port; read until it comes or standard error ends.
        var text = ""
        while true {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let range = text.range(of: "on http://127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                return (process, errors, Int(digits), text)
            }
        }
        process.waitUntilExit()
        return (process, errors, nil, text)
    }

    @Test func servesLogsEachRequestAndStopsCleanlyOnSIGTERM() async throws {
        let path = try ServerFixtures.file(ServerFixtures.csv(ServerFixtures.sixty))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (process, errors, port, _) = try Self.start([path, "--port", "0"])
        let bound = try #require(port, "the server printed no port")
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(bound)/healthz")!)
        request.timeoutInterval = 10
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        _ = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(bound)/nope")!)
        #expect(String(decoding: body, as: UTF8.self).contains("\"events\":60"))
        process.terminate()
        process.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(log)")
        #expect(log.contains("GET /healthz 200 "), "one access-log line per request: \(log)")
        #expect(log.contains("GET /nope 404 90 B "), "errors are logged with their problem body's size: \(log)")
    }

    @Test func refusesAMissingFeedATakenPortAndABadOption() throws {
        let missing = try Self.start(["/nonexistent/feed.csv", "--port", "0"])
        #expect(missing.process.terminationStatus == 66)
        #expect(missing.text.contains("/nonexistent/feed.csv: cannot open"), "\(missing.text)")

        let path = try ServerFixtures.file(ServerFixtures.csv(ServerFixtures.sixty))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try Self.start([path, "--port", "0"])
        defer { first.process.terminate(); first.process.waitUntilExit() }
        let bound = try #require(first.port)
        let second = try Self.start([path, "--port", String(bound)])
        #expect(second.process.terminationStatus == 70)
        #expect(second.text.contains("cannot serve on 127.0.0.1:\(bound)"), "\(second.text)")

        let bad = try Self.start([path, "--refresh", "0s"])
        #expect(bad.process.terminationStatus == 64)
        #expect(bad.text.contains("--refresh: '0s' is not a duration"), "\(bad.text)")
    }
}
