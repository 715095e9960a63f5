import ArgumentParser
import Foundation
import Hummingbird
import Logging
import QuakeCommand
import QuakeKit
import QuakeServer
import QuakeCatalogue
import ServiceLifecycle
import UnixSignals

@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quakemap-server",
        abstract: "Serve earthquake feeds or a catalogue to map clients: OGC API – Features and Tiles, XYZ tiles and maps.",
        discussion: """
            Endpoints (all GET):
              /                         a browser gets the interactive map; other
                                        clients the OGC API landing page (?f=html|json)
              /conformance, /collections, /collections/quakes,
              /collections/quakes/queryables
              /collections/quakes/items GeoJSON: bbox, datetime, limit (1…10000,
                                        default 1000), offset, filter + filter-lang
                                        (cql2-text); 'next' links
              /collections/quakes/items/{id}
                                        one event
              /tiles/{z}/{x}/{y}.png    Web Mercator XYZ tiles: filter, datetime
              /tiles/land/{z}/{x}/{y}.png
                                        Natural Earth land and sea, z 0…8
              /collections/quakes/tiles/WebMercatorQuad/{z}/{y}/{x}
                                        vector tiles (MVT, layer quakes): every
                                        event a point or in a cluster; filter,
                                        datetime; gzip when accepted
              /collections/quakes/tiles/WebMercatorQuad/tilejson.json,
              /tileMatrixSets           TileJSON 3.0; OGC API – Tiles documents
              /map.png                  plate carrée map: bbox, width, limit
                                        (default 300), color, filter, datetime;
                                layer=bvalue|bvalue-sigma|mc and spacing: a
                                grid of b, σ(b) or Mc from every matching event
              /collections/quakes/changes
                                        Server-Sent Events: each event created or
                                        revised, as it is ingested; Last-Event-ID
                                        replays what a client missed
              /count                    how many events a filter admits
              /version                  the catalogue's version (pages poll it)
              /healthz                  status, event count, version, refresh failures
              /metrics                  Prometheus metrics (text format); --no-metrics
                                        turns it off

            Query strings are read as forms and HTTP clients send them: '+' is a
            space, %2B a plus, escapes are UTF-8. Bad requests get 400 with a JSON
            problem naming the parameter; unknown paths 404. Images carry an ETag
            and answer 304 to If-None-Match; when drawing is saturated or slower
            than --render-timeout, 503 with Retry-After. Every answer allows any
            origin (CORS: the data is public and read-only). A connection idle for
            --idle-timeout, or whose request head has not arrived by then, is closed.

            Several feeds (the input, --url, --fdsn, and each --feed) are served as
            one collection; a repeated event id keeps its latest update. URL feeds
            and FDSN queries are fetched again every --refresh; a failed refresh
            keeps serving the last good feed.

            --catalogue DB serves what 'quakemap ingest' stored (a SQLite file or
            postgresql://reader@host/db, read-only): requests query the database,
            and an ingest is served at once (PostgreSQL's NOTIFY) or within
            --refresh (SQLite, a hot standby). Replicas behind nginx: docs/deploy.md.

            EXIT STATUS
              0   stopped by SIGTERM or SIGINT
              64  usage error
              65  bad feed at start (a header with no rows is not one: it serves an
                  empty collection)
              66  input or catalogue not found; 69/75 fetch failed at start, or the
                  catalogue's database cannot be reached (69); 77 permission denied
              70  the server could not start (e.g. the port is taken)
            """,
        version: QuakeMap.version
    )

    @OptionGroup var inputOptions: InputOptions
    @OptionGroup var fetchArguments: FetchArguments
    @OptionGroup(title: "Filters (for the whole catalogue)") var filterOptions: FilterOptions
    @OptionGroup(title: "Circles") var symbolOptions: SymbolOptions
    @OptionGroup var tileLimitOption: TileLimitOption

    @Option(name: .customLong("feed"), help: ArgumentHelp("Another feed to serve in the same collection: a file or an http(s) URL (repeatable).",
                                                           valueName: "path|url"))
    var feeds: [String] = []

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port, printed at start).")
    var port = 8080

    @Option(help: ArgumentHelp("Fetch URL feeds again this often, or ask a --catalogue for its version: 30s, 5m, 1h (a second to a day; default 60s, a catalogue 2s).",
                               valueName: "duration"))
    var refresh: String?

    @Option(help: ArgumentHelp("With a PostgreSQL --catalogue: connections to it at most (default: 4 per core).", valueName: "n"))
    var databaseConnections: Int?


    @Option(help: ArgumentHelp("Seconds a request waits for its image before a 503.", valueName: "seconds"))
    var renderTimeout = 10.0

    @Option(help: ArgumentHelp("Images drawn at once (default: one per core).", valueName: "n"))
    var concurrentRenders: Int?

    @Option(help: ArgumentHelp("Close a connection with no request in progress after this many seconds: one whose request head has not arrived, or an idle keep-alive connection.",
                               valueName: "seconds"))
    var idleTimeout = 10.0

    @Option(help: ArgumentHelp("Connections open at once; more wait until one closes (default: the descriptor limit, raised to its hard limit at start, less 64).",
                               valueName: "n"))
    var maxConnections: Int?

    @Option(help: ArgumentHelp("Seconds between heartbeats to the clients of the change stream (/collections/quakes/changes).",
                               valueName: "seconds"))
    var heartbeat = 25.0

    @Option(help: ArgumentHelp("The most events one FDSN event answer (/fdsnws/event/1/query) holds; a request for more gets 413 (default 20000, as the USGS).",
                               valueName: "n"))
    var fdsnMaxEvents = 20_000
    @Flag(inversion: .prefixedNo,
          help: "Answer /metrics: requests, latency, renders, the catalogue's age, database connections (Prometheus' text format).")
    var metrics = true

    @Option(name: .customLong("write-site"),
            help: ArgumentHelp("Write the web map as files for a static HTTP host into this folder (the page, basemap.pmtiles, web/), then exit; put the events beside it as quakes.pmtiles (quakemap tiles FEED --encoding mvt --container pmtiles -o DIR/quakes.pmtiles).",
                               valueName: "folder"))
    var writeSite: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard heartbeat >= 1, heartbeat <= 3600 else { throw ValidationError("--heartbeat must be 1…3600 seconds") }
        guard fdsnMaxEvents >= 1 else { throw ValidationError("--fdsn-max-events must be at least 1") }
        if writeSite != nil {
            guard inputOptions.input == nil, inputOptions.catalogue == nil, inputOptions.url == nil, feeds.isEmpty else {
                throw ValidationError("--write-site writes the page alone: give it no feed or catalogue (the events go into quakes.pmtiles beside it)")
            }
            return
        }
        if inputOptions.catalogue != nil {
            try inputOptions.checkCatalogueIsTheOnlyInput()
            if !feeds.isEmpty { throw ValidationError("--catalogue is the input: give no --feed with it (to add a feed: quakemap ingest)") }
            if try filterOptions.filter() != EventFilter() {
                throw ValidationError("--catalogue is served whole: filter what 'quakemap ingest' stores, or each request (filter, bbox, datetime)")
            }
        }
        _ = try refreshInterval()
        guard renderTimeout.isFinite, renderTimeout > 0, renderTimeout <= 3600 else {
            throw ValidationError("--render-timeout must be above 0 and at most 3600 seconds")
        }
        if let concurrentRenders, concurrentRenders < 1 { throw ValidationError("--concurrent-renders must be 1 or more") }
        guard idleTimeout.isFinite, idleTimeout >= 0.1, idleTimeout <= 3600 else {
            throw ValidationError("--idle-timeout must be 0.1 to 3600 seconds")
        }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be 1 or more") }
        if let databaseConnections, databaseConnections < 1 { throw ValidationError("--database-connections must be 1 or more") }
        for feed in feeds where feed.hasPrefix("-") { throw ValidationError("--feed: '\(feed)' is not a file or URL") }
    }

    /// `--refresh`, read like `--since` durations (30s, 5m, 1h), one second to a day.
    private func refreshInterval() throws -> Duration {
        let refresh = self.refresh ?? (inputOptions.catalogue == nil ? "60s" : "2s")
        let now = Date()
        guard refresh.last?.isLetter == true, let back = try? TimeBound.parse(refresh, now: now),
              case let seconds = now.timeIntervalSince(back), seconds >= 1, seconds <= 86_400 else {
            throw ValidationError("--refresh: '\(refresh)' is not a duration from a second to a day (30s, 5m, 1h)")
        }
        return .milliseconds(Int64(seconds * 1000))
    }

    private func origins() throws -> [FeedOrigin] {
        var origins: [FeedOrigin] = []
        if let url = inputOptions.url { origins.append(.url(url)) }
        let selection = EventSelection(limit: nil, filter: try filterOptions.filter())
        if let fdsn = try inputOptions.fdsnFeed(selection: selection, filters: filterOptions) {
            origins.append(.fdsn(fdsn.query, cacheKey: fdsn.cacheKey))
        }
        if inputOptions.input != nil || (inputOptions.url == nil && inputOptions.fdsn == nil && feeds.isEmpty) {
            if let source = try inputOptions.localSource() { origins.append(.local(source)) }
        }
        for feed in feeds {
            let lowered = feed.lowercased()
            origins.append(lowered.hasPrefix("http://") || lowered.hasPrefix("https://") ? .url(feed) : .local(.file(feed)))
        }
        return origins
    }

    func run() async throws {
        let log = Reporting.logger(inputOptions, cleansUpOnSignals: false)
        if let folder = writeSite {
            try await reportingErrors(log) {
                let written = try StaticSite.write(to: folder, symbols: SymbolStyle(sizes: symbolOptions.style, coloring: symbolOptions.color))
                let archive = (folder as NSString).appendingPathComponent(StaticSite.archive)
                log.info("wrote \(written.count) files into \(folder)\(FileManager.default.fileExists(atPath: archive) ? "" : "; the page opens \(archive): make it with 'quakemap tiles FEED --encoding mvt --container pmtiles -o \(archive)'")")
            }
            return
        }
        try await reportingErrors(log) {
            let interval = try refreshInterval()
            let store: any EventStore
            let refresher: StoreRefresher?
            let served: String
            var closing: DatabaseStore?  // its connections, given back when the server stops
            if let location = inputOptions.catalogue {
                let location = try CatalogueLocation(location)
                let database = try await DatabaseStore.open(
                    location, connections: databaseConnections ?? 4 * ProcessInfo.processInfo.activeProcessorCount,
                    refresh: interval, log: log)
                store = database
                closing = database
                refresher = StoreRefresher { await database.keepFresh() }
                served = location.description
            } else {
                let origins = try origins()
                var feed = inputOptions.feedOptions
                feed.now = try filterOptions.pinnedNow()
                let feeds = FeedStore(origins: origins, feed: feed, filter: try filterOptions.filter(),
                                      fetch: fetchArguments.options, cache: fetchArguments.cache,
                                      staleOk: fetchArguments.staleOk, log: log)
                try await feeds.load()
                store = feeds
                refresher = origins.contains(where: \.isRemote) ? StoreRefresher { await feeds.refreshForever(every: interval) } : nil
                served = origins.map(\.description).joined(separator: ", ")
            }
            let count = await store.health().events
            let descriptors = ServerLimits.raiseDescriptorLimit()
            let connections = maxConnections ?? ServerLimits.connectionCap(descriptors: descriptors)
            if connections > descriptors - 16 {
                log.warning("--max-connections \(connections) is near the descriptor limit (\(descriptors)): accepting may fail with 'too many open files'")
            }
            let options = ServerOptions(
                host: host, port: port, style: symbolOptions.style, coloring: symbolOptions.color,
                tileLimit: tileLimitOption.limit,
                concurrentRenders: concurrentRenders ?? max(1, ProcessInfo.processInfo.activeProcessorCount),
                renderTimeout: .milliseconds(Int64(renderTimeout * 1000)),
                idleTimeout: .milliseconds(Int64(idleTimeout * 1000)), maximumConnections: connections,
                heartbeat: .milliseconds(Int64(heartbeat * 1000)), fdsnMaximumEvents: fdsnMaxEvents, metrics: metrics)
            let app = QuakeServer.application(store: store, options: options, logger: log) { [host] bound in
                log.info("serving \(count) events from \(served) on http://\(host):\(bound)/",
                         metadata: ["outcome": "listening", "port": .stringConvertible(bound), "events": .stringConvertible(count)])
            }
            do {
                // The server and the refresher as one service group: SIGTERM or SIGINT ends both.
                let services: [any Service] = [app] + (refresher.map { [$0] } ?? [])
                try await ServiceGroup(configuration: .init(services: services.map { .init(service: $0) },
                                                            gracefulShutdownSignals: [.sigterm, .sigint], logger: log)).run()
                await closing?.close()
            } catch {
                await closing?.close()
                throw ServerStartError(message: "cannot serve on \(host):\(port): \(error)")
            }
        }
    }
}

/// The server could not start or stopped with an error.
struct ServerStartError: QuakeKitError {
    let message: String
}
