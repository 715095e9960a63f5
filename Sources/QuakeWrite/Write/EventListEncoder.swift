import Foundation
import QuakeModel
import QuakeParse
import QuakeScene

/// The formats in which a list of events can be written.
public enum EventListFormat: String, Sendable, CaseIterable {
    /// Comma-separated: by default the USGS CSV's 22 columns in USGS's order
    /// (``EventColumns/usgs``), so that a filtered USGS CSV is USGS CSV.
    case csv
    /// A JSON array of objects with the CSV's keys, missing values as `null`.
    case json
    /// An RFC 7946 FeatureCollection in the USGS summary feed's layout
    /// (the server's items are the OGC layout), which `FeedReader` reads back to the same events.
    case geojson
    /// Aligned columns for reading in a terminal.
    case table
    /// A QuakeML 1.2 (BED) document, which `FeedReader` reads back to the
    /// same events.
    case quakeml
    /// The FDSN event text format, with the header `fdsnTextHeader`,
    /// which `FeedReader` (and other FDSN clients) read back to the same events.
    case text
    /// The CSV's columns, then each event's focal mechanism: both nodal planes,
    /// M₀ and Mw, the tensor in N·m; empty for an event without one.
    case mechanisms
}

/// Writes events as CSV, FDSN text, JSON, GeoJSON, a table or QuakeML, one
/// row, object or element per event, in the order given.
package struct EventListEncoder: Sendable {
    /// The CSV header of the default columns, the USGS CSV's 22; scripts may rely on it.
    package static let csvHeader = EventLineEncoder.csvHeader(.usgs)

    /// The FDSN event text header, with the optional `EventType` column.
    package static let fdsnTextHeader = EventLineEncoder.fdsnTextHeader

    /// Creates an encoder.
    package init() {}

    /// The events in `format`, UTF-8, ending with a newline; `columns` are a CSV's or JSON's.
    package func encode(_ events: [SeismicEvent], as format: EventListFormat, columns: EventColumns = .usgs) throws -> Data {
        switch format {
        case .csv, .text, .json, .geojson, .mechanisms, .quakeml:
            return Data(EventLineEncoder(format: format, columns: columns).document(events))
        case .table: return Data(Self.table(events).utf8)
        }
    }

    /// Columns padded to their widest cell; numbers right-aligned, long places cut.
    package static func table(_ events: [SeismicEvent]) -> String {
        let rows = events.map(tableCells)
        let widths = tableHeader.indices.map { column in ([tableHeader] + rows).map { $0[column].count }.max() ?? 0 }
        return ([tableLine(tableHeader, widths: widths), tableRule(widths: widths)] + rows.map { tableLine($0, widths: widths) })
            .joined(separator: "\n") + "\n"
    }

    /// The table's column names.
    package static let tableHeader = ["time (UTC)", "mag", "magType", "depth", "latitude", "longitude", "place", "id"]

    /// An event's cells in the table, in ``tableHeader``'s order.
    package static func tableCells(_ event: SeismicEvent) -> [String] {
        let place = oneLine(event.place.count > 48 ? String(event.place.prefix(47)) + "…" : event.place)
        return [
            Formatted.time(event.time, .seconds),
            event.magnitude.map { Formatted.fixed($0, 1) } ?? "",
            (event.magnitudeType ?? ""),
            event.depth.map { Formatted.fixed($0, 1) } ?? "",
            Formatted.fixed(event.latitude, 3),
            Formatted.fixed(event.longitude, 3),
            place,
            oneLine(event.id),
        ]
    }

    /// `text` on one line of a terminal: line breaks and control characters become spaces.
    private static func oneLine(_ text: String) -> String {
        var out: [UInt8] = []
        EventLineEncoder.appendPipeSafe(text, keepingBars: true, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The line under the header.
    package static func tableRule(widths: [Int]) -> String {
        tableLine(widths.map { String(repeating: "─", count: $0) }, widths: widths)
    }

    /// One line of the table, its cells padded to `widths` (the widest cell of each column, in characters).
    package static func tableLine(_ cells: [String], widths: [Int]) -> String {
        let rightAligned: Set<Int> = [1, 3, 4, 5]
        let line = cells.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: widths[column] - cell.count)
            return rightAligned.contains(column) ? padding + cell : cell + padding
        }.joined(separator: "  ")
        // A line ending in a visible ASCII character has no trailing space to trim.
        if let last = line.unicodeScalars.last, last.value > 0x20 && last.value < 0x7F { return line }
        return line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }
}
