/// Decimal numbers straight from bytes, without making a `String` per field.
enum DecimalParser {
    /// The outcome of reading one numeric field.
    enum Outcome: Equatable {
        case value(Double)
        case empty
        case notANumber
        case notFinite
    }

    /// Parses `[+-]digits[.digits][e[+-]digits]`, surrounding blanks allowed.
    ///
    /// Up to 15 digits without an exponent take Clinger's fast path, which is
    /// exactly rounded because both operands are exact doubles; anything longer
    /// goes through the standard library's correctly rounded conversion.
    /// Hex floats, `nan` and `inf` spelled out are not numbers in a feed.
    static func parse(_ bytes: ArraySlice<UInt8>) -> Outcome {
        bytes.withUnsafeBytes { parse($0) }
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return .empty }
        var start = 0, end = bytes.count
        while start < end, base[start] == ASCII.space || base[start] == ASCII.tab { start += 1 }
        while end > start, base[end - 1] == ASCII.space || base[end - 1] == ASCII.tab { end -= 1 }
        if start == end { return .empty }

        var index = start
        let negative = base[index] == UInt8(ascii: "-")
        if negative || base[index] == UInt8(ascii: "+") { index += 1 }
        // Wraps past 19 digits, but then the slow path below reads the text instead.
        var mantissa: UInt64 = 0
        let integerStart = index
        while index < end {
            let digit = base[index] &- 48
            if digit > 9 { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index += 1
        }
        var digits = index - integerStart, fractionDigits = 0
        if index < end && base[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < end {
                let digit = base[index] &- 48
                if digit > 9 { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index += 1
            }
            fractionDigits = index - fractionStart
            digits += fractionDigits
        }
        if digits == 0 { return specialValue(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }
        // At most 15 digits: the mantissa is below 2^53, exact as a Double.
        if index == end, digits <= 15 {
            let value = fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / powerOfTen(fractionDigits)
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

    /// 10^exponent for 1…15, each exact as a Double.
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        default: 1e15
        }
    }

    private static func specialValue(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        let unsigned = text.hasPrefix("-") || text.hasPrefix("+") ? String(text.dropFirst()) : text
        return ["nan", "inf", "infinity"].contains(unsigned) ? .notFinite : .notANumber
    }
}
