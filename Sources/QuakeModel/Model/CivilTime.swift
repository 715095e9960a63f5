// Model/ — the values every stage passes on: an event (SeismicEvent, and MapEvent, what a map
// keeps of one), a box, event types, UTC calendar arithmetic, and the errors' protocol.

import Foundation

/// Conversions between proleptic Gregorian calendar fields (UTC) and `Date`,
/// done with integer arithmetic: no `DateFormatter`, no locale, no time zone
/// database, so they are fast and give the same answer on every machine.
package enum CivilTime {
    /// Days from 1970-01-01 to the given date (Howard Hinnant's algorithm).
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of a day counted from 1970-01-01.
    package static func date(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// An instant's UTC calendar fields, to the millisecond.
    package struct Fields: Sendable, Hashable {
        package var year, month, day, hour, minute, second, millisecond: Int
    }

    /// The UTC fields of `date` (rounded to the millisecond); `nil` far outside
    /// the years any catalogue holds, where the arithmetic would overflow.
    package static func fields(_ date: Date) -> Fields? {
        guard let totalMilliseconds = Int(exactly: (date.timeIntervalSince1970 * 1000).rounded()),
              abs(totalMilliseconds) < 1 << 52 else { return nil }
        var days = totalMilliseconds / 86_400_000
        var millisecondOfDay = totalMilliseconds % 86_400_000
        if millisecondOfDay < 0 { days -= 1; millisecondOfDay += 86_400_000 }
        let (year, month, day) = Self.date(daysSinceEpoch: days)
        return Fields(year: year, month: month, day: day, hour: millisecondOfDay / 3_600_000,
                      minute: millisecondOfDay / 60_000 % 60, second: millisecondOfDay / 1000 % 60,
                      millisecond: millisecondOfDay % 1000)
    }

    /// `2020-06-11T15:27:04.123Z`: UTC, always with milliseconds, as USGS writes it.
    package static func iso8601(_ date: Date) -> String {
        // Readers keep times within the years 0001…9999; a date built elsewhere may not be.
        guard let f = fields(date) else { return Formatted.outOfRange }
        return pad(f.year, 4) + "-" + pad(f.month, 2) + "-" + pad(f.day, 2) + "T"
            + pad(f.hour, 2) + ":" + pad(f.minute, 2) + ":" + pad(f.second, 2) + "." + pad(f.millisecond, 3) + "Z"
    }

    package static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }
}
