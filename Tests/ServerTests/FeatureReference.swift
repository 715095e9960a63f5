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
        // The OGC items layout: every field of the schema but the position and id, the core ones
        // always (null when unknown, so GDAL and others see the same keys on every feature), times in ISO 8601.
        var properties = feature.nestedContainer(keyedBy: PropertyKey.self, forKey: .properties)
        for field in EventField.allCases where ![.latitude, .longitude, .id].contains(field) {
            let key = PropertyKey(field.spec.name)
            switch event[field] {
            case nil: if field.isCore { try properties.encodeNil(forKey: key) }
            case .text(let text)?: try properties.encode(text, forKey: key)
            case .number(let number)?: try properties.encode(number, forKey: key)
            case .integer(let integer)?: try properties.encode(integer, forKey: key)
            case .time(let date)?: try properties.encode(CivilTime.iso8601(date), forKey: key)
            }
        }
    }
}

/// A property's key: a field's canonical name.
struct PropertyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
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
