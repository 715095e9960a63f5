import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeScene

/// The one writer of the list formats written an event at a time (CSV,
/// FDSN text, JSON, GeoJSON): one event as one line or one object, written
/// straight into a byte buffer without a `String` per field,
/// `String(format:)` or a Foundation formatter, and the document's opening
/// and closing around them. ``EventListEncoder`` (a whole list in memory)
/// and ``EventListSpool`` (a list of any length) both write through it.
package struct EventLineEncoder: Sendable {
    /// The formats written one event at a time: all but a table, which needs every row's width first.
    package static func streams(_ format: EventListFormat) -> Bool {
        switch format {
        case .csv, .text, .json, .geojson, .mechanisms, .quakeml: return true
        case .table: return false
        }
    }

    package let format: EventListFormat
    /// The fields of a CSV line or JSON object (for the mechanisms format, those before the mechanism's).
    package let columns: EventColumns

    /// Whether the columns come in schema order (the USGS's 22 do): a line then reads the
    /// event's details once, in order (``EventDetails/Cursor``).
    private let columnsInSchemaOrder: Bool
    /// A JSON object's members: the columns, sorted by key as `JSONEncoder` sorts them, each always written.
    private let jsonKeys: [MemberKey]

    package init(format: EventListFormat, columns: EventColumns = .usgs) {
        self.format = format
        self.columns = columns
        columnsInSchemaOrder = zip(columns.fields, columns.fields.dropFirst()).allSatisfy { $0 < $1 }
        jsonKeys = Self.memberKeys(columns.fields) { _ in true }
    }

    /// The FDSN event text columns, in the format's order (each field's ``EventField/Spec/fdsnTextColumn``).
    package static let fdsnTextFields: [EventField] = [.id, .time, .latitude, .longitude, .depth, .locationSource, .catalog,
                                                       .net, .contributorId, .magType, .mag, .magSource, .place, .type]

    /// The CSV header line of `columns` (without its newline).
    package static func csvHeader(_ columns: EventColumns) -> String {
        columns.fields.map(\.spec.name).joined(separator: ",")
    }

    /// The mechanism's columns after the CSV's in ``EventListFormat/mechanisms``.
    package static let mechanismColumns = "strike1,dip1,rake1,strike2,dip2,rake2,scalarMoment,mw,mrr,mtt,mpp,mrt,mrp,mtp"

    /// The FDSN event text header, with the optional `EventType` column.
    package static let fdsnTextHeader = "#" + fdsnTextFields.compactMap(\.spec.fdsnTextColumn).joined(separator: "|")

    /// Appends `event` in `format`: a CSV or FDSN text line with its newline,
    /// or a JSON or GeoJSON object with no separator.
    package func append(_ event: SeismicEvent, to out: inout [UInt8]) {
        switch format {
        case .csv: appendCSV(event, to: &out)
        case .mechanisms:
            appendCSV(event, to: &out)
            out.removeLast()
            appendMechanismColumns(event.mechanism, to: &out)
            out.append(ASCII.lf)
        case .text: appendFDSNText(event, to: &out)
        case .json: appendJSON(event, to: &out)
        case .geojson: appendGeoJSONFeature(event, to: &out)
        case .quakeml: QuakeMLEncoder().append(event, to: &out)  // QuakeML's own encoder, an event element at a time
        case .table: preconditionFailure("\(format) is not written one event at a time")
        }
    }

    /// What comes before the first event: the CSV or FDSN text header line,
    /// or the opening of the JSON array or GeoJSON FeatureCollection.
    package func appendOpening(to out: inout [UInt8]) {
        switch format {
        case .csv: out.append(contentsOf: Self.csvHeader(columns).utf8); out.append(ASCII.lf)
        case .mechanisms: out.append(contentsOf: (Self.csvHeader(columns) + "," + Self.mechanismColumns).utf8); out.append(ASCII.lf)
        case .text: out.append(contentsOf: Self.fdsnTextHeader.utf8); out.append(ASCII.lf)
        case .json: out.append(UInt8(ascii: "["))
        case .geojson: out.append(contentsOf: #"{"features":["#.utf8)
        case .quakeml: out.append(contentsOf: QuakeMLEncoder.header.utf8)
        case .table: preconditionFailure("\(format) is not written one event at a time")
        }
    }

    /// Appends `event` as the list's event number `index` (from 0): the JSON
    /// formats put a comma between objects.
    package func append(_ event: SeismicEvent, at index: Int, to out: inout [UInt8]) {
        appendSeparator(before: index, to: &out)
        append(event, to: &out)
    }

    /// What goes between events, before event number `index`: a comma between JSON objects.
    package func appendSeparator(before index: Int, to out: inout [UInt8]) {
        if index > 0 && (format == .json || format == .geojson) { out.append(UInt8(ascii: ",")) }
    }

    /// What comes after the last of `count` events, with the final newline.
    package func appendClosing(count: Int, to out: inout [UInt8]) {
        switch format {
        case .json: out.append(contentsOf: "]\n".utf8)
        case .geojson:
            out.append(contentsOf: #"],"metadata":{"count":"#.utf8)
            Self.appendInteger(Int64(count), to: &out)
            out.append(contentsOf: #","title":"quakemap selection"},"type":"FeatureCollection"}"#.utf8)
            out.append(ASCII.lf)
        case .quakeml: out.append(contentsOf: QuakeMLEncoder.footer.utf8)
        case .csv, .text, .table, .mechanisms: break
        }
    }

    /// The mechanism's columns after a CSV line's (each with its comma): both planes (given, or
    /// the given one and its auxiliary, or the tensor's best double couple), M₀ and Mw, the tensor.
    private func appendMechanismColumns(_ mechanism: FocalMechanism?, to out: inout [UInt8]) {
        let planes = mechanism?.planes ?? []
        var values: [Double?] = []
        for index in 0..<2 {
            let plane = index < planes.count ? planes[index] : nil
            values += [plane?.strike, plane?.dip, plane?.rake]
        }
        values += [mechanism?.scalarMoment, mechanism?.momentMagnitude]
        let tensor = mechanism?.tensor
        values += [tensor?.rr, tensor?.tt, tensor?.pp, tensor?.rt, tensor?.rp, tensor?.tp]
        for value in values {
            out.append(UInt8(ascii: ","))
            if let value { Self.appendNumber(value, to: &out) }
        }
    }

    /// A whole list of `events`.
    package func document(_ events: [SeismicEvent]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + events.count * 160)
        appendOpening(to: &out)
        for (index, event) in events.enumerated() { append(event, at: index, to: &out) }
        appendClosing(count: events.count, to: &out)
        return out
    }

    private func appendCSV(_ event: SeismicEvent, to out: inout [UInt8]) {
        var cursor = EventDetails.Cursor(event.details)
        var first = true
        for field in columns.fields {
            if first { first = false } else { out.append(UInt8(ascii: ",")) }
            // Each value straight from where it is kept: an `EventValue` per field costs more than the writing.
            if field.isCore { Self.appendCSV(core: field, of: event, to: &out); continue }
            guard columnsInSchemaOrder else {
                switch event[field] {
                case nil: continue
                case .text(let text)?: Self.appendCSVField(text, to: &out)
                case let value?: Self.appendPlain(value, to: &out)
                }
                continue
            }
            switch cursor.stored(of: field) {
            case nil: continue
            case .text(let range)?: cursor.withText(range) { Self.appendCSVField($0, to: &out) }
            case .decimal(let decimal)?: Self.appendDecimal(decimal, to: &out)
            case .number(let number)?: Self.appendNumber(number, to: &out)
            case .integer(let integer)?: Self.appendInteger(integer, to: &out)
            case .time(let seconds)?: Self.appendISO8601(Date(timeIntervalSince1970: seconds), to: &out)
            }
        }
        out.append(ASCII.lf)
    }

    /// A core field of a CSV line, as ``appendPlain(_:to:)`` and ``appendCSVField(_:to:)`` write `event[field]`.
    private static func appendCSV(core field: EventField, of event: SeismicEvent, to out: inout [UInt8]) {
        switch field {
        case .time: appendISO8601(event.time, to: &out)
        case .latitude: appendNumber(event.latitude, to: &out)
        case .longitude: appendNumber(event.longitude, to: &out)
        case .depth: if let depth = event.depth { appendNumber(depth, to: &out) }
        case .mag: if let magnitude = event.magnitude { appendNumber(magnitude, to: &out) }
        case .magType: if let type = event.magnitudeType { appendCSVField(type, to: &out) }
        case .net: if let network = event.network { appendCSVField(network, to: &out) }
        case .id: appendCSVField(event.id, to: &out)
        case .updated: if let updated = event.updated { appendISO8601(updated, to: &out) }
        case .place: appendCSVField(event.place, to: &out)
        case .type: appendCSVField(event.eventType, to: &out)
        case .status: if let status = event.status { appendCSVField(status, to: &out) }
        default: preconditionFailure("\(field) is not a core field")
        }
    }

    /// One line under ``fdsnTextHeader``, each column from its own field. Times are UTC to the
    /// millisecond, without a zone letter, as FDSN services write them; fields go through
    /// ``appendPipeSafe(_:keepingBars:to:)``.
    private func appendFDSNText(_ event: SeismicEvent, to out: inout [UInt8]) {
        for (index, field) in Self.fdsnTextFields.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "|")) }
            switch event[field] {
            case nil: continue
            case .text(let text)?: Self.appendPipeSafe(text, to: &out)
            case .time(let date)?: Self.appendISO8601(date, zoneLetter: false, to: &out)
            case let value?: Self.appendPlain(value, to: &out)
            }
        }
        out.append(ASCII.lf)
    }

    /// A number, whole number or time as a CSV or FDSN text field writes it (text is quoted by the caller's rule).
    private static func appendPlain(_ value: EventValue, to out: inout [UInt8]) {
        switch value {
        case .number(let number): appendNumber(number, to: &out)
        case .integer(let integer): appendInteger(integer, to: &out)
        case .time(let date): appendISO8601(date, to: &out)
        case .text(let text): out.append(contentsOf: text.utf8)
        }
    }

    /// The columns as keys in sorted order (as `JSONEncoder` sorts them), absent values `null`, times in
    /// ISO 8601; the mechanism's object among them when there is one.
    private func appendJSON(_ event: SeismicEvent, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        Self.appendMembers(event, keys: jsonKeys, timesAsMilliseconds: false, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    private func appendGeoJSONFeature(_ event: SeismicEvent, to out: inout [UInt8]) {
        Self.appendFeature(event, layout: .usgsSummary, to: &out)
    }

    /// A value as JSON: text as a string, numbers as `JSONEncoder` writes them, times as
    /// milliseconds since 1970 or as an ISO 8601 string, `nil` as `null`.
    package static func appendJSONValue(_ value: EventValue?, timesAsMilliseconds: Bool, to out: inout [UInt8]) {
        switch value {
        case nil: out.append(contentsOf: "null".utf8)
        case .text(let text)?: appendJSONString(text, to: &out)
        case .number(let number)?: appendJSONNumber(number, to: &out)
        case .integer(let integer)?: appendInteger(integer, to: &out)
        case .time(let date)?:
            if timesAsMilliseconds {
                appendInteger(milliseconds(date), to: &out)
            } else {
                out.append(UInt8(ascii: "\""))
                appendISO8601(date, to: &out)
                out.append(UInt8(ascii: "\""))
            }
        }
    }

    /// A GeoJSON feature of `event` in `layout`, keys in sorted order: `geometry`, `id`,
    /// `properties` (every field with a property in the layout, `null` when absent, then every
    /// other field the event has, then the mechanism), `type`.
    package static func appendFeature(_ event: SeismicEvent, layout: GeoJSONLayout, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"geometry":{"coordinates":["#.utf8)
        appendJSONNumber(event.longitude, to: &out)
        out.append(UInt8(ascii: ","))
        appendJSONNumber(event.latitude, to: &out)
        if layout == .usgsSummary, let depth = event.depth {
            out.append(UInt8(ascii: ","))
            appendJSONNumber(depth, to: &out)
        }
        out.append(contentsOf: #"],"type":"Point"},"id":"#.utf8)
        appendJSONString(event.id, to: &out)
        out.append(contentsOf: #","properties":{"#.utf8)
        appendProperties(event, layout: layout, to: &out)
        out.append(contentsOf: #"},"type":"Feature"}"#.utf8)
    }

    /// The properties of `event` in `layout` (without braces): keys sorted, each field of the
    /// layout present (`null` when absent), every other field only when the event has it, and
    /// the mechanism's object.
    package static func appendProperties(_ event: SeismicEvent, layout: GeoJSONLayout, to out: inout [UInt8]) {
        appendMembers(event, keys: layout.keys, timesAsMilliseconds: layout == .usgsSummary, to: &out)
    }

    /// One member of a JSON object of an event: its field, its key as written (`"gap":`), whether
    /// it sorts after `mechanism`, and whether it is written as `null` when the event has no value.
    package struct MemberKey: Sendable {
        let field: EventField
        let bytes: [UInt8]
        let afterMechanism: Bool
        let always: Bool
    }

    /// The members of `fields` in sorted key order, made once (a key's text costs a string a value).
    package static func memberKeys(_ fields: [EventField], always: (EventField) -> Bool) -> [MemberKey] {
        fields.indices.sorted { fields[$0].spec.name < fields[$1].spec.name }.map { index in
            let field = fields[index], name = field.spec.name
            var bytes: [UInt8] = []
            appendJSONString(name, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            return MemberKey(field: field, bytes: bytes, afterMechanism: name > "mechanism", always: always(field))
        }
    }

    /// The members of an event's object (without braces), in `keys`' order, the mechanism's object
    /// where its key sorts; a member without a value only when its key says `always`.
    private static func appendMembers(_ event: SeismicEvent, keys: [MemberKey], timesAsMilliseconds: Bool,
                                      to out: inout [UInt8]) {
        var first = true
        var mechanismWritten = event.mechanism == nil
        // The details located once: keys sort by name, not in the schema's order.
        withUnsafeTemporaryAllocation(of: EventDetails.Cursor.Stored?.self, capacity: EventField.count) { details in
            details.initialize(repeating: nil)
            event.details.locate(into: details)
            for key in keys {
                let core = key.field.isCore ? event[key.field] : nil
                let stored = key.field.isCore ? nil : details[Int(key.field.rawValue)]
                guard core != nil || stored != nil || key.always else { continue }
                if !mechanismWritten, key.afterMechanism {
                    appendMechanism(event.mechanism, first: first, to: &out)
                    mechanismWritten = true
                    first = false
                }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                out.append(contentsOf: key.bytes)
                // As appendJSONValue writes the value, without making it.
                switch stored {
                case nil: appendJSONValue(core, timesAsMilliseconds: timesAsMilliseconds, to: &out)
                case .text(let range)?: event.details.withText(range) { appendJSONString(bytes: $0, to: &out) }
                case .decimal(let decimal)?: appendJSONNumber(decimal.value, to: &out)
                case .number(let number)?: appendJSONNumber(number, to: &out)
                case .integer(let integer)?: appendInteger(integer, to: &out)
                case .time(let seconds)?:
                    appendJSONValue(.time(Date(timeIntervalSince1970: seconds)), timesAsMilliseconds: timesAsMilliseconds, to: &out)
                }
            }
            details.deinitialize()
        }
        if !mechanismWritten { appendMechanism(event.mechanism, first: first, to: &out) }
    }

    /// `,"mechanism":{…}` when there is one: the planes (given, or the auxiliary of the one
    /// given, or the tensor's best double couple), the principal axes, the tensor in N·m and
    /// its parts, M₀ and Mw. Keys in the order of the rest of the object (alphabetical).
    package static func appendMechanism(_ mechanism: FocalMechanism?, first: Bool = false, to out: inout [UInt8]) {
        guard let mechanism else { return }
        func field(_ name: String, _ value: Double?, first: Bool = false) {
            out.append(contentsOf: ((first ? "\"" : ",\"") + name + "\":").utf8)
            appendJSONNumber(value, to: &out)
        }
        out.append(contentsOf: (first ? #""mechanism":{"# : #","mechanism":{"#).utf8)
        var separator = ""
        if let axes = mechanism.axes {
            out.append(contentsOf: #""axes":{"#.utf8)
            for (index, (name, axis)) in [("n", axes.n), ("p", axes.p), ("t", axes.t)].enumerated() {
                out.append(contentsOf: ((index == 0 ? "\"" : ",\"") + name + "\":{").utf8)
                field("azimuth", axis.azimuth, first: true)
                field("plunge", axis.plunge)
                field("value", axis.value)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "}"))
            separator = ","
        }
        out.append(contentsOf: (separator + #""momentMagnitude":"#).utf8)
        appendJSONNumber(mechanism.momentMagnitude, to: &out)
        out.append(contentsOf: #","nodalPlanes":["#.utf8)
        for (index, plane) in mechanism.planes.enumerated() {
            out.append(contentsOf: (index == 0 ? "{" : ",{").utf8)
            field("dip", plane.dip, first: true)
            field("rake", plane.rake)
            field("strike", plane.strike)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: #"],"preferredPlane":"#.utf8)
        if let preferred = mechanism.preferredPlane { appendInteger(Int64(preferred), to: &out) } else { out.append(contentsOf: "null".utf8) }
        field("scalarMoment", mechanism.scalarMoment)
        out.append(contentsOf: #","tensor":"#.utf8)
        if let tensor = mechanism.tensor {
            let parts = tensor.parts
            out.append(UInt8(ascii: "{"))
            field("clvd", parts.clvd, first: true)
            field("doubleCouple", parts.doubleCouple)
            field("isotropic", parts.isotropic)
            field("mpp", tensor.pp)
            field("mrp", tensor.rp)
            field("mrr", tensor.rr)
            field("mrt", tensor.rt)
            field("mtp", tensor.tp)
            field("mtt", tensor.tt)
            out.append(UInt8(ascii: "}"))
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(UInt8(ascii: "}"))
    }

    package static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    // MARK: Fields

    /// RFC 4180 quoting, only where a field needs it: a field holding a
    /// comma, a quote, a CR or an LF is quoted, each `"` doubled. Decided on
    /// bytes: those four are ASCII, and no byte of a multi-byte UTF-8
    /// sequence is below 0x80, so a byte test finds exactly the characters a
    /// CSV reader splits on (a `Character` test would not: `"\r\n"` is one
    /// `Character`, equal to neither `"\r"` nor `"\n"`).
    package static func appendCSVField(_ field: String, to out: inout [UInt8]) {
        var field = field
        field.withUTF8 { appendCSVField(UnsafeRawBufferPointer($0), to: &out) }
    }

    /// ``appendCSVField(_:to:)`` for a field's UTF-8 bytes.
    package static func appendCSVField(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        // Bytes compared with literals: a constant of another module in a `case` pattern is a call per byte.
        var needsQuotes = false, quotes = false
        for byte in bytes where byte <= 0x2C {
            if byte == 0x22 {
                needsQuotes = true
                quotes = true
                break
            }
            if byte == 0x2C || byte == 0x0A || byte == 0x0D { needsQuotes = true }
        }
        guard needsQuotes else { return out.append(contentsOf: bytes) }
        out.append(UInt8(ascii: "\""))
        if quotes {
            for byte in bytes {
                out.append(byte)
                if byte == UInt8(ascii: "\"") { out.append(byte) }
            }
        } else {
            out.append(contentsOf: bytes)
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `field` with nothing that would end an FDSN text field or line. The
    /// format has no quoting, so `|` becomes `/`, and a C0 control character
    /// (tab, CR, LF…), DEL, and the Unicode line breaks some readers split on
    /// (U+0085, U+2028, U+2029) become a space: the file stays one event per
    /// line, at the cost of those characters. Other characters, C1 controls
    /// that real feeds carry in place names among them, are kept.
    /// With `keepingBars`, `|` stays: one line of a terminal table.
    package static func appendPipeSafe(_ field: String, keepingBars: Bool = false, to out: inout [UInt8]) {
        // A byte no UTF-8 text holds stands for `|` when bars are kept.
        let bar = keepingBars ? 0xFF : UInt8(ascii: "|")
        var field = field
        field.withUTF8 { bytes in
            // Most fields have none of them (0xC2 and 0xE2 start every scalar that might be one): copied whole.
            guard bytes.contains(where: { $0 < 0x20 || $0 == bar || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) else {
                return out.append(contentsOf: bytes)
            }
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == bar {
                    out.append(UInt8(ascii: "/"))
                } else if byte < 0x20 || byte == 0x7F {
                    out.append(UInt8(ascii: " "))
                } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0x85 {
                    // U+0085 is C2 85.
                    out.append(UInt8(ascii: " "))
                    index += 1
                } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                          bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                    // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                    out.append(UInt8(ascii: " "))
                    index += 2
                } else {
                    out.append(byte)
                }
                index += 1
            }
        }
    }

    /// A JSON string as `JSONEncoder` (without escaping slashes) writes it;
    /// `nil` as `null`. Text with no byte to escape is copied as it is.
    package static func appendJSONString(_ text: String?, to out: inout [UInt8]) {
        guard var text else { return out.append(contentsOf: "null".utf8) }
        text.withUTF8 { appendJSONString(bytes: UnsafeRawBufferPointer($0), to: &out) }
    }

    /// A JSON string of UTF-8 `bytes`, escaped as ``appendJSONString(_:to:)`` escapes a string.
    package static func appendJSONString(bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case ASCII.lf: out.append(contentsOf: #"\n"#.utf8)
            case ASCII.cr: out.append(contentsOf: #"\r"#.utf8)
            case ASCII.tab: out.append(contentsOf: #"\t"#.utf8)
            case ..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0xF))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// A number as `JSONEncoder` writes a `Double`: `null` for `nil`.
    package static func appendJSONNumber(_ value: Double?, to out: inout [UInt8]) {
        guard let value else { return out.append(contentsOf: "null".utf8) }
        appendJSONNumber(value, to: &out)
    }

    /// `JSONEncoder`'s `Double`: the shortest round-trip text, `.0` dropped
    /// (so -0.0 is `-0`, where ``EventListEncoder/number(_:)`` writes `0`).
    package static func appendJSONNumber(_ value: Double, to out: inout [UInt8]) {
        if value == 0, value.sign == .minus { return out.append(contentsOf: "-0".utf8) }
        if abs(value) < 1e15, case let integer = Int64(value), Double(integer) == value {
            return appendInteger(integer, to: &out)
        }
        if appendFixedDecimal(value, to: &out) { return }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }

    // MARK: Numbers and times

    /// ``appendNumber(_:to:)``'s text, for writers of whole documents.
    package static func number(_ value: Double) -> String {
        var out: [UInt8] = []
        appendNumber(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A number as the lists write it: an integer value as an integer,
    /// anything else as Swift's shortest round-trip text.
    package static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        // A conversion, not `rounded()`: that is a call into the C library on this target.
        if abs(value) < 1e15, case let integer = Int64(value), Double(integer) == value {
            return appendInteger(integer, to: &out)
        }
        if appendFixedDecimal(value, to: &out) { return }
        out.append(contentsOf: "\(value)".utf8)
    }

    /// A short decimal kept from a feed's text, as ``appendNumber(_:to:)`` writes its value: its
    /// own digits (it is the shortest text of its value), or, below 0.001, that function's text.
    package static func appendDecimal(_ decimal: ShortDecimal, to out: inout [UInt8]) {
        guard decimal.scale > 0 else { return appendInteger(decimal.mantissa, to: &out) }
        let magnitude = decimal.mantissa.magnitude
        var unit: UInt64 = 1
        for _ in 0..<decimal.scale { unit *= 10 }
        guard magnitude * 1000 >= unit else { return appendNumber(decimal.value, to: &out) }
        if decimal.mantissa < 0 { out.append(UInt8(ascii: "-")) }
        appendInteger(Int64(magnitude / unit), to: &out)
        out.append(UInt8(ascii: "."))
        appendDigits(Int64(magnitude % unit), width: decimal.scale, to: &out)
    }

    /// Writes a non-integer `value` of 0.001 ≤ |value| < 10⁹ with the fewest
    /// decimals (at most six) whose text reads back as `value`, the text
    /// Swift's `description` gives it, and returns `true`; `false` (nothing
    /// written) for any other value.
    ///
    /// Why it is the same text: m and 10⁶ are exact doubles, so `m / 10⁶`
    /// is the correctly rounded value of the decimal m·10⁻⁶, the test
    /// reading it back makes. A decimal within half an ulp of `value` lies
    /// within 0.5 + ulp·10⁶/2 < 0.6 of `value`·10⁶ here, so it is the rounded
    /// product or a neighbour, the three tried, and the only one (the
    /// interval is narrower than 1). A decimal of fewer decimals that reads
    /// back is that same number, so the fewest decimals are the six less the
    /// trailing zeros: the shortest round-trip digits, which `description`
    /// writes in fixed notation in this range. (One product and one rounding,
    /// not one per number of decimals tried.)
    package static func appendFixedDecimal(_ value: Double, to out: inout [UInt8]) -> Bool {
        let magnitude = abs(value)
        guard magnitude >= 0.001, magnitude < 1e9 else { return false }
        let scale = 1_000_000.0
        // Within one of the rounded product (the tests below settle it), without a call to `round`.
        let product = Double(Int64(magnitude * scale + 0.5))
        var candidate = product
        if candidate / scale != magnitude {
            candidate = product - 1
            if candidate / scale != magnitude {
                candidate = product + 1
                if candidate / scale != magnitude { return false }
            }
        }
        let digits = Int64(candidate)
        var fraction = digits % 1_000_000
        // An integer is not written here (the callers write integers as integers).
        guard fraction != 0 else { return false }
        var decimals = 6
        while fraction % 10 == 0 {
            fraction /= 10
            decimals -= 1
        }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        appendInteger(digits / 1_000_000, to: &out)
        out.append(UInt8(ascii: "."))
        appendDigits(fraction, width: decimals, to: &out)
        return true
    }

    /// A signed integer in decimal.
    package static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[31 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            // As a raw buffer, not a slice: a slice is appended a byte at a time.
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(32 - count)...]))
        }
    }

    /// `value` (≥ 0, fewer than `width` + 1 digits) in exactly `width` digits, zeros in front.
    package static func appendDigits(_ value: Int64, width: Int, to out: inout [UInt8]) {
        var digits: (UInt64, UInt64) = (0, 0)
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            for position in stride(from: width - 1, through: 0, by: -1) {
                buffer[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<width]))
        }
    }

    /// `CivilTime.iso8601`'s bytes (`2020-06-11T15:27:04.123Z`), by the same
    /// integer arithmetic; without the `Z` for FDSN text. Years outside
    /// 0…9999 go to the plain function.
    package static func appendISO8601(_ date: Date, zoneLetter: Bool = true, to out: inout [UInt8]) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard let total = Int(exactly: milliseconds), abs(total) < 1 << 52 else {
            var text = CivilTime.iso8601(date)
            if !zoneLetter { text.removeLast() }
            return out.append(contentsOf: text.utf8)
        }
        var days = total / 86_400_000
        var millisecondOfDay = total % 86_400_000
        if millisecondOfDay < 0 { days -= 1; millisecondOfDay += 86_400_000 }
        let (year, month, day) = CivilTime.date(daysSinceEpoch: days)
        guard (0...9999).contains(year) else {
            var text = CivilTime.iso8601(date)
            if !zoneLetter { text.removeLast() }
            return out.append(contentsOf: text.utf8)
        }
        // Written in place and appended once: 24 appends of a byte each cost more than the arithmetic.
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &text) { text in
            func put(_ value: Int, width: Int, at start: Int) {
                var rest = value
                for position in stride(from: start + width - 1, through: start, by: -1) {
                    text[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
            }
            put(year, width: 4, at: 0)
            text[4] = UInt8(ascii: "-")
            put(month, width: 2, at: 5)
            text[7] = UInt8(ascii: "-")
            put(day, width: 2, at: 8)
            text[10] = UInt8(ascii: "T")
            put(millisecondOfDay / 3_600_000, width: 2, at: 11)
            text[13] = UInt8(ascii: ":")
            put(millisecondOfDay / 60_000 % 60, width: 2, at: 14)
            text[16] = UInt8(ascii: ":")
            put(millisecondOfDay / 1000 % 60, width: 2, at: 17)
            text[19] = UInt8(ascii: ".")
            put(millisecondOfDay % 1000, width: 3, at: 20)
            text[23] = UInt8(ascii: "Z")
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[..<(zoneLetter ? 24 : 23)]))
        }
    }
}

/// JSON values written straight into bytes by ``EventLineEncoder``'s rules,
/// for documents other than `list`'s (the server's feature pages): the
/// bytes `JSONEncoder` (without escaping slashes) writes for the same
/// value, and times as `CivilTime.iso8601(_:)` writes them.
package enum JSONBytes {
    /// Appends `text` as a JSON string, `nil` as `null`.
    package static func appendString(_ text: String?, to out: inout [UInt8]) {
        EventLineEncoder.appendJSONString(text, to: &out)
    }

    /// Appends `value` as `JSONEncoder` writes a `Double` (shortest round-trip
    /// digits, no `.0`), `nil` as `null`.
    package static func appendNumber(_ value: Double?, to out: inout [UInt8]) {
        EventLineEncoder.appendJSONNumber(value, to: &out)
    }

    /// Appends a whole number.
    package static func appendInteger(_ value: Int, to out: inout [UInt8]) {
        EventLineEncoder.appendInteger(Int64(value), to: &out)
    }

    /// Appends `date` as a JSON string in `CivilTime.iso8601(_:)`'s ISO 8601
    /// form (`"2020-06-11T15:27:04.123Z"`), `nil` as `null`.
    package static func appendTimestamp(_ date: Date?, to out: inout [UInt8]) {
        guard let date else { return out.append(contentsOf: "null".utf8) }
        out.append(UInt8(ascii: "\""))
        EventLineEncoder.appendISO8601(date, to: &out)
        out.append(UInt8(ascii: "\""))
    }
}
