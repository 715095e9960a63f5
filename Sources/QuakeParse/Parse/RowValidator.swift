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
        case time
        /// The date half of a `Date` + `TimeUTC` pair; ``time`` is the other half.
        case date
        case latitude, longitude, depth, magnitude, updated
    }

    /// One field's raw content, as the reader found it. Bytes are only
    /// borrowed: the validator reads them during ``check(_:)`` and keeps none.
    package enum Text {
        /// No such column, property or element, or JSON `null`.
        case absent
        /// Text as written, e.g. a CSV field.
        case bytes(UnsafeRawBufferPointer)
        /// Text as written, held as a string (a JSON string, an element's text).
        case string(String)
        /// A JSON number, judged as its value; a time given so is epoch milliseconds.
        case number(Double)
        /// A JSON value of another kind (`true`, an array…), shown as written: never a number or a time.
        case other(String)
        /// A date and a clock time in two columns (`2010/11/02`, `06:39:55.6`).
        case dateAndTime(date: UnsafeRawBufferPointer, time: UnsafeRawBufferPointer)
    }

    /// The unit a depth is written in: QuakeML writes metres.
    package enum DepthUnit: Sendable {
        case kilometres, metres
    }

    /// A row's fields as a reader hands them over.
    package struct Fields {
        package var time: Text
        package var latitude: Text
        package var longitude: Text
        package var depth: Text
        package var magnitude: Text
        package var updated: Text
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
    }

    /// A valid row's values, depths in kilometres; optional ones `nil` when the row leaves them empty.
    package struct Checked: Equatable {
        package var time: Date
        package var latitude: Double
        package var longitude: Double
        package var depth: Double?
        package var magnitude: Double?
        package var updated: Date?
    }

    /// Why a row is refused: which field, the value as shown to the user
    /// (`nil` when there is none), and the reason, e.g. `is outside -90…90`.
    package struct Problem: Error, Hashable {
        package var field: Field
        package var shown: String?
        package var reason: String

        package init(_ field: Field, _ shown: String?, _ reason: String) {
            self.field = field
            self.shown = shown
            self.reason = reason
        }
    }

    // MARK: - A row

    /// The row's values, or the first problem, fields judged in one order for
    /// every format: time, latitude, longitude, depth, magnitude, whether the
    /// time is in the future, then `updated`.
    @inline(__always)
    package func check(_ fields: Fields) -> Result<Checked, Problem> {
        let time: Date, latitude: Double, longitude: Double, depth: Double?, magnitude: Double?, updated: Date?
        switch Self.time(fields.time) {
        case .success(let value): time = value
        case .failure(let problem): return .failure(problem)
        }
        switch Self.number(fields.latitude, .latitude, required: true, within: Self.latitudes) {
        case .success(let value): latitude = value!
        case .failure(let problem): return .failure(problem)
        }
        switch Self.number(fields.longitude, .longitude, required: true, within: Self.longitudes) {
        case .success(let value): longitude = value!
        case .failure(let problem): return .failure(problem)
        }
        switch Self.number(fields.depth, .depth, required: false, within: Self.depths, metres: fields.depthUnit == .metres) {
        case .success(let value): depth = value
        case .failure(let problem): return .failure(problem)
        }
        switch Self.number(fields.magnitude, .magnitude, required: false, within: Self.magnitudes) {
        case .success(let value): magnitude = value
        case .failure(let problem): return .failure(problem)
        }
        if let problem = futureProblem(time) { return .failure(problem) }
        switch Self.updated(fields.updated) {
        case .success(let value): updated = value
        case .failure(let problem): return .failure(problem)
        }
        return .success(Checked(time: time, latitude: latitude, longitude: longitude, depth: depth,
                                magnitude: magnitude, updated: updated))
    }

    // MARK: - Fields

    /// The event's time, required: ISO 8601 or an older USGS spelling
    /// (``TimeParser``), a date and time pair, or epoch milliseconds for a number.
    @inline(__always)
    package static func time(_ text: Text) -> Result<Date, Problem> {
        switch instant(text, .time) {
        case .success(let value?): return .success(value)
        case .success(nil): return .failure(Problem(.time, nil, "is empty"))
        case .failure(let problem): return .failure(problem)
        }
    }

    /// When the event was last revised: as ``time(_:)``, but empty is no revision.
    @inline(__always)
    package static func updated(_ text: Text) -> Result<Date?, Problem> {
        instant(text, .updated)
    }

    /// Why `time` is refused as after ``now`` (with ``futureGrace``), or `nil`.
    @inline(__always)
    package func futureProblem(_ time: Date) -> Problem? {
        guard time.timeIntervalSince(now) > Self.futureGrace else { return nil }
        return Problem(.time, CivilTime.iso8601(time), "is in the future (after \(CivilTime.iso8601(now)) + 1 day)")
    }

    /// A time field: its instant, `nil` when empty.
    @inline(__always)
    private static func instant(_ text: Text, _ field: Field) -> Result<Date?, Problem> {
        switch text {
        case .bytes(let bytes):
            // Parsed first: a time is far more common than a blank.
            if let value = TimeParser.parse(bytes) { return .success(value) }
            if isBlank(bytes) { return .success(nil) }
            return .failure(Problem(field, String(decoding: bytes, as: UTF8.self), notATime))
        case .absent:
            return .success(nil)
        case .string(var string):
            return string.withUTF8 { instant(.bytes(UnsafeRawBufferPointer($0)), field) }
        case .number(let milliseconds):
            guard milliseconds.isFinite else { return .failure(Problem(field, numberText(milliseconds), notEpochMilliseconds)) }
            // The years 0001…9999, as ISO 8601 writes them; anything else is garbage, not a date.
            guard representableMilliseconds.contains(milliseconds) else {
                return .failure(Problem(field, numberText(milliseconds), "is outside the years 0001…9999"))
            }
            return .success(Date(timeIntervalSince1970: milliseconds / 1000))
        case .other(let shown):
            return .failure(Problem(field, shown, notEpochMilliseconds))
        case let .dateAndTime(date, clock):
            if let value = TimeParser.parse(date: date, time: clock) { return .success(value) }
            if isBlank(date) { return .failure(Problem(.date, nil, "is empty")) }
            if isBlank(clock) { return .failure(Problem(field, nil, "is empty")) }
            let shown = String(decoding: date, as: UTF8.self) + " " + String(decoding: clock, as: UTF8.self)
            return .failure(Problem(field, shown, "is not a date and time (expected 2010/11/02 06:39:55.6)"))
        }
    }

    private static let notATime = "is not a time (expected ISO 8601, e.g. 2020-06-11T15:27:04.123Z)"
    private static let notEpochMilliseconds = "is not a time in epoch milliseconds"

    /// A number field within `range`: its value, `nil` when empty and not
    /// `required`. Text is read by ``DecimalParser``; a depth in `metres` is
    /// turned into kilometres exactly before its range is checked.
    @inline(__always)
    private static func number(_ text: Text, _ field: Field, required: Bool, within range: ClosedRange<Double>,
                               metres: Bool = false) -> Result<Double?, Problem> {
        switch text {
        case .bytes(let bytes):
            let parsed = DecimalParser.parse(bytes)
            switch parsed {
            case .value(let written):
                let value = metres ? kilometres(fromMetres: bytes, written) : written
                if range.contains(value) { return .success(value) }
                // Text in metres is shown with its unit: the range is in kilometres.
                let shown = String(decoding: trimmed(bytes), as: UTF8.self) + (metres ? " m" : "")
                return .failure(Problem(field, shown, outside(range, field)))
            case .empty:
                return required ? .failure(Problem(field, nil, "is empty")) : .success(nil)
            case .notANumber:
                return .failure(Problem(field, String(decoding: bytes, as: UTF8.self), "is not a number"))
            case .notFinite:
                return .failure(Problem(field, String(decoding: bytes, as: UTF8.self), "is not a finite number"))
            }
        case .absent:
            return required ? .failure(Problem(field, nil, "is empty")) : .success(nil)
        case .string(var string):
            return string.withUTF8 {
                number(.bytes(UnsafeRawBufferPointer($0)), field, required: required, within: range, metres: metres)
            }
        case .number(let value):
            guard value.isFinite else { return .failure(Problem(field, numberText(value), "is not a finite number")) }
            guard range.contains(value) else { return .failure(Problem(field, numberText(value), outside(range, field))) }
            return .success(value)
        case .other(let shown):
            return .failure(Problem(field, shown, "is not a number"))
        case .dateAndTime(let date, let clock):
            let shown = String(decoding: date, as: UTF8.self) + " " + String(decoding: clock, as: UTF8.self)
            return .failure(Problem(field, shown, "is not a number"))
        }
    }

    /// `is outside -90…90`, from the range itself, with the unit where the field has one.
    private static func outside(_ range: ClosedRange<Double>, _ field: Field) -> String {
        "is outside \(numberText(range.lowerBound))…\(numberText(range.upperBound))" + (field == .depth ? " km" : "")
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

    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == ASCII.space || bytes[start] == ASCII.tab { start += 1 }
        while end > start, bytes[end - 1] == ASCII.space || bytes[end - 1] == ASCII.tab { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }
}
