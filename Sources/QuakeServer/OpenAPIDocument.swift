import Foundation
import OpenAPIKit30
import QuakeKit

/// The service described in OpenAPI 3.0 (`/api`, the landing page's `service-desc`): what
/// clients and test tools read to learn the parameters, their ranges and the answers. Built
/// with OpenAPIKit from the routes' own parameter lists (``QueryParameters``), so the two
/// cannot differ.
enum OpenAPIDocument {
    static func document(base: String) -> OpenAPI.Document {
        OpenAPI.Document(
            openAPIVersion: .v3_0_3,
            info: .init(title: "quakemap", description: "Earthquakes: OGC API – Features (Part 1 core, Part 3 CQL2 text), OGC API – Tiles (vector tiles), XYZ tiles and maps.",
                        version: QuakeMap.version),
            servers: URL(string: base).map { [.init(url: $0)] } ?? [],
            paths: paths,
            components: .init(schemas: ["Problem": problemSchema, "Event": eventSchema, "Events": eventsSchema])
        )
    }

    /// The document as JSON.
    static func json(base: String) throws -> [UInt8] {
        try JSONDocument.encoded(document(base: base))
    }

    private static let geoJSON = OpenAPI.ContentType(rawValue: "application/geo+json")!
    private static let schemaJSON = OpenAPI.ContentType(rawValue: "application/schema+json")!
    private static let openAPIJSON = OpenAPI.ContentType(rawValue: "application/vnd.oai.openapi+json;version=3.0")!
    private static let problemJSON = OpenAPI.ContentType(rawValue: "application/problem+json")!
    private static let kml = OpenAPI.ContentType(rawValue: KMLEncoder.contentType)!
    private static let kmz = OpenAPI.ContentType(rawValue: KMLEncoder.kmzContentType)!
    private static let mvt = OpenAPI.ContentType(rawValue: "application/vnd.mapbox-vector-tile")!

    private static var paths: OpenAPI.PathItem.Map {
        let collection = path("collectionId", "The one collection", .string(allowedValues: .init(FeatureDocuments.collectionID)))
        let tileMatrixSet = path("tileMatrixSetId", "The tile matrix set", .string(allowedValues: .init(Endpoints.tileMatrixSet)))
        let tile = [path("z", "Zoom", .integer(maximum: (Endpoints.maximumZoom, exclusive: false), minimum: (0, exclusive: false))),
                    path("x", "Column from 180° W", .integer(minimum: (0, exclusive: false))),
                    path("y", "Row from the north, with .png", .string)]
        var paths: OpenAPI.PathItem.Map = [
            "/": get("The landing page; a browser (Accept ranking text/html above JSON, or f=html) gets the web map",
                     ok([.json: .init(schema: .object), .html: .init(schema: .string)]),
                     parameters: QueryParameters.landingFormat.openAPI, badRequest: true),
            "/api": get("This document", ok([openAPIJSON: .init(schema: .object)])),
            "/conformance": get("The conformance classes", ok([.json: .init(schema: .object)])),
            "/collections": get("The collections", ok([.json: .init(schema: .object)])),
            "/collections/{collectionId}": get("A collection", ok([.json: .init(schema: .object)]), parameters: collection, notFound: true),
            "/collections/{collectionId}/queryables": get("What filters may name", ok([schemaJSON: .init(schema: .object)]),
                                                          parameters: collection, notFound: true),
            "/collections/{collectionId}/items": get("Events, newest first", ok([geoJSON: .init(schemaReference: .component(named: "Events")),
                                                                                  kml: .init(schema: .string), kmz: .init(schema: .string(format: .binary))]),
                                                     tagged: true,
                                                     parameters: [collection] + QueryParameters.items.map(\.openAPI),
                                                     badRequest: true, notFound: true),
            "/collections/{collectionId}/items/{featureId}": get("One event", ok([geoJSON: .init(schemaReference: .component(named: "Event"))]),
                                                                 tagged: true,
                                                                 parameters: collection, path("featureId", "The event id", .string),
                                                                 notFound: true),
            "/collections/{collectionId}/changes": get(
                "Server-Sent Events: each event created (event: create) or revised (event: update) from now on, id a change stamp, "
                    + "data the feature; with Last-Event-ID, what was missed first, or event: reload when that cannot be said; event: heartbeat now and then",
                ok([.init(rawValue: "text/event-stream")!: .init(schema: .string)]),
                parameters: [collection] + QueryParameters.changes.map(\.openAPI), badRequest: true, notFound: true),
            "/count": get("How many events a filter admits (numberMatched), or that more than atLeast − 1 do",
                          ok([.json: .init(schema: .object)]), tagged: true, parameters: QueryParameters.count.map(\.openAPI),
                          badRequest: true),
            "/version": get("The catalogue's version, count, newest event and last change: what a page polls",
                            ok([.json: .init(schema: .object)]), tagged: true),
            "/tiles/{z}/{x}/{y}.png": get("An XYZ tile (Web Mercator), circles on a transparent background", image, tagged: true,
                                          parameters: tile + QueryParameters.tile.map(\.openAPI),
                                          badRequest: true, notFound: true, busy: true),
            "/tiles/land/{z}/{x}/{y}.png": get("An XYZ tile (Web Mercator) of Natural Earth land and sea: the web map's base layer", image,
                                               tagged: true, parameters: tile + QueryParameters.landTile.map(\.openAPI),
                                               notFound: true, busy: true),
            "/tileMatrixSets": get("The tile matrix sets", ok([.json: .init(schema: .object)])),
            "/tileMatrixSets/{tileMatrixSetId}": get("A tile matrix set (OGC 2D TMS 2.0)", ok([.json: .init(schema: .object)]),
                                                     parameters: tileMatrixSet, notFound: true),
            "/collections/{collectionId}/tiles": get("The collection's tilesets", ok([.json: .init(schema: .object)]),
                                                     parameters: collection, notFound: true),
            "/collections/{collectionId}/tiles/{tileMatrixSetId}": get("The vector tileset: its layer, properties and tile template",
                                                                       ok([.json: .init(schema: .object)]),
                                                                       parameters: collection, tileMatrixSet, notFound: true),
            "/collections/{collectionId}/tiles/{tileMatrixSetId}/tilejson.json": get("The vector tileset as TileJSON 3.0",
                                                                                     ok([.json: .init(schema: .object)]), tagged: true,
                                                                                     parameters: collection, tileMatrixSet, notFound: true),
            "/collections/{collectionId}/tiles/{tileMatrixSetId}/{tileMatrix}/{tileRow}/{tileCol}": get(
                "A Mapbox Vector Tile of the events (layer quakes): every event a point, or counted in one cluster; gzip when accepted",
                ok([mvt: .init(schema: .string(format: .binary))]), tagged: true,
                parameters: [collection, tileMatrixSet,
                             path("tileMatrix", "Zoom", .integer(maximum: (Endpoints.maximumVectorZoom, exclusive: false), minimum: (0, exclusive: false))),
                             path("tileRow", "Row from the north", .integer(minimum: (0, exclusive: false))),
                             path("tileCol", "Column from 180° W", .integer(minimum: (0, exclusive: false)))]
                    + QueryParameters.vectorTile.map(\.openAPI),
                badRequest: true, notFound: true, busy: true),
            "/tiles/basemap/{z}/{x}/{y}.mvt": get(
                "A vector tile (Web Mercator, z 0…\(BasemapVectorTiles.maximumZoom)) of Natural Earth land (layer land) and Bird's plate boundaries (layer plates)",
                ok([mvt: .init(schema: .string(format: .binary))]), tagged: true,
                parameters: [path("z", "Zoom", .integer(maximum: (BasemapVectorTiles.maximumZoom, exclusive: false), minimum: (0, exclusive: false))),
                             path("x", "Column from 180° W", .integer(minimum: (0, exclusive: false))),
                             path("y", "Row from the north, with .mvt", .string)] + QueryParameters.basemapTile.map(\.openAPI),
                notFound: true, busy: true),
            "/tiles/basemap/tilejson.json": get("The land and plate boundaries' vector tiles as TileJSON 3.0", ok([.json: .init(schema: .object)])),
            "/map.png": get("A plate carrée map", image, tagged: true, parameters: QueryParameters.map.map(\.openAPI),
                            badRequest: true, busy: true),
            "/healthz": get("This server's own state: where its events come from, their version, its refreshes",
                            ok([.json: .init(schema: .object)])),
            "/metrics": get("Prometheus metrics (text format 0.0.4): requests, latency, renders, the catalogue's age, database connections",
                            ok([.init(rawValue: "text/plain; version=0.0.4")!: .init(schema: .string)])),
        ]
        for (path, item) in fdsnPaths { paths[path] = item }
        return paths
    }

    /// The FDSN event web service 1.2 (its own description is its WADL); errors are the specification's plain text.
    private static var fdsnPaths: OpenAPI.PathItem.Map {
        let text = OpenAPI.ContentType(rawValue: "text/plain")!, xml = OpenAPI.ContentType.xml
        func fdsn(_ summary: String, _ content: OpenAPI.Content.Map, parameters: [OpenAPI.Parameter] = [],
                  answers: Bool = true) -> Either<JSONReference<OpenAPI.PathItem>, OpenAPI.PathItem> {
            var responses: OpenAPI.Response.Map = [200: .response(ok(content))]
            if answers {
                responses[204] = .response(description: "No events match (nodata=404 makes it a 404)")
                responses[400] = .response(description: "A bad parameter: the specification's error text",
                                           content: [text: .init(schema: .string)])
                responses[413] = .response(description: "More events than one answer holds (--fdsn-max-events)",
                                           content: [text: .init(schema: .string)])
            }
            return .b(OpenAPI.PathItem(get: OpenAPI.Operation(summary: summary, parameters: parameters.map { .parameter($0) },
                                                              responses: responses)))
        }
        let parameters = FDSNEventQuery.parameters.map { parameter in
            let schema: JSONSchema = switch parameter.type {
            case "xs:double": .number
            case "xs:int": .integer
            case "xs:boolean": .boolean
            case "xs:dateTime": .string(format: .dateTime)
            default: .string
            }
            return OpenAPI.Parameter(name: parameter.name, context: .query, schema: schema)
        }
        let base = Endpoints.fdsnPath
        return [
            OpenAPI.Path(rawValue: base + "/query"): fdsn(
                "FDSN event query: QuakeML 1.2, FDSN text or GeoJSON, streamed",
                [xml: .init(schema: .string), text: .init(schema: .string), .geojson: .init(schema: .object)], parameters: parameters),
            OpenAPI.Path(rawValue: base + "/count"): fdsn("How many events the same query matches", [text: .init(schema: .string)],
                                                       parameters: parameters.filter { !["orderby", "limit", "offset"].contains($0.name) }),
            OpenAPI.Path(rawValue: base + "/version"): fdsn("The FDSN specification's version served", [text: .init(schema: .string)],
                                                         answers: false),
            OpenAPI.Path(rawValue: base + "/application.wadl"): fdsn("The service in WADL", [xml: .init(schema: .string)], answers: false),
            OpenAPI.Path(rawValue: base + "/catalogs"): fdsn("The catalogues of the events", [xml: .init(schema: .string)], answers: false),
            OpenAPI.Path(rawValue: base + "/contributors"): fdsn("The contributors of the events", [xml: .init(schema: .string)],
                                                              answers: false),
        ]
    }

    /// An item: a GeoJSON point feature whose properties are the event schema's fields in the OGC
    /// items layout (``GeoJSONLayout/ogcItems``), each typed and described from ``EventField``.
    private static var eventSchema: JSONSchema {
        var properties = OrderedDictionary<String, JSONSchema>()
        for field in EventField.allCases where ![.latitude, .longitude, .id].contains(field) {
            let spec = field.spec
            let description = spec.title + (spec.unit.map { " (\($0))" } ?? "")
            // The core fields are always there (null when unknown); the others only when the event has them.
            let required = field.isCore
            properties[spec.name] = switch field.kind {
            case .text: .string(required: required, nullable: true, description: description)
            case .number: .number(required: required, nullable: true, description: description)
            case .integer: .integer(required: required, nullable: true, description: description)
            case .time: .string(format: .dateTime, required: required, nullable: true, description: description)
            }
        }
        properties["mechanism"] = .object(required: false, description: "The focal mechanism, when the event has one")
        return .object(properties: [
            "type": .string(allowedValues: "Feature"),
            "id": .string(required: false),
            "geometry": .object(properties: ["type": .string(allowedValues: "Point"),
                                             "coordinates": .array(minItems: 2, maxItems: 2, items: .number)]),
            "properties": .object(properties: properties),
            "links": .array(required: false, items: .object),
        ])
    }

    private static var eventsSchema: JSONSchema {
        .object(properties: ["type": .string(allowedValues: "FeatureCollection"),
                             "features": .array(items: .reference(.component(named: "Event"))),
                             "numberMatched": .integer(required: false), "numberReturned": .integer,
                             "timeStamp": .string(format: .dateTime), "links": .array(items: .object)])
    }

    private static var problemSchema: JSONSchema {
        .object(properties: ["type": .string(required: false), "title": .string, "status": .integer, "detail": .string,
                             "parameter": .string(required: false)])
    }

    private static func ok(_ content: OpenAPI.Content.Map) -> OpenAPI.Response {
        OpenAPI.Response(description: "OK", content: content)
    }

    private static var image: OpenAPI.Response {
        OpenAPI.Response(description: "A PNG, with an ETag", content: [.png: .init(schema: .string(format: .binary))])
    }

    private static func problem(_ description: String) -> Either<JSONReference<OpenAPI.Response>, OpenAPI.Response> {
        .response(description: description, content: [problemJSON: .init(schemaReference: .component(named: "Problem"))])
    }

    private static func get(_ summary: String, _ success: OpenAPI.Response, tagged: Bool = false,
                            parameters: OpenAPI.Parameter..., badRequest: Bool = false, notFound: Bool = false,
                            busy: Bool = false) -> Either<JSONReference<OpenAPI.PathItem>, OpenAPI.PathItem> {
        get(summary, success, tagged: tagged, parameters: parameters, badRequest: badRequest, notFound: notFound, busy: busy)
    }

    private static func get(_ summary: String, _ success: OpenAPI.Response, tagged: Bool = false,
                            parameters: [OpenAPI.Parameter], badRequest: Bool = false, notFound: Bool = false,
                            busy: Bool = false) -> Either<JSONReference<OpenAPI.PathItem>, OpenAPI.PathItem> {
        var responses: OpenAPI.Response.Map = [200: .response(success)]
        if tagged { responses[304] = .response(description: "Not modified (If-None-Match names the version's tag)") }
        if badRequest { responses[400] = problem("A bad parameter, named in the body") }
        if notFound { responses[404] = problem("No such resource") }
        if busy { responses[503] = problem("Drawing is saturated or too slow, or the catalogue cannot be read; see Retry-After") }
        return .b(OpenAPI.PathItem(get: OpenAPI.Operation(summary: summary, parameters: parameters.map { .parameter($0) },
                                                          responses: responses)))
    }

    private static func path(_ name: String, _ description: String, _ schema: JSONSchema) -> OpenAPI.Parameter {
        OpenAPI.Parameter(name: name, context: .path, schema: schema, description: description)
    }
}
