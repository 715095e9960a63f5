/// Decimal numbers straight from bytes, without making a `String` per field.

package enum DecimalParser {
    /// The outcome of reading one numeric field.
    package enum Outcome: Equatable {
        case value(Double)
        case empty
        case notANumber
        case notFinite
    }

    /// Parses `[+-]digits[.digits][e[+-]digits]`, surrounding blanks allowed.
    ///
    /// Up to 15 significant digits, at most 22 after the point and no exponent
    /// take Clinger's fast path, which is exactly rounded because both operands
    /// are exact doubles; anything else goes through the standard library's
    /// correctly rounded conversion.
    /// Hex floats, `nan` and `inf` spelled out are not numbers in a feed.
    package static func parse(_ bytes: ArraySlice<UInt8>) -> Outcome {
        bytes.withUnsafeBytes { parse($0) }
    }

    package static func parse(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return .empty }
        var start = 0, end = bytes.count
        while start < end, base[start] == ASCII.space || base[start] == ASCII.tab { start += 1 }
        while end > start, base[end - 1] == ASCII.space || base[end - 1] == ASCII.tab { end -= 1 }
        if start == end { return .empty }

        var index = start
        let negative = base[index] == UInt8(ascii: "-")
        if negative || base[index] == UInt8(ascii: "+") { index += 1 }
        // Wraps past 19 significant digits, but then the slow path below reads the text instead.
        var mantissa: UInt64 = 0
        let digitsStart = index
        var digits = readDigits(base, &index, end, into: &mantissa), fractionDigits = 0
        if index < end && base[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = readDigits(base, &index, end, into: &mantissa)
            digits += fractionDigits
        }
        if digits == 0 { return specialValue(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }
        // At most 15 significant digits: the mantissa is below 2^53, exact as a Double.
        if index == end, fractionDigits <= 22,
           digits <= 15 || significantDigits(base, digitsStart..<index) <= 15 {
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

    /// The digits of a plain decimal (`[+-]digits[.digits]`, blanks around it allowed, at most 15
    /// digits in all, no exponent) as `mantissa`·10^−`scale`: what ``EventDetails`` keeps of a
    /// number without making a `Double`. `nil` for anything else (`-0` too, whose sign only a
    /// `Double` keeps): ``parse(_:)-(UnsafeRawBufferPointer)`` then reads it, or refuses it.
    package static func decimal(_ bytes: UnsafeRawBufferPointer) -> (mantissa: Int64, scale: Int)? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var start = 0, end = bytes.count
        while start < end, base[start] == ASCII.space || base[start] == ASCII.tab { start += 1 }
        while end > start, base[end - 1] == ASCII.space || base[end - 1] == ASCII.tab { end -= 1 }
        var index = start
        guard index < end else { return nil }
        let negative = base[index] == UInt8(ascii: "-")
        if negative || base[index] == UInt8(ascii: "+") { index += 1 }
        var mantissa: UInt64 = 0
        var digits = readDigits(base, &index, end, into: &mantissa), scale = 0
        if index < end && base[index] == UInt8(ascii: ".") {
            index += 1
            scale = readDigits(base, &index, end, into: &mantissa)
            digits += scale
        }
        guard index == end, digits > 0, digits <= 15, !(negative && mantissa == 0) else { return nil }
        return (negative ? -Int64(mantissa) : Int64(mantissa), scale)
    }

    /// Reads the run of digits at `index` into `mantissa`; how many there were.
    /// A function of its own rather than a closure, so that both stay in registers.
    @inline(__always)
    private static func readDigits(_ base: UnsafePointer<UInt8>, _ index: inout Int, _ end: Int,
                                   into mantissa: inout UInt64) -> Int {
        let first = index
        while index < end {
            let digit = base[index] &- 48
            if digit > 9 { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index &+= 1
        }
        return index &- first
    }

    /// The digits in `range` after the leading zeros (a zero-padded number
    /// is as exact as its unpadded self).
    private static func significantDigits(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> Int {
        var index = range.lowerBound
        while index < range.upperBound, base[index] == UInt8(ascii: "0") || base[index] == UInt8(ascii: ".") { index += 1 }
        var digits = 0
        for position in index..<range.upperBound where base[position] != UInt8(ascii: ".") { digits += 1 }
        return digits
    }

    /// 10^exponent for 1…22, each exact as a Double.
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
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    private static func specialValue(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        let unsigned = text.hasPrefix("-") || text.hasPrefix("+") ? String(text.dropFirst()) : text
        return ["nan", "inf", "infinity"].contains(unsigned) ? .notFinite : .notANumber
    }
}
