import OpenAPIKit30
import QuakeKit

/// A query parameter of the service, once: the routes take the names of their list
/// (anything else is a `400`), and the OpenAPI document describes the same list.
struct QueryParameter: Sendable {
    let name: String
    let description: String
    /// The parameter's JSON Schema, made when the document is (OpenAPIKit's values are not `Sendable`).
    let schema: @Sendable () -> JSONSchema
    /// `false` for a list written as one value (`bbox=1,2,3,4`).
    var explode = true

    /// The parameter as OpenAPI describes it.
    var openAPI: OpenAPI.Parameter {
        OpenAPI.Parameter(name: name, context: .query(required: false),
                          schemaOrContent: .init(.init(schema(), style: .form, explode: explode)), description: description)
    }
}

/// Every query parameter, and which route takes which.
enum QueryParameters {
    static let bbox = QueryParameter(name: "bbox", description: "W,S,E,N in CRS84; W > E crosses the antimeridian",
                                     schema: { .array(minItems: 4, maxItems: 4, items: .number) }, explode: false)
    static let bboxCRS = QueryParameter(name: "bbox-crs", description: "Only CRS84", schema: { .string })
    static let datetime = QueryParameter(name: "datetime",
                                         description: "An RFC 3339 instant or date, or an interval start/end with '..' for an open end",
                                         schema: { .string })
    static let limit = QueryParameter(
        name: "limit", description: "Events per page; more than \(FeatureQuery.maximumLimit) is lowered to \(FeatureQuery.maximumLimit)",
        schema: { .integer(maximum: (FeatureQuery.maximumLimit, exclusive: false), minimum: (1, exclusive: false),
                           defaultValue: .init(FeatureQuery.defaultLimit)) })
    static let offset = QueryParameter(name: "offset", description: "Matching events skipped before the page",
                                       schema: { .integer(minimum: (0, exclusive: false), defaultValue: 0) })
    static let cursor = QueryParameter(
        name: "cursor", description: "Where a catalogue's page begins, as its next link gives it (opaque); a feed's pages go by offset",
        schema: { .string })
    static let filter = QueryParameter(name: "filter", description: "A CQL2 text expression over the queryables", schema: { .string })
    static let filterLanguage = QueryParameter(name: "filter-lang", description: "Only cql2-text",
                                               schema: { .string(allowedValues: "cql2-text") })
    static let filterCRS = QueryParameter(name: "filter-crs", description: "Only CRS84", schema: { .string })
    static let featureFormat = QueryParameter(name: "f", description: "The format", schema: { .string(allowedValues: "json", "geojson") })
    static let itemsFormat = QueryParameter(
        name: "f", description: "The format: GeoJSON (json, geojson), KML, KMZ, or a KML network link that loads these items as KML again and again",
        schema: { .string(allowedValues: Endpoints.itemFormats.sorted().map { .init($0) }) })
    static let refresh = QueryParameter(
        name: "refresh", description: "With f=\(Endpoints.networkLinkFormat): seconds between the network link's loads",
        schema: { .integer(maximum: (Endpoints.refreshRange.upperBound, exclusive: false), minimum: (Endpoints.refreshRange.lowerBound, exclusive: false),
                           defaultValue: .init(Endpoints.defaultRefresh)) })
    static let imageFormat = QueryParameter(name: "f", description: "The format", schema: { .string(allowedValues: "png") })
    static let vectorFormat = QueryParameter(name: "f", description: "The format: Mapbox Vector Tile",
                                             schema: { .string(allowedValues: "mvt") })
    static let version = QueryParameter(
        name: "v", description: "Any value, ignored: a page sends the catalogue version it saw, so that a cache never answers for another",
        schema: { .string })
    static let width = QueryParameter(
        name: "width", description: "Pixels",
        schema: { .integer(maximum: (Endpoints.mapSides.upperBound, exclusive: false), minimum: (Endpoints.mapSides.lowerBound, exclusive: false),
                           defaultValue: .init(Endpoints.defaultMapWidth)) })
    static let mapLimit = QueryParameter(name: "limit", description: "The most recent events drawn",
                                         schema: { .integer(minimum: (1, exclusive: false), defaultValue: .init(EventSelection.defaultLimit)) })
    static let color = QueryParameter(name: "color", description: "What the colour tells",
                                      schema: { .string(allowedValues: SymbolColoring.names.map { .init($0) }) })
    static let symbol = QueryParameter(name: "symbol", description: "How events are drawn: circles, or beachballs for those with a focal mechanism",
                                       schema: { .string(allowedValues: EventSymbol.allCases.map { .init($0.rawValue) }) })
    static let mechanism = QueryParameter(name: "mechanism", description: "What a beachball shows: its double couple or the full moment tensor",
                                          schema: { .string(allowedValues: MechanismDrawing.allCases.map { .init($0.rawValue) }) })
    static let basemap = QueryParameter(name: "basemap", description: "Under the events: Natural Earth land (the default), shaded relief of land and sea floor (NOAA ETOPO1), or nothing",
                                        schema: { .string(allowedValues: BasemapChoice.named.map { .init($0.name) }) })
    static let layer = QueryParameter(name: "layer", description: "Instead of the events, a grid of their b-value, its error or Mc (every matching event unless limit is given)",
                                      schema: { .string(allowedValues: BValueGridOptions.Layer.allCases.map { .init($0.rawValue) }) })
    static let spacing = QueryParameter(name: "spacing", description: "With layer: degrees between the grid's nodes (default: about 100 across the map)",
                                        schema: { .number(minimum: (0.001, exclusive: false)) })
    static let landingFormat = QueryParameter(name: "f", description: "The format; without it, the Accept header decides",
                                              schema: { .string(allowedValues: "json", "html") })

    static let items = [bbox, bboxCRS, datetime, limit, offset, cursor, filter, filterLanguage, filterCRS, itemsFormat, refresh]
    static let count = [bbox, bboxCRS, datetime, filter, filterLanguage, filterCRS, featureFormat, version]
    static let tile = [filter, filterLanguage, filterCRS, datetime, imageFormat, version]
    static let map = tile + [bbox, width, mapLimit, color, symbol, mechanism, basemap, layer, spacing]
    static let landTile = [imageFormat]
    static let vectorTile = [filter, filterLanguage, filterCRS, datetime, vectorFormat, version]
    static let basemapTile = [vectorFormat]
    static let changes = [bbox, bboxCRS, filter, filterLanguage, filterCRS]

    /// The names a route takes.
    static func names(_ parameters: [QueryParameter]) -> Set<String> { Set(parameters.map(\.name)) }
}
