import Foundation

/// Times and numbers as quakemap writes them for people: map footers, labels and clocks,
/// report pages, the `table` list format. One place, so that a map, a report and a table
/// give the same instant and the same magnitude in the same words. Machine formats (ISO 8601
/// with milliseconds, the feeds' numbers) are the list writers' and ``CivilTime``'s.
package enum Formatted {
    /// What a time far outside any catalogue's years is written as.
    package static let outOfRange = "(a time out of range)"

    /// How much of the clock a time shows.
    package enum Clock: Sendable {
        /// `2020-06-11 15:27`
        case minutes
        /// `2020-06-11 15:27:04`
        case seconds
    }

    /// `2020-06-11 15:27` or `2020-06-11 15:27:04`: the UTC day and clock, without the zone.
    package static func time(_ date: Date, _ clock: Clock) -> String {
        guard let f = CivilTime.fields(date) else { return outOfRange }
        let day = CivilTime.pad(f.year, 4) + "-" + CivilTime.pad(f.month, 2) + "-" + CivilTime.pad(f.day, 2)
        let minutes = CivilTime.pad(f.hour, 2) + ":" + CivilTime.pad(f.minute, 2)
        return day + " " + (clock == .minutes ? minutes : minutes + ":" + CivilTime.pad(f.second, 2))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `31 Mar 23:52`, or `31 Mar 2020 23:52` `withYear`: a label's short UTC time.
    package static func dayAndTime(_ date: Date, withYear: Bool) -> String {
        guard let f = CivilTime.fields(date) else { return outOfRange }
        let clock = CivilTime.pad(f.hour, 2) + ":" + CivilTime.pad(f.minute, 2)
        let day = "\(f.day) \(months[f.month - 1])"
        return withYear ? "\(day) \(f.year) \(clock)" : "\(day) \(clock)"
    }

    /// The UTC calendar year of `date`.
    package static func year(_ date: Date) -> Int? {
        CivilTime.fields(date)?.year
    }

    /// `value` with `decimals` digits after the point (`6.4`, `-1.60`), rounded half away
    /// from zero as C's `printf` does; the same digits on every machine (no locale).
    package static func fixed(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.*f", decimals, value)
    }

    /// A whole number with its thousands separated by commas and a true minus sign
    /// (`19,813`, `−3`), as prose and tables print counts; other numbers as `%g`.
    package static func grouped(_ value: Double) -> String {
        guard value == value.rounded(), abs(value) < 1e15 else { return String(format: "%g", value) }
        let digits = String(Int(abs(value)))
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (value < 0 ? "−" : "") + grouped
    }

    /// `text` with each hyphen-minus before a digit set as a true minus sign (U+2212), for prose.
    package static func minusSigns(_ text: String) -> String {
        var result = ""
        var previous: Character?
        for character in text {
            if let last = previous, last == "-", character.isNumber { result.removeLast(); result.append("−") }
            result.append(character)
            previous = character
        }
        return result
    }
}
