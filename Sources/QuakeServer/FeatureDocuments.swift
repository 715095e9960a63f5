import Foundation
import QuakeKit

/// The JSON documents of the OGC API – Features endpoints.
enum FeatureDocuments {
    static let collectionID = "quakes"

    /// What `/conformance` declares: Part 1 core and GeoJSON, Part 3 filtering,
    /// and the CQL2 text classes the filter parser implements.
    static let conformance = [
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
        "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter",
        "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter",
        "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables",
        "http://www.opengis.net/spec/cql2/1.0/conf/cql2-text",
        "http://www.opengis.net/spec/cql2/1.0/conf/basic-cql2",
        "http://www.opengis.net/spec/cql2/1.0/conf/advanced-comparison-operators",
        "http://www.opengis.net/spec/cql2/1.0/conf/case-insensitive-comparison",
        "http://www.opengis.net/spec/cql2/1.0/conf/accent-insensitive-comparison",
        "http://www.opengis.net/spec/cql2/1.0/conf/basic-spatial-functions",
    ]

    static func link(_ href: String, _ rel: String, _ type: String, _ title: String? = nil) -> [String: Any] {
        var link: [String: Any] = ["href": href, "rel": rel, "type": type]
        if let title { link["title"] = title }
        return link
    }

    static func landing(base: String) -> [String: Any] {
        [
            "title": "quakemap",
            "description": "Earthquakes from USGS feeds: OGC API – Features, XYZ tiles and maps.",
            "links": [
                link("\(base)/", "self", "application/json", "This document"),
                link("\(base)/conformance", "conformance", "application/json", "Conformance classes"),
                link("\(base)/collections", "data", "application/json", "Collections"),
                link("\(base)/tiles/{z}/{x}/{y}.png", "tiles", "image/png", "XYZ tiles (Web Mercator)"),
                link("\(base)/map.png", "preview", "image/png", "A plate carrée map"),
            ],
        ]
    }

    static func collection(base: String, catalogue: Catalogue) -> [String: Any] {
        let times = catalogue.events.map(\.time)
        let interval: [Any] = [times.min().map(QuakeMap.timestamp) as Any? ?? NSNull(),
                               times.max().map(QuakeMap.timestamp) as Any? ?? NSNull()]
        return [
            "id": collectionID,
            "title": "Earthquakes",
            "description": "\(catalogue.events.count) seismic events, newest first",
            "itemType": "feature",
            "crs": ["http://www.opengis.net/def/crs/OGC/1.3/CRS84"],
            "extent": [
                "spatial": ["bbox": [[-180, -90, 180, 90]], "crs": "http://www.opengis.net/def/crs/OGC/1.3/CRS84"],
                "temporal": ["interval": [interval], "trs": "http://www.opengis.net/def/uom/ISO-8601/0/Gregorian"],
            ],
            "links": [
                link("\(base)/collections/\(collectionID)", "self", "application/json"),
                link("\(base)/collections/\(collectionID)/items", "items", "application/geo+json", "The events"),
                link("\(base)/collections/\(collectionID)/queryables", "http://www.opengis.net/def/rel/ogc/1.0/queryables",
                     "application/schema+json", "What filters may name"),
            ],
        ]
    }

    static func queryables(base: String) -> [String: Any] {
        func property(_ type: String, _ title: String, format: String? = nil) -> [String: Any] {
            var schema: [String: Any] = ["type": type, "title": title]
            if let format { schema["format"] = format }
            return schema
        }
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "\(base)/collections/\(collectionID)/queryables",
            "type": "object",
            "title": "Earthquakes",
            "properties": [
                "geometry": ["format": "geometry-point", "title": "Epicentre"],
                "mag": property("number", "Magnitude"),
                "depth": property("number", "Depth in km"),
                "time": property("string", "Origin time", format: "date-time"),
                "type": property("string", "Event type"),
                "magType": property("string", "Magnitude type"),
                "net": property("string", "Network"),
                "status": property("string", "Review status"),
                "place": property("string", "Place"),
                "id": property("string", "Event id"),
                "latitude": property("number", "Latitude"),
                "longitude": property("number", "Longitude"),
            ],
            "additionalProperties": false,
        ]
    }

    static func feature(_ event: SeismicEvent, base: String) -> [String: Any] {
        func value<T>(_ optional: T?) -> Any { optional.map { $0 as Any } ?? NSNull() }
        var feature: [String: Any] = [
            "type": "Feature",
            "geometry": ["type": "Point", "coordinates": [event.longitude, event.latitude]],
            "properties": [
                "mag": value(event.magnitude),
                "place": event.place,
                "time": QuakeMap.timestamp(event.time),
                "updated": value(event.updated.map(QuakeMap.timestamp)),
                "depth": value(event.depth),
                "type": event.eventType,
                "magType": value(event.magnitudeType),
                "net": value(event.network),
                "status": value(event.status),
            ] as [String: Any],
        ]
        if !event.id.isEmpty {
            feature["id"] = event.id
            feature["links"] = [link("\(base)/collections/\(collectionID)/items/\(FeatureQuery.escape(event.id))", "self",
                                     "application/geo+json")]
        }
        return feature
    }
}
