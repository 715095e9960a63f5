import Foundation
import Hummingbird
import QuakeKit

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

    /// Parameters every tile and map request may carry: which events are drawn.
    /// `v` is any value and changes nothing: a page sends the catalogue version
    /// it saw, so that a browser asks again for every tile when it changes.
    static let drawingParameters: Set<String> = ["filter", "filter-lang", "filter-crs", "datetime", "f", "v"]
    static let itemParameters: Set<String> = ["bbox", "bbox-crs", "datetime", "limit", "offset", "filter", "filter-lang",
                                              "filter-crs", "f"]
    static let mapParameters = drawingParameters.union(["bbox", "width", "limit", "color"])
    static let countParameters: Set<String> = ["bbox", "bbox-crs", "datetime", "filter", "filter-lang", "filter-crs", "f", "v"]
    /// A count from a database reads at most this many events; beyond, it says "more than".
    static let countBudget = 20_000
    /// The deepest tile served.
    static let maximumZoom = 22
    /// The deepest zoom the web map offers: events are kilometres apart, and
    /// the land is scaled up past ``BasemapTiles/maximumZoom``.
    static let webMapMaximumZoom = 10
    /// Seconds between the web map's checks for a new catalogue.
    static let webMapRefreshSeconds = 5

    init(store: any EventStore, options: ServerOptions, web: WebAssets) {
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
            return json(["collections": [FeatureDocuments.collection(base: base, served: await store.served())],
                         "links": [FeatureDocuments.link("\(base)/collections", "self", "application/json")]])
        }
        route("/collections/:collection") { request, context in
            try collection(context)
            return json(FeatureDocuments.collection(base: base(request), served: await store.served()))
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
        route("/tiles/:z/:x/:y") { request, context in try await tile(request, context) }
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
        route("/healthz") { _, _ in
            var response = try encoded(await store.health())
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }

    // MARK: Features

    private func items(_ request: Request) async throws -> Response {
        let query = try FeatureQuery(FormQuery.parameters(of: request), allowed: Self.itemParameters)
        let served = await store.served()
        if let tagged = notModified(request, served) { return tagged }
        let (page, matched, more) = try await served.page(query.filter, offset: query.offset, limit: query.limit)
        let base = base(request)
        let path = "\(base)/collections/\(FeatureDocuments.collectionID)/items"
        var links = [Link(href: Self.url(path, query.query(offset: query.offset)), rel: "self", type: "application/geo+json"),
                     Link(href: "\(base)/collections/\(FeatureDocuments.collectionID)", rel: "collection", type: "application/json")]
        if more {
            links.append(Link(href: Self.url(path, query.query(offset: query.offset + page.count)), rel: "next",
                              type: "application/geo+json", title: "The next page"))
        }
        if query.offset > 0 {
            links.append(Link(href: Self.url(path, query.query(offset: max(0, query.offset - query.limit))), rel: "prev",
                              type: "application/geo+json", title: "The previous page"))
        }
        let body = FeatureBytes.collection(matched: matched, timeStamp: CivilTime.iso8601(Date()), links: links,
                                           events: page, base: base)
        return tagged(response(body, type: "application/geo+json"), request, served)
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
        let served = await store.served()
        let tiles = try self.tiles.get()
        let reach = reach(served, zoom: id.zoom, tileSize: tiles.options.tileSize)
        let limit = options.tileLimit
        return try await image(request, key: "tile \(id) \(query.query(offset: 0))", served: served,
                                coloring: options.symbols.coloring, read: {
            try await served.drawable(query.filter, for: id, reach: reach, limit: limit)
        }) { events in
            let layer = TileLayer(events: events, zoom: id.zoom, options: tiles.options, feedGenerated: served.generated,
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
        let served = await store.served()
        return try await image(request, key: "map \(width) \(name) \(query.query(offset: 0))", served: served,
                                coloring: coloring, read: {
            try await served.newest(query.filter, limit: query.limit)
        }) { events in
            // The labels' places, by id.
            let places = Dictionary(events.compactMap { $0.place.isEmpty || $0.id.isEmpty ? nil : ($0.id, $0.place) },
                                    uniquingKeysWith: { first, _ in first })
            let scene = SceneBuilder(options: mapOptions).scene(for: events.compactMap(MapEvent.init), feedGenerated: served.generated,
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
                             cacheControl: "public, max-age=86400", read: {}) {
            try MapRenderer().pngData(for: land.scene(for: id))
        }
    }

    /// A PNG of the events `read` reads, from the cache or drawn through the gate, with
    /// an ETag that changes with the catalogue; `304` when the client has it.
    private func image<Events: Sendable>(_ request: Request, key: String, served: ServedEvents, coloring: SymbolColoring,
                                         read: @escaping @Sendable () async throws -> Events,
                                         draw: @escaping @Sendable (Events) throws -> Data) async throws -> Response {
        // What the picture depends on: the events, the request, the server's style,
        // and for age colours the feed's time (which moves without the events changing).
        var identity = FNV1a()
        identity.mix(key)
        identity.mix(styleKey)
        if case .age = coloring { identity.mix(served.generated.map(CivilTime.iso8601) ?? "") }
        return try await png(request, tag: "\"\(served.version)-\(identity.hex)\"", cacheControl: Self.eventsCacheControl,
                             read: read, draw: draw)
    }

    /// A PNG tagged `tag`, from the cache or drawn through the gate; `304` when the client has it.
    private func png<Events: Sendable>(_ request: Request, tag: String, cacheControl: String,
                                       read: @escaping @Sendable () async throws -> Events,
                                       draw: @escaping @Sendable (Events) throws -> Data) async throws -> Response {
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
                let events = try await read()
                data = try await gate.run { try draw(events) }
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
    private func notModified(_ request: Request, _ served: ServedEvents) -> Response? {
        let tag = Self.documentTag(request, served)
        guard let wanted = request.headers[.ifNoneMatch], Self.matches(wanted, tag) else { return nil }
        var headers = HTTPFields()
        headers[.eTag] = tag
        headers[.cacheControl] = Self.eventsCacheControl
        return Response(status: .notModified, headers: headers)
    }

    /// A document about the events, tagged with the version it was read at.
    private func tagged(_ response: Response, _ request: Request, _ served: ServedEvents) -> Response {
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
    private func reach(_ served: ServedEvents, zoom: Int, tileSize: Int) -> Int {
        // In memory the layer is given every event and finds those near the tile itself.
        guard case .database = served else { return 0 }
        let diameter = options.symbols.sizes.diameter(magnitude: served.largestMagnitude() ?? 0)
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

/// `/version`: which catalogue a server serves, for pages to poll.
struct VersionDocument: Codable {
    var version: String
    var events: Int
    var newest: String?
    /// When the feeds were generated, or the catalogue last ingested into.
    var updated: String?
}

/// `/count`: how many events a filter admits, or that more than `atLeast − 1` do.
struct CountDocument: Codable {
    var numberMatched: Int?
    var atLeast: Int?
}

/// `http://host:port` as the client addressed the server, for absolute links.
private func base(_ request: Request) -> String {
    "http://" + (request.head.authority ?? "127.0.0.1")
}

/// A `Codable` document as JSON (keys sorted, as ``JSONDocument`` writes them).
private func encoded(_ document: some Encodable, type: String = "application/json") throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return response(Array(try encoder.encode(document)), type: type)
}

private func json(_ object: Any, type: String = "application/json") -> Response {
    response(JSONDocument.data(object), type: type)
}

private func response(_ body: some Sequence<UInt8>, type: String) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = type
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
}
