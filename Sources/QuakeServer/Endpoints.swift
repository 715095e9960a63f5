import Foundation
import Hummingbird
import QuakeKit
import QuakeCatalogue

/// The routes and what each answers.
struct Endpoints: Sendable {
    let store: any EventStore
    let options: ServerOptions
    let gate: RenderGate
    let cache: ResponseCache
    /// The server's drawing options, part of every image's identity.
    let styleKey: String
    /// The tile options, and the PNG of a tile no circle touches (most tiles
    /// of a world pyramid): made once, not per request. An invalid option is
    /// kept as its error, which every tile request then answers with.
    let tiles: Result<(options: TileOptions, empty: Data), Error>
    /// The web map's files, read once.
    let web: WebAssets
    /// The land and sea under the web map's event tiles.
    let land = BasemapTiles()
    /// A catalogue's cluster index for vector tiles.
    let catalogueTiles: CatalogueTileIndex
    /// What `/metrics` tells; `nil` when it is turned off.
    let metrics: ServerMetrics?

    /// Parameters every tile and map request may carry: which events are drawn.
    /// `v` is any value and changes nothing: a page sends the catalogue version
    /// it saw, so that a browser asks again for every tile when it changes.
    static let drawingParameters = QueryParameters.names(QueryParameters.tile)
    static let itemParameters = QueryParameters.names(QueryParameters.items)
    static let mapParameters = QueryParameters.names(QueryParameters.map)
    static let countParameters = QueryParameters.names(QueryParameters.count)
    /// A count from a database reads at most this many events; beyond, it says "more than".
    static let countBudget = 20_000
    /// The deepest tile served.
    static let maximumZoom = 22
    /// The web map's credit for its land and plate boundaries.
    static let basemapCredit = " · <a href=\"https://www.naturalearthdata.com/\">\(Credits.naturalEarth)</a>"
        + " · <a href=\"https://doi.org/10.1029/2001GC000252\">\(Credits.plates)</a>"

    init(store: any EventStore, options: ServerOptions, web: WebAssets, metrics: ServerMetrics? = nil) {
        self.store = store
        self.options = options
        self.web = web
        self.metrics = metrics
        gate = RenderGate(width: options.concurrentRenders, queueLimit: options.queuedRenders, timeout: options.renderTimeout,
                          reporting: metrics?.renderReporting ?? RenderGate.Reporting())
        cache = ResponseCache(budget: options.cacheBytes)
        catalogueTiles = CatalogueTileIndex(budget: options.tileLimit ?? Int.max)
        styleKey = "\(options.symbols.sizes.symbolScale) \(options.symbols.sizes.minimumDiameter) \(options.symbols.coloring) \(options.tileLimit ?? 0)"
        tiles = Result {
            let tileOptions = try TileOptions(tileLimit: options.tileLimit, style: options.symbols.sizes, coloring: options.symbols.coloring)
            let nothing = TileLayer(events: [], zoom: 0, options: tileOptions)
            return (tileOptions, try MapRenderer().pngData(for: nothing.scene(for: TileID(zoom: 0, x: 0, y: 0))))
        }
    }

    func register<Context: RequestContext>(on router: Router<Context>) {
        // Every route answers GET and HEAD (the HTTP layer sends HEAD's headers only).
        func route(_ path: RouterPath, _ handler: @escaping @Sendable (Request, Context) async throws -> Response) {
            router.get(path, use: handler)
            router.head(path, use: handler)
        }
        route("/") { request, _ in
            // A browser gets the web map; JSON clients (and ties, as with `*/*`) the landing page.
            var response = try Self.wantsHTML(request)
                ? try webFile(WebAssets.page, request)
                : try encoded(LandingDocument(base: base(request)))
            response.headers[.vary] = "Accept"
            return response
        }
        for file in WebAssets.list where file.path != WebAssets.page {
            route(RouterPath(file.path)) { request, _ in try webFile(file.path, request) }
        }
        route("/web/config.json") { _, _ in
            // The data's credit as the map's footer words it, escaped as XML (the page shows it as HTML).
            let data = Credits.data(await store.served().sources).map { " · " + QuakeMLEncoder.escaped($0) } ?? ""
            return try encoded(WebConfigDocument(symbols: options.symbols,
                                                 attribution: "Events: <a href=\"/collections/quakes\">quakemap</a>" + data + Self.basemapCredit))
        }
        route("/tiles/land/:z/:x/:y") { request, context in try await landTile(request, context) }
        route("/api") { request, _ in
            response(try OpenAPIDocument.json(base: base(request)), type: "application/vnd.oai.openapi+json;version=3.0")
        }
        route("/conformance") { _, _ in try encoded(ConformanceDocument()) }
        route("/collections") { request, _ in
            try encoded(CollectionsDocument(base: base(request), served: await store.served()))
        }
        route("/collections/:collection") { request, context in
            try collection(context)
            return try encoded(CollectionDocument(base: base(request), served: await store.served()))
        }
        route("/collections/:collection/queryables") { request, context in
            try collection(context)
            return try encoded(QueryablesDocument(base: base(request)), type: "application/schema+json")
        }
        route("/collections/:collection/items") { request, context in
            try collection(context)
            return try await items(request)
        }
        route("/collections/:collection/items/:id") { request, context in
            try collection(context)
            // Path parameters arrive percent-encoded; ids are matched as the feed spells them.
            let raw = context.parameters.get("id") ?? ""
            let id = raw.removingPercentEncoding ?? raw
            let served = await store.served()
            if let tagged = notModified(request, served) { return tagged }
            guard let event = try await served.event(id: id) else {
                throw Problem(.notFound, "no event with id '\(id)' in collection '\(FeatureDocuments.collectionID)'")
            }
            let collection = Link(href: "\(base(request))/collections/\(FeatureDocuments.collectionID)", rel: "collection",
                                  type: "application/json")
            return tagged(response(FeatureBytes.feature(event, base: base(request), moreLinks: [collection]), type: "application/geo+json"),
                          request, served)
        }
        route("/collections/:collection/changes") { request, context in
            try collection(context)
            return try await changes(request)
        }
        route("/tiles/:z/:x/:y") { request, context in try await tile(request, context) }
        registerVectorTiles(route)
        registerFDSN(route)
        route("/map.png") { request, _ in try await map(request) }
        route("/version") { request, _ in
            // What a page polls to learn of a new catalogue: cheap, and cacheable for a moment, so a
            // cache in front answers most of the polls.
            let served = await store.served()
            if let tagged = notModified(request, served) { return tagged }
            let (_, newest) = served.interval
            return tagged(try encoded(VersionDocument(version: served.version, events: served.count,
                                                      newest: newest.map(CivilTime.iso8601),
                                                      updated: served.generated.map(CivilTime.iso8601))), request, served)
        }
        route("/count") { request, _ in
            let query = try FeatureQuery(FormQuery.parameters(of: request), allowed: Self.countParameters)
            let served = await store.served()
            if let tagged = notModified(request, served) { return tagged }
            let matched = try await served.count(query.filter, budget: Self.countBudget)
            return tagged(try encoded(CountDocument(numberMatched: matched, atLeast: matched == nil ? Self.countBudget + 1 : nil)),
                          request, served)
        }
        registerMetrics(route)
        route("/healthz") { _, _ in
            var health = await store.health()
            if case .database(let catalogue, let state) = await store.served() {
                health.tileIndex = catalogueTiles.index(catalogue, at: state) == nil ? "building" : "ready"
            }
            var response = try encoded(health)
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }

    // MARK: Helpers

    /// Whether an `If-None-Match` value names `tag`: `*`, or the tag itself,
    /// strong or weak (`W/"…"`, as proxies may rewrite it).
    static func matches(_ wanted: String, _ tag: String) -> Bool {
        // If-None-Match compares weakly (RFC 9110 13.1.2): the opaque tags, whether `W/` or not.
        func opaque(_ tag: some StringProtocol) -> Substring {
            let trimmed = Substring(tag.trimmingCharacters(in: .whitespaces))
            return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed
        }
        let mine = opaque(tag)
        return wanted.split(separator: ",").contains { candidate in
            let candidate = opaque(candidate)
            return candidate == mine || candidate == "*"
        }
    }

    /// How events' answers may be cached: by any cache (nginx's among them) for a few seconds,
    /// then revalidated (a `304` while the version stands); a cache may serve its stale copy while
    /// it asks again, or while no server answers.
    static let eventsCacheControl = "public, max-age=\(eventsFreshSeconds), stale-while-revalidate=30, stale-if-error=600"
    /// Seconds an answer about the events is fresh in a shared cache: a new event shows after at most this.
    static let eventsFreshSeconds = 2

    /// `304` when the client's `If-None-Match` names the version and the request.
    func notModified(_ request: Request, _ served: ServedEvents) -> Response? {
        let tag = Self.documentTag(request, served)
        guard let wanted = request.headers[.ifNoneMatch], Self.matches(wanted, tag) else { return nil }
        var headers = HTTPFields()
        headers[.eTag] = tag
        headers[.cacheControl] = Self.eventsCacheControl
        return Response(status: .notModified, headers: headers)
    }

    /// A document about the events, tagged with the version it was read at.
    func tagged(_ response: Response, _ request: Request, _ served: ServedEvents) -> Response {
        var response = response
        response.headers[.eTag] = Self.documentTag(request, served)
        response.headers[.cacheControl] = Self.eventsCacheControl
        return response
    }

    /// A weak tag (the body carries a time stamp): the version, and what was asked, of which host.
    static func documentTag(_ request: Request, _ served: ServedEvents) -> String {
        var identity = FNV1a()
        identity.mix(request.uri.string)
        identity.mix(request.head.authority ?? "")
        return "W/\"\(served.version)-\(identity.hex)\""
    }

    /// How many tiles away a circle's centre may be and still reach a tile of `zoom`.
    func reach(_ served: ServedEvents, zoom: Int, tileSize: Int) -> Int {
        // In memory the layer is given every event and finds those near the tile itself.
        guard case .database(_, let state) = served else { return 0 }
        let diameter = options.symbols.sizes.diameter(magnitude: state.largestMagnitude ?? 0)
        return min(Int((SymbolShape.diamond.reach(diameter: diameter) / Double(tileSize)).rounded(.up)), 1 << zoom)
    }

    static func number(_ parameters: [(name: String, value: String)], _ name: String, default value: Int,
                       range: ClosedRange<Int>) throws(Problem) -> Int {
        guard let text = parameters.first(where: { $0.name == name })?.value else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw Problem.badParameter(name, "'\(text)' is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    static func url(_ path: String, _ query: String) -> String {
        query.isEmpty ? path : path + "?" + query
    }
}

/// `http://host:port` as the client addressed the server, for absolute links.
func base(_ request: Request) -> String {
    "http://" + (request.head.authority ?? "127.0.0.1")
}

/// A `Codable` document as JSON.
func encoded(_ document: some Encodable, type: String = "application/json") throws -> Response {
    response(try JSONDocument.encoded(document), type: type)
}

func response(_ body: some Sequence<UInt8>, type: String) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = type
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
}
