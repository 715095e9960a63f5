import Foundation
import Hummingbird
import QuakeKit

/// Tiles and maps drawn on demand, and the land under the web map: through the render gate,
/// from the cache when drawn before, `304` when the client has them.
extension Endpoints {
    /// The tile a `{z}/{x}/{y}.png` route names, at most `maximumZoom` deep.
    static func tileID(_ context: some RequestContext, route: String, maximumZoom: Int) throws(Problem) -> TileID {
        let z = context.parameters.get("z") ?? "", x = context.parameters.get("x") ?? "", file = context.parameters.get("y") ?? ""
        guard file.hasSuffix(".png"), let zoom = Int(z), let column = Int(x), let row = Int(file.dropLast(4)),
              zoom <= maximumZoom, let id = try? TileID(zoom: zoom, x: column, y: row) else {
            throw Problem(.notFound, "no tile \(z)/\(x)/\(file): tiles are \(route)/{z}/{x}/{y}.png with z 0…\(maximumZoom), x and y 0…2^z−1")
        }
        return id
    }

    func tile(_ request: Request, _ context: some RequestContext) async throws -> Response {
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

    func map(_ request: Request) async throws -> Response {
        let parameters = try FormQuery.parameters(of: request)
        let query = try FeatureQuery(parameters, allowed: Self.mapParameters, formats: ["png"], defaultLimit: EventSelection.defaultLimit,
                                     maximumLimit: Int.max)
        let width = try Self.number(parameters, "width", default: Self.defaultMapWidth, range: Self.mapSides)
        let name = parameters.first(where: { $0.name == "color" })?.value ?? "magnitude"
        guard let coloring = SymbolColoring(named: name) else {
            throw Problem.badParameter("color", "'\(name)' is not \(SymbolColoring.names.joined(separator: ", "))")
        }
        let symbol = parameters.first(where: { $0.name == "symbol" })?.value ?? EventSymbol.circle.rawValue
        guard let drawnAs = EventSymbol(rawValue: symbol) else {
            throw Problem.badParameter("symbol", "'\(symbol)' is not \(EventSymbol.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let drawingName = parameters.first(where: { $0.name == "mechanism" })?.value ?? MechanismDrawing.doubleCouple.rawValue
        guard let drawing = MechanismDrawing(rawValue: drawingName) else {
            throw Problem.badParameter("mechanism", "'\(drawingName)' is not \(MechanismDrawing.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let basemapName = parameters.first(where: { $0.name == "basemap" })?.value ?? "land"
        guard let basemap = BasemapChoice(named: basemapName) else {
            throw Problem.badParameter("basemap", "'\(basemapName)' is not \(BasemapChoice.named.map(\.name).joined(separator: ", "))")
        }
        let layerName = parameters.first(where: { $0.name == "layer" })?.value
        let layer = layerName.flatMap(BValueGridOptions.Layer.init(rawValue:))
        if let layerName, layer == nil {
            throw Problem.badParameter("layer", "'\(layerName)' is not \(BValueGridOptions.Layer.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let spacingText = parameters.first(where: { $0.name == "spacing" })?.value
        let grid = BValueGridOptions(spacing: try spacingText.map { text throws(Problem) in
            guard let value = Double(text) else { throw Problem.badParameter("spacing", "'\(text)' is not a number of degrees") }
            return value
        }, layer: layer ?? .bValue)
        do {
            try grid.validate()
        } catch {
            throw Problem.badParameter("spacing", error.message)
        }
        // A grid is only as good as its nodes' events: all of them, unless the request says otherwise.
        let limit = layer != nil && !parameters.contains(where: { $0.name == "limit" }) ? Int.max : query.limit
        let region = query.filter.bbox
        var options = MapOptions(width: width, region: region, style: self.options.symbols.sizes, coloring: coloring, basemap: basemap)
        if drawnAs == .beachball { options.symbols.beachballs = BeachballStyle(drawing: drawing) }
        guard options.height <= Self.mapSides.upperBound else {
            throw Problem.badParameter("bbox", "the box is too narrow for a \(width)-pixel-wide map (over \(Self.mapSides.upperBound) pixels tall)")
        }
        let served = await store.served()
        options.dataSources = served.sources
        let mapOptions = options
        let key = "map \(width) \(name) \(symbol) \(drawingName) \(basemapName) \(layer?.rawValue ?? "-") \(spacingText ?? "-") "
            + query.query(offset: 0)
        return try await image(request, key: key, served: served, coloring: coloring, events: served.mapEvents(limit: limit), read: {
            try await served.newest(query.filter, limit: limit)
        }) { selected in
            let builder = SceneBuilder(drawing: mapOptions)
            guard layer != nil else {
                return try MapRenderer().pngData(for: builder.scene(for: selected.events, feedGenerated: served.generated,
                                                                    places: selected.places))
            }
            let computed = try QuakeMap.bValueGrid(selected.events, grid: grid, region: region)
            return try MapRenderer().pngData(for: builder.scene(for: computed, events: selected.events, feedGenerated: served.generated))
        }
    }

    /// Land and sea for the web map: the same for every catalogue, so cached by clients for a day.
    func landTile(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let id = try Self.tileID(context, route: "/tiles/land", maximumZoom: BasemapTiles.maximumZoom)
        _ = try FeatureQuery(FormQuery.parameters(of: request), allowed: QueryParameters.names(QueryParameters.landTile), formats: ["png"])
        let land = self.land
        return try await png(request, tag: "\"land-\(land.tileSize)-\(id.zoom)-\(id.x)-\(id.y)\"",
                             cacheControl: "public, max-age=86400", read: {}) {
            try MapRenderer().pngData(for: land.scene(for: id))
        }
    }

    /// A PNG of the events `read` reads (at most `events` of them), from the cache or drawn
    /// through the gate, with an ETag that changes with the catalogue; `304` when the client has it.
    func image<Events: Sendable>(_ request: Request, key: String, served: ServedEvents, coloring: SymbolColoring, events: Int = 1,
                                         type: TileEncoding = .png,
                                         read: @escaping @Sendable () async throws -> Events,
                                         draw: @escaping @Sendable (Events) throws -> Data) async throws -> Response {
        // What the picture depends on: the events, the request, the server's style,
        // and for age colours the feed's time (which moves without the events changing).
        var identity = FNV1a()
        identity.mix(key)
        identity.mix(styleKey)
        if case .age = coloring { identity.mix(served.generated.map(CivilTime.iso8601) ?? "") }
        return try await png(request, tag: "\"\(served.version)-\(identity.hex)\"", cacheControl: Self.eventsCacheControl,
                             events: events, type: type, read: read, draw: draw)
    }

    /// A PNG (or a vector tile) tagged `tag`, from the cache or drawn through the gate with the
    /// slots of `events` (``RenderGate/slots(forEvents:)``); `304` when the client has it. A vector
    /// tile goes gzip-compressed to a client that accepts it.
    func png<Events: Sendable>(_ request: Request, tag: String, cacheControl: String, events: Int = 1, type: TileEncoding = .png,
                                       read: @escaping @Sendable () async throws -> Events,
                                       draw: @escaping @Sendable (Events) throws -> Data) async throws -> Response {
        var headers = HTTPFields()
        let compressed = type == .mvt && Self.acceptsGzip(request)
        // A tag of its own for the compressed bytes, as for any other representation.
        let key = tag
        let tag = compressed ? String(tag.dropLast()) + "-gzip\"" : tag
        headers[.eTag] = tag
        headers[.cacheControl] = cacheControl
        if type == .mvt { headers[.vary] = "Accept-Encoding" }
        if let wanted = request.headers[.ifNoneMatch], Self.matches(wanted, tag) {
            return Response(status: .notModified, headers: headers)
        }
        let data: Data
        if let cached = cache.value(for: key) {
            data = cached
        } else {
            do {
                // Read inside the gate: as many reads at once as renders, so that requests for
                // large maps wait for a slot before they hold their events, not after.
                data = try await gate.run(events: events, reading: read, draw)
            } catch RenderGate.Refusal.busy {
                throw Problem(.serviceUnavailable, "too many images are being drawn; try again shortly", retryAfter: 1)
            } catch RenderGate.Refusal.timedOut {
                throw Problem(.serviceUnavailable, "drawing took longer than \(options.renderTimeout); try again shortly",
                              retryAfter: 5)
            }
            cache.store(data, for: key)
        }
        headers[.contentType] = type.mediaType
        var body = data
        if compressed {
            // The fastest level: a tile is compressed for every client that asks, the third of the CPU at level 6.
            body = Gzip.compress(data, level: 1)
            headers[.contentEncoding] = "gzip"
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Whether `Accept-Encoding` names gzip (or `*`) with a quality above 0.
    static func acceptsGzip(_ request: Request) -> Bool {
        guard let accepted = request.headers[.acceptEncoding] else { return false }
        return accepted.split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { return false }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
    }
}
