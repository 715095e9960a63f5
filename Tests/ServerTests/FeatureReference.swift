import Foundation
import QuakeKit
@testable import QuakeServer

/// An event as a GeoJSON feature: a 2D point (longitude, latitude) and the
/// feed's properties, times in ISO 8601 UTC, every key present (null when unknown).
/// The reference ``FeatureBytes`` is held to: what the service wrote
/// through `JSONEncoder` before it wrote bytes itself.
struct Feature: Encodable {
    let event: SeismicEvent
    let base: String
    /// Links after `self` (the collection, for a single item).
    var moreLinks: [Link] = []

    enum Keys: String, CodingKey { case type, id, geometry, properties, links }
    enum GeometryKeys: String, CodingKey { case type, coordinates }
    enum PropertyKeys: String, CodingKey { case mag, place, time, updated, depth, type, magType, net, status }

    func encode(to encoder: any Encoder) throws {
        var feature = encoder.container(keyedBy: Keys.self)
        try feature.encode("Feature", forKey: .type)
        if !event.id.isEmpty {
            try feature.encode(event.id, forKey: .id)
            let link = Link(href: "\(base)/collections/\(FeatureDocuments.collectionID)/items/\(FeatureQuery.escape(event.id))",
                            rel: "self", type: "application/geo+json")
            try feature.encode([link] + moreLinks, forKey: .links)
        }
        var geometry = feature.nestedContainer(keyedBy: GeometryKeys.self, forKey: .geometry)
        try geometry.encode("Point", forKey: .type)
        try geometry.encode([event.longitude, event.latitude], forKey: .coordinates)
        var properties = feature.nestedContainer(keyedBy: PropertyKeys.self, forKey: .properties)
        // `encode` of an optional writes null, so GDAL and others see the same keys on every feature.
        try properties.encode(event.magnitude, forKey: .mag)
        try properties.encode(event.place, forKey: .place)
        try properties.encode(CivilTime.iso8601(event.time), forKey: .time)
        try properties.encode(event.updated.map(CivilTime.iso8601), forKey: .updated)
        try properties.encode(event.depth, forKey: .depth)
        try properties.encode(event.eventType, forKey: .type)
        try properties.encode(event.magnitudeType, forKey: .magType)
        try properties.encode(event.network, forKey: .net)
        try properties.encode(event.status, forKey: .status)
    }
}

/// A page of items, as ``Feature`` is one.
struct FeatureCollection: Encodable {
    let type = "FeatureCollection"
    let numberMatched: Int
    let numberReturned: Int
    let timeStamp: String
    let links: [Link]
    let features: [Feature]
}

/// `JSONEncoder` as the service configured it: no escaped slashes.
enum ReferenceJSON {
    static func data(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
