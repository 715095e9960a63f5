import Foundation
import QuakeModel

/// Reads the values an event takes straight from a feature's bytes, checking the whole
/// feature against JSON's grammar on the way, without building a JSON value: the dozen core
/// ones, `properties.depth` (OGC items' layout) and, when asked, every detail field's
/// property (``EventField/detailFields``), each kept as where it lies until the decoder needs it.
///
/// `JSONSerialization` made every feature a tree of `Any` (numbers as `NSNumber`, every
/// string of the two dozen properties a `String`) that the feature checks then cast back:
/// four fifths of reading a feed. This reader makes only the strings an event keeps.
///
/// It reads only what it can read exactly as ``GeoJSONFeedDecoder``'s plain path would, and
/// answers ``Outcome/unsupported`` for anything else: a feature that is not valid JSON (so that
/// the plain path words the error), `products` (a detail document's mechanisms), a needed
/// property read that is neither a string, a number nor `null` (but a core text one, which both
/// skip), a key read given twice, an escaped key, a lone surrogate, a number that is not finite
/// or has more digits than a double keeps.
struct GeoJSONFeatureReader {
    /// What reading a feature from `start` gave.
    enum Outcome {
        /// The feature's values, and the index just past its closing brace.
        case feature(Feature, end: Int)
        /// The bytes end before the feature does.
        case incomplete
        /// Not read here: the plain path decides.
        case unsupported
    }

    /// A value as the event takes it.
    enum Scalar {
        /// Missing, or JSON `null`.
        case absent
        case number(Double)
        /// A string without escapes: its bytes, valid UTF-8, between the quotes.
        case text(Range<Int>)
        /// A string with escapes, decoded.
        case escaped(String)
    }

    /// The values of one feature.
    struct Feature {
        /// `type` is `"Feature"`.
        var isFeature = false
        var id = Scalar.absent
        /// `geometry.coordinates` is an array; its first three elements and how many there are.
        var hasCoordinates = false
        var coordinates = (Scalar.absent, Scalar.absent, Scalar.absent)
        var coordinateCount = 0
        var time = Scalar.absent, magnitude = Scalar.absent, updated = Scalar.absent
        var network = Scalar.absent, code = Scalar.absent, magnitudeType = Scalar.absent
        var place = Scalar.absent, eventType = Scalar.absent, status = Scalar.absent
        /// `properties.depth`: where OGC items keep it, their point having two coordinates.
        var depth = Scalar.absent
        /// The detail fields' properties by `EventField.rawValue` (but `code`, read always, as an id's
        /// part); empty when none was read, so that a feature without details allocates nothing.
        var details: [Scalar] = []

        /// The property of detail field `field`.
        func detail(_ field: EventField) -> Scalar {
            if field == .code { return code }
            return details.isEmpty ? .absent : details[Int(field.rawValue)]
        }
    }

    private enum Stop: Error {
        case incomplete, unsupported
    }

    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var position: Int
    /// Whether detail fields are read (else skipped as unknown properties).
    private let readsDetails: Bool
    /// Deeper than this, a skipped value goes to the plain path.
    private static let deepest = 64

    private init(_ base: UnsafePointer<UInt8>, start: Int, end: Int, readsDetails: Bool) {
        self.base = base
        self.end = end
        self.readsDetails = readsDetails
        position = start
    }

    /// Reads the feature that opens at `start` (its `{`) in `bytes`; with `readsDetails` false the
    /// detail fields' properties are skipped as unknown ones (a map reads none of them).
    static func read(_ bytes: UnsafeRawBufferPointer, from start: Int, readsDetails: Bool = true) -> Outcome {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return .incomplete }
        var reader = GeoJSONFeatureReader(base, start: start, end: bytes.count, readsDetails: readsDetails)
        do {
            let feature = try reader.feature()
            return .feature(feature, end: reader.position)
        } catch .incomplete {
            return .incomplete
        } catch {
            return .unsupported
        }
    }

    /// The string of a ``Scalar`` read from the same bytes, `nil` for a number or nothing.
    static func string(_ scalar: Scalar, in bytes: UnsafeRawBufferPointer) -> String? {
        switch scalar {
        case .text(let range): String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        case .escaped(let text): text
        case .absent, .number: nil
        }
    }

    // MARK: - The three objects read

    private mutating func feature() throws(Stop) -> Feature {
        var feature = Feature()
        var seen: UInt8 = 0
        try members { (reader: inout Self, key: Range<Int>) throws(Stop) in
            switch reader.name(key, among: Self.featureKeys) {
            case 0:
                try reader.once(0, &seen)
                switch try reader.scalar(textOnly: true) {
                case .text(let range): feature.isFeature = reader.equals(range, "Feature")
                case .escaped(let text): feature.isFeature = text == "Feature"
                case .absent, .number: break
                }
            case 1:
                try reader.once(1, &seen)
                feature.id = try reader.scalar(textOnly: true)
            case 2:
                try reader.once(2, &seen)
                if try reader.peek() == UInt8(ascii: "{") { try reader.properties(into: &feature) } else { try reader.skipValue() }
            case 3:
                try reader.once(3, &seen)
                if try reader.peek() == UInt8(ascii: "{") { try reader.geometry(into: &feature) } else { try reader.skipValue() }
            default:
                try reader.skipValue()
            }
        }
        return feature
    }

    private mutating func properties(into feature: inout Feature) throws(Stop) {
        var seen: UInt64 = 0
        let keys = Self.propertyKeys
        try members { (reader: inout Self, key: Range<Int>) throws(Stop) in
            let which = keys.index(of: reader.base + key.lowerBound, count: key.count)
            guard which >= 0, which < PropertyKeys.firstDetail || reader.readsDetails else { return try reader.skipValue() }
            guard seen & (1 << which) == 0 else { throw .unsupported }
            seen |= 1 << which
            switch which {
            case 0: feature.time = try reader.scalar(textOnly: false)
            case 1: feature.magnitude = try reader.scalar(textOnly: false)
            case 2: feature.updated = try reader.scalar(textOnly: false)
            case 3: feature.network = try reader.scalar(textOnly: true)
            case 4: feature.code = try reader.scalar(textOnly: false)
            case 5: feature.magnitudeType = try reader.scalar(textOnly: true)
            case 6: feature.place = try reader.scalar(textOnly: true)
            case 7: feature.eventType = try reader.scalar(textOnly: true)
            case 8: feature.status = try reader.scalar(textOnly: true)
            case 9: feature.depth = try reader.scalar(textOnly: false)
            case 10:
                // A detail document's products are the plain path's; `null` or a non-object is no mechanism there.
                if try reader.peek() == UInt8(ascii: "{") { throw .unsupported }
                try reader.skipValue()
            default:
                // A detail's number is its value and a text's is its text: both read, as the plain path reads them.
                if feature.details.isEmpty { feature.details = Array(repeating: .absent, count: PropertyKeys.fieldCount) }
                feature.details[Int(keys.fields[which].rawValue)] = try reader.scalar(textOnly: false)
            }
        }
    }

    private mutating func geometry(into feature: inout Feature) throws(Stop) {
        var seen: UInt8 = 0
        try members { (reader: inout Self, key: Range<Int>) throws(Stop) in
            guard reader.equals(key, "coordinates") else { return try reader.skipValue() }
            try reader.once(0, &seen)
            guard try reader.peek() == UInt8(ascii: "[") else { return try reader.skipValue() }
            feature.hasCoordinates = true
            reader.position += 1
            if try reader.peek() == UInt8(ascii: "]") { reader.position += 1; return }
            while true {
                let value = try reader.scalar(textOnly: false)
                switch feature.coordinateCount {
                case 0: feature.coordinates.0 = value
                case 1: feature.coordinates.1 = value
                case 2: feature.coordinates.2 = value
                default: break
                }
                feature.coordinateCount += 1
                let next = try reader.peek()
                reader.position += 1
                if next == UInt8(ascii: "]") { return }
                guard next == UInt8(ascii: ",") else { throw .unsupported }
            }
        }
    }

    // MARK: - JSON

    /// Calls `body` for each member of the object at the current position, positioned at its
    /// value, which `body` must read; leaves the position past the closing brace.
    private mutating func members(_ body: (inout Self, Range<Int>) throws(Stop) -> Void) throws(Stop) {
        guard try peek() == UInt8(ascii: "{") else { throw .unsupported }
        position += 1
        if try peek() == UInt8(ascii: "}") { position += 1; return }
        while true {
            guard try peek() == UInt8(ascii: "\"") else { throw .unsupported }
            guard case .text(let key) = try string() else { throw .unsupported }
            guard try peek() == UInt8(ascii: ":") else { throw .unsupported }
            position += 1
            try body(&self, key)
            let next = try peek()
            position += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw .unsupported }
        }
    }

    /// A needed value: a number, a string or `null`. With `textOnly`, anything but a string or
    /// `null` is skipped and absent (the plain path's `as? String`); otherwise it is not read here.
    private mutating func scalar(textOnly: Bool) throws(Stop) -> Scalar {
        switch try peek() {
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "n"):
            try literal("null")
            return .absent
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let value = try number(needed: !textOnly)
            return textOnly ? .absent : .number(value)
        default:
            guard textOnly else { throw .unsupported }
            try skipValue()
            return .absent
        }
    }

    private mutating func skipValue(depth: Int = 0) throws(Stop) {
        guard depth < Self.deepest else { throw .unsupported }
        switch try peek() {
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "{"):
            try members { (reader: inout Self, _: Range<Int>) throws(Stop) in try reader.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            position += 1
            if try peek() == UInt8(ascii: "]") { position += 1; return }
            while true {
                try skipValue(depth: depth + 1)
                let next = try peek()
                position += 1
                if next == UInt8(ascii: "]") { return }
                guard next == UInt8(ascii: ",") else { throw .unsupported }
            }
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number(needed: false)
        default: throw .unsupported
        }
    }

    /// The next byte that is not JSON white space, not consumed.
    private mutating func peek() throws(Stop) -> UInt8 {
        while position < end {
            let byte = base[position]
            guard byte == ASCII.space || byte == ASCII.lf || byte == ASCII.cr || byte == ASCII.tab else { return byte }
            position += 1
        }
        throw .incomplete
    }

    private mutating func literal(_ word: StaticString) throws(Stop) {
        let count = word.utf8CodeUnitCount
        for offset in 0..<count {
            guard position + offset < end else { throw .incomplete }
            guard base[position + offset] == word.utf8Start[offset] else { throw .unsupported }
        }
        position += count
    }

    /// A number by JSON's grammar (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`), as a double.
    /// A skipped number (`needed` false) is only checked: without an exponent, one of at most 17
    /// digits is always a finite double, so it is converted only when it has one.
    private mutating func number(needed: Bool) throws(Stop) -> Double {
        let start = position
        if base[position] == UInt8(ascii: "-") { position += 1 }
        let integerDigits = try digits()
        guard integerDigits > 0, integerDigits == 1 || base[position - integerDigits] != UInt8(ascii: "0") else { throw .unsupported }
        var allDigits = integerDigits, hasExponent = false
        guard position < end else { throw .incomplete }
        if base[position] == UInt8(ascii: ".") {
            position += 1
            let fraction = try digits()
            guard fraction > 0 else { throw .unsupported }
            allDigits += fraction
        }
        guard position < end else { throw .incomplete }
        if base[position] == UInt8(ascii: "e") || base[position] == UInt8(ascii: "E") {
            position += 1
            guard position < end else { throw .incomplete }
            if base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-") { position += 1 }
            guard try digits() > 0 else { throw .unsupported }
            hasExponent = true
        }
        // Where a double and Foundation's reading could differ: more significant digits than a
        // double keeps (zeros before the first non-zero digit do not count: `0.07613032898219552`,
        // the shortest text of its double, which Foundation's reader rounds one ulp off, is read
        // here, exactly), and the sign of an integer zero (Foundation's is an integer 0).
        var leadingZeros = 0
        for byte in UnsafeRawBufferPointer(start: base + start, count: position - start) {
            if byte == UInt8(ascii: "0") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") {
                if byte == UInt8(ascii: "0") { leadingZeros += 1 }
            } else {
                break
            }
        }
        guard allDigits - leadingZeros <= 17, !(integerDigits == allDigits && base[start] == UInt8(ascii: "-")
                                 && base[position - 1] == UInt8(ascii: "0") && position - start == 2)
        else { throw .unsupported }
        guard needed || hasExponent else { return 0 }
        guard case .value(let value) = DecimalParser.parse(UnsafeRawBufferPointer(start: base + start, count: position - start))
        else { throw .unsupported }
        return value
    }

    /// Reads decimal digits; how many. The bytes must go on after them.
    private mutating func digits() throws(Stop) -> Int {
        let start = position
        while position < end, base[position] &- UInt8(ascii: "0") < 10 { position += 1 }
        guard position < end else { throw .incomplete }
        return position - start
    }

    /// The string at the current position (its opening quote).
    private mutating func string() throws(Stop) -> Scalar {
        position += 1
        let start = position
        var ascii = true
        while position < end {
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                let range = start..<position
                position += 1
                guard ascii || Self.isValidUTF8(base + range.lowerBound, count: range.count) else { throw .unsupported }
                return .text(range)
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw .unsupported }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        throw .incomplete
    }

    /// A string with escapes, from its first byte at `start`; the position is somewhere inside it.
    private mutating func escapedString(from start: Int) throws(Stop) -> Scalar {
        var bytes: [UInt8] = []
        position = start
        while position < end {
            let byte = base[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: bytes, as: UTF8.self) else { throw .unsupported }
                return .escaped(text)
            case UInt8(ascii: "\\"):
                guard position < end else { throw .incomplete }
                let escape = base[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escape)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(ASCII.lf)
                case UInt8(ascii: "r"): bytes.append(ASCII.cr)
                case UInt8(ascii: "t"): bytes.append(ASCII.tab)
                case UInt8(ascii: "u"):
                    var scalar = try hexQuad()
                    if 0xD800..<0xDC00 ~= scalar {
                        // A high surrogate must be followed by an escaped low one.
                        guard position + 1 < end else { throw .incomplete }
                        guard base[position] == UInt8(ascii: "\\"), base[position + 1] == UInt8(ascii: "u") else { throw .unsupported }
                        position += 2
                        let low = try hexQuad()
                        guard 0xDC00..<0xE000 ~= low else { throw .unsupported }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if 0xDC00..<0xE000 ~= scalar {
                        throw .unsupported
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw .unsupported }
                    bytes.append(contentsOf: String(Character(unicode)).utf8)
                default: throw .unsupported
                }
            default:
                guard byte >= 0x20 else { throw .unsupported }
                bytes.append(byte)
            }
        }
        throw .incomplete
    }

    private mutating func hexQuad() throws(Stop) -> UInt32 {
        guard position + 4 <= end else { throw .incomplete }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = base[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .unsupported
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    // MARK: - Keys

    private static let featureKeys: [StaticString] = ["type", "id", "properties", "geometry"]
    private static let propertyKeys = PropertyKeys()

    /// The properties read, found by a hash of a key's length and three of its bytes: a USGS
    /// feature's two dozen keys, each looked for among four dozen names, would otherwise take
    /// a good part of reading it. The names lie in one array, a row each, so that finding one
    /// touches no other object.
    final class PropertyKeys: Sendable {
        /// The core properties (`code`, a detail, read always as an id's part), then the details.
        static let core = ["time", "mag", "updated", "net", "code", "magType", "place", "type", "status", "depth", "products"]
        /// The first detail field's number.
        static let firstDetail = core.count
        /// How many fields there are (the length of ``Feature/details``).
        static let fieldCount = EventField.count
        private static let width = 4, slotCount = 128, row = 32

        /// Each property's field (`.time` for the core ones, which have their own members).
        let fields: [EventField]
        /// Each property's name, in a row of ``row`` bytes, and its length.
        private let names: [UInt8], lengths: [Int]
        /// `width` property numbers per slot; `-1` after the last.
        private let slots: [Int8]

        init() {
            let details = EventField.detailFields.filter { $0 != .code }
            let names = (Self.core + details.map { $0.spec.geoJSONProperty ?? $0.spec.name }).map { Array($0.utf8) }
            precondition(names.count <= 64, "one bit each in a UInt64")
            fields = Array(repeating: .time, count: Self.firstDetail) + details
            lengths = names.map(\.count)
            self.names = names.flatMap { name in
                precondition(!name.isEmpty && name.count <= Self.row, "a property name fits its row")
                return name + Array(repeating: 0, count: Self.row - name.count)
            }
            var slots = [Int8](repeating: -1, count: Self.slotCount * Self.width)
            for (number, name) in names.enumerated() {
                let slot = name.withUnsafeBufferPointer { Self.slot($0.baseAddress!, count: $0.count) }
                guard let free = (0..<Self.width).first(where: { slots[slot * Self.width + $0] < 0 })
                else { preconditionFailure("more than \(Self.width) property names share a slot: change the hash") }
                slots[slot * Self.width + free] = Int8(number)
            }
            self.slots = slots
        }

        /// The number of the property named by the `count` bytes at `key`, or -1.
        func index(of key: UnsafePointer<UInt8>, count: Int) -> Int {
            guard count > 0, count <= Self.row else { return -1 }
            let first = Self.slot(key, count: count) * Self.width
            return names.withUnsafeBufferPointer { names in
                for candidate in first..<first + Self.width {
                    let number = Int(slots[candidate])
                    guard number >= 0 else { return -1 }
                    if lengths[number] == count, memcmp(names.baseAddress! + number * Self.row, key, count) == 0 { return number }
                }
                return -1
            }
        }

        private static func slot(_ key: UnsafePointer<UInt8>, count: Int) -> Int {
            (count &* 37 &+ Int(key[0]) &* 11 &+ Int(key[count >> 1]) &* 5 &+ Int(key[count - 1])) & (slotCount - 1)
        }
    }

    /// Whether the key or string at `range` is `word`.
    private func equals(_ range: Range<Int>, _ word: StaticString) -> Bool {
        range.count == word.utf8CodeUnitCount && memcmp(base + range.lowerBound, word.utf8Start, range.count) == 0
    }

    /// The index of the key at `range` in `names`, or -1.
    private func name(_ range: Range<Int>, among names: [StaticString]) -> Int {
        for (index, name) in names.enumerated() where equals(range, name) { return index }
        return -1
    }

    /// Marks key `bit` seen; a key given twice is the plain path's to resolve.
    private func once(_ bit: UInt8, _ seen: inout UInt8) throws(Stop) {
        guard seen & (1 << bit) == 0 else { throw .unsupported }
        seen |= 1 << bit
    }

    /// Whether `count` bytes are well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF).
    private static func isValidUTF8(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        String(validating: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) != nil
    }
}
