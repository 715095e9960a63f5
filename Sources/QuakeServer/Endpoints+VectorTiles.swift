import Foundation
import Hummingbird
import QuakeKit

/// OGC API – Tiles for the events: vector tiles of the collection in the one tile matrix set web
/// maps use, its tileset documents, and TileJSON 3.0 for MapLibre and the like.
extension Endpoints {
    /// The tile matrix set served.
    static let tileMatrixSet = "WebMercatorQuad"
    /// Its registered URI.
    static let tileMatrixSetURI = "http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad"
    /// The deepest vector tile: cells of a crowded tile reach the index's precision there.
    static let maximumVectorZoom = ClusterIndex.maximumZoom

    func registerVectorTiles<Context: RequestContext>(_ route: (RouterPath, @escaping @Sendable (Request, Context) async throws -> Response) -> Void) {
        route("/tileMatrixSets") { request, _ in try encoded(TileMatrixSetsDocument(base: base(request))) }
        route("/tileMatrixSets/:tileMatrixSetId") { request, context in
            try Self.tileMatrixSet(context)
            return try encoded(TileMatrixSetDocument(base: base(request)))
        }
        route("/collections/:collection/tiles") { request, context in
            try collection(context)
            return try encoded(TilesetsDocument(base: base(request)))
        }
        route("/collections/:collection/tiles/:tileMatrixSetId") { request, context in
            try collection(context)
            try Self.tileMatrixSet(context)
            return try encoded(TilesetDocument(base: base(request)))
        }
        route("/collections/:collection/tiles/:tileMatrixSetId/tilejson.json") { request, context in
            try collection(context)
            try Self.tileMatrixSet(context)
            let served = await store.served()
            let metadata = TileSetMetadata(name: "quakemap", description: "Earthquakes: \(served.count) events",
                                           zooms: 0...Self.maximumVectorZoom, tileSize: 512, encoding: .mvt,
                                           attribution: Credits.data(served.sources))
            let tiles = "\(base(request))/collections/\(FeatureDocuments.collectionID)/tiles/\(Self.tileMatrixSet)/{z}/{y}/{x}?f=mvt"
            return tagged(response(metadata.tileJSON(tiles: tiles), type: "application/json"), request, served)
        }
        route("/tiles/basemap/tilejson.json") { request, _ in
            let tiles = "\(base(request))/tiles/basemap/{z}/{x}/{y}.mvt"
            var response = response(Self.basemapTileJSON(tiles: tiles), type: "application/json")
            response.headers[.cacheControl] = "public, max-age=86400"
            return response
        }
        route("/tiles/basemap/:z/:x/:y") { request, context in try await basemapTile(request, context) }
        route("/collections/:collection/tiles/:tileMatrixSetId/:tileMatrix/:tileRow/:tileCol") { request, context in
            try collection(context)
            try Self.tileMatrixSet(context)
            return try await vectorTile(request, context)
        }
    }

    private static func tileMatrixSet(_ context: some RequestContext) throws(Problem) {
        let name = context.parameters.get("tileMatrixSetId") ?? ""
        guard name == tileMatrixSet else {
            throw Problem(.notFound, "no tile matrix set '\(name)': this server tiles in \(tileMatrixSet)")
        }
    }

    /// TileJSON 3.0 of the land and plate boundaries as vector tiles.
    static func basemapTileJSON(tiles: String) -> Data {
        TileSetMetadata.json([
            "tilejson": "3.0.0", "name": "quakemap basemap", "scheme": "xyz", "tiles": [tiles],
            "minzoom": 0, "maxzoom": BasemapVectorTiles.maximumZoom,
            "attribution": "\(Credits.naturalEarth) · \(Credits.plates)",
            "vector_layers": BasemapVectorTiles.layerDescriptions,
        ])
    }

    /// The land and plate boundaries of a tile, the same for every catalogue: cached by clients for a day.
    func basemapTile(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let z = context.parameters.get("z") ?? "", x = context.parameters.get("x") ?? "", file = context.parameters.get("y") ?? ""
        guard file.hasSuffix(".mvt"), let zoom = Int(z), let column = Int(x), let row = Int(file.dropLast(4)),
              zoom <= BasemapVectorTiles.maximumZoom, let id = try? TileID(zoom: zoom, x: column, y: row) else {
            throw Problem(.notFound, "no tile \(z)/\(x)/\(file): tiles are /tiles/basemap/{z}/{x}/{y}.mvt with z 0…\(BasemapVectorTiles.maximumZoom), "
                          + "x and y 0…2^z−1")
        }
        _ = try FeatureQuery(FormQuery.parameters(of: request), allowed: QueryParameters.names(QueryParameters.basemapTile), formats: ["mvt"])
        return try await png(request, tag: "\"basemap-\(id.zoom)-\(id.x)-\(id.y)\"", cacheControl: "public, max-age=86400", type: .mvt,
                             read: {}) {
            VectorTileEncoder.basemapTile(id, from: .shared)
        }
    }

    func vectorTile(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let z = context.parameters.get("tileMatrix") ?? "", y = context.parameters.get("tileRow") ?? "",
            x = context.parameters.get("tileCol") ?? ""
        guard let zoom = Int(z), let row = Int(y), let column = Int(x), zoom <= Self.maximumVectorZoom,
              let id = try? TileID(zoom: zoom, x: column, y: row) else {
            throw Problem(.notFound, "no tile \(z)/\(y)/\(x): tiles are {tileMatrix}/{tileRow}/{tileCol} with tileMatrix 0…\(Self.maximumVectorZoom), "
                          + "tileRow and tileCol 0…2^tileMatrix−1")
        }
        let query = try FeatureQuery(FormQuery.parameters(of: request), allowed: QueryParameters.names(QueryParameters.vectorTile),
                                     formats: ["mvt"])
        let served = await store.served()
        let budget = options.tileLimit ?? Int.max
        let filter = query.filter
        let catalogueTiles = catalogueTiles
        // A tile read from a catalogue holds the keys and positions of its neighbourhood (about 120 bytes
        // an event while it is cut): weighed like a map of that many events. From memory or an index, one slot.
        var events = 1
        if case .database(let catalogue, let state) = served, filter != EventFilter() || catalogueTiles.index(catalogue, at: state) == nil {
            events = min(served.count, (served.count * 9) >> min(62, 2 * id.zoom))
        }
        return try await image(request, key: "mvt \(id) \(query.query(offset: 0))", served: served, coloring: .magnitude,
                               events: events, type: .mvt, read: {
            try await served.vectorTile(filter, for: id, budget: budget, catalogueIndex: catalogueTiles)
        }) { $0 }
    }
}

/// `/tileMatrixSets`: the one tile matrix set.
struct TileMatrixSetsDocument: Codable {
    struct Entry: Codable {
        var id = Endpoints.tileMatrixSet
        var title = "Google Maps Compatible for the World"
        var uri = Endpoints.tileMatrixSetURI
        var links: [Link]
    }

    var tileMatrixSets: [Entry]

    init(base: String) {
        tileMatrixSets = [Entry(links: [Link(href: "\(base)/tileMatrixSets/\(Endpoints.tileMatrixSet)", rel: "self",
                                             type: "application/json", title: "The tile matrix set")])]
    }
}

/// `/tileMatrixSets/WebMercatorQuad`: OGC Two Dimensional Tile Matrix Set 2.0 JSON.
struct TileMatrixSetDocument: Codable {
    struct TileMatrix: Codable {
        var id: String
        var scaleDenominator: Double
        var cellSize: Double
        var cornerOfOrigin = "topLeft"
        var pointOfOrigin = [-TileMatrixSetDocument.halfWorld, TileMatrixSetDocument.halfWorld]
        var tileWidth = 256
        var tileHeight = 256
        var matrixWidth: Int
        var matrixHeight: Int
    }

    struct BoundingBox: Codable {
        var lowerLeft = [-TileMatrixSetDocument.halfWorld, -TileMatrixSetDocument.halfWorld]
        var upperRight = [TileMatrixSetDocument.halfWorld, TileMatrixSetDocument.halfWorld]
        var crs = "http://www.opengis.net/def/crs/EPSG/0/3857"
    }

    /// Half the world's width in Web Mercator metres.
    static let halfWorld = 20_037_508.342_789_2

    var id = Endpoints.tileMatrixSet
    var title = "Google Maps Compatible for the World"
    var uri = Endpoints.tileMatrixSetURI
    var crs = "http://www.opengis.net/def/crs/EPSG/0/3857"
    var orderedAxes = ["X", "Y"]
    var wellKnownScaleSet = "http://www.opengis.net/def/wkss/OGC/1.0/GoogleMapsCompatible"
    var boundingBox = BoundingBox()
    var tileMatrices: [TileMatrix]
    var links: [Link]

    init(base: String) {
        tileMatrices = (0...Endpoints.maximumVectorZoom).map { zoom in
            let side = 1 << zoom
            return TileMatrix(id: String(zoom), scaleDenominator: 559_082_264.028_717_8 / Double(side),
                              cellSize: 156_543.033_928_041 / Double(side), matrixWidth: side, matrixHeight: side)
        }
        links = [Link(href: "\(base)/tileMatrixSets/\(Endpoints.tileMatrixSet)", rel: "self", type: "application/json")]
    }
}

/// `/collections/quakes/tiles`: the collection's tilesets (one: vector tiles in WebMercatorQuad).
struct TilesetsDocument: Codable {
    var tilesets: [TilesetDocument]
    var links: [Link]

    init(base: String) {
        tilesets = [TilesetDocument(base: base)]
        links = [Link(href: "\(base)/collections/\(FeatureDocuments.collectionID)/tiles", rel: "self", type: "application/json")]
    }
}

/// `/collections/quakes/tiles/WebMercatorQuad`: the tileset, its layer and the template of its tiles.
struct TilesetDocument: Codable {
    struct Layer: Codable {
        var id = QuakeVectorLayer.name
        var title = "Earthquakes"
        var description = "One point an event, clusters where a tile would hold too many: no event is left out"
        var dataType = "vector"
        var geometryDimension = 0
        var minTileMatrix = "0"
        var maxTileMatrix = String(Endpoints.maximumVectorZoom)
        var propertiesSchema: Schema
    }

    struct Schema: Codable {
        struct Property: Codable {
            var type: String
            var description: String
        }

        var type = "object"
        var properties: [String: Property]
    }

    var title = "Earthquakes as vector tiles"
    var dataType = "vector"
    var crs = "http://www.opengis.net/def/crs/EPSG/0/3857"
    var tileMatrixSetURI = Endpoints.tileMatrixSetURI
    var layers: [Layer]
    var links: [Link]

    init(base: String) {
        let schemaTypes = ["String": "string", "Number": "number", "Boolean": "boolean"]
        layers = [Layer(propertiesSchema: Schema(properties: Dictionary(uniqueKeysWithValues: QuakeVectorLayer.fields.map {
            ($0.name, Schema.Property(type: schemaTypes[$0.type] ?? "string", description: $0.description))
        })))]
        let path = "\(base)/collections/\(FeatureDocuments.collectionID)/tiles/\(Endpoints.tileMatrixSet)"
        links = [
            Link(href: path, rel: "self", type: "application/json", title: "This tileset"),
            Link(href: "\(base)/tileMatrixSets/\(Endpoints.tileMatrixSet)", rel: "http://www.opengis.net/def/rel/OGC/1.0/tiling-scheme",
                 type: "application/json", title: "The tile matrix set"),
            Link(href: "\(path)/{tileMatrix}/{tileRow}/{tileCol}?f=mvt", rel: "item", type: "application/vnd.mapbox-vector-tile",
                 title: "A vector tile", templated: true),
            Link(href: "\(path)/tilejson.json", rel: "describedby", type: "application/json", title: "TileJSON 3.0"),
            Link(href: "\(base)/collections/\(FeatureDocuments.collectionID)", rel: "collection", type: "application/json"),
        ]
    }
}
