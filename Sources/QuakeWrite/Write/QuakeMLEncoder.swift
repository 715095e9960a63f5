import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery

/// Writes events as a QuakeML 1.2 (BED) document that ``FeedReader`` reads
/// back to the same events: one origin and one magnitude per event, both
/// preferred, and the focal mechanism when there is one; the place as the description of type `earthquake name`; the
/// `updated` time and the network as the event's `creationInfo`. Every field
/// ``EventField/Spec/quakeML`` places in the origin or magnitude is written there (in metres
/// where QuakeML counts metres), and the review status as the origin's evaluation
/// (``evaluation(of:)``).
///
/// Elements follow the order the schema declares them in (QuakeML 1.2 BED's XSD and RelaxNG
/// both accept any order, but other writers keep this one).
///
/// Ids survive the trip in the public id's `eventid=` query parameter (as
/// USGS writes them), percent-encoded where a character is not allowed in a
/// QuakeML resource identifier; the network is USGS's `catalog:eventsource`
/// attribute too. Control characters, which XML 1.0 cannot carry, become U+FFFD.
/// What QuakeML has no place for is not written: a status outside
/// ``evaluation(of:)``'s words, the magnitude's type and fields of an event without a
/// magnitude, the depth's uncertainty of one without a depth (a QuakeML quantity must
/// have a value). A type
/// outside QuakeML's list is written in its normalized spelling when that is
/// on the list (`quarry_blast` → `quarry blast`), else as `other event`: a
/// schema-valid document matters more to other readers (ObsPy drops an event
/// with an unknown type) than a type QuakeML has no word for.
package struct QuakeMLEncoder {
    /// An encoder (it keeps no state).
    package init() {}

    package static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2" xmlns="http://quakeml.org/xmlns/bed/1.2" \
        xmlns:catalog="http://anss.org/xmlns/catalog/0.1">
          <eventParameters publicID="quakeml:quakemap/eventParameters">

        """
    package static let footer = "  </eventParameters>\n</q:quakeml>\n"

    /// Appends one `event` element: what a document streamed an event at a time writes between
    /// ``header`` and ``footer``. Written as bytes, without a string per value: a server streams
    /// QuakeML at the pace of its other formats.
    package func append(_ event: SeismicEvent, to out: inout [UInt8]) {
        var id: [UInt8] = []
        Self.appendResourceText(event.id, to: &id)
        // The details located once, as they are kept: a lookup each would decode the entries before it again.
        withUnsafeTemporaryAllocation(of: EventDetails.Cursor.Stored?.self, capacity: EventField.count) { table in
            table.initialize(repeating: nil)
            event.details.locate(into: table)
            appendEvent(event, id: id, details: table, to: &out)
            table.deinitialize()
        }
    }

    private func appendEvent(_ event: SeismicEvent, id: [UInt8], details table: UnsafeMutableBufferPointer<EventDetails.Cursor.Stored?>,
                             to out: inout [UInt8]) {
        func open(_ text: StaticString) { out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)) }
        // Resource identifiers hold nothing XML escapes (``appendResourceText(_:to:)``).
        func resource(_ prefix: StaticString) {
            open(prefix)
            out.append(contentsOf: id)
        }
        let details = event.details
        func has(_ field: EventField) -> Bool { table[Int(field.rawValue)] != nil }
        // `<name>value</name>` of a detail field; nothing when the event has none.
        func element(_ name: StaticString, _ field: EventField) {
            guard let stored = table[Int(field.rawValue)] else { return }
            out.append(UInt8(ascii: "<"))
            open(name)
            out.append(UInt8(ascii: ">"))
            Self.appendStored(stored, of: details, metres: Self.inMetres[Int(field.rawValue)], to: &out)
            out.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "/")])
            open(name)
            out.append(UInt8(ascii: ">"))
        }
        // `<name>text</name>`, the text escaped.
        func textElement(_ name: StaticString, _ text: String) {
            out.append(UInt8(ascii: "<"))
            open(name)
            out.append(UInt8(ascii: ">"))
            Self.appendEscaped(text, to: &out)
            out.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "/")])
            open(name)
            out.append(UInt8(ascii: ">"))
        }
        open("    <event publicID=\"")
        resource("quakeml:quakemap/query?eventid=")
        out.append(UInt8(ascii: "\""))
        if let network = event.network, !network.isEmpty {
            open(" catalog:eventsource=\"")
            Self.appendEscaped(network, to: &out)
            out.append(UInt8(ascii: "\""))
            if event.id.hasPrefix(network), event.id.count > network.count {
                open(" catalog:eventid=\"")
                Self.appendEscaped(String(event.id.dropFirst(network.count)), to: &out)
                out.append(UInt8(ascii: "\""))
            }
        }
        open(">\n")
        if !event.place.isEmpty {
            open("      <description><text>")
            Self.appendEscaped(event.place, to: &out)
            open("</text><type>earthquake name</type></description>\n")
        }
        if let magnitude = event.magnitude {
            open("      <magnitude publicID=\"")
            resource("quakeml:quakemap/magnitude?eventid=")
            open("\">\n        <mag><value>")
            EventLineEncoder.appendNumber(magnitude, to: &out)
            open("</value>")
            element("uncertainty", .magError)
            open("</mag>\n")
            if let type = event.magnitudeType {
                open("        ")
                textElement("type", type)
                open("\n")
            }
            open("        <originID>")
            resource("quakeml:quakemap/origin?eventid=")
            open("</originID>\n")
            if has(.magNst) {
                open("        ")
                element("stationCount", .magNst)
                open("\n")
            }
            if has(.magSource) {
                open("        <creationInfo>")
                element("agencyID", .magSource)
                open("</creationInfo>\n")
            }
            open("      </magnitude>\n")
        }
        open("      <origin publicID=\"")
        resource("quakeml:quakemap/origin?eventid=")
        open("\">\n")
        if has(.horizontalError) {
            open("        <originUncertainty>")
            element("horizontalUncertainty", .horizontalError)
            open("<preferredDescription>horizontal uncertainty</preferredDescription></originUncertainty>\n")
        }
        open("        <time><value>")
        EventLineEncoder.appendISO8601(event.time, to: &out)
        open("</value>")
        element("uncertainty", .timeError)
        open("</time>\n        <longitude><value>")
        EventLineEncoder.appendNumber(event.longitude, to: &out)
        open("</value>")
        element("uncertainty", .longitudeError)
        open("</longitude>\n        <latitude><value>")
        EventLineEncoder.appendNumber(event.latitude, to: &out)
        open("</value>")
        element("uncertainty", .latitudeError)
        open("</latitude>\n")
        if let depth = event.depth {
            open("        <depth><value>")
            Self.appendMetres(depth, to: &out)
            open("</value>")
            element("uncertainty", .depthError)
            open("</depth>\n")
        }
        let quality: [(StaticString, EventField)] = [
            ("associatedPhaseCount", .associatedPhaseCount), ("usedPhaseCount", .usedPhaseCount),
            ("associatedStationCount", .associatedStationCount), ("usedStationCount", .nst), ("standardError", .rms),
            ("azimuthalGap", .gap), ("minimumDistance", .dmin),
        ]
        if quality.contains(where: { has($0.1) }) {
            open("        <quality>")
            for (name, field) in quality { element(name, field) }
            open("</quality>\n")
        }
        if let status = event.status, let evaluation = Self.evaluation(of: status) {
            if let mode = evaluation.mode {
                open("        ")
                textElement("evaluationMode", mode)
                open("\n")
            }
            if let status = evaluation.status {
                open("        ")
                textElement("evaluationStatus", status)
                open("\n")
            }
        }
        if has(.locationSource) || has(.author) {
            open("        <creationInfo>")
            element("agencyID", .locationSource)
            element("author", .author)
            open("</creationInfo>\n")
        }
        open("      </origin>\n")
        if let mechanism = event.mechanism {
            // Rare (a catalogue of mechanisms), and written as text.
            let id = String(decoding: id, as: UTF8.self)
            var xml = ""
            Self.append(mechanism, id: "quakeml:quakemap/focalmechanism?eventid=" + id, originID: "quakeml:quakemap/origin?eventid=" + id,
                        to: &xml)
            out.append(contentsOf: xml.utf8)
        }
        open("      <preferredOriginID>")
        resource("quakeml:quakemap/origin?eventid=")
        open("</preferredOriginID>\n")
        if event.magnitude != nil {
            open("      <preferredMagnitudeID>")
            resource("quakeml:quakemap/magnitude?eventid=")
            open("</preferredMagnitudeID>\n")
        }
        if event.mechanism != nil {
            open("      <preferredFocalMechanismID>")
            resource("quakeml:quakemap/focalmechanism?eventid=")
            open("</preferredFocalMechanismID>\n")
        }
        open("      <type>")
        out.append(contentsOf: EventType.quakeML(event.eventType).utf8)
        open("</type>\n")
        let network = event.network.flatMap { $0.isEmpty ? nil : $0 }
        if network != nil || event.updated != nil {
            open("      <creationInfo>")
            if let network { textElement("agencyID", network) }
            if let updated = event.updated {
                open("<creationTime>")
                EventLineEncoder.appendISO8601(updated, to: &out)
                open("</creationTime>")
            }
            open("</creationInfo>\n")
        }
        open("    </event>\n")
    }

    /// A `focalMechanism`: the planes given, the tensor's principal axes, and the moment
    /// tensor (derived from the event's origin, as the schema asks) with its parts.
    private static func append(_ mechanism: FocalMechanism, id: String, originID: String, to xml: inout String) {
        func quantity(_ name: String, _ value: Double) -> String {
            "<\(name)><value>\(EventLineEncoder.number(value))</value></\(name)>"
        }
        xml += "      <focalMechanism publicID=\"\(escaped(id))\">\n"
        if !mechanism.nodalPlanes.isEmpty {
            let preferred = mechanism.preferredPlane.map { " preferredPlane=\"\($0)\"" } ?? ""
            xml += "        <nodalPlanes\(preferred)>\n"
            for (index, plane) in mechanism.nodalPlanes.prefix(2).enumerated() {
                xml += "          <nodalPlane\(index + 1)>" + quantity("strike", plane.strike) + quantity("dip", plane.dip)
                    + quantity("rake", plane.rake) + "</nodalPlane\(index + 1)>\n"
            }
            xml += "        </nodalPlanes>\n"
        }
        if let tensor = mechanism.tensor {
            let axes = tensor.axes
            xml += "        <principalAxes>\n"
            for (name, axis) in [("tAxis", axes.t), ("pAxis", axes.p), ("nAxis", axes.n)] {
                xml += "          <\(name)>" + quantity("azimuth", axis.azimuth) + quantity("plunge", axis.plunge)
                    + quantity("length", axis.value ?? 0) + "</\(name)>\n"
            }
            xml += "        </principalAxes>\n"
        }
        if mechanism.tensor != nil || mechanism.scalarMoment != nil {
            xml += "        <momentTensor publicID=\"\(escaped(id + "&part=momenttensor"))\">\n"
            xml += "          <derivedOriginID>\(escaped(originID))</derivedOriginID>\n"
            if let moment = mechanism.scalarMoment { xml += "          " + quantity("scalarMoment", moment) + "\n" }
            if let tensor = mechanism.tensor {
                xml += "          <tensor>" + quantity("Mrr", tensor.rr) + quantity("Mtt", tensor.tt) + quantity("Mpp", tensor.pp)
                    + quantity("Mrt", tensor.rt) + quantity("Mrp", tensor.rp) + quantity("Mtp", tensor.tp) + "</tensor>\n"
                let parts = tensor.parts
                xml += "          <doubleCouple>\(EventLineEncoder.number(parts.doubleCouple))</doubleCouple>"
                    + "<clvd>\(EventLineEncoder.number(parts.clvd))</clvd><iso>\(EventLineEncoder.number(parts.isotropic))</iso>\n"
            }
            xml += "        </momentTensor>\n"
        }
        xml += "      </focalMechanism>\n"
    }

    /// The origin's `evaluationMode` and `evaluationStatus` for a review status: USGS's
    /// `automatic` is an automatic origin, `reviewed` a manual one QuakeML calls reviewed,
    /// `deleted` a rejected one; QuakeML's own `preliminary`, `confirmed` and `final` are
    /// kept as they are. Each reads back as the same word
    /// (``QuakeMLDecoder/status(evaluationMode:evaluationStatus:)``), in lower case as QuakeML
    /// spells its words (older USGS feeds write `AUTOMATIC`); any other status has no QuakeML
    /// word and is `nil`, not written.
    package static func evaluation(of status: String) -> (mode: String?, status: String?)? {
        switch status.lowercased() {
        case "automatic": ("automatic", nil)
        case "reviewed": ("manual", "reviewed")
        case "deleted": (nil, "rejected")
        case let word where ["preliminary", "confirmed", "final"].contains(word): (nil, word)
        default: nil
        }
    }

    /// Whether a field is kept in kilometres and written in metres, by its number.
    private static let inMetres: [Bool] = (0..<EventField.count).map { number in
        QuakeMLDecoder.detailsInMetres.contains { Int($0.rawValue) == number }
    }

    /// A detail value as element text, from how it is kept: numbers as the lists write them, in
    /// metres when `metres` (moved as text, as depths are), text escaped.
    private static func appendStored(_ stored: EventDetails.Cursor.Stored, of details: EventDetails, metres inMetres: Bool,
                                     to out: inout [UInt8]) {
        switch stored {
        case .text(let range): details.withText(range) { appendEscaped(bytes: $0, to: &out) }
        case .integer(let integer): EventLineEncoder.appendInteger(integer, to: &out)
        case .decimal(let decimal):
            if inMetres { appendMetres(decimal.value, to: &out) } else { EventLineEncoder.appendDecimal(decimal, to: &out) }
        case .number(let number):
            if inMetres { appendMetres(number, to: &out) } else { EventLineEncoder.appendNumber(number, to: &out) }
        case .time(let seconds): EventLineEncoder.appendISO8601(Date(timeIntervalSince1970: seconds), to: &out)
        }
    }

    /// ``metres(_:)``'s bytes: the decimal point of the kilometres' text moved three places,
    /// in place (no array per digit); exponents go the long way.
    package static func appendMetres(_ kilometres: Double, to out: inout [UInt8]) {
        let start = out.count
        EventLineEncoder.appendNumber(kilometres, to: &out)
        var sign = start
        if out[start] == UInt8(ascii: "-") { sign += 1 }
        guard !out[sign...].contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else {
            let text = metres(kilometres)
            out.removeSubrange(start...)
            return out.append(contentsOf: text.utf8)
        }
        let point = out[sign...].firstIndex(of: UInt8(ascii: ".")) ?? out.endIndex
        var fraction = point == out.endIndex ? [] : Array(out[(point + 1)...])
        out.removeSubrange(point...)
        for _ in 0..<3 { out.append(fraction.isEmpty ? UInt8(ascii: "0") : fraction.removeFirst()) }
        // Leading zeros of the whole part (0.0123 km is 12.3 m), one kept.
        var first = sign
        while first < out.count - 1, out[first] == UInt8(ascii: "0") { first += 1 }
        out.removeSubrange(sign..<first)
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        if !fraction.isEmpty {
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: fraction)
        }
        if out.count == sign + 1, out[sign] == UInt8(ascii: "0"), sign > start { out.remove(at: start) }  // -0 m is 0
    }

    /// Metres from kilometres, the point moved as text so that reading them
    /// back (``QuakeMLDecoder/kilometres(fromMetres:)``) gives the same double.
    package static func metres(_ kilometres: Double) -> String {
        let text = EventLineEncoder.number(kilometres)
        if let shifted = DecimalShift.shifted(text.utf8, by: 3) { return String(decoding: shifted, as: UTF8.self) }
        return EventLineEncoder.number(kilometres * 1000)
    }

    /// `text` with what a QuakeML resource identifier does not allow (and
    /// what would end the query parameter) percent-encoded, as UTF-8.
    package static func resourceText(_ text: String) -> String {
        var out: [UInt8] = []
        appendResourceText(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``resourceText(_:)``'s bytes: nothing in them is escaped in XML.
    package static func appendResourceText(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "*"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "'"),
                 UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 15)])
            }
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Text escaped for an element or a double-quoted attribute: markup
    /// characters and white space other than a space as references (so that
    /// no parser normalizes them away), what XML 1.0 cannot carry as U+FFFD.
    package static func escaped(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        appendEscaped(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``escaped(_:)``'s bytes, appended.
    package static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendEscaped(bytes: UnsafeRawBufferPointer($0), to: &out) }
    }

    /// ``escaped(_:)``'s rule over UTF-8 bytes.
    package static func appendEscaped(bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        do {
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "\t"): out.append(contentsOf: "&#9;".utf8)
                case UInt8(ascii: "\n"): out.append(contentsOf: "&#10;".utf8)
                case UInt8(ascii: "\r"): out.append(contentsOf: "&#13;".utf8)
                case 0..<0x20: out.append(contentsOf: replacement)
                // U+FFFE and U+FFFF (EF BF BE, EF BF BF): not characters XML allows.
                case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                    out.append(contentsOf: replacement)
                    index += 2
                default: out.append(byte)
                }
                index += 1
            }
        }
    }
}
