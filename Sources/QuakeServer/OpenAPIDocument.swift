import QuakeKit

/// The service described in OpenAPI 3.0 (`/api`, the landing page's
/// `service-desc`): what clients and test tools read to learn the parameters,
/// their ranges and the answers.
enum OpenAPIDocument {
    static func document(base: String) -> [String: Any] {
        [
            "openapi": "3.0.3",
            "info": ["title": "quakemap", "version": QuakeMap.version,
                     "description": "Earthquakes from USGS feeds: OGC API – Features (Part 1 core, Part 3 CQL2 text), XYZ tiles and maps."],
            "servers": [["url": base]],
            "paths": paths,
            "components": ["schemas": ["Problem": problemSchema]],
        ]
    }

    private static let json = "application/json"
    private static let geoJSON = "application/geo+json"

    private static var paths: [String: Any] {
        [
            "/": get("The landing page; a browser (Accept ranking text/html above JSON, or f=html) gets the web map",
                     ["description": "OK", "content": [json: ["schema": ["type": "object"]], "text/html": ["schema": ["type": "string"]]]],
                     parameters: [query("f", "The format; without it, the Accept header decides", ["type": "string", "enum": ["json", "html"]])],
                     badRequest: true),
            "/api": get("This document", ok("application/vnd.oai.openapi+json;version=3.0")),
            "/conformance": get("The conformance classes", ok(json)),
            "/collections": get("The collections", ok(json)),
            "/collections/{collectionId}": get("A collection", ok(json), parameters: [collectionID], notFound: true),
            "/collections/{collectionId}/queryables": get("What filters may name", ok("application/schema+json"),
                                                          parameters: [collectionID], notFound: true),
            "/collections/{collectionId}/items": get("Events, newest first", ok(geoJSON), parameters: [
                collectionID,
                query("bbox", "W,S,E,N in CRS84; W > E crosses the antimeridian",
                      ["type": "array", "minItems": 4, "maxItems": 4, "items": ["type": "number"]], explode: false),
                query("bbox-crs", "Only CRS84", ["type": "string"]),
                query("datetime", "An RFC 3339 instant or date, or an interval start/end with '..' for an open end", ["type": "string"]),
                query("limit", "Events per page; more than \(FeatureQuery.maximumLimit) is lowered to \(FeatureQuery.maximumLimit)",
                      ["type": "integer", "minimum": 1, "maximum": FeatureQuery.maximumLimit, "default": FeatureQuery.defaultLimit]),
                query("offset", "Matching events skipped before the page", ["type": "integer", "minimum": 0, "default": 0]),
                query("filter", "A CQL2 text expression", ["type": "string"]),
                query("filter-lang", "Only cql2-text", ["type": "string", "enum": ["cql2-text"]]),
                query("filter-crs", "Only CRS84", ["type": "string"]),
                query("f", "The format", ["type": "string", "enum": ["json", "geojson"]]),
            ], badRequest: true, notFound: true),
            "/collections/{collectionId}/items/{featureId}": get("One event", ok(geoJSON), parameters: [
                collectionID, path("featureId", "The event id", ["type": "string"]),
            ], notFound: true),
            "/tiles/{z}/{x}/{y}.png": get("An XYZ tile (Web Mercator), circles on a transparent background", image, parameters: [
                path("z", "Zoom", ["type": "integer", "minimum": 0, "maximum": Endpoints.maximumZoom]),
                path("x", "Column from 180° W", ["type": "integer", "minimum": 0]),
                path("y", "Row from the north", ["type": "integer", "minimum": 0]),
                query("filter", "A CQL2 text expression", ["type": "string"]),
                query("filter-lang", "Only cql2-text", ["type": "string", "enum": ["cql2-text"]]),
                query("datetime", "As for items", ["type": "string"]),
                query("v", "Any value, ignored: a page sends the catalogue version it saw, to ask again when it changes",
                      ["type": "string"]),
            ], badRequest: true, notFound: true, busy: true),
            "/tiles/land/{z}/{x}/{y}.png": get("An XYZ tile (Web Mercator) of Natural Earth land and sea: the web map's base layer", image,
                                               parameters: [
                path("z", "Zoom", ["type": "integer", "minimum": 0, "maximum": BasemapTiles.maximumZoom]),
                path("x", "Column from 180° W", ["type": "integer", "minimum": 0]),
                path("y", "Row from the north", ["type": "integer", "minimum": 0]),
            ], notFound: true, busy: true),
            "/map.png": get("A plate carrée map", image, parameters: [
                query("bbox", "The region W,S,E,N", ["type": "array", "minItems": 4, "maxItems": 4, "items": ["type": "number"]],
                      explode: false),
                query("width", "Pixels", ["type": "integer", "minimum": Endpoints.mapSides.lowerBound,
                                          "maximum": Endpoints.mapSides.upperBound, "default": Endpoints.defaultMapWidth]),
                query("limit", "The most recent events drawn", ["type": "integer", "minimum": 1, "default": EventSelection.defaultLimit]),
                query("color", "What the colour tells", ["type": "string", "enum": ["magnitude", "depth", "age"]]),
                query("filter", "A CQL2 text expression", ["type": "string"]),
                query("filter-lang", "Only cql2-text", ["type": "string", "enum": ["cql2-text"]]),
                query("datetime", "As for items", ["type": "string"]),
            ], badRequest: true, busy: true),
            "/healthz": get("Status, event count, refresh failures", ok(json)),
        ]
    }

    private static var collectionID: [String: Any] {
        path("collectionId", "The one collection", ["type": "string", "enum": ["quakes"]])
    }

    private static var problemSchema: [String: Any] { [
        "type": "object",
        "required": ["status", "title", "detail"],
        "properties": ["type": ["type": "string"], "title": ["type": "string"], "status": ["type": "integer"],
                       "detail": ["type": "string"], "parameter": ["type": "string"]],
    ] }

    private static func ok(_ type: String) -> [String: Any] {
        ["description": "OK", "content": [type: ["schema": ["type": "object"]]]]
    }

    private static var image: [String: Any] { [
        "description": "A PNG, with an ETag",
        "content": ["image/png": ["schema": ["type": "string", "format": "binary"]]],
    ] }

    private static func problem(_ description: String) -> [String: Any] {
        ["description": description,
         "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]]]
    }

    private static func get(_ summary: String, _ success: [String: Any], parameters: [[String: Any]] = [],
                            badRequest: Bool = false, notFound: Bool = false, busy: Bool = false) -> [String: Any] {
        var responses: [String: Any] = ["200": success]
        if badRequest { responses["400"] = problem("A bad parameter, named in the body") }
        if notFound { responses["404"] = problem("No such resource") }
        if busy {
            responses["304"] = ["description": "Not modified (If-None-Match)"]
            responses["503"] = problem("Drawing is saturated or too slow; see Retry-After")
        }
        return ["get": ["summary": summary, "parameters": parameters, "responses": responses]]
    }

    private static func path(_ name: String, _ description: String, _ schema: [String: Any]) -> [String: Any] {
        ["name": name, "in": "path", "required": true, "description": description, "schema": schema]
    }

    private static func query(_ name: String, _ description: String, _ schema: [String: Any], explode: Bool = true) -> [String: Any] {
        var parameter: [String: Any] = ["name": name, "in": "query", "required": false, "description": description, "schema": schema]
        if !explode {
            parameter["style"] = "form"
            parameter["explode"] = false
        }
        return parameter
    }
}
