import Foundation

/// The formats in which a list of events can be written.
public enum EventListFormat: String, Sendable, CaseIterable {
    /// Comma-separated, with the header ``EventListEncoder/csvHeader``.
    case csv
    /// A JSON array of objects with the CSV's keys, missing values as `null`.
    case json
    /// An RFC 7946 FeatureCollection in the USGS summary feed's layout, which
    /// ``FeedReader`` reads back to the same events.
    case geojson
    /// Aligned columns for reading in a terminal.
    case table
    /// A QuakeML 1.2 (BED) document, which ``FeedReader`` reads back to the
    /// same events (the review status aside).
    case quakeml
    /// The FDSN event text format, with the header ``EventListEncoder/fdsnTextHeader``,
    /// which ``FeedReader`` (and other FDSN clients) read back to the same events.
    case text
}

/// Writes events as CSV, FDSN text, JSON, GeoJSON, a table or QuakeML, one
/// row, object or element per event, in the order given.
public struct EventListEncoder: Sendable {
    /// The CSV header; scripts may rely on it.
    public static let csvHeader = "id,time,latitude,longitude,depth,mag,magType,place,type"

    /// The FDSN event text header, with the optional `EventType` column.
    public static let fdsnTextHeader =
        "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType"

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
            return try Self.json(events.map(ListedEvent.init))
        case .geojson:
            return try Self.json(GeoJSONCollection(events: events))
        case .table:
            return Data(Self.table(events).utf8)
        case .quakeml:
            return Data(QuakeMLEncoder().encode(events).utf8)
        case .text:
            return Data(Self.fdsnText(events).utf8)
        }
    }

    /// One line per event under ``fdsnTextHeader``. The format has no
    /// quoting, so a `|` in a value becomes `/` and a line break or other
    /// C0 control character a space (``pipeSafe(_:)``): the file stays one
    /// event per line, at the cost of those characters. The network stands
    /// for the author, catalogue, contributor and magnitude author alike, as
    /// USGS writes them; the id is also the contributor's id. Times are UTC to the millisecond, without
    /// a zone letter, as FDSN services write them.
    static func fdsnText(_ events: [SeismicEvent]) -> String {
        var text = fdsnTextHeader + "\n"
        for event in events {
            let network = event.network ?? ""
            let fields: [String] = [
                event.id,
                String(CivilTime.iso8601(event.time).dropLast()),
                number(event.latitude),
                number(event.longitude),
                event.depth.map(number) ?? "",
                network,
                network,
                network,
                event.id,
                event.magnitudeType ?? "",
                event.magnitude.map(number) ?? "",
                network,
                event.place,
                event.eventType,
            ]
            text += fields.map(pipeSafe).joined(separator: "|") + "\n"
        }
        return text
    }

    /// `field` with nothing that would end an FDSN text field or line: `|`
    /// becomes `/`; a C0 control character (tab, CR, LF…), DEL, and the
    /// Unicode line breaks some readers split on (U+0085, U+2028, U+2029)
    /// become a space. Other characters, C1 controls that real feeds carry
    /// in place names among them, are kept.
    static func pipeSafe(_ field: String) -> String {
        guard field.unicodeScalars.contains(where: breaksFDSNText) else { return field }
        return String(String.UnicodeScalarView(field.unicodeScalars.map { scalar -> Unicode.Scalar in
            guard breaksFDSNText(scalar) else { return scalar }
            return scalar == "|" ? "/" : " "
        }))
    }

    private static func breaksFDSNText(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar == "|" || scalar.value == 0x7F || scalar.value == 0x85
            || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    private static func json<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Columns padded to their widest cell; numbers right-aligned, long places cut.
    static func table(_ events: [SeismicEvent]) -> String {
        let rows = events.map(tableCells)
        let widths = tableHeader.indices.map { column in ([tableHeader] + rows).map { $0[column].count }.max() ?? 0 }
        return ([tableLine(tableHeader, widths: widths), tableRule(widths: widths)] + rows.map { tableLine($0, widths: widths) })
            .joined(separator: "\n") + "\n"
    }

    /// The table's column names.
    static let tableHeader = ["time (UTC)", "mag", "magType", "depth", "latitude", "longitude", "place", "id"]

    /// An event's cells in the table, in ``tableHeader``'s order.
    static func tableCells(_ event: SeismicEvent) -> [String] {
        let place = event.place.count > 48 ? String(event.place.prefix(47)) + "…" : event.place
        return [
            String(CivilTime.iso8601(event.time).prefix(19)).replacingOccurrences(of: "T", with: " "),
            event.magnitude.map { String(format: "%.1f", $0) } ?? "",
            (event.magnitudeType ?? ""),
            event.depth.map { String(format: "%.1f", $0) } ?? "",
            String(format: "%.3f", event.latitude),
            String(format: "%.3f", event.longitude),
            place,
            event.id,
        ]
    }

    /// The line under the header.
    static func tableRule(widths: [Int]) -> String {
        tableLine(widths.map { String(repeating: "─", count: $0) }, widths: widths)
    }

    /// One line of the table, its cells padded to `widths` (the widest cell of each column, in characters).
    static func tableLine(_ cells: [String], widths: [Int]) -> String {
        let rightAligned: Set<Int> = [1, 3, 4, 5]
        let line = cells.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: widths[column] - cell.count)
            return rightAligned.contains(column) ? padding + cell : cell + padding
        }.joined(separator: "  ")
        // A line ending in a visible ASCII character has no trailing space to trim.
        if let last = line.unicodeScalars.last, last.value > 0x20 && last.value < 0x7F { return line }
        return line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
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

/// The USGS GeoJSON summary layout: times in epoch milliseconds, depth as the third coordinate.
private struct GeoJSONCollection: Encodable {
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
