import Foundation
import QuakeModel
import QuakeScene

/// How a KML document groups its placemarks into folders.
package enum KMLFolders: String, Sendable, CaseIterable {
    /// A folder per whole magnitude ("M 5–6"), the largest first, then "No magnitude".
    case magnitude
    /// A folder per UTC date ("2024-05-01"), the newest first.
    case day
    /// The placemarks straight in the document.
    case none
}

/// The one writer of KML 2.2 (Google Earth, GDAL's LIBKML driver), for `list --format kml|kmz`
/// and the server's `items?f=kml`: a `Document` with a shared `Style` per half magnitude, then
/// one `Placemark` per event, written a placemark at a time into pieces handed to a sink.
///
/// A placemark has the magnitude and place as its `name`, the origin time as a `TimeStamp`
/// (Google Earth's time slider), every field the event carries twice (an HTML table in its
/// `description` for people, `ExtendedData` `Data` elements named as ``EventField`` names them
/// for GDAL and scripts), and a `Point` at `lon,lat,−depth·1000` clamped to the ground: the
/// depth is kept for readers, but drawn at that altitude a hypocentre would sit under the
/// terrain and out of sight, so Google Earth is told to ignore it.
package struct KMLEncoder: Sendable {
    /// The media type of KML.
    package static let contentType = "application/vnd.google-earth.kml+xml"
    /// The media type of KMZ.
    package static let kmzContentType = "application/vnd.google-earth.kmz"

    /// How placemarks are grouped.
    package var folders: KMLFolders
    /// The document's name.
    package var title: String
    /// The next page of a paged document, as the document's `atom:link` (KML allows one).
    package var nextPage: String?

    /// Creates an encoder.
    package init(folders: KMLFolders = .magnitude, title: String = "quakemap selection", nextPage: String? = nil) {
        self.folders = folders
        self.title = title
        self.nextPage = nextPage
    }

    /// The symbols' size and colour: the maps' rule (``MagnitudeStyle``), with a floor of 8 pixels
    /// so that a small event stays a visible dot on a globe rather than a 2-pixel speck.
    private static let symbols = MagnitudeStyle(minimumDiameter: 8)
    /// The icon: Google Earth's shaded dot, white, so that the style's colour is its colour.
    private static let icon = "http://maps.google.com/mapfiles/kml/shapes/shaded_dot.png"
    /// Google Earth draws an icon of scale 1 about 32 pixels wide.
    private static let iconPixels = 32.0
    /// Styles go in half magnitudes, 0…10.
    private static let styleSteps = 0...20

    // MARK: Documents

    /// The whole document of `events`, in the order given within each folder.
    package func document(_ events: [SeismicEvent]) -> [UInt8] {
        var out: [UInt8] = []
        write(events) { out.append(contentsOf: $0) }
        return out
    }

    /// Writes the document of `events`, handing `sink` pieces of about 256 KiB in order: the
    /// events are in memory, their KML never is whole. Within a folder, events keep their order.
    package func write(_ events: [SeismicEvent], to sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var out: [UInt8] = []
        out.reserveCapacity(Self.pieceBytes + 8192)
        appendOpening(to: &out)
        func hand() throws {
            guard out.count >= Self.pieceBytes else { return }
            try out.withUnsafeBytes { try sink($0) }
            out.removeAll(keepingCapacity: true)
        }
        if folders == .none {
            for event in events {
                appendPlacemark(event, to: &out)
                try hand()
            }
        } else {
            // Events by folder (largest or newest first), then in their own order: one index each.
            let keys = events.map(folderKey)
            let order = events.indices.sorted { keys[$0] != keys[$1] ? keys[$0] > keys[$1] : $0 < $1 }
            var current: Int?
            for index in order {
                if keys[index] != current {
                    if current != nil { out.append(contentsOf: "</Folder>\n".utf8) }
                    current = keys[index]
                    out.append(contentsOf: "<Folder>\n<name>".utf8)
                    Self.appendEscaped(folderName(key: keys[index]), to: &out)
                    out.append(contentsOf: "</name>\n".utf8)
                }
                appendPlacemark(events[index], to: &out)
                try hand()
            }
            if current != nil { out.append(contentsOf: "</Folder>\n".utf8) }
        }
        out.append(contentsOf: "</Document>\n</kml>\n".utf8)
        try out.withUnsafeBytes { try sink($0) }
    }

    private static let pieceBytes = 1 << 18

    /// The XML declaration, the `Document`'s name and next page, and the shared styles.
    package func appendOpening(to out: inout [UInt8]) {
        out.append(contentsOf: """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:atom="http://www.w3.org/2005/Atom">
            <Document>
            <name>
            """.utf8)
        Self.appendEscaped(title, to: &out)
        out.append(contentsOf: "</name>\n<open>1</open>\n".utf8)
        if let nextPage {
            out.append(contentsOf: "<atom:link rel=\"next\" href=\"".utf8)
            Self.appendEscaped(nextPage, to: &out)
            out.append(contentsOf: "\"/>\n".utf8)
        }
        for step in Self.styleSteps {
            let magnitude = Double(step) / 2
            out.append(contentsOf: "<Style id=\"".utf8)
            out.append(contentsOf: Self.styleID(step: step).utf8)
            out.append(contentsOf: "\"><IconStyle><color>".utf8)
            out.append(contentsOf: Self.color(Self.symbols.fill(magnitude: magnitude)).utf8)
            out.append(contentsOf: "</color><scale>".utf8)
            let scale = (Self.symbols.diameter(magnitude: magnitude) / Self.iconPixels * 100).rounded() / 100
            EventLineEncoder.appendNumber(scale, to: &out)
            out.append(contentsOf: "</scale><Icon><href>".utf8)
            out.append(contentsOf: Self.icon.utf8)
            // Labels off: a name beside every dot hides the map; the name shows on a click and in the list.
            out.append(contentsOf: "</href></Icon></IconStyle><LabelStyle><scale>0</scale></LabelStyle></Style>\n".utf8)
        }
    }

    /// One `Placemark`, with its newline.
    package func appendPlacemark(_ event: SeismicEvent, to out: inout [UInt8]) {
        out.append(contentsOf: "<Placemark>\n<name>".utf8)
        Self.appendEscaped(Self.name(event), to: &out)
        // No snippet: Google Earth's list would show the table's first lines under every name.
        out.append(contentsOf: "</name>\n<Snippet maxLines=\"0\"></Snippet>\n<description><![CDATA[<table>".utf8)
        // Escaped for HTML, which also keeps "]]>" out of the section.
        for field in EventField.allCases {
            guard let value = event[field] else { continue }
            let spec = field.spec
            out.append(contentsOf: "<tr><th align=\"left\">".utf8)
            out.append(contentsOf: spec.name.utf8)
            if let unit = spec.unit { out.append(contentsOf: " (\(unit))".utf8) }
            out.append(contentsOf: "</th><td>".utf8)
            if field == .url, case .text(let url) = value {
                out.append(contentsOf: "<a href=\"".utf8)
                Self.appendEscaped(url, to: &out)
                out.append(contentsOf: "\">".utf8)
                Self.appendEscaped(url, to: &out)
                out.append(contentsOf: "</a>".utf8)
            } else {
                Self.appendValue(value, to: &out)
            }
            out.append(contentsOf: "</td></tr>".utf8)
        }
        out.append(contentsOf: "</table>]]></description>\n<TimeStamp><when>".utf8)
        EventLineEncoder.appendISO8601(event.time, to: &out)
        out.append(contentsOf: "</when></TimeStamp>\n<styleUrl>#".utf8)
        out.append(contentsOf: Self.styleID(step: Self.styleStep(event.magnitude)).utf8)
        out.append(contentsOf: "</styleUrl>\n<ExtendedData>\n".utf8)
        for field in EventField.allCases {
            guard let value = event[field] else { continue }
            out.append(contentsOf: "<Data name=\"".utf8)
            out.append(contentsOf: field.spec.name.utf8)
            out.append(contentsOf: "\"><value>".utf8)
            Self.appendValue(value, to: &out)
            out.append(contentsOf: "</value></Data>\n".utf8)
        }
        out.append(contentsOf: "</ExtendedData>\n<Point>\n<altitudeMode>clampToGround</altitudeMode>\n<coordinates>".utf8)
        EventLineEncoder.appendNumber(event.longitude, to: &out)
        out.append(UInt8(ascii: ","))
        EventLineEncoder.appendNumber(event.latitude, to: &out)
        if let depth = event.depth, depth.isFinite {
            out.append(UInt8(ascii: ","))
            // Whole metres: a kilometre depth times 1000 is otherwise 8030.000000000001.
            EventLineEncoder.appendNumber((-depth * 1000).rounded() + 0, to: &out)
        }
        out.append(contentsOf: "</coordinates>\n</Point>\n</Placemark>\n".utf8)
    }

    /// A `NetworkLink` document: Google Earth loads `href` (a KML document) and loads it again
    /// every `refreshSeconds`, replacing what it showed.
    package static func networkLink(name: String, href: String, refreshSeconds: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.append(contentsOf: """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2">
            <NetworkLink>
            <name>
            """.utf8)
        appendEscaped(name, to: &out)
        // The view stays where the user put it at each refresh.
        out.append(contentsOf: "</name>\n<open>1</open>\n<refreshVisibility>0</refreshVisibility>\n<flyToView>0</flyToView>\n<Link>\n<href>".utf8)
        appendEscaped(href, to: &out)
        out.append(contentsOf: "</href>\n<refreshMode>onInterval</refreshMode>\n<refreshInterval>".utf8)
        EventLineEncoder.appendInteger(Int64(refreshSeconds), to: &out)
        out.append(contentsOf: "</refreshInterval>\n</Link>\n</NetworkLink>\n</kml>\n".utf8)
        return out
    }

    // MARK: Parts

    /// "M 4.5 – 10 km SW of Town" (the magnitude to a tenth, as `list --format table` writes it),
    /// without what is unknown; the id when there is no place.
    package static func name(_ event: SeismicEvent) -> String {
        let magnitude = event.magnitude.map { "M " + Formatted.fixed($0, 1) }
        let place = event.place.isEmpty ? (event.id.isEmpty ? nil : event.id) : event.place
        return [magnitude, place].compactMap { $0 }.joined(separator: " – ")
    }

    /// The style of a magnitude: the nearest half, 0…10; no magnitude draws as 0, as on a map.
    package static func styleStep(_ magnitude: Double?) -> Int {
        guard let magnitude, magnitude.isFinite else { return 0 }
        return Int((min(max(magnitude, 0), 10) * 2).rounded())
    }

    /// `m4.5`, `m5`: a style's id.
    package static func styleID(step: Int) -> String {
        "m" + EventLineEncoder.number(Double(step) / 2)
    }

    /// KML's colour: `aabbggrr` in hexadecimal.
    package static func color(_ color: RGBA) -> String {
        [color.alpha, color.blue, color.green, color.red].map { channel in
            let byte = Int((channel * 255).rounded())
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }

    /// The folder of an event, as a key that sorts its folder first when larger: the whole
    /// magnitude (−1 for none, 7 and up together), or the UTC day since 1970.
    private func folderKey(_ event: SeismicEvent) -> Int {
        switch folders {
        case .magnitude:
            guard let magnitude = event.magnitude, magnitude.isFinite else { return Int.min }
            return Int(min(max(magnitude, 0), 7).rounded(.down))
        case .day: return Int((event.time.timeIntervalSince1970 / 86_400).rounded(.down))
        case .none: return 0
        }
    }

    /// A folder's name: "M 7+", "M 5–6", "M 0–1", "No magnitude"; or "2024-05-01".
    private func folderName(key: Int) -> String {
        switch folders {
        case .magnitude:
            if key == Int.min { return "No magnitude" }
            return key >= 7 ? "M 7+" : "M \(key)–\(key + 1)"
        case .day: return String(CivilTime.iso8601(Date(timeIntervalSince1970: Double(key) * 86_400)).prefix(10))
        case .none: return ""
        }
    }

    /// A value as the lists write it (times in ISO 8601 UTC), escaped.
    private static func appendValue(_ value: EventValue, to out: inout [UInt8]) {
        switch value {
        case .number(let number): EventLineEncoder.appendNumber(number, to: &out)
        case .integer(let integer): EventLineEncoder.appendInteger(integer, to: &out)
        case .time(let date): EventLineEncoder.appendISO8601(date, to: &out)
        case .text(let text): appendEscaped(text, to: &out)
        }
    }

    /// Text as element content or an attribute, by QuakeML's rule (``QuakeMLEncoder/appendEscaped(_:to:)``).
    private static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        QuakeMLEncoder.appendEscaped(text, to: &out)
    }
}
