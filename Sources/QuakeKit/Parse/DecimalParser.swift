/// Decimal numbers straight from bytes, without making a `String` per field.
enum DecimalParser {
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The outcome of reading one numeric field.
    enum Outcome: Equatable {
        case value(Double)
        case empty
        case notANumber
        case notFinite
    }

    /// Parses `[+-]digits[.digits][e[+-]digits]`, surrounding blanks allowed.
    ///
    /// Up to 15 significant digits and a small exponent take Clinger's fast path,
    /// which is exactly rounded because both operands are exact doubles; anything
    /// longer goes through the standard library's correctly rounded conversion.
    /// Hex floats, `nan` and `inf` spelled out are not numbers in a feed.
    static func parse(_ bytes: ArraySlice<UInt8>) -> Outcome {
        bytes.withUnsafeBytes { parse($0) }
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, bytes[start] == ASCII.space || bytes[start] == ASCII.tab { start += 1 }
        while end > start, bytes[end - 1] == ASCII.space || bytes[end - 1] == ASCII.tab { end -= 1 }
        if start == end { return .empty }

        var index = start
        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0, fractionDigits = 0, significant = 0
        var seenPoint = false
        while index < end {
            let byte = bytes[index]
            if byte >= 48 && byte <= 57 {
                digits += 1
                if significant > 0 || byte != 48 { significant += 1 }
                if significant <= 19 { mantissa = mantissa &* 10 &+ UInt64(byte - 48) }
                if seenPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index += 1
        }
        if digits == 0 { return specialValue(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }
        if index == end, significant <= 15, fractionDigits <= 22 {
            var value = Double(mantissa)
            if fractionDigits > 0 { value /= powersOfTen[fractionDigits] }
            return .value(negative ? -value : value)
        }
        // Exponents, long mantissas: only the characters of a decimal number may follow.
        for byte in bytes[index..<end] {
            switch byte {
            case 48...57, UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"): continue
            default: return .notANumber
            }
        }
        guard end - start <= 400,
              let value = Double(String(decoding: bytes[start..<end], as: UTF8.self)) else {
            return .notANumber
        }
        return value.isFinite ? .value(value) : .notFinite
    }

    private static func specialValue(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        let unsigned = text.hasPrefix("-") || text.hasPrefix("+") ? String(text.dropFirst()) : text
        return ["nan", "inf", "infinity"].contains(unsigned) ? .notFinite : .notANumber
    }
}
