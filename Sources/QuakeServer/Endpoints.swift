import Foundation
import Hummingbird
import QuakeKit

/// The routes and what each answers.
struct Endpoints: Sendable {
    let store: CatalogueStore
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

    /// Parameters every tile and map request may carry: which events are drawn.
    /// `v` is any value and changes nothing: a page sends the catalogue version
    /// it saw, so that a browser asks again for every tile when it changes.
    static let drawingParameters: Set<String> = ["filter", "filter-lang", "filter-crs", "datetime", "f", "v"]
    static let itemParameters: Set<String> = ["bbox", "bbox-crs", "datetime", "limit", "offset", "filter", "filter-lang",
                                              "filter-crs", "f"]
    static let mapParameters = drawingParameters.union(["bbox", "width", "limit", "color"])
    /// The deepest tile served.
    static let maximumZoom = 22
    /// The deepest zoom the web map offers: events are kilometres apart, and
    /// the land is scaled up past ``BasemapTiles/maximumZoom``.
    static let webMapMaximumZoom = 10
    /// Seconds between the web map's checks for a new catalogue.
    static let webMapRefreshSeconds = 5

    init(store: CatalogueStore, options: ServerOptions, web: WebAssets) {
        self.store = store
        self.options = options
        self.web = web
        gate = RenderGate(width: options.concurrentRenders, queueLimit: options.queuedRenders, timeout: options.renderTimeout)
        cache = ResponseCache(budget: options.cacheBytes)
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
                : json(FeatureDocuments.landing(base: base(request)))
            response.headers[.vary] = "Accept"
            return response
        }
        for file in WebAssets.list {
            route(RouterPath(file.path)) { request, _ in try webFile(file.path, request) }
        }
        route("/web/config.json") { _, _ in
            json(["maximumZoom": Self.webMapMaximumZoom, "landMaximumZoom": BasemapTiles.maximumZoom,
                  "symbolScale": options.symbols.sizes.symbolScale, "minimumDiameter": options.symbols.sizes.minimumDiameter,
                  "coloring": "\(options.symbols.coloring)", "refreshSeconds": Self.webMapRefreshSeconds,
                  "attribution": "Events: <a href=\"/collections/quakes\">quakemap</a>"])
        }
        route("/tiles/land/:z/:x/:y") { request, context in try await landTile(request, context) }
        route("/api") { request, _ in
            json(OpenAPIDocument.document(base: base(request)), type: "application/vnd.oai.openapi+json;version=3.0")
        }
        route("/conformance") { _, _ in json(["conformsTo": FeatureDocuments.conformance]) }
        route("/collections") { request, _ in
            let base = base(request)
            return json(["collections": [FeatureDocuments.collection(base: base, catalogue: await store.catalogue)],
                         "links": [FeatureDocuments.link("\(base)/collections", "self", "application/json")]])
        }
        route("/collections/:collection") { request, context in
            try collection(context)
            return json(FeatureDocuments.collection(base: base(request), catalogue: await store.catalogue))
        }
        route("/collections/:collection/queryables") { request, context in
            try collection(context)
            return json(FeatureDocuments.queryables(base: base(request)), type: "application/schema+json")
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
            guard let event = await store.catalogue.event(id: id) else {
                throw Problem(.notFound, "no event with id '\(id)' in collection '\(FeatureDocuments.collectionID)'")
            }
            let collection = Link(href: "\(base(request))/collections/\(FeatureDocuments.collectionID)", rel: "collection",
                                  type: "application/json")
            return response(FeatureBytes.feature(event, base: base(request), moreLinks: [collection]), type: "application/geo+json")
        }
        route("/tiles/:z/:x/:y") { request, context in try await tile(request, context) }
        route("/map.png") { request, _ in try await map(request) }
        route("/healthz") { _, _ in
            let catalogue = await store.catalogue
            var body: [String: Any] = ["status": "ok", "events": catalogue.events.count, "version": catalogue.version,
                                       "loadedAt": CivilTime.iso8601(catalogue.loadedAt),
                                       "failedRefreshes": await store.failedRefreshes]
            if let failure = await store.lastFailure {
                body["lastFailure"] = ["at": CivilTime.iso8601(failure.date), "message": failure.message]
            }
            return json(body)
        }
    }

    // MARK: Features

    private func items(_ request: Request) async throws -> Response {
        let query = try FeatureQuery(FormQuery.parameters(of: request), allowed: Self.itemParameters)
        let catalogue = await store.catalogue
        // Positions, not copies: copying twelve thousand events costs more than encoding a page;
        // without a filter, the page is a slice and nothing is collected.
        let events = catalogue.events
        let page: [SeismicEvent]
        let matched: Int
        if query.filter == EventFilter() {
            matched = events.count
            page = Array(events.dropFirst(query.offset).prefix(query.limit))
        } else {
            let found = catalogue.index.page(matching: query.filter, offset: query.offset, limit: query.limit)
            matched = found.matched
            page = found.positions.map { events[$0] }
        }
        let base = base(request)
        let path = "\(base)/collections/\(FeatureDocuments.collectionID)/items"
        var links = [Link(href: Self.url(path, query.query(offset: query.offset)), rel: "self", type: "application/geo+json"),
                     Link(href: "\(base)/collections/\(FeatureDocuments.collectionID)", rel: "collection", type: "application/json")]
        if query.offset + page.count < matched {
            links.append(Link(href: Self.url(path, query.query(offset: query.offset + page.count)), rel: "next",
                              type: "application/geo+json", title: "The next page"))
        }
        if query.offset > 0 {
            links.append(Link(href: Self.url(path, query.query(offset: max(0, query.offset - query.limit))), rel: "prev",
                              type: "application/geo+json", title: "The previous page"))
        }
        let body = FeatureBytes.collection(matched: matched, timeStamp: CivilTime.iso8601(Date()), links: links,
                                           events: page, base: base)
        return response(body, type: "application/geo+json")
    }

    private func collection(_ context: some RequestContext) throws {
        let name = context.parameters.get("collection") ?? ""
        guard name == FeatureDocuments.collectionID else {
            throw Problem(.notFound, "no collection '\(name)'; the one collection is '\(FeatureDocuments.collectionID)'")
        }
    }

    // MARK: Images

    /// The tile a `{z}/{x}/{y}.png` route names, at most `maximumZoom` deep.
    private static func tileID(_ context: some RequestContext, route: String, maximumZoom: Int) throws(Problem) -> TileID {
        let z = context.parameters.get("z") ?? "", x = context.parameters.get("x") ?? "", file = context.parameters.get("y") ?? ""
        guard file.hasSuffix(".png"), let zoom = Int(z), let column = Int(x), let row = Int(file.dropLast(4)),
              zoom <= maximumZoom, let id = try? TileID(zoom: zoom, x: column, y: row) else {
            throw Problem(.notFound, "no tile \(z)/\(x)/\(file): tiles are \(route)/{z}/{x}/{y}.png with z 0…\(maximumZoom), x and y 0…2^z−1")
        }
        return id
    }

    private func tile(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let id = try Self.tileID(context, route: "/tiles", maximumZoom: Self.maximumZoom)
        let query = try FeatureQuery(FormQuery.parameters(of: request), allowed: Self.drawingParameters, formats: ["png"])
        let catalogue = await store.catalogue
        let tiles = try self.tiles.get()
        return try await image(request, key: "tile \(id) \(query.query(offset: 0))", catalogue: catalogue,
                                coloring: options.symbols.coloring) {
            let events = Self.drawable(catalogue, query.filter)
            let layer = TileLayer(events: events, zoom: id.zoom, options: tiles.options, feedGenerated: catalogue.generated,
                                  around: id)
            return try layer.pngData(for: id) ?? tiles.empty
        }
    }

    /// The sides `/map.png` draws, in pixels: a request may not ask a process for more.
    static let mapSides = 64...4096
    /// The width `/map.png` draws without `width`.
    static let defaultMapWidth = 1024

    private func map(_ request: Request) async throws -> Response {
        let parameters = try FormQuery.parameters(of: request)
        let query = try FeatureQuery(parameters, allowed: Self.mapParameters, formats: ["png"], defaultLimit: EventSelection.defaultLimit,
                                     maximumLimit: Int.max)
        let width = try Self.number(parameters, "width", default: Self.defaultMapWidth, range: Self.mapSides)
        let name = parameters.first(where: { $0.name == "color" })?.value ?? "magnitude"
        guard let coloring = SymbolColoring(named: name) else {
            throw Problem.badParameter("color", "'\(name)' is not \(SymbolColoring.names.joined(separator: ", "))")
        }
        let region = query.filter.bbox
        let mapOptions = MapOptions(width: width, region: region, style: options.symbols.sizes, coloring: coloring)
        guard mapOptions.height <= Self.mapSides.upperBound else {
            throw Problem.badParameter("bbox", "the box is too narrow for a \(width)-pixel-wide map (over \(Self.mapSides.upperBound) pixels tall)")
        }
        let catalogue = await store.catalogue
        return try await image(request, key: "map \(width) \(name) \(query.query(offset: 0))", catalogue: catalogue,
                                coloring: coloring) {
            // Newest first already: the limit keeps the most recent.
            let events = Array(Self.drawable(catalogue, query.filter).prefix(query.limit))
            // The labels' places, looked up by id: the catalogue keeps whole events.
            let places = Dictionary(events.compactMap { event in
                catalogue.event(id: event.id).flatMap { $0.place.isEmpty ? nil : (event.id, $0.place) }
            }, uniquingKeysWith: { first, _ in first })
            let scene = SceneBuilder(options: mapOptions).scene(for: events, feedGenerated: catalogue.generated,
                                                                places: places)
            return try MapRenderer().pngData(for: scene)
        }
    }

    /// Land and sea for the web map: the same for every catalogue, so cached by clients for a day.
    private func landTile(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let id = try Self.tileID(context, route: "/tiles/land", maximumZoom: BasemapTiles.maximumZoom)
        _ = try FeatureQuery(FormQuery.parameters(of: request), allowed: ["f"], formats: ["png"])
        let land = self.land
        return try await png(request, tag: "\"land-\(land.tileSize)-\(id.zoom)-\(id.x)-\(id.y)\"",
                             cacheControl: "package, max-age=86400") {
            try MapRenderer().pngData(for: land.scene(for: id))
        }
    }

    /// A PNG of the events, from the cache or drawn through the gate, with an
    /// ETag that changes with the catalogue; `304` when the client has it.
    private func image(_ request: Request, key: String, catalogue: Catalogue, coloring: SymbolColoring,
                       draw: @escaping @Sendable () throws -> Data) async throws -> Response {
        // What the picture depends on: the events, the request, the server's style,
        // and for age colours the feed's time (which moves without the events changing).
        var identity = FNV1a()
        identity.mix(key)
        identity.mix(styleKey)
        if case .age = coloring { identity.mix(catalogue.generated.map(CivilTime.iso8601) ?? "") }
        return try await png(request, tag: "\"\(catalogue.version)-\(identity.hex)\"", cacheControl: "no-cache", draw: draw)
    }

    /// A PNG tagged `tag`, from the cache or drawn through the gate; `304` when the client has it.
    private func png(_ request: Request, tag: String, cacheControl: String,
                     draw: @escaping @Sendable () throws -> Data) async throws -> Response {
        var headers = HTTPFields()
        headers[.eTag] = tag
        headers[.cacheControl] = cacheControl
        if let wanted = request.headers[.ifNoneMatch], Self.matches(wanted, tag) {
            return Response(status: .notModified, headers: headers)
        }
        let data: Data
        if let cached = cache.value(for: tag) {
            data = cached
        } else {
            do {
                data = try await gate.run(draw)
            } catch RenderGate.Refusal.busy {
                throw Problem(.serviceUnavailable, "too many images are being drawn; try again shortly", retryAfter: 1)
            } catch RenderGate.Refusal.timedOut {
                throw Problem(.serviceUnavailable, "drawing took longer than \(options.renderTimeout); try again shortly",
                              retryAfter: 5)
            }
            cache.store(data, for: tag)
        }
        headers[.contentType] = "image/png"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    // MARK: Web map

    /// A file of the web map's fixed list, with its tag; `304` when the client has it.
    private func webFile(_ path: String, _ request: Request) throws -> Response {
        guard let asset = web.assets[path] else {
            throw Problem(.notFound, web.missing[path] ?? "no such resource: \(path)")
        }
        var headers = HTTPFields()
        headers[.eTag] = asset.tag
        // Revalidated each time (a 304 costs nothing): a new server version is seen at once.
        headers[.cacheControl] = "no-cache"
        headers[.xContentTypeOptions] = "nosniff"
        if asset.contentType.hasPrefix("text/html") {
            // Only the server's own scripts and styles, and its own or inline images (Leaflet's).
            headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
        }
        if let wanted = request.headers[.ifNoneMatch], Self.matches(wanted, asset.tag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
    }

    /// Whether `/` should answer the web map: `f=html`, or no `f` and an
    /// `Accept` that ranks HTML above JSON.
    static func wantsHTML(_ request: Request) throws(Problem) -> Bool {
        switch try FormQuery.parameters(of: request).last(where: { $0.name == "f" })?.value {
        case "html"?: return true
        case "json"?: return false
        case let other?: throw Problem.badParameter("f", "'\(other)' is not served here; f may be html, json")
        case nil: return AcceptHeader(request.headers[.accept]).prefers("text/html", over: "application/json")
        }
    }

    // MARK: Helpers

    /// Whether an `If-None-Match` value names `tag`: `*`, or the tag itself,
    /// strong or weak (`W/"…"`, as proxies may rewrite it).
    static func matches(_ wanted: String, _ tag: String) -> Bool {
        wanted.split(separator: ",").contains { candidate in
            var candidate = candidate.trimmingCharacters(in: .whitespaces)
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            return candidate == tag || candidate == "*"
        }
    }

    /// The drawable events `filter` admits, newest first.
    static func drawable(_ catalogue: Catalogue, _ filter: EventFilter) -> [MapEvent] {
        filter == EventFilter() ? catalogue.mapEvents : catalogue.events.lazy.filter(filter.matches).compactMap(MapEvent.init)
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
private func base(_ request: Request) -> String {
    "http://" + (request.head.authority ?? "127.0.0.1")
}

private func json(_ object: Any, type: String = "application/json") -> Response {
    response(JSONDocument.data(object), type: type)
}

private func response(_ body: some Sequence<UInt8>, type: String) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = type
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
}
