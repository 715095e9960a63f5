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
    /// ``header`` and ``footer``.
    package func append(_ event: SeismicEvent, to xml: inout String) {
        let id = Self.resourceText(event.id)
        let eventID = "quakeml:quakemap/query?eventid=" + id
        let originID = "quakeml:quakemap/origin?eventid=" + id
        let magnitudeID = "quakeml:quakemap/magnitude?eventid=" + id
        var attributes = "publicID=\"\(Self.escaped(eventID))\""
        if let network = event.network, !network.isEmpty {
            attributes += " catalog:eventsource=\"\(Self.escaped(network))\""
            if event.id.hasPrefix(network), event.id.count > network.count {
                attributes += " catalog:eventid=\"\(Self.escaped(String(event.id.dropFirst(network.count))))\""
            }
        }
        xml += "    <event \(attributes)>\n"
        if !event.place.isEmpty {
            xml += "      <description><text>\(Self.escaped(event.place))</text><type>earthquake name</type></description>\n"
        }
        let details = event.details
        // `<name>value</name>` of a detail field, empty when the event has none.
        func element(_ name: String, _ field: EventField) -> String {
            guard let value = details[field] else { return "" }
            return "<\(name)>\(Self.text(value, metres: QuakeMLDecoder.detailsInMetres.contains(field)))</\(name)>"
        }
        if let magnitude = event.magnitude {
            xml += "      <magnitude publicID=\"\(Self.escaped(magnitudeID))\">\n"
            xml += "        <mag><value>\(EventLineEncoder.number(magnitude))</value>\(element("uncertainty", .magError))</mag>\n"
            if let type = event.magnitudeType { xml += "        <type>\(Self.escaped(type))</type>\n" }
            xml += "        <originID>\(Self.escaped(originID))</originID>\n"
            if details[.magNst] != nil { xml += "        \(element("stationCount", .magNst))\n" }
            if details[.magSource] != nil {
                xml += "        <creationInfo>\(element("agencyID", .magSource))</creationInfo>\n"
            }
            xml += "      </magnitude>\n"
        }
        xml += "      <origin publicID=\"\(Self.escaped(originID))\">\n"
        if details[.horizontalError] != nil {
            xml += "        <originUncertainty>\(element("horizontalUncertainty", .horizontalError))"
                + "<preferredDescription>horizontal uncertainty</preferredDescription></originUncertainty>\n"
        }
        xml += "        <time><value>\(CivilTime.iso8601(event.time))</value>\(element("uncertainty", .timeError))</time>\n"
        xml += "        <longitude><value>\(EventLineEncoder.number(event.longitude))</value>"
            + "\(element("uncertainty", .longitudeError))</longitude>\n"
        xml += "        <latitude><value>\(EventLineEncoder.number(event.latitude))</value>"
            + "\(element("uncertainty", .latitudeError))</latitude>\n"
        if let depth = event.depth {
            xml += "        <depth><value>\(Self.metres(depth))</value>\(element("uncertainty", .depthError))</depth>\n"
        }
        let quality = element("associatedPhaseCount", .associatedPhaseCount) + element("usedPhaseCount", .usedPhaseCount)
            + element("associatedStationCount", .associatedStationCount) + element("usedStationCount", .nst)
            + element("standardError", .rms) + element("azimuthalGap", .gap) + element("minimumDistance", .dmin)
        if !quality.isEmpty { xml += "        <quality>\(quality)</quality>\n" }
        if let status = event.status, let evaluation = Self.evaluation(of: status) {
            if let mode = evaluation.mode { xml += "        <evaluationMode>\(mode)</evaluationMode>\n" }
            if let status = evaluation.status { xml += "        <evaluationStatus>\(status)</evaluationStatus>\n" }
        }
        let located = element("agencyID", .locationSource) + element("author", .author)
        if !located.isEmpty { xml += "        <creationInfo>\(located)</creationInfo>\n" }
        xml += "      </origin>\n"
        let mechanismID = "quakeml:quakemap/focalmechanism?eventid=" + id
        if let mechanism = event.mechanism {
            Self.append(mechanism, id: mechanismID, originID: originID, to: &xml)
        }
        xml += "      <preferredOriginID>\(Self.escaped(originID))</preferredOriginID>\n"
        if event.magnitude != nil {
            xml += "      <preferredMagnitudeID>\(Self.escaped(magnitudeID))</preferredMagnitudeID>\n"
        }
        if event.mechanism != nil {
            xml += "      <preferredFocalMechanismID>\(Self.escaped(mechanismID))</preferredFocalMechanismID>\n"
        }
        xml += "      <type>\(EventType.quakeML(event.eventType))</type>\n"
        var creation = ""
        if let network = event.network, !network.isEmpty { creation += "<agencyID>\(Self.escaped(network))</agencyID>" }
        if let updated = event.updated { creation += "<creationTime>\(CivilTime.iso8601(updated))</creationTime>" }
        if !creation.isEmpty { xml += "      <creationInfo>\(creation)</creationInfo>\n" }
        xml += "    </event>\n"
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

    /// A detail value as element text: numbers as the lists write them, in metres when
    /// `metres` (moved as text, as depths are), text escaped.
    private static func text(_ value: EventValue, metres inMetres: Bool) -> String {
        switch value {
        case .text(let text): escaped(text)
        case .integer(let integer): String(integer)
        case .number(let number): inMetres ? metres(number) : EventLineEncoder.number(number)
        case .time(let date): CivilTime.iso8601(date)
        }
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
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "*"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "'"),
                 UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return result
    }

    /// Text escaped for an element or a double-quoted attribute: markup
    /// characters and white space other than a space as references (so that
    /// no parser normalizes them away), what XML 1.0 cannot carry as U+FFFD.
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result.unicodeScalars.append("\u{FFFD}")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
