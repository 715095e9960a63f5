import Foundation
import QuakeKit

/// What the OGC API – Features documents share: the collection's name and the conformance classes.
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
        "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/core",
        "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tileset",
        "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tilesets-list",
        "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/geodata-tilesets",
        "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/mvt",
        "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/oas30",
        "http://www.opengis.net/spec/tms/2.0/conf/json-tilematrixset",
    ]
}

/// A link as OGC API documents carry them.
struct Link: Codable, Sendable {
    var href: String
    var rel: String
    var type: String
    var title: String?
    /// `true` for a URI template (`{tileMatrix}`…), as OGC API – Tiles marks them.
    var templated: Bool?
}

/// Feature pages written straight into bytes (``JSONBytes``'s numbers,
/// strings and times): a GeoJSON point per event in the OGC items layout
/// (``GeoJSONLayout/ogcItems``: every field of the schema the event has, the
/// core ones always, times in ISO 8601 UTC).
enum FeatureBytes {
    /// A single item: the feature with its `self` link, then `moreLinks`.
    static func feature(_ event: SeismicEvent, base: String, moreLinks: [Link] = []) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        append(event, itemPrefix: itemPrefix(base: base), moreLinks: moreLinks, to: &out)
        return out
    }

    /// A page of items.
    static func collection(matched: Int?, timeStamp: String, links: [Link], events: some Collection<SeismicEvent>,
                           base: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + 400 * events.count)
        out.append(contentsOf: #"{"type":"FeatureCollection","#.utf8)
        // Optional in the standard: a database would count every match to give it.
        if let matched {
            out.append(contentsOf: #""numberMatched":"#.utf8)
            JSONBytes.appendInteger(matched, to: &out)
            out.append(UInt8(ascii: ","))
        }
        out.append(contentsOf: #""numberReturned":"#.utf8)
        JSONBytes.appendInteger(events.count, to: &out)
        out.append(contentsOf: #","timeStamp":"#.utf8)
        JSONBytes.appendString(timeStamp, to: &out)
        out.append(contentsOf: #","links":"#.utf8)
        append(links, to: &out)
        out.append(contentsOf: #","features":["#.utf8)
        let prefix = itemPrefix(base: base)
        var first = true
        for event in events {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            append(event, itemPrefix: prefix, moreLinks: [], to: &out)
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// The opening quote and the items' path as a JSON string writes them,
    /// made once a page: JSON escapes byte by byte, so an item's href is
    /// this, its escaped id and a closing quote.
    static func itemPrefix(base: String) -> [UInt8] {
        var out: [UInt8] = []
        JSONBytes.appendString("\(base)/collections/\(FeatureDocuments.collectionID)/items/", to: &out)
        out.removeLast()  // the closing quote: the id follows
        return out
    }

    static func append(_ event: SeismicEvent, itemPrefix: [UInt8], moreLinks: [Link], to out: inout [UInt8]) {
        out.append(contentsOf: #"{"type":"Feature""#.utf8)
        if !event.id.isEmpty {
            out.append(contentsOf: #","id":"#.utf8)
            JSONBytes.appendString(event.id, to: &out)
            out.append(contentsOf: #","links":[{"href":"#.utf8)
            out.append(contentsOf: itemPrefix)
            appendEscapedID(event.id, to: &out)
            out.append(contentsOf: #"","rel":"self","type":"application/geo+json"}"#.utf8)
            for link in moreLinks {
                out.append(UInt8(ascii: ","))
                append(link, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(contentsOf: #","geometry":{"type":"Point","coordinates":["#.utf8)
        JSONBytes.appendNumber(event.longitude, to: &out)
        out.append(UInt8(ascii: ","))
        JSONBytes.appendNumber(event.latitude, to: &out)
        out.append(contentsOf: #"]},"properties":{"#.utf8)
        EventLineEncoder.appendProperties(event, layout: .ogcItems, to: &out)
        out.append(contentsOf: "}}".utf8)
    }

    /// ``FeatureQuery/escape(_:)``'s text inside a JSON string: an id of
    /// unreserved bytes alone (every USGS id) is itself; any other goes to it
    /// (its output is ASCII letters, digits, `-._~%`, nothing JSON escapes).
    private static func appendEscapedID(_ id: String, to out: inout [UInt8]) {
        var id = id
        let plain = id.withUTF8 { bytes in
            guard bytes.allSatisfy(isUnreserved) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if !plain { out.append(contentsOf: FeatureQuery.escape(id).utf8) }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): return true
        default: return false
        }
    }

    private static func append(_ links: [Link], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, link) in links.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            append(link, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// ``Link``'s synthesized encoding: its properties in order, no `title` when there is none.
    private static func append(_ link: Link, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"href":"#.utf8)
        JSONBytes.appendString(link.href, to: &out)
        out.append(contentsOf: #","rel":"#.utf8)
        JSONBytes.appendString(link.rel, to: &out)
        out.append(contentsOf: #","type":"#.utf8)
        JSONBytes.appendString(link.type, to: &out)
        if let title = link.title {
            out.append(contentsOf: #","title":"#.utf8)
            JSONBytes.appendString(title, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
