import Foundation
import QuakeModel

/// Reads the time spellings of every USGS feed era into a `Date` (UTC).
///
/// - ISO 8601, as today's feeds write it: `2020-06-11T15:27:04.123Z`; a space
///   may stand for the `T`, seconds and fraction are optional, an offset
///   (`+05:30`, `-0800`) is applied, and no zone at all means UTC.
/// - The pre-2013 `Datetime`: `Saturday, May 21, 2011 09:06:50 UTC`.
/// - The `Date` + `TimeUTC` pair (`2010/11/02`, `06:39:55.6`), via ``parse(date:time:)``.
package enum TimeParser {
    package static func parse(_ bytes: ArraySlice<UInt8>) -> Date? {
        bytes.withUnsafeBytes { parse($0) }
    }

    package static func parse(_ bytes: UnsafeRawBufferPointer) -> Date? {
        if let date = parseFeedTime(bytes) { return date }
        if bytes.count == 23, let date = parseFeedTimeWithoutZone(bytes) { return date }
        var scanner = ByteScanner(bytes)
        scanner.skipBlanks()
        guard let first = scanner.peek else { return nil }
        if first >= 48 && first <= 57 {
            return parseISO(&scanner)
        }
        return parseEnglish(&scanner)
    }

    /// An ISO 8601 instant, or a bare `YYYY-MM-DD` date meaning its 00:00 UTC.
    package static func parse(dateOrInstant text: String) -> Date? {
        if text.utf8.count == 10, let date = parse(ArraySlice((text + "T00:00:00Z").utf8)) { return date }
        return parse(ArraySlice(text.utf8))
    }

    /// Joins a `YYYY/MM/DD` (or `YYYY-MM-DD`) date and an `HH:MM:SS[.f]` time.
    package static func parse(date: ArraySlice<UInt8>, time: ArraySlice<UInt8>) -> Date? {
        date.withUnsafeBytes { date in time.withUnsafeBytes { time in parse(date: date, time: time) } }
    }

    package static func parse(date: UnsafeRawBufferPointer, time: UnsafeRawBufferPointer) -> Date? {
        var dateScanner = ByteScanner(date)
        dateScanner.skipBlanks()
        guard let year = dateScanner.integer(digits: 4),
              dateScanner.take(UInt8(ascii: "/")) || dateScanner.take(UInt8(ascii: "-")),
              let month = dateScanner.integer(maxDigits: 2),
              dateScanner.take(UInt8(ascii: "/")) || dateScanner.take(UInt8(ascii: "-")),
              let day = dateScanner.integer(maxDigits: 2) else { return nil }
        dateScanner.skipBlanks()
        guard dateScanner.isAtEnd else { return nil }
        var timeScanner = ByteScanner(time)
        timeScanner.skipBlanks()
        guard let seconds = clockSeconds(&timeScanner) else { return nil }
        timeScanner.skipBlanks()
        if timeScanner.take(UInt8(ascii: "Z")) { timeScanner.skipBlanks() }
        guard timeScanner.isAtEnd else { return nil }
        return make(year: year, month: month, day: day, secondOfDay: seconds)
    }

    /// FDSN event text writes today's time without its zone letter
    /// (`2020-06-11T15:27:04.123`), which means UTC too: the fast path, on
    /// a copy with the `Z` put back.
    private static func parseFeedTimeWithoutZone(_ bytes: UnsafeRawBufferPointer) -> Date? {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &words) { copy in
            copy.copyMemory(from: bytes)
            copy[23] = UInt8(ascii: "Z")
            return parseFeedTime(UnsafeRawBufferPointer(copy))
        }
    }

    /// Today's feeds spell every time the same way, `2020-06-11T15:27:04.123Z`:
    /// read as three 8-byte words, all digits and separators checked at once
    /// and the digits paired by one multiplication, several times faster than
    /// the general path and the same result: `make` rounds to a whole number
    /// of milliseconds and divides it by 1000, as this does.
    private static func parseFeedTime(_ bytes: UnsafeRawBufferPointer) -> Date? {
        guard bytes.count == 24, let base = bytes.baseAddress else { return nil }
        // Byte i of a word is bits 8i…8i+7: "2020-06-", "11T15:27", ":04.123Z".
        let words = (UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)),
                     UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                     UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 16, as: UInt64.self)))
        // Each word's separator bytes, and what they must be ('-' 2D, 'T' 54, ':' 3A, '.' 2E, 'Z' 5A).
        let separators: (UInt64, UInt64, UInt64) = (0xFF00_00FF_0000_0000, 0x0000_FF00_00FF_0000, 0xFF00_0000_FF00_00FF)
        let expected: (UInt64, UInt64, UInt64) = (0x2D00_002D_0000_0000, 0x0000_3A00_0054_0000, 0x5A00_0000_2E00_003A)
        guard words.0 & separators.0 == expected.0, words.1 & separators.1 == expected.1,
              words.2 & separators.2 == expected.2,
              let digits0 = digitValues(words.0, separators: separators.0),
              let digits1 = digitValues(words.1, separators: separators.1),
              let digits2 = digitValues(words.2, separators: separators.2) else { return nil }
        // Byte i of a pair word is ten times digit i plus digit i + 1 (at most 99: no carries).
        func pairs(_ digits: UInt64) -> UInt64 { digits &* 10 &+ digits >> 8 }
        func byte(_ word: UInt64, _ index: UInt64) -> Int { Int(truncatingIfNeeded: word >> (8 * index) & 0xFF) }
        let pairs0 = pairs(digits0), pairs1 = pairs(digits1), pairs2 = pairs(digits2)
        let year = byte(pairs0, 0) * 100 + byte(pairs0, 2), month = byte(pairs0, 5), day = byte(pairs1, 0)
        let hour = byte(pairs1, 3), minute = byte(pairs1, 6), second = byte(pairs2, 1)
        let millisecond = byte(pairs2, 4) * 10 + byte(digits2, 6)
        guard hour <= 23, minute <= 59, second <= 60,
              let days = epochDay(year: year, month: month, day: day) else { return nil }
        let milliseconds = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// The digits' values in the bytes of `word` that are not `separators`
    /// (those become 0); `nil` when any of them is not a digit. A byte is a
    /// digit when neither it, nor it minus '0', nor it plus 0x46 (which
    /// passes 0x7F from ':' up) has its top bit set: with every byte below
    /// 0x80, neither sum carries into the next byte, and the lowest byte
    /// below '0' has no borrow from below to hide its own.
    @inline(__always)
    private static func digitValues(_ word: UInt64, separators: UInt64) -> UInt64? {
        let zeros: UInt64 = 0x3030_3030_3030_3030, high: UInt64 = 0x8080_8080_8080_8080
        let text = (word & ~separators) | (zeros & separators)
        guard (text | (text &- zeros) | (text &+ 0x4646_4646_4646_4646)) & high == 0 else { return nil }
        return text &- zeros
    }

    private static func parseISO(_ scanner: inout ByteScanner) -> Date? {
        guard let year = scanner.integer(digits: 4), scanner.take(UInt8(ascii: "-")),
              let month = scanner.integer(digits: 2), scanner.take(UInt8(ascii: "-")),
              let day = scanner.integer(digits: 2) else { return nil }
        guard scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: "t")) || scanner.take(ASCII.space),
              let seconds = clockSeconds(&scanner) else { return nil }
        var offset = 0
        if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) {
        } else if let sign = scanner.peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            scanner.advance()
            guard let hours = scanner.integer(digits: 2), hours <= 23 else { return nil }
            _ = scanner.take(UInt8(ascii: ":"))
            let minutes = scanner.integer(digits: 2) ?? 0
            guard minutes <= 59 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
        scanner.skipBlanks()
        guard scanner.isAtEnd else { return nil }
        return make(year: year, month: month, day: day, secondOfDay: seconds - Double(offset))
    }

    private static let monthNames = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    /// `[Weekday, ]Month D, YYYY HH:MM:SS[ UTC]`.
    private static func parseEnglish(_ scanner: inout ByteScanner) -> Date? {
        var word = scanner.word()
        if scanner.take(ASCII.comma) {
            scanner.skipBlanks()
            word = scanner.word()
        }
        guard word.count >= 3,
              let monthIndex = monthNames.firstIndex(of: String(word.prefix(3))) else { return nil }
        scanner.skipBlanks()
        guard let day = scanner.integer(maxDigits: 2) else { return nil }
        _ = scanner.take(ASCII.comma)
        scanner.skipBlanks()
        guard let year = scanner.integer(digits: 4) else { return nil }
        scanner.skipBlanks()
        guard let seconds = clockSeconds(&scanner) else { return nil }
        scanner.skipBlanks()
        let zone = scanner.word()
        guard zone.isEmpty || zone == "utc" || zone == "gmt" || zone == "z" else { return nil }
        scanner.skipBlanks()
        guard scanner.isAtEnd else { return nil }
        return make(year: year, month: monthIndex + 1, day: day, secondOfDay: seconds)
    }

    /// `HH:MM[:SS[.fraction]]` as seconds into the day.
    private static func clockSeconds(_ scanner: inout ByteScanner) -> Double? {
        guard let hour = scanner.integer(digits: 2), hour <= 23, scanner.take(UInt8(ascii: ":")),
              let minute = scanner.integer(digits: 2), minute <= 59 else { return nil }
        var seconds = Double(hour * 3600 + minute * 60)
        if scanner.take(UInt8(ascii: ":")) {
            guard let second = scanner.integer(digits: 2), second <= 60 else { return nil }
            seconds += Double(second)
            if scanner.take(UInt8(ascii: ".")) || scanner.take(ASCII.comma) {
                var scale = 0.1, fraction = 0.0, count = 0
                while let byte = scanner.peek, byte >= 48, byte <= 57 {
                    if count < 9 { fraction += Double(byte - 48) * scale; scale /= 10 }
                    count += 1
                    scanner.advance()
                }
                guard count > 0 else { return nil }
                seconds += fraction
            }
        }
        return seconds
    }

    private static func make(year: Int, month: Int, day: Int, secondOfDay: Double) -> Date? {
        guard let days = epochDay(year: year, month: month, day: day) else { return nil }
        // Milliseconds are the feed's resolution; rounding here keeps equal
        // times equal however the fraction was spelled.
        let seconds = Double(days) * 86_400 + secondOfDay
        return Date(timeIntervalSince1970: (seconds * 1000).rounded() / 1000)
    }

    /// Days since 1970-01-01 of a calendar date; `nil` when there is no such date.
    private static func epochDay(year: Int, month: Int, day: Int) -> Int? {
        guard (1...12).contains(month), day >= 1,
              day <= CivilTime.daysInMonth(year: year, month: month) else { return nil }
        return CivilTime.daysSinceEpoch(year: year, month: month, day: day)
    }
}

/// A cursor over a field's bytes.
package struct ByteScanner {
    private let bytes: UnsafeRawBufferPointer
    private var index: Int

    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    package var isAtEnd: Bool { index >= bytes.endIndex }
    package var peek: UInt8? { isAtEnd ? nil : bytes[index] }

    package mutating func advance() { index += 1 }

    package mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    package mutating func skipBlanks() {
        while let byte = peek, byte == ASCII.space || byte == ASCII.tab { index += 1 }
    }

    /// Exactly `digits` decimal digits.
    package mutating func integer(digits: Int) -> Int? {
        guard bytes.endIndex - index >= digits else { return nil }
        var value = 0
        for offset in 0..<digits {
            let byte = bytes[index + offset]
            guard byte >= 48 && byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += digits
        return value
    }

    /// One to `maxDigits` decimal digits.
    package mutating func integer(maxDigits: Int) -> Int? {
        var value = 0, count = 0
        while count < maxDigits, let byte = peek, byte >= 48, byte <= 57 {
            value = value * 10 + Int(byte - 48)
            count += 1
            index += 1
        }
        return count > 0 ? value : nil
    }

    /// A run of ASCII letters, lowercased.
    package mutating func word() -> String {
        var letters: [UInt8] = []
        while let byte = peek, (byte | 0x20) >= 97, (byte | 0x20) <= 122 {
            letters.append(byte | 0x20)
            index += 1
        }
        return String(decoding: letters, as: UTF8.self)
    }
}
