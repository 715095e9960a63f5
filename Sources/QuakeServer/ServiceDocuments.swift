import Foundation
import QuakeCatalogue
import QuakeKit

/// `/`: the OGC API landing page, for clients that ask for JSON.
struct LandingDocument: Codable {
    var title = "quakemap"
    var description = "Earthquakes: OGC API – Features and Tiles, XYZ tiles and maps."
    var links: [Link]

    init(base: String) {
        links = [
            Link(href: "\(base)/", rel: "self", type: "application/json", title: "This document"),
            Link(href: "\(base)/?f=html", rel: "alternate", type: "text/html", title: "The web map"),
            Link(href: "\(base)/api", rel: "service-desc", type: "application/vnd.oai.openapi+json;version=3.0", title: "The API in OpenAPI 3.0"),
            Link(href: "\(base)/conformance", rel: "conformance", type: "application/json", title: "Conformance classes"),
            Link(href: "\(base)/collections", rel: "data", type: "application/json", title: "Collections"),
            Link(href: "\(base)/tiles/{z}/{x}/{y}.png", rel: "tiles", type: "image/png", title: "XYZ tiles (Web Mercator)"),
            Link(href: "\(base)/tileMatrixSets", rel: "http://www.opengis.net/def/rel/OGC/1.0/tiling-schemes", type: "application/json",
                 title: "Tile matrix sets"),
            Link(href: "\(base)/map.png", rel: "preview", type: "image/png", title: "A plate carrée map"),
        ]
    }
}

/// `/conformance`.
struct ConformanceDocument: Codable {
    var conformsTo = FeatureDocuments.conformance
}

/// `/collections`.
struct CollectionsDocument: Codable {
    var collections: [CollectionDocument]
    var links: [Link]

    init(base: String, served: ServedEvents) {
        collections = [CollectionDocument(base: base, served: served)]
        links = [Link(href: "\(base)/collections", rel: "self", type: "application/json")]
    }
}

/// `/collections/quakes`: the one collection, with the time its events span.
struct CollectionDocument: Codable {
    struct Extent: Codable {
        var spatial: Spatial
        var temporal: Temporal
    }

    struct Spatial: Codable {
        var bbox: [[Double]] = [[-180, -90, 180, 90]]
        var crs = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
    }

    struct Temporal: Codable {
        /// The oldest and the newest event's time; `null` for an empty collection.
        var interval: [[String?]]
        var trs = "http://www.opengis.net/def/uom/ISO-8601/0/Gregorian"
    }

    var id = FeatureDocuments.collectionID
    var title = "Earthquakes"
    var description: String
    var itemType = "feature"
    var crs = ["http://www.opengis.net/def/crs/OGC/1.3/CRS84"]
    var extent: Extent
    var links: [Link]

    init(base: String, served: ServedEvents) {
        let (oldest, newest) = served.interval
        description = "\(served.count) seismic events, newest first"
        extent = Extent(spatial: Spatial(), temporal: Temporal(interval: [[oldest.map(CivilTime.iso8601), newest.map(CivilTime.iso8601)]]))
        let path = "\(base)/collections/\(FeatureDocuments.collectionID)"
        links = [
            Link(href: path, rel: "self", type: "application/json"),
            Link(href: "\(path)/items", rel: "items", type: "application/geo+json", title: "The events"),
            Link(href: "\(path)/queryables", rel: "http://www.opengis.net/def/rel/ogc/1.0/queryables", type: "application/schema+json",
                 title: "What filters may name"),
            Link(href: "\(path)/tiles", rel: "http://www.opengis.net/def/rel/OGC/1.0/tilesets-vector", type: "application/json",
                 title: "Vector tiles"),
        ]
    }
}

/// `/collections/quakes/queryables`: the properties a filter may name, from the parser's own
/// list (``CQLProperty``), so the two cannot differ.
struct QueryablesDocument: Codable {
    struct Queryable: Codable {
        var title: String
        var type: String?
        var format: String?
    }

    var schema = "https://json-schema.org/draft/2020-12/schema"
    var id: String
    var type = "object"
    var title = "Earthquakes"
    var properties: [String: Queryable]
    var additionalProperties = false

    enum CodingKeys: String, CodingKey {
        case schema = "$schema", id = "$id", type, title, properties, additionalProperties
    }

    init(base: String) {
        id = "\(base)/collections/\(FeatureDocuments.collectionID)/queryables"
        var properties = ["geometry": Queryable(title: "Epicentre", format: "geometry-point")]
        for property in CQLProperty.allCases {
            let name = property.spec.name
            switch property.spec.kind {
            case .number: properties[name] = Queryable(title: property.title, type: "number")
            case .integer: properties[name] = Queryable(title: property.title, type: "integer")
            case .time: properties[name] = Queryable(title: property.title, type: "string", format: "date-time")
            case .text: properties[name] = Queryable(title: property.title, type: "string")
            }
        }
        self.properties = properties
    }
}

/// `web/config.json`: what the web map draws with and from. The symbols come as the library
/// draws them (sampled sizes and colours by magnitude, the depth and alert bands), so the page
/// and the maps never disagree; a static site's copy names its archives instead of a server.
struct WebConfigDocument: Codable {
    /// One colour band: values below `upperBound` (`nil`: no bound) are drawn in `color`.
    struct Band: Codable {
        var label: String
        var color: String
        var upperBound: Double?
    }

    /// The deepest zoom the page offers.
    var maximumZoom: Int
    /// The deepest zoom of a server's event and land tiles (beyond, they are scaled up); a static
    /// site's archives say their own.
    var eventsMaximumZoom: Int
    var landMaximumZoom: Int
    /// What the circles' colour tells at first: magnitude, depth or alert.
    var coloring: String
    /// Magnitude → diameter in pixels and colour, every quarter magnitude from 0 to 10.
    var magnitudes: [[JSONScalar]]
    var depthBands: [Band]
    var alertBands: [Band]
    var attribution: String
    /// A static site's archives, relative to the page; `nil` on a server.
    var archive: String?
    var basemapArchive: String?

    init(symbols: SymbolStyle, attribution: String, archive: String? = nil, basemapArchive: String? = nil) {
        maximumZoom = 16
        eventsMaximumZoom = 14
        landMaximumZoom = BasemapVectorTiles.maximumZoom
        coloring = ["magnitude", "depth", "alert"].contains("\(symbols.coloring)") ? "\(symbols.coloring)" : "magnitude"
        magnitudes = stride(from: 0.0, through: 10.0, by: 0.25).map { m in
            [.number(m), .number(symbols.sizes.diameter(magnitude: m)), .text(Self.css(symbols.sizes.fill(magnitude: m)))]
        }
        depthBands = SymbolColoring.depthBands.map(Self.band)
        alertBands = SymbolColoring.alertBands.map(Self.band)
        self.attribution = attribution
        self.archive = archive
        self.basemapArchive = basemapArchive
    }

    private static func band(_ band: SymbolColoring.Band) -> Band {
        Band(label: band.label, color: css(band.fill), upperBound: band.upperBound.isFinite ? band.upperBound : nil)
    }

    /// CSS's `rgba()`, as MapLibre reads colours.
    static func css(_ colour: RGBA) -> String {
        func channel(_ value: Double) -> Int { Int((value * 255).rounded()) }
        return "rgba(\(channel(colour.red)), \(channel(colour.green)), \(channel(colour.blue)), \(colour.alpha))"
    }
}

/// A number or a text in a JSON array of mixed values.
enum JSONScalar: Codable {
    case number(Double)
    case text(String)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .text(let text): try container.encode(text)
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) { self = .number(number) } else { self = .text(try container.decode(String.self)) }
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

/// An `application/problem+json` body (RFC 9457).
struct ProblemDocument: Codable {
    var type = "about:blank"
    var title: String
    var status: Int
    var detail: String
    var parameter: String?
}

/// Documents as JSON: keys sorted, slashes not escaped (links stay readable). An encoding
/// failure is thrown, never turned into an empty document.
enum JSONDocument {
    static func encoded(_ document: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(document))
    }
}
