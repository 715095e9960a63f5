import Foundation
import HummingbirdTesting
import Logging
import QuakeCatalogue
import QuakeServer
import Testing

/// `/metrics`: what moves when requests are answered, refused or not routed, and what is read at scrape time.
@Suite("quakemap-server metrics", .timeLimit(.minutes(2)), .serialized)
struct MetricsTests {
    /// The samples of one scrape, by series as written (`name{label="value",…}`).
    struct Scrape {
        var samples: [String: Double] = [:]

        init(_ text: String) {
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
                samples[String(line[..<space])] = value
            }
        }

        subscript(_ series: String) -> Double { samples[series] ?? 0 }
    }

    static func scrape(_ server: RunningServer) async throws -> Scrape {
        let reply = try await server.get("/metrics")
        #expect(reply.status == 200 && reply.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        return Scrape(reply.text)
    }

    @Test func requestsAreCountedByRoutePatternAndStatus() async throws {
        try await ServerTests.withServer { server in
            let before = try await Self.scrape(server)
            #expect(try await server.get("/collections/quakes/items?limit=2").status == 200)
            #expect(try await server.get("/collections/quakes/items?limit=0").status == 400)
            #expect(try await server.get("/collections/quakes/items/q07").status == 200)
            #expect(try await server.get("/no/such/path").status == 404)
            #expect(try await server.get("/collections/quakes/items", method: "DELETE").status == 405)
            let after = try await Self.scrape(server)
            let items = "route=\"/collections/{collection}/items\""
            // Each moved by exactly one, under the route's pattern (never the path, nor the id).
            #expect(after["quakemap_http_requests_total{\(items),method=\"GET\",status=\"200\"}"]
                - before["quakemap_http_requests_total{\(items),method=\"GET\",status=\"200\"}"] == 1)
            // A thrown error (the bad limit) is counted with the status it became.
            #expect(after["quakemap_http_requests_total{\(items),method=\"GET\",status=\"400\"}"] == 1)
            #expect(after["quakemap_http_requests_total{route=\"/collections/{collection}/items/{id}\",method=\"GET\",status=\"200\"}"] == 1)
            #expect(after["quakemap_http_requests_total{route=\"unmatched\",method=\"GET\",status=\"404\"}"] == 1)
            #expect(after["quakemap_http_requests_total{route=\"unmatched\",method=\"DELETE\",status=\"405\"}"] == 1)
            #expect(!after.samples.keys.contains { $0.contains("q07") || $0.contains("/no/such") })
            // The scrape before was counted too, after it was answered.
            #expect(after["quakemap_http_requests_total{route=\"/metrics\",method=\"GET\",status=\"200\"}"] == 1)
            // Both answers of the items route in its histogram: every bucket up to +Inf, cumulative.
            #expect(after["quakemap_http_request_duration_seconds_count{\(items)}"] == 2)
            #expect(after["quakemap_http_request_duration_seconds_bucket{\(items),le=\"+Inf\"}"] == 2)
            #expect(after["quakemap_http_request_duration_seconds_bucket{\(items),le=\"30.0\"}"] == 2)
        }
    }

    @Test func aRefusedRenderIsCountedWithItsReason() async throws {
        // A render given no time at all: the timeout fires before the drawing ends.
        var options = ServerOptions()
        options.renderTimeout = .nanoseconds(1)
        try await ServerTests.withServer(options: options) { server in
            let before = try await Self.scrape(server)
            #expect(try await server.get("/map.png?width=600").status == 503)
            let after = try await Self.scrape(server)
            let refusals = ["queue_full", "queue_timeout", "render_timeout"].map { "quakemap_render_refusals_total{reason=\"\($0)\"}" }
            #expect(refusals.map { after[$0] - before[$0] }.reduce(0, +) == 1)
            #expect(after["quakemap_http_requests_total{route=\"/map.png\",method=\"GET\",status=\"503\"}"] == 1)
            #expect(after.samples["quakemap_render_slots"] == Double(options.concurrentRenders))
            #expect(after.samples["quakemap_renders_queued"] == 0)
        }
    }

    @Test func theCatalogueIsReadAtScrapeTime() async throws {
        try await ServerTests.withServer { server in
            let version = try await server.get("/version").json["version"] as? String ?? "?"
            let first = try await Self.scrape(server)
            #expect(first["quakemap_catalogue_info{version=\"\(version)\",source=\"feeds\"}"] == 1)
            #expect(first["quakemap_catalogue_events"] == 60)
            // The newest of the sixty: 2026-11-21T00:59Z.
            #expect(first["quakemap_catalogue_newest_event_timestamp_seconds"] == 1_795_222_740)
            #expect(first.samples["quakemap_change_stream_clients"] == 0)
            // A server of feeds has no database to tell of.
            #expect(!first.samples.keys.contains { $0.hasPrefix("quakemap_database_") })
            try await Task.sleep(for: .milliseconds(1100))
            let second = try await Self.scrape(server)
            #expect(second["quakemap_catalogue_age_seconds"] - first["quakemap_catalogue_age_seconds"] >= 1)
        }
    }

    @Test("a catalogue: its version replaced at an ingest, its age from the ingest, its connections", arguments: ServedBackend.available)
    func aCatalogueInADatabase(_ backend: ServedBackend) async throws {
        let catalogue = try ServedCatalogue(backend)
        defer { catalogue.finish() }
        try await catalogue.ingest(try ServerFixtures.file(ServerFixtures.csv(Array(ServerFixtures.sixty.prefix(50)))))
        let store = try await catalogue.store()
        let source = backend == .sqlite ? "sqlite" : "postgresql"
        let app = QuakeServer.application(store: store, options: ServerOptions(), logger: CatalogueServerTests.logger)
        try await app.test(.router) { client in
            let version = await store.health().version
            #expect(try await client.answer("/collections/quakes/items?limit=5").status == 200)
            let first = Scrape(String(decoding: try await client.answer("/metrics").body, as: UTF8.self))
            #expect(first["quakemap_catalogue_info{version=\"\(version)\",source=\"\(source)\"}"] == 1)
            #expect(first["quakemap_catalogue_events"] == 50)
            // Ingested a moment ago.
            #expect(first["quakemap_catalogue_age_seconds"] < 60)
            #expect(first["quakemap_database_connections_max"] == Double(backend == .sqlite ? SQLiteCatalogue.concurrentReaders : 4))
            #expect(first.samples["quakemap_database_connections_in_use"] == 0)
            #expect(first["quakemap_database_queries_total"] >= 1)

            try await catalogue.ingest(try ServerFixtures.file(ServerFixtures.csv(ServerFixtures.sixty)))
            #expect(await store.refresh())
            let second = Scrape(String(decoding: try await client.answer("/metrics").body, as: UTF8.self))
            let newVersion = await store.health().version
            // One info series, of the version served now.
            #expect(second["quakemap_catalogue_info{version=\"\(newVersion)\",source=\"\(source)\"}"] == 1)
            #expect(second.samples.keys.filter { $0.hasPrefix("quakemap_catalogue_info") }.count == 1)
            #expect(second["quakemap_catalogue_events"] == 60)
            #expect(second["quakemap_database_queries_total"] > first["quakemap_database_queries_total"])
        }
        await store.close()
    }

    @Test func metricsCanBeTurnedOff() async throws {
        var options = ServerOptions()
        options.metrics = false
        try await ServerTests.withServer(options: options) { server in
            let reply = try await server.get("/metrics")
            #expect(reply.status == 404)
        }
    }
}
