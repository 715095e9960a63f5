import Foundation

/// The formats in which a list of events can be written.
public enum EventListFormat: String, Sendable, CaseIterable {
    /// Comma-separated, with the header ``EventListEncoder/csvHeader``.
    case csv
    /// A JSON array of objects with the CSV's keys, missing values as `null`.
    case json
}

/// Writes events as CSV or JSON, one row or object per event, in the order given.
public struct EventListEncoder: Sendable {
    /// The CSV header; scripts may rely on it.
    public static let csvHeader = "id,time,latitude,longitude,depth,mag,magType,place,type"

    /// Creates an encoder.
    public init() {}

    /// The events in `format`, UTF-8, ending with a newline.
    public func encode(_ events: [SeismicEvent], as format: EventListFormat) throws -> Data {
        switch format {
        case .csv:
            var text = Self.csvHeader + "\n"
            for event in events {
                let fields: [String] = [
                    event.id,
                    CivilTime.iso8601(event.time),
                    Self.number(event.latitude),
                    Self.number(event.longitude),
                    event.depth.map(Self.number) ?? "",
                    event.magnitude.map(Self.number) ?? "",
                    event.magnitudeType ?? "",
                    event.place,
                    event.eventType,
                ]
                text += fields.map(Self.quoted).joined(separator: ",") + "\n"
            }
            return Data(text.utf8)
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var data = try encoder.encode(events.map(ListedEvent.init))
            data.append(UInt8(ascii: "\n"))
            return data
        }
    }

    /// The shortest text that reads back as the same number.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }

    /// RFC 4180 quoting, only where a field needs it.
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// An event under the CSV's column names, for JSON.
private struct ListedEvent: Encodable {
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
