import FeedTestServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import QuakeCatalogue
import QuakeKit
import QuakeRender
@testable import QuakeServer
import Testing
import NIOFoundationEssentialsCompat

/// The database behind a served catalogue.
enum ServedBackend: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite, postgres
    var description: String { rawValue }

    /// SQLite always; PostgreSQL when `make test` started one (under CI it must have).
    static var available: [ServedBackend] { TestPostgres.present ? [.sqlite, .postgres] : [.sqlite] }
}

/// A new catalogue, written in-process as `quakemap ingest` writes, read as a server reads it.
struct ServedCatalogue {
    let writer: CatalogueLocation
    let reader: CatalogueLocation
    private let cleanup: @Sendable () -> Void

    init(_ backend: ServedBackend) throws {
        switch backend {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-served-\(UUID().uuidString).sqlite").path
            writer = .sqlite(path: path)
            reader = writer
            cleanup = {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        case .postgres:
            let name = try TestPostgres.createCatalogueDatabase()
            let urls = TestPostgres.urls(name)
            writer = try CatalogueLocation(urls.writer)
            reader = try CatalogueLocation(urls.reader)
            cleanup = { TestPostgres.drop(name) }
        }
    }

    /// Ingests the feed at `path` (as `quakemap ingest PATH` does).
    @discardableResult
    func ingest(_ path: String) async throws -> IngestCounts {
        try await QuakeCatalogue.Catalogue.using(writer, writing: true) {
            try await $0.ingest(.file(path), feed: FeedOptions(), selection: EventSelection(limit: nil), plan: IngestPlan()).counts
        }
    }

    func store(refresh: Duration = .seconds(60)) async throws -> DatabaseStore {
        var log = Logger(label: "test")
        log.logLevel = .critical
        return try await DatabaseStore.open(reader, connections: 4, refresh: refresh, log: log)
    }

    func finish() { cleanup() }
}

/// One answer, as much of it as two servers must agree on.
struct Answer: Equatable, CustomStringConvertible {
    var status: Int
    var body: Data
    var headers: HTTPFields

    /// The features, each as sorted-key JSON; `nil` when the body is not a feature collection.
    var features: [String]? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let features = object["features"] as? [Any] else { return nil }
        return features.map { String(decoding: try! JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
    }

    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }

    var hasNext: Bool {
        ((json["links"] as? [[String: Any]]) ?? []).contains { $0["rel"] as? String == "next" }
    }

    var description: String { "\(status) \(String(decoding: body.prefix(300), as: UTF8.self))" }
}

extension TestClientProtocol {
    func answer(_ uri: String, headers: HTTPFields = [:]) async throws -> Answer {
        try await execute(uri: uri, method: .get, headers: headers) { response in
            Answer(status: Int(response.status.code), body: Data(buffer: response.body), headers: response.headers)
        }
    }
}

@Suite("quakemap-server --catalogue: SQLite and PostgreSQL + PostGIS answer as the feed does", .timeLimit(.minutes(10)))
struct CatalogueServerTests {
    static let logger: Logger = {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }()

    static let sample = TestPostgres.repositoryRoot.appendingPathComponent("Data/synthetic_all_day.csv").path
    static let sharedMonth = TestPostgres.repositoryRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/data/usgs/all_month_2022-03.csv").path

    /// The feeds both ways are asked about: the bundled sample, and a real USGS month when `../shared` is there.
    static var feeds: [String] {
        [sample] + (FileManager.default.fileExists(atPath: sharedMonth) ? [sharedMonth] : [])
    }

    @Test func postgresIsThereWhenCIRuns() {
        if ProcessInfo.processInfo.environment["CI"] != nil {
            #expect(TestPostgres.present, "CI runs make test, which starts PostgreSQL (scripts/with_postgres.sh): it did not")
        }
    }

    /// Item queries: ordinary ones, and hostile ones (quotes and `;` in CQL2, LIKE's wildcards,
    /// offsets and limits past any catalogue, boxes across 180°, what the parser refuses).
    static let itemQueries = [
        "limit=50", "limit=7&offset=13", "bbox=-180,-90,180,90&limit=100", "bbox=170,-60,-170,60&limit=100",
        "bbox=-130,30,-110,45&limit=20&offset=5", "datetime=../2100-01-01T00:00:00Z&limit=10",
        "datetime=2022-03-01T00:00:00Z/2022-03-02T00:00:00Z", "datetime=2022-03-01",
        "filter=mag%20%3E%3D%204.5", "filter=mag%20%3E%3D%202.5%20AND%20depth%20%3C%2010&limit=30",
        "filter=place%20LIKE%20%27%25Alaska%25%27&limit=25", "filter=place%20LIKE%20%27%25_%25%27&limit=5",
        "filter=place%20LIKE%20%27%25%5C%25%25%27", "filter=place%20%3D%20%27x%27%27%3B%20DROP%20TABLE%20events%3B%20--%27",
        "filter=mag%20%3E%3D%204.5%3B%20DROP%20TABLE%20events", "filter=S_INTERSECTS(geometry%2C%20BBOX(-130%2C30%2C-110%2C45))&limit=40",
        "filter=time%20%3E%20TIMESTAMP(%272022-03-05T00%3A00%3A00Z%27)&limit=30", "offset=999999999999&limit=10",
        "offset=9223372036854775807", "limit=99999999999999999999", "limit=10000&offset=2",
        "filter=mag%20%3E%3D%205%20OR%20place%20LIKE%20%27%25Japan%25%27&limit=60", "filter=NOT%20(mag%20%3C%203)&limit=30",
        "filter=mag%20BETWEEN%203%20AND%204&bbox=-180,-60,0,60&limit=30", "filter=depth%20%3E%20-1%20AND%20mag%20%3C%3D%201&limit=15",
        "filter=S_INTERSECTS(geometry%2C%20POLYGON((0%200%2C%2010%200%2C%2010%2010%2C%200%200)))", "filter=nonsense",
        "filter=magnitude%20%3E%203", "bbox=10,10", "offset=-1", "limit=0",
    ]

    /// FDSN event queries (after `/fdsnws/event/1/query?`, or `count?…`): each parameter, each order, pages, no data.
    static let fdsnQueries = [
        "format=text", "format=text&minmag=2.5&orderby=magnitude&limit=30&offset=3", "format=text&lat=36&lon=-118&maxradius=5",
        "format=text&latitude=60&longitude=-150&minradius=2&maxradius=8", "format=text&minlon=170&maxlon=200",
        "format=xml&magnitudetype=ml&limit=40", "format=text&contributor=ci&updatedafter=2022-03-10",
        "format=text&orderby=time-asc&limit=50", "format=text&orderby=magnitude-asc&limit=20&offset=100",
        "format=text&eventtype=earthquake&mindepth=5&maxdepth=50&limit=100", "format=text&eventtype=quarry*,explosion",
        "format=text&starttime=2022-03-05T00:00:00&endtime=2022-03-06T12:00:00.5", "format=text&minmag=9.9",
        "format=text&nodata=404&minmag=9.9", "format=text&catalog=nope", "count?minmag=2", "count?lat=36&lon=-118&maxradius=5",
        "format=text&minmag=nonsense", "format=text&limit=2&offset=99999",
        "format=text&orderby=magnitude&limit=5&offset=9223372036854775807", "format=text&orderby=time-asc&offset=9223372036854775806",
    ]

    /// The features of every page from `uri` on, following next links, and the links followed.
    static func walk(_ client: some TestClientProtocol, _ uri: String) async throws -> (features: [String], links: [String]) {
        var features: [String] = [], links = [uri], next: String? = uri
        while let page = next {
            let answer = try await client.answer(page)
            #expect(answer.status == 200, "\(page): \(answer)")
            features += answer.features ?? []
            next = ((answer.json["links"] as? [[String: Any]]) ?? []).first { $0["rel"] as? String == "next" }
                .flatMap { $0["href"] as? String }.flatMap { href in href.range(of: "/collections/").map { String(href[$0.lowerBound...]) } }
            if let next { links.append(next) }
            if links.count > 1_000 { break }
        }
        return (features, links)
    }

    @Test("the same items, item, collection, tiles and maps as the feed in memory", arguments: ServedBackend.available)
    func sameAnswersAsTheFeed(_ backend: ServedBackend) async throws {
        for feed in Self.feeds {
            let catalogue = try ServedCatalogue(backend)
            defer { catalogue.finish() }
            try await catalogue.ingest(feed)
            let database = try await catalogue.store()
            let memory = FeedStore(origins: [.local(.file(feed))])
            try await memory.load()
            let first = try #require(await memory.catalogue.events.first)
            let options = ServerOptions()
            let fromDatabase = QuakeServer.application(store: database, options: options, logger: Self.logger)
            let fromMemory = QuakeServer.application(store: memory, options: options, logger: Self.logger)
            try await fromDatabase.test(.router) { served in
                try await fromMemory.test(.router) { reference in
                    let name = URL(fileURLWithPath: feed).lastPathComponent
                    var uris = Self.itemQueries.map { "/collections/quakes/items?\($0)" }
                    let ids = await memory.catalogue.events.prefix(40).map(\.id)
                    uris += ids.prefix(5).map { "/collections/quakes/items/\($0)" } + ["/collections/quakes/items/nope"]
                    uris.append("/collections/quakes/items?datetime=\(CivilTime.iso8601(first.time))")
                    for uri in uris {
                        let got = try await served.answer(uri), expected = try await reference.answer(uri)
                        #expect(got.status == expected.status, "\(name) \(uri): \(got) vs \(expected)")
                        guard got.status == 200 else { continue }
                        if uri.contains("/items/") {
                            #expect(got.body == expected.body, "\(name) \(uri)")
                        } else {
                            #expect(got.features == expected.features, "\(name) \(uri)")
                            #expect(got.hasNext == expected.hasNext, "\(name) \(uri): next link")
                            #expect(got.json["numberReturned"] as? Int == expected.json["numberReturned"] as? Int, "\(name) \(uri)")
                            // A database leaves out a count it would have to read every match for; one it gives is right.
                            if let matched = got.json["numberMatched"] as? Int {
                                #expect(matched == expected.json["numberMatched"] as? Int, "\(name) \(uri)")
                            }
                        }
                    }
                    // The FDSN event service reads through the same filter, streamed a page at a time from a database.
                    for query in Self.fdsnQueries + ["eventid=\(ids[3])&format=text", "eventid=nope"] {
                        let path = "/fdsnws/event/1/" + (query.hasPrefix("count?") ? query : "query?" + query)
                        let got = try await served.answer(path), expected = try await reference.answer(path)
                        #expect(got.status == expected.status, "\(name) \(path): \(got) vs \(expected)")
                        if got.status == 200 { #expect(got.body == expected.body, "\(name) \(path)") }
                    }
                    // Every page by its next link: a catalogue's go by cursor, the feed's by offset, and they join
                    // into the same events, each once, in the same order.
                    for query in ["limit=97", "filter=mag%20%3E%3D%202.5&limit=40", "bbox=-130,30,-110,45&limit=25"] {
                        let got = try await Self.walk(served, "/collections/quakes/items?\(query)")
                        let expected = try await Self.walk(reference, "/collections/quakes/items?\(query)")
                        #expect(got.links.count > 2 && expected.links.count > 2, "\(name) \(query): more than two pages")
                        #expect(got.features == expected.features && !got.features.isEmpty, "\(name) \(query): \(got.features.count) vs \(expected.features.count)")
                        #expect(got.links.dropFirst().allSatisfy { $0.contains("cursor=") && !$0.contains("offset=") }, "\(name) \(got.links)")
                        #expect(expected.links.dropFirst().allSatisfy { $0.contains("offset=") }, "\(name) \(expected.links)")
                    }
                    let cursor = try await served.answer("/collections/quakes/items?cursor=12_x")
                    #expect(cursor.status == 400 && String(decoding: cursor.body, as: UTF8.self).contains("cursor"), "\(cursor)")
                    let byOffset = try await reference.answer("/collections/quakes/items?cursor=1_1")
                    #expect(byOffset.status == 400 && String(decoding: byOffset.body, as: UTF8.self).contains("pages by offset"), "\(byOffset)")
                    // Counts: exact, or (from a database, past the budget) "more than".
                    for query in ["", "filter=mag%20%3E%3D%204.5", "bbox=-130,30,-110,45&datetime=../2100-01-01", "filter=nonsense"] {
                        let got = try await served.answer("/count?\(query)"), expected = try await reference.answer("/count?\(query)")
                        #expect(got.status == expected.status && got.body == expected.body, "\(name) /count?\(query): \(got) vs \(expected)")
                    }
                    // The collection: the same extent and count.
                    let collection = try await served.answer("/collections/quakes").json
                    let expectedCollection = try await reference.answer("/collections/quakes").json
                    #expect(collection["description"] as? String == expectedCollection["description"] as? String)
                    let extent = try JSONSerialization.data(withJSONObject: collection["extent"] ?? [:], options: .sortedKeys)
                    let expectedExtent = try JSONSerialization.data(withJSONObject: expectedCollection["extent"] ?? [:], options: .sortedKeys)
                    #expect(extent == expectedExtent, "\(name)")
                    // Pictures: the same pixels (the tiles' crowded ones keep the same largest events).
                    let images = ["/tiles/0/0/0.png", "/tiles/1/1/0.png", "/tiles/2/0/1.png", "/tiles/3/7/3.png", "/tiles/3/0/3.png",
                                  "/tiles/4/2/5.png", "/tiles/5/31/14.png", "/tiles/2/1/1.png?filter=mag%20%3E%3D%203",
                                  "/map.png", "/map.png?bbox=120,20,160,50&width=800", "/map.png?bbox=150,-60,-120,10&limit=50",
                                  "/map.png?filter=place%20LIKE%20%27%25CA%25%27&color=depth"]
                    for uri in images {
                        let got = try await served.answer(uri), expected = try await reference.answer(uri)
                        #expect(got.status == 200 && expected.status == 200, "\(name) \(uri): \(got.status) \(expected.status)")
                        guard got.status == 200, expected.status == 200 else { continue }
                        let drawn = try RasterImage(png: got.body), reference = try RasterImage(png: expected.body)
                        // A map's footer says when its events were last updated: the feed's time in memory, the
                        // ingest's from a catalogue. All above it must be the same.
                        let footer = uri.hasPrefix("/map.png") ? 4 * drawn.width * 32 : 0
                        let same = drawn.width == reference.width && drawn.height == reference.height
                            && drawn.rgba.dropLast(footer) == reference.rgba.dropLast(footer)
                        #expect(same, "\(name) \(uri): the pictures differ")
                    }
                }
            }
            await database.close()
        }
    }

    @Test("an ingest moves the version: new ETags, 304 only while it stands; /healthz says which", arguments: ServedBackend.available)
    func versionFollowsIngests(_ backend: ServedBackend) async throws {
        let catalogue = try ServedCatalogue(backend)
        defer { catalogue.finish() }
        var rows = ServerFixtures.sixty
        let before = try ServerFixtures.file(ServerFixtures.csv(Array(rows.prefix(50))))
        // New events and a revision of one already stored.
        rows[10].magnitude = "6.5"
        rows[10].updated = "2026-11-22T00:00:00.000Z"
        let after = try ServerFixtures.file(ServerFixtures.csv(rows))
        try await catalogue.ingest(before)
        let store = try await catalogue.store()
        let app = QuakeServer.application(store: store, options: ServerOptions(), logger: Self.logger)
        try await app.test(.router) { client in
            let items = "/collections/quakes/items?limit=5", tile = "/tiles/1/1/1.png"
            let first = try await client.answer(items), firstTile = try await client.answer(tile)
            let tag = try #require(first.headers[.eTag]), tileTag = try #require(firstTile.headers[.eTag])
            #expect(first.headers[.cacheControl]?.contains("public") == true)
            #expect(try await client.answer(items, headers: [.ifNoneMatch: tag]).status == 304)
            #expect(try await client.answer(tile, headers: [.ifNoneMatch: tileTag]).status == 304)
            let health = try await client.answer("/healthz").json
            let version = try #require(health["version"] as? String)
            #expect(health["events"] as? Int == 50)
            #expect(health["source"] as? String == (backend == .sqlite ? "sqlite" : "postgresql"))
            #expect(tag.contains(version) && tileTag.contains(version))

            let counts = try await catalogue.ingest(after)
            #expect(counts == IngestCounts(new: 10, updated: 1, unchanged: 49))
            // Unchanged until the store reads the state again.
            #expect(try await client.answer(items, headers: [.ifNoneMatch: tag]).status == 304)
            #expect(await store.refresh())
            let second = try await client.answer(items, headers: [.ifNoneMatch: tag])
            #expect(second.status == 200)
            #expect(second.headers[.eTag] != tag)
            #expect(second.features?.first?.contains("\"q59\"") == true)
            #expect(try await client.answer(tile, headers: [.ifNoneMatch: tileTag]).status == 200)
            let revised = try await client.answer("/collections/quakes/items/q10").json
            #expect((revised["properties"] as? [String: Any])?["mag"] as? Double == 6.5)
            let newHealth = try await client.answer("/healthz").json
            #expect(newHealth["version"] as? String != version)
            #expect(newHealth["events"] as? Int == 60)
            // Ingesting the same file again changes nothing, so the version stands.
            try await catalogue.ingest(after)
            #expect(await store.refresh() == false)
        }
        await store.close()
    }

    @Test("a running server sees an ingest by itself: PostgreSQL's NOTIFY, SQLite's state asked every interval",
          arguments: ServedBackend.available)
    func keepsFreshByItself(_ backend: ServedBackend) async throws {
        let catalogue = try ServedCatalogue(backend)
        defer { catalogue.finish() }
        try await catalogue.ingest(try ServerFixtures.file(ServerFixtures.csv(Array(ServerFixtures.sixty.prefix(30)))))
        // PostgreSQL polls only every minute here: only its notification can be in time.
        let store = try await catalogue.store(refresh: backend == .postgres ? .seconds(60) : .milliseconds(200))
        let fresh = Task { await store.keepFresh() }
        defer { fresh.cancel() }
        let version = await store.health().version
        if backend == .postgres {
            // Listening starts on its own connection: wait until it does.
            for _ in 0..<100 where await store.health().notified != true { try await Task.sleep(for: .milliseconds(50)) }
            try await Task.sleep(for: .milliseconds(200))
        }
        let start = ContinuousClock.now
        try await catalogue.ingest(try ServerFixtures.file(ServerFixtures.csv(ServerFixtures.sixty)))
        while await store.health().version == version, ContinuousClock.now - start < .seconds(5) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let health = await store.health()
        #expect(health.version != version, "no new version 5 s after the ingest")
        #expect(health.events == 60)
        #expect(health.notified == (backend == .postgres))
        fresh.cancel()
        await fresh.value
        await store.close()
    }
}
