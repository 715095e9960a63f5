import Foundation
import QuakeModel

/// The one judge of an event's values, whatever the format: every reader
/// (CSV and FDSN text from bytes, GeoJSON from JSON values, QuakeML from
/// element text) hands it a row's raw field text, and it parses each field,
/// refuses what no real event has, and words why. The reader only says
/// where the row is (line, feature, element) and checks its own structure.
///
/// So the same value gets the same verdict and the same words in every
/// format; `RowValidatorTests` feed each hostile value through all four
/// readers to keep it that way.
///
/// Judging (``check(_:)``) works on borrowed bytes and plain values, with
/// nothing to allocate or count references to: the CSV reader calls it for
/// every row on every core. The words (``problem(_:in:)``) are made only for
/// a refused row.
package struct RowValidator: Sendable {
    /// "Now", against which a time in the future is judged: one instant per feed.
    package let now: Date

    /// A validator judging times against `now`.
    package init(now: Date) {
        self.now = now
    }

    // MARK: - Limits

    /// Degrees north; a latitude outside is no place on Earth.
    package static let latitudes = -90.0...90.0
    /// Degrees east; a longitude outside is not wrapped but refused, as USGS never writes one.
    package static let longitudes = -180.0...180.0
    /// Kilometres: above sea level up to the highest mountains, down past the deepest slabs (~700 km).
    package static let depths = -15.0...1000.0
    /// The largest earthquakes reach about M9.5; small local ones go below 0.
    package static let magnitudes = -5.0...10.0
    /// A feed cannot list events after it was written; a day's grace covers clocks that disagree.
    package static let futureGrace: TimeInterval = 86_400
    /// Epoch milliseconds of the years 0001–9999, the times ISO 8601 can write.
    package static let representableMilliseconds = -62_135_596_800_000.0...253_402_300_799_999.0

    // MARK: - What readers hand over

    /// The values the validator judges; a reader names each in its own words
    /// (a column, a property, an element path).
    package enum Field: Sendable, Hashable {
        /// The origin time (in a `Date` + `TimeUTC` pair, the clock half).
        case time
        /// The date half of a `Date` + `TimeUTC` pair.
        case date
        /// Required coordinates, optional depth and magnitude, and the optional time of the last revision.
        case latitude, longitude, depth, magnitude, updated
    }

    /// One field's raw content, as the reader found it. Bytes are only
    /// borrowed: the validator reads them during the call and keeps none.
    package enum Text {
        /// No such column, property or element, or JSON `null`.
        case absent
        /// Text as written, e.g. a CSV field.
        case bytes(UnsafeRawBufferPointer)
        /// A JSON number, judged as its value; a time given so is epoch milliseconds.
        case number(Double)
        /// A date and a clock time in two columns (`2010/11/02`, `06:39:55.6`).
        case dateAndTime(date: UnsafeRawBufferPointer, time: UnsafeRawBufferPointer)
    }

    /// A field's content held as a value (a JSON value, an element's text),
    /// for readers that have no bytes to lend: see ``check(time:latitude:longitude:depth:magnitude:updated:depthUnit:)``.
    package enum Value {
        /// No such property or element, or JSON `null`.
        case absent
        /// Text as written; any JSON value other than a number or `null` is judged as its text.
        case string(String)
        /// A JSON number.
        case number(Double)
    }

    /// The unit a depth is written in: QuakeML writes metres.
    package enum DepthUnit: Sendable {
        /// CSV, FDSN text and GeoJSON.
        case kilometres
        /// QuakeML: turned into kilometres exactly, and shown with its unit when refused.
        case metres
    }

    /// A row's fields as a reader hands them over.
    package struct Fields {
        /// The origin time (or the pair of a `Date` + `TimeUTC` layout).
        package var time: Text
        /// Required, degrees.
        package var latitude: Text
        /// Required, degrees.
        package var longitude: Text
        /// Optional, in `depthUnit`.
        package var depth: Text
        /// Optional.
        package var magnitude: Text
        /// Optional: when the event was last revised.
        package var updated: Text
        /// What the depth is written in.
        package var depthUnit: DepthUnit

        /// Fields the row lacks are `.absent`; depths are in kilometres unless told.
        package init(time: Text, latitude: Text, longitude: Text, depth: Text = .absent, magnitude: Text = .absent,
                     updated: Text = .absent, depthUnit: DepthUnit = .kilometres) {
            self.time = time
            self.latitude = latitude
            self.longitude = longitude
            self.depth = depth
            self.magnitude = magnitude
            self.updated = updated
            self.depthUnit = depthUnit
        }

        /// The content of `field` (for ``Field/date``, the pair).
        fileprivate subscript(field: Field) -> Text {
            switch field {
            case .time, .date: time
            case .latitude: latitude
            case .longitude: longitude
            case .depth: depth
            case .magnitude: magnitude
            case .updated: updated
            }
        }
    }

    /// A valid row's values, depths in kilometres; optional ones `nil` when the row leaves them empty.
    package struct Checked: Equatable {
        /// The origin time, not more than ``RowValidator/futureGrace`` after ``RowValidator/now``.
        package var time: Date
        /// Within ``RowValidator/latitudes``.
        package var latitude: Double
        /// Within ``RowValidator/longitudes``.
        package var longitude: Double
        /// Kilometres, within ``RowValidator/depths``.
        package var depth: Double?
        /// Within ``RowValidator/magnitudes``.
        package var magnitude: Double?
        /// When the event was last revised.
        package var updated: Date?
    }

    /// Which rule a refused field broke: a plain value, so that judging a
    /// row costs no words; ``RowValidator/problem(_:in:)`` gives them.
    package struct Refusal: Error, Hashable {
        /// The rules, each worded once in ``RowValidator/problem(_:in:)``.
        package enum Rule: Hashable {
            /// A required value is missing or blank.
            case empty
            /// Text that is no decimal number, or a number that is not finite.
            case notANumber, notFinite
            /// A number outside the field's range.
            case outside
            /// Text that is no time, or no date and time pair.
            case notATime, notADateAndTime
            /// Epoch milliseconds outside the years 0001–9999.
            case outsideYears
            /// An origin time after ``RowValidator/now`` by more than ``RowValidator/futureGrace``.
            case future
        }

        /// The field refused.
        package var field: Field
        /// The rule it broke.
        package var rule: Rule

        /// A refusal of `field` by `rule`.
        package init(_ field: Field, _ rule: Rule) {
            self.field = field
            self.rule = rule
        }
    }

    /// Why a row is refused, in words: which field, the value as shown to
    /// the user (`nil` when there is none), and the reason, e.g. `is outside -90…90`.
    package struct Problem: Error, Hashable {
        /// The field refused; the reader names it (column, property, element).
        package var field: Field
        /// The value as the message shows it.
        package var shown: String?
        /// Why, e.g. `is outside -90…90`.
        package var reason: String

        /// A problem with `field`.
        package init(_ field: Field, _ shown: String?, _ reason: String) {
            self.field = field
            self.shown = shown
            self.reason = reason
        }
    }

    // MARK: - A row

    /// The row's values, or the first refusal, fields judged in one order for
    /// every format: time, latitude, longitude, depth, magnitude, whether the
    /// time is in the future, then `updated`.
    ///
    /// Inlined without fail (`always`, not the `__always` hint, which the
    /// optimizer judged unprofitable here): the CSV reader calls it for every
    /// row, and a call per row was a measurable part of decoding one.
    @inline(always)
    package func check(_ fields: Fields) -> Result<Checked, Refusal> {
        let time: Date, latitude: Double, longitude: Double, depth: Double?, magnitude: Double?, updated: Date?
        switch Self.instant(fields.time, .time) {
        case .success(let value?): time = value
        case .success(nil): return .failure(Refusal(.time, .empty))
        case .failure(let refusal): return .failure(refusal)
        }
        switch Self.number(fields.latitude, .latitude, within: Self.latitudes) {
        case .success(let value?): latitude = value
        case .success(nil): return .failure(Refusal(.latitude, .empty))
        case .failure(let refusal): return .failure(refusal)
        }
        switch Self.number(fields.longitude, .longitude, within: Self.longitudes) {
        case .success(let value?): longitude = value
        case .success(nil): return .failure(Refusal(.longitude, .empty))
        case .failure(let refusal): return .failure(refusal)
        }
        switch Self.number(fields.depth, .depth, within: Self.depths, metres: fields.depthUnit == .metres) {
        case .success(let value): depth = value
        case .failure(let refusal): return .failure(refusal)
        }
        switch Self.number(fields.magnitude, .magnitude, within: Self.magnitudes) {
        case .success(let value): magnitude = value
        case .failure(let refusal): return .failure(refusal)
        }
        if isInTheFuture(time) { return .failure(Refusal(.time, .future)) }
        switch Self.instant(fields.updated, .updated) {
        case .success(let value): updated = value
        case .failure(let refusal): return .failure(refusal)
        }
        return .success(Checked(time: time, latitude: latitude, longitude: longitude, depth: depth,
                                magnitude: magnitude, updated: updated))
    }

    /// ``check(_:)`` of values held rather than lent (GeoJSON, QuakeML), a
    /// refusal worded: strings are judged as the same text in a CSV field.
    package func check(time: Value, latitude: Value, longitude: Value, depth: Value = .absent,
                       magnitude: Value = .absent, updated: Value = .absent,
                       depthUnit: DepthUnit = .kilometres) -> Result<Checked, Problem> {
        // The strings' bytes side by side in one buffer, lent for the call.
        let values = [time, latitude, longitude, depth, magnitude, updated]
        var bytes: [UInt8] = [], ranges: [Range<Int>] = []
        for value in values {
            let start = bytes.count
            if case .string(let text) = value { bytes.append(contentsOf: text.utf8) }
            ranges.append(start..<bytes.count)
        }
        return bytes.withUnsafeBytes { buffer in
            let texts = zip(values, ranges).map { value, range -> Text in
                switch value {
                case .absent: .absent
                case .string: .bytes(UnsafeRawBufferPointer(rebasing: buffer[range]))
                case .number(let number): .number(number)
                }
            }
            let fields = Fields(time: texts[0], latitude: texts[1], longitude: texts[2], depth: texts[3],
                                magnitude: texts[4], updated: texts[5], depthUnit: depthUnit)
            return check(fields).mapError { problem($0, in: fields) }
        }
    }

    /// Whether `time` is after ``now`` by more than ``futureGrace``.
    @inline(__always)
    package func isInTheFuture(_ time: Date) -> Bool {
        time.timeIntervalSince(now) > Self.futureGrace
    }

    // MARK: - Fields

    /// A time field: its instant, `nil` when empty.
    @inline(__always)
    private static func instant(_ text: Text, _ field: Field) -> Result<Date?, Refusal> {
        switch text {
        case .bytes(let bytes):
            // Parsed first: a time is far more common than a blank.
            if let value = TimeParser.parse(bytes) { return .success(value) }
            return isBlank(bytes) ? .success(nil) : .failure(Refusal(field, .notATime))
        case .absent:
            return .success(nil)
        case .number(let milliseconds):
            guard milliseconds.isFinite else { return .failure(Refusal(field, .notFinite)) }
            // The years 0001…9999, as ISO 8601 writes them; anything else is garbage, not a date.
            guard representableMilliseconds.contains(milliseconds) else { return .failure(Refusal(field, .outsideYears)) }
            return .success(Date(timeIntervalSince1970: milliseconds / 1000))
        case let .dateAndTime(date, clock):
            if let value = TimeParser.parse(date: date, time: clock) { return .success(value) }
            if isBlank(date) { return .failure(Refusal(.date, .empty)) }
            return isBlank(clock) ? .success(nil) : .failure(Refusal(field, .notADateAndTime))
        }
    }

    /// A number field within `range`: its value, `nil` when empty. Text is
    /// read by ``DecimalParser``; a depth in `metres` is turned into
    /// kilometres exactly before its range is checked.
    @inline(__always)
    private static func number(_ text: Text, _ field: Field, within range: ClosedRange<Double>,
                               metres: Bool = false) -> Result<Double?, Refusal> {
        switch text {
        case .bytes(let bytes):
            switch DecimalParser.parse(bytes) {
            case .value(let written):
                let value = metres ? kilometres(fromMetres: bytes, written) : written
                return range.contains(value) ? .success(value) : .failure(Refusal(field, .outside))
            case .empty: return .success(nil)
            case .notANumber: return .failure(Refusal(field, .notANumber))
            case .notFinite: return .failure(Refusal(field, .notFinite))
            }
        case .absent:
            return .success(nil)
        case .number(let value):
            guard value.isFinite else { return .failure(Refusal(field, .notFinite)) }
            return range.contains(value) ? .success(value) : .failure(Refusal(field, .outside))
        case .dateAndTime:
            return .failure(Refusal(field, .notANumber))
        }
    }

    /// Kilometres from a depth written in metres: a plain decimal has its
    /// point moved three places, so the kilometres are the double nearest the
    /// written value (as a CSV's would be), not a division's rounding.
    package static func kilometres(fromMetres text: ArraySlice<UInt8>) -> Double? {
        text.withUnsafeBytes { bytes in
            guard case .value(let metres) = DecimalParser.parse(bytes) else { return nil }
            return kilometres(fromMetres: bytes, metres)
        }
    }

    /// ``kilometres(fromMetres:)`` of text already read as `metres`.
    private static func kilometres(fromMetres text: UnsafeRawBufferPointer, _ metres: Double) -> Double {
        if let shifted = DecimalShift.shifted(text, by: -3), case .value(let value) = DecimalParser.parse(shifted[...]) {
            return value
        }
        return metres / 1000
    }

    // MARK: - Words

    /// What `refusal` of `fields` tells the user: the value as shown (the
    /// text as written; trimmed, and in metres with its unit, when out of
    /// range; a parsed time in ISO 8601) and the reason.
    @inline(never)
    package func problem(_ refusal: Refusal, in fields: Fields) -> Problem {
        let text = fields[refusal.field]
        let field = refusal.field
        switch refusal.rule {
        case .empty:
            return Problem(field, nil, "is empty")
        case .notANumber:
            return Problem(field, Self.written(text), "is not a number")
        case .notFinite:
            return Problem(field, Self.written(text), "is not a finite number")
        case .outside:
            let range = switch field {
            case .latitude: Self.latitudes
            case .longitude: Self.longitudes
            case .depth: Self.depths
            default: Self.magnitudes
            }
            var shown = Self.written(text, trimmed: true)
            // Text in metres is shown with its unit: the range is in kilometres.
            if case .bytes = text, field == .depth, fields.depthUnit == .metres { shown += " m" }
            let unit = field == .depth ? " km" : ""
            return Problem(field, shown, "is outside \(Self.numberText(range.lowerBound))…\(Self.numberText(range.upperBound))\(unit)")
        case .notATime:
            return Problem(field, Self.written(text), "is not a time (expected ISO 8601, e.g. 2020-06-11T15:27:04.123Z)")
        case .notADateAndTime:
            return Problem(field, Self.written(text), "is not a date and time (expected 2010/11/02 06:39:55.6)")
        case .outsideYears:
            return Problem(field, Self.written(text), "is outside the years 0001…9999")
        case .future:
            guard case .success(let time?) = Self.instant(text, field) else { preconditionFailure("a future time is a time") }
            return Problem(field, CivilTime.iso8601(time), "is in the future (after \(CivilTime.iso8601(now)) + 1 day)")
        }
    }

    /// Why a reader's own quantity (``quantity(_:within:required:positive:)``) is refused:
    /// the value as shown and the reason, worded here as the fields' are.
    package struct QuantityRefusal: Error, Hashable {
        package var shown: String?
        package var reason: String
    }

    /// A number a reader has beyond the row's fields (a nodal plane's strike, a tensor
    /// component, an NDK record's hypocentre), read by ``DecimalParser`` as every field is:
    /// its value, `nil` when blank (or a refusal when `required`), or why it is refused.
    package static func quantity(_ text: String?, within range: ClosedRange<Double>? = nil, required: Bool = false,
                                 positive: Bool = false) -> Result<Double?, QuantityRefusal> {
        let written = (text ?? "").trimmingBlanks()
        let parsed = Array(written.utf8).withUnsafeBytes { DecimalParser.parse($0) }
        switch parsed {
        case .empty:
            return required ? .failure(QuantityRefusal(shown: nil, reason: "is empty")) : .success(nil)
        case .notANumber:
            return .failure(QuantityRefusal(shown: written, reason: "is not a number"))
        case .notFinite:
            return .failure(QuantityRefusal(shown: written, reason: "is not a finite number"))
        case .value(let value):
            if let range, !range.contains(value) {
                return .failure(QuantityRefusal(shown: written,
                                                reason: "is outside \(numberText(range.lowerBound))…\(numberText(range.upperBound))"))
            }
            if positive, !(value > 0) { return .failure(QuantityRefusal(shown: written, reason: "is not positive")) }
            return .success(value)
        }
    }

    /// A field's content as shown in a message.
    private static func written(_ text: Text, trimmed: Bool = false) -> String {
        switch text {
        case .absent: ""
        case .bytes(let bytes): String(decoding: trimmed ? self.trimmed(bytes) : bytes, as: UTF8.self)
        case .number(let value): numberText(value)
        case let .dateAndTime(date, clock): String(decoding: date, as: UTF8.self) + " " + String(decoding: clock, as: UTF8.self)
        }
    }

    // MARK: - Text

    /// A descriptive text (an id, a place, a type, a network…) as every
    /// reader keeps it: blanks around it trimmed, byte order marks dropped
    /// (files glued together; JSON readers drop them too), `nil` when nothing is left.
    package static func text(_ value: String?) -> String? {
        guard let value else { return nil }
        let trimmed = value.utf8.contains(0xEF) ? value.withoutByteOrderMarks.trimmingBlanks() : value.trimmingBlanks()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// An event's id: its own, else the network's code followed by the event's code, else none (`""`).
    package static func identifier(id: String?, network: String?, code: String?) -> String {
        if let id { return id }
        if let code { return (network ?? "") + code }
        return ""
    }

    // MARK: - Evidence

    /// A JSON number as shown in a message: an integer as an integer
    /// (`91`, not `91.0`, as a CSV field would be written), else the shortest text that reads back.
    package static func numberText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func isBlank(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.allSatisfy { $0 == ASCII.space || $0 == ASCII.tab }
    }

    fileprivate static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == ASCII.space || bytes[start] == ASCII.tab { start += 1 }
        while end > start, bytes[end - 1] == ASCII.space || bytes[end - 1] == ASCII.tab { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }
}

// In this file, as every reason is: a reader that worded one again could word or judge it differently.

/// How every reader turns a detail field's text or JSON number into its value
/// (``EventField/Kind``), judged and worded by ``RowValidator/quantity(_:within:required:positive:)``'s
/// rules, so that one bad value gets one verdict whatever the format.
package enum FieldText {
    /// The value of `field` written as `bytes`; `nil` when blank.
    package static func value(_ field: EventField, bytes: UnsafeRawBufferPointer) -> Result<EventValue?, RowValidator.QuantityRefusal> {
        switch field.kind {
        case .text:
            let trimmed = RowValidator.trimmed(bytes)
            guard !trimmed.isEmpty else { return .success(nil) }
            return .success(RowValidator.text(String(decoding: trimmed, as: UTF8.self)).map(EventValue.text))
        case .number, .integer:
            switch DecimalParser.parse(bytes) {
            case .empty: return .success(nil)
            case .value(let parsed): return number(field, parsed, shown: { String(decoding: bytes, as: UTF8.self) })
            case .notANumber:
                return .failure(.init(shown: String(decoding: bytes, as: UTF8.self).trimmingBlanks(), reason: "is not a number"))
            case .notFinite:
                return .failure(.init(shown: String(decoding: bytes, as: UTF8.self).trimmingBlanks(), reason: "is not a finite number"))
            }
        case .time:
            let trimmed = RowValidator.trimmed(bytes)
            guard !trimmed.isEmpty else { return .success(nil) }
            guard let date = TimeParser.parse(trimmed) else {
                return .failure(.init(shown: String(decoding: trimmed, as: UTF8.self),
                                      reason: "is not a time (expected ISO 8601, e.g. 2020-06-11T15:27:04.123Z)"))
            }
            return .success(.time(date))
        }
    }

    /// The value of `field` written as `text`; `nil` when blank.
    package static func value(_ field: EventField, text: String) -> Result<EventValue?, RowValidator.QuantityRefusal> {
        var text = text
        return text.withUTF8 { value(field, bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The value of `field` given as a number (a JSON number, milliseconds for a time).
    package static func value(_ field: EventField, number: Double) -> Result<EventValue?, RowValidator.QuantityRefusal> {
        guard number.isFinite else { return .failure(.init(shown: "\(number)", reason: "is not a finite number")) }
        switch field.kind {
        case .text: return .success(.text(RowValidator.numberText(number)))
        case .time: return .success(.time(Date(timeIntervalSince1970: number / 1000)))
        case .number, .integer: return self.number(field, number, shown: { RowValidator.numberText(number) })
        }
    }

    private static func number(_ field: EventField, _ number: Double,
                               shown: () -> String) -> Result<EventValue?, RowValidator.QuantityRefusal> {
        guard field.kind == .integer else { return .success(.number(number)) }
        guard number.rounded() == number, abs(number) < 9e15 else {
            return .failure(.init(shown: shown().trimmingBlanks(), reason: "is not a whole number"))
        }
        return .success(.integer(Int64(number)))
    }
}
