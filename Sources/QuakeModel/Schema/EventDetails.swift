import Foundation

/// The fields of an event beyond its stored properties (``EventField/detailFields``): `gap`,
/// `rms`, `alert`, `felt` and the rest, each present only when the feed gave it.
///
/// Kept as one compact byte string (the field's number, then a text's length and bytes, a
/// number as a short decimal or its eight bytes, a whole number's variable-length bytes), in
/// field order, so that an event of a USGS CSV row costs a few dozen bytes more, one without
/// details nothing (an empty array allocates nothing), and two events with the same values
/// compare equal.
///
/// A number that is a decimal of at most 15 significant digits and 6 decimals (`1.40587`,
/// `169`: what feeds write) is kept as that decimal (``ShortDecimal``): fewer bytes, and a writer
/// copies its digits rather than searching for the shortest text of a `Double`. Whichever way a
/// value arrives (text or `Double`), it is kept the same way, so equality stays byte equality.
package struct EventDetails: Sendable, Hashable {
    private var bytes: [UInt8] = []

    /// No details.
    package init() {}

    /// Whether no detail is set.
    package var isEmpty: Bool { bytes.isEmpty }

    /// The bytes the details take (for memory budgets).
    package var byteCount: Int { bytes.count }

    /// The value of `field`, `nil` when absent (or when `field` is a core field, which is never kept here).
    ///
    /// Setting a core field, or a value of another kind than the field's (``EventField/kind``;
    /// a whole number for a number field is fine), is a programmer's error and traps, as an
    /// index out of range does.
    package subscript(field: EventField) -> EventValue? {
        get {
            var index = 0
            while index < bytes.count {
                let candidate = Self.field(bytes[index])
                if candidate == field { return value(at: &index) }
                if candidate > field { return nil }
                skip(&index)
            }
            return nil
        }
        set {
            precondition(!field.isCore, "\(field) is a stored property of SeismicEvent")
            // Readers set fields in schema order: appending is the common case.
            if lastField.map({ $0 < field }) ?? true {
                if let newValue { Self.append(field, newValue, to: &bytes) }
                return
            }
            var entries = self.entries.filter { $0.field != field }
            if let newValue { entries.append((field, newValue)) }
            entries.sort { $0.field < $1.field }
            bytes.removeAll(keepingCapacity: true)
            for (field, value) in entries { Self.append(field, value, to: &bytes) }
        }
    }

    /// Removes every detail, keeping the storage's room (for a buffer that builds one event's after another's).
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// These details in storage of their own exact size.
    package func compacted() -> EventDetails {
        var copy = EventDetails()
        // From the raw bytes: `Array(bytes)` would share the buffer, spare room and all.
        if !bytes.isEmpty { copy.bytes = bytes.withUnsafeBufferPointer { Array($0) } }
        return copy
    }

    /// Appends `value` of `field`, which must come after every field already set (readers go
    /// through a layout's columns in schema order): no search for where it goes.
    package mutating func append(_ field: EventField, _ value: EventValue) {
        assert(lastField.map { $0 < field } ?? true, "details are appended in schema order")
        Self.append(field, value, to: &bytes)
    }

    /// Appends text `field` from its UTF-8 bytes, as ``append(_:_:)`` does: no `String` is made.
    package mutating func appendText(_ field: EventField, _ text: UnsafeRawBufferPointer) {
        assert(field.kind == .text && (lastField.map { $0 < field } ?? true), "text details are appended in schema order")
        bytes.append(field.rawValue)
        Self.appendVarint(UInt64(text.count), to: &bytes)
        bytes.append(contentsOf: text)
    }

    /// Appends number `field` from a decimal read from text (`mantissa`·10^−`scale`), as
    /// ``append(_:_:)`` would append its value: no `Double` is made when the decimal is short.
    package mutating func appendDecimal(_ field: EventField, mantissa: Int64, scale: Int) {
        assert(field.kind == .number && (lastField.map { $0 < field } ?? true), "numbers are appended in schema order")
        guard let decimal = ShortDecimal(mantissa: mantissa, scale: scale) else {
            return append(field, .number(ShortDecimal.value(mantissa: mantissa, scale: scale)))
        }
        bytes.append(field.rawValue)
        Self.appendVarint(decimal.word, to: &bytes)
    }

    /// Reads the details in schema order, for writers that go through fields in that order:
    /// each entry is decoded once, however many fields are asked.
    package struct Cursor {
        private let details: EventDetails
        private var index = 0

        package init(_ details: EventDetails) { self.details = details }

        /// The value of `field`, which must not come before a field asked earlier; `nil` when absent.
        package mutating func value(of field: EventField) -> EventValue? {
            stored(of: field).map(details.value(of:))
        }

        /// A value as it is kept, for writers that copy it out without making an ``EventValue``
        /// (text stays bytes in the details; read it with ``withText(_:_:)``).
        package enum Stored {
            case text(Range<Int>)
            /// A number kept as a decimal: its value is ``ShortDecimal/value``.
            case decimal(ShortDecimal)
            case number(Double)
            case integer(Int64)
            /// Seconds since 1970.
            case time(Double)
        }

        /// ``value(of:)``'s value as it is kept.
        package mutating func stored(of field: EventField) -> Stored? {
            while index < details.bytes.count {
                let candidate = EventDetails.field(details.bytes[index])
                if candidate == field { return details.stored(at: &index) }
                if candidate > field { return nil }
                details.skip(&index)
            }
            return nil
        }

        /// Calls `body` with the UTF-8 bytes of a text ``Stored/text(_:)`` names.
        package func withText<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try details.withText(range, body)
        }
    }

    /// Calls `body` with the UTF-8 bytes of a text ``Cursor/Stored/text(_:)`` of these details names.
    package func withText<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// Every detail as it is kept, at its field's number (`table[Int(field.rawValue)]`), in one
    /// pass: for writers that go through the fields in another order than the schema's (a JSON
    /// object's keys sort by name), where a lookup each would decode the entries before it again.
    /// `table` holds a slot for every field; slots of absent fields are left as they are.
    package func locate(into table: UnsafeMutableBufferPointer<Cursor.Stored?>) {
        var index = 0
        while index < bytes.count {
            let field = Self.field(bytes[index])
            table[Int(field.rawValue)] = stored(at: &index)
        }
    }

    /// The field a stored byte names (only this type writes them, so it is one).
    private static func field(_ byte: UInt8) -> EventField {
        unsafeBitCast(byte, to: EventField.self)
    }

    /// The details present, in schema order.
    package var entries: [(field: EventField, value: EventValue)] {
        var result: [(field: EventField, value: EventValue)] = []
        forEach { field, value in
            result.append((field, value))
            return true
        }
        return result
    }

    /// The last field set, found by stepping over the entries (no value is made).
    private var lastField: EventField? {
        var index = 0, last: EventField?
        while index < bytes.count {
            last = Self.field(bytes[index])
            skip(&index)
        }
        return last
    }

    /// Calls `body` with each detail in order until it returns `false`.
    private func forEach(_ body: (EventField, EventValue) -> Bool) {
        var index = 0
        while index < bytes.count {
            let field = Self.field(bytes[index])
            if !body(field, value(at: &index)) { return }
        }
    }

    /// Steps over the entry at `index` (its field's byte first).
    private func skip(_ index: inout Int) {
        let field = Self.field(bytes[index])
        index += 1
        switch field.kind {
        case .text: index += Int(Self.readVarint(bytes, &index))
        case .number: if Self.readVarint(bytes, &index) == Self.doubleTag { index += 8 }
        case .time: index += 8
        case .integer: _ = Self.readVarint(bytes, &index)
        }
    }

    /// The value of the entry at `index` (its field's byte first), stepping past it.
    private func value(at index: inout Int) -> EventValue {
        value(of: stored(at: &index))
    }

    /// A kept value as a value.
    private func value(of stored: Cursor.Stored) -> EventValue {
        switch stored {
        case .text(let range): .text(String(decoding: bytes[range], as: UTF8.self))
        case .decimal(let decimal): .number(decimal.value)
        case .number(let number): .number(number)
        case .integer(let integer): .integer(integer)
        case .time(let seconds): .time(Date(timeIntervalSince1970: seconds))
        }
    }

    /// The entry at `index` as it is kept, stepping past it.
    private func stored(at index: inout Int) -> Cursor.Stored {
        let field = Self.field(bytes[index])
        index += 1
        switch field.kind {
        case .text:
            let length = Int(Self.readVarint(bytes, &index))
            defer { index += length }
            return .text(index..<index + length)
        case .number:
            let word = Self.readVarint(bytes, &index)
            if word == Self.doubleTag { return .number(Double(bitPattern: Self.readFixed(bytes, &index))) }
            return .decimal(ShortDecimal(word: word))
        case .time:
            return .time(Double(bitPattern: Self.readFixed(bytes, &index)))
        case .integer:
            let zigzag = Self.readVarint(bytes, &index)
            return .integer(Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1))))
        }
    }

    private static func append(_ field: EventField, _ value: EventValue, to bytes: inout [UInt8]) {
        bytes.append(field.rawValue)
        switch (field.kind, value) {
        case (.text, .text(let text)):
            appendVarint(UInt64(text.utf8.count), to: &bytes)
            bytes.append(contentsOf: text.utf8)
        case (.number, .number(let number)):
            appendNumber(number, to: &bytes)
        case (.number, .integer(let integer)):
            appendNumber(Double(integer), to: &bytes)
        case (.time, .time(let date)):
            appendFixed(date.timeIntervalSince1970.bitPattern, to: &bytes)
        case (.integer, .integer(let integer)):
            appendVarint(UInt64(bitPattern: (integer << 1) ^ (integer >> 63)), to: &bytes)
        case (.integer, .number(let number)) where number.rounded() == number && abs(number) < 9e18:
            let integer = Int64(number)
            appendVarint(UInt64(bitPattern: (integer << 1) ^ (integer >> 63)), to: &bytes)
        default:
            preconditionFailure("\(value) is not a value of \(field) (\(field.kind))")
        }
    }

    /// The word that says a number's eight bytes follow: no ``ShortDecimal/word`` has its low three bits set.
    private static let doubleTag: UInt64 = 7

    /// A number as its ``ShortDecimal`` when it has one, else as the tag and its eight bytes.
    private static func appendNumber(_ number: Double, to bytes: inout [UInt8]) {
        if let decimal = ShortDecimal(number) { return appendVarint(decimal.word, to: &bytes) }
        appendVarint(doubleTag, to: &bytes)
        appendFixed(number.bitPattern, to: &bytes)
    }

    /// `value` as a base-128 varint (low seven bits first, as protocol buffers write them) at
    /// the end of `bytes`: the details' lengths and whole numbers, and vector tiles' fields.
    package static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private static func readVarint(_ bytes: [UInt8], _ index: inout Int) -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while true {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    private static func appendFixed(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func readFixed(_ bytes: [UInt8], _ index: inout Int) -> UInt64 {
        var value: UInt64 = 0
        for shift in 0..<8 { value |= UInt64(bytes[index + shift]) << (8 * UInt64(shift)) }
        index += 8
        return value
    }
}

extension EventDetails: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Encoded as an object keyed by the fields' canonical names.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (field, value) in entries {
            let key = Key(stringValue: field.spec.name)
            switch value {
            case .text(let text): try container.encode(text, forKey: key)
            case .number(let number): try container.encode(number, forKey: key)
            case .integer(let integer): try container.encode(integer, forKey: key)
            case .time(let date): try container.encode(date.timeIntervalSince1970 * 1000, forKey: key)
            }
        }
    }

    /// Decoded from an object keyed by canonical names; a core field's name or an unknown one is refused.
    package init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: Key.self)
        for key in container.allKeys {
            guard let field = EventField(name: key.stringValue), !field.isCore else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                       debugDescription: "'\(key.stringValue)' is not a detail field")
            }
            switch field.kind {
            case .text: self[field] = .text(try container.decode(String.self, forKey: key))
            case .number: self[field] = .number(try container.decode(Double.self, forKey: key))
            case .integer: self[field] = .integer(try container.decode(Int64.self, forKey: key))
            case .time: self[field] = .time(Date(timeIntervalSince1970: try container.decode(Double.self, forKey: key) / 1000))
            }
        }
    }
}
