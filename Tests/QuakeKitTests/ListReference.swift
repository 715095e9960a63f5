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

/// A key named at run time: the schema's field names.
struct FieldKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Encodes `value` of `field` under its name, `null` when absent; times as ISO 8601 text or milliseconds.
func encodeField(_ field: EventField, _ value: EventValue?, millisecondTimes: Bool,
                 into container: inout KeyedEncodingContainer<FieldKey>) throws {
    let key = FieldKey(field.spec.name)
    switch value {
    case nil: try container.encodeNil(forKey: key)
    case .text(let text)?: try container.encode(text, forKey: key)
    case .number(let number)?: try container.encode(number, forKey: key)
    case .integer(let integer)?: try container.encode(integer, forKey: key)
    case .time(let date)?:
        if millisecondTimes {
            try container.encode(GeoJSONCollectionReference.milliseconds(date), forKey: key)
        } else {
            try container.encode(CivilTime.iso8601(date), forKey: key)
        }
    }
}

/// An event under the CSV's column names (the USGS CSV's 22 by default), for JSON.
struct ListedEventReference: Encodable {
    let event: SeismicEvent
    let columns = EventColumns.usgs

    init(_ event: SeismicEvent) { self.event = event }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: FieldKey.self)
        // Every column's key, `null` when the event has no value.
        for field in columns.fields {
            try encodeField(field, event[field], millisecondTimes: false, into: &container)
        }
    }
}

/// The USGS GeoJSON summary layout: times in epoch milliseconds, depth as the third coordinate,
/// every USGS property (null when absent) and every other field the event has.
struct GeoJSONCollectionReference: Encodable {
    let events: [SeismicEvent]

    enum CodingKeys: String, CodingKey { case type, metadata, features }
    enum MetadataKeys: String, CodingKey { case count, title }
    enum FeatureKeys: String, CodingKey { case type, id, properties, geometry }
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
            var properties = feature.nestedContainer(keyedBy: FieldKey.self, forKey: .properties)
            for field in EventField.allCases where ![.latitude, .longitude, .depth, .id].contains(field) {
                let value = event[field]
                if value != nil || field.spec.geoJSONProperty != nil {
                    try encodeField(field, value, millisecondTimes: true, into: &properties)
                }
            }
            var geometry = feature.nestedContainer(keyedBy: GeometryKeys.self, forKey: .geometry)
            try geometry.encode("Point", forKey: .type)
            try geometry.encode([event.longitude, event.latitude] + (event.depth.map { [$0] } ?? []), forKey: .coordinates)
        }
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
