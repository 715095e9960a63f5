import Foundation
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

// The Codable reference the list writer's JSON and GeoJSON bytes are compared with
// (EventListSpoolTests): what JSONEncoder writes for the same events.

/// An event under the CSV's column names, for JSON.
struct ListedEventReference: Encodable {
    let event: SeismicEvent

    enum CodingKeys: String, CodingKey {
        case id, time, latitude, longitude, depth, mag, magType, place, type
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event.id, forKey: .id)
        try container.encode(CivilTime.iso8601(event.time), forKey: .time)
        try container.encode(event.latitude, forKey: .latitude)
        try container.encode(event.longitude, forKey: .longitude)
        // `encode` on an optional writes `null`, so every object has every key.
        try container.encode(event.depth, forKey: .depth)
        try container.encode(event.magnitude, forKey: .mag)
        try container.encode(event.magnitudeType, forKey: .magType)
        try container.encode(event.place, forKey: .place)
        try container.encode(event.eventType, forKey: .type)
    }
}

/// The USGS GeoJSON summary layout: times in epoch milliseconds, depth as the third coordinate.
struct GeoJSONCollectionReference: Encodable {
    let events: [SeismicEvent]

    enum CodingKeys: String, CodingKey { case type, metadata, features }
    enum MetadataKeys: String, CodingKey { case count, title }
    enum FeatureKeys: String, CodingKey { case type, id, properties, geometry }
    enum PropertyKeys: String, CodingKey { case mag, place, time, updated, type, magType, net, status }
    enum GeometryKeys: String, CodingKey { case type, coordinates }

    func encode(to encoder: Encoder) throws {
        var root = encoder.container(keyedBy: CodingKeys.self)
        try root.encode("FeatureCollection", forKey: .type)
        var metadata = root.nestedContainer(keyedBy: MetadataKeys.self, forKey: .metadata)
        try metadata.encode(events.count, forKey: .count)
        try metadata.encode("quakemap selection", forKey: .title)
        var features = root.nestedUnkeyedContainer(forKey: .features)
        for event in events {
            var feature = features.nestedContainer(keyedBy: FeatureKeys.self)
            try feature.encode("Feature", forKey: .type)
            try feature.encode(event.id, forKey: .id)
            var properties = feature.nestedContainer(keyedBy: PropertyKeys.self, forKey: .properties)
            try properties.encode(event.magnitude, forKey: .mag)
            try properties.encode(event.place.isEmpty ? nil : event.place, forKey: .place)
            try properties.encode(Self.milliseconds(event.time), forKey: .time)
            try properties.encode(event.updated.map(Self.milliseconds), forKey: .updated)
            try properties.encode(event.eventType, forKey: .type)
            try properties.encode(event.magnitudeType, forKey: .magType)
            try properties.encode(event.network, forKey: .net)
            try properties.encode(event.status, forKey: .status)
            var geometry = feature.nestedContainer(keyedBy: GeometryKeys.self, forKey: .geometry)
            try geometry.encode("Point", forKey: .type)
            try geometry.encode([event.longitude, event.latitude] + (event.depth.map { [$0] } ?? []), forKey: .coordinates)
        }
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
