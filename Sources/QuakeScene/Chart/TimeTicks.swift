import Foundation
import QuakeModel
import QuakeParse

/// Ticks of a UTC time axis, on whole units of the calendar (see ``AxisTicks``): computed with
/// ``CivilTime``'s integer arithmetic, so no locale or time zone enters a label.
package enum TimeTicks {
    /// A step between two ticks.
    package enum Step: Sendable, Hashable {
        case minutes(Int), hours(Int), days(Int), weeks, months(Int), years(Int)

        /// Roughly how long, to count the ticks a span would get.
        package var seconds: Double {
            switch self {
            case .minutes(let n): Double(n) * 60
            case .hours(let n): Double(n) * 3600
            case .days(let n): Double(n) * 86_400
            case .weeks: 7 * 86_400
            case .months(let n): Double(n) * 30.44 * 86_400
            case .years(let n): Double(n) * 365.25 * 86_400
            }
        }
    }

    /// The steps tried, finest first.
    package static let steps: [Step] = [.minutes(10), .minutes(15), .minutes(30), .hours(1), .hours(3), .hours(6), .hours(12),
                                .days(1), .days(2), .weeks, .months(1), .months(3), .months(6),
                                .years(1), .years(2), .years(5), .years(10), .years(20), .years(50), .years(100)]

    package static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The range a time axis shows for events from `first` to `last` (seconds since 1970): the span
    /// with 3 % to spare on each side; a single moment gets an hour around it.
    package static func range(first: Double, last: Double) -> (lower: Double, upper: Double) {
        let low = min(first, last), high = max(first, last)
        guard high - low >= 60 else { return (low - 1800, high + 1800) }
        let pad = (high - low) * 0.03
        return (low - pad, high + pad)
    }

    /// A time axis over `lower…upper` (seconds since 1970): the finest step giving at most
    /// `maximumCount` labelled ticks whose labels `fits` accepts.
    package static func axis(lower: Double, upper: Double, maximumCount: Int = 8,
                     fits: ([(fraction: Double, label: String)]) -> Bool = { _ in true }) -> ChartAxis {
        let span = upper - lower
        var chosen: ChartAxis?
        for step in steps where span / step.seconds <= Double(maximumCount) + 1 {
            let axis = axis(lower: lower, upper: upper, step: step)
            guard axis.ticks.count <= maximumCount else { continue }
            chosen = axis
            if fits(axis.ticks.map { (axis.fraction($0.value), $0.label!) }) { return axis }
        }
        return chosen ?? axis(lower: lower, upper: upper, step: steps[steps.count - 1])
    }

    /// The ticks of `step` within `lower…upper`, labelled, with the caption their labels need.
    package static func axis(lower: Double, upper: Double, step: Step) -> ChartAxis {
        var values: [Double] = []
        switch step {
        case .minutes, .hours:
            let seconds = step.seconds
            var t = (lower / seconds).rounded(.up) * seconds
            while t <= upper { values.append(t); t += seconds }
        case .days(let n):
            var day = Int((lower / 86_400).rounded(.up))
            day += (n - day % n) % n
            while Double(day) * 86_400 <= upper { values.append(Double(day) * 86_400); day += n }
        case .weeks:
            // 1970-01-05, day 4, was a Monday.
            var day = Int((lower / 86_400).rounded(.up))
            day += ((4 - day) % 7 + 7) % 7
            while Double(day) * 86_400 <= upper { values.append(Double(day) * 86_400); day += 7 }
        case .months(let n):
            let start = fields(lower)
            var index = start.year * 12 + start.month - 1
            if monthStart(index) < lower { index += 1 }
            index += (n - index % n) % n
            while monthStart(index) <= upper { values.append(monthStart(index)); index += n }
        case .years(let n):
            var year = fields(lower).year
            if monthStart(year * 12) < lower { year += 1 }
            year += (n - ((year % n) + n) % n) % n
            while monthStart(year * 12) <= upper { values.append(monthStart(year * 12)); year += n }
        }
        let ticks = values.map { AxisTick(value: $0, label: label($0, step: step)) }
        return ChartAxis(kind: .time, lower: lower, upper: upper, ticks: ticks, caption: caption(lower, upper, step: step))
    }

    /// `06:00` (`12 Jun` at midnight), `12 Jun`, `Jun 2020` or `2020`.
    package static func label(_ t: Double, step: Step) -> String {
        let f = fields(t)
        switch step {
        case .minutes, .hours:
            if f.secondOfDay == 0 { return "\(f.day) \(monthNames[f.month - 1])" }
            return pad(f.secondOfDay / 3600) + ":" + pad(f.secondOfDay / 60 % 60)
        case .days, .weeks: return "\(f.day) \(monthNames[f.month - 1])"
        case .months: return "\(monthNames[f.month - 1]) \(f.year)"
        case .years: return "\(f.year)"
        }
    }

    /// The date the labels leave out: the day(s) under times of day, the year(s) under days.
    package static func caption(_ lower: Double, _ upper: Double, step: Step) -> String? {
        let a = fields(lower), b = fields(upper)
        switch step {
        case .minutes, .hours:
            let first = "\(a.day) \(monthNames[a.month - 1])", last = "\(b.day) \(monthNames[b.month - 1])"
            if a.year != b.year { return "\(first) \(a.year) – \(last) \(b.year)" }
            return first == last ? "\(first) \(a.year)" : "\(first) – \(last) \(a.year)"
        case .days, .weeks:
            return a.year == b.year ? "\(a.year)" : "\(a.year)–\(b.year)"
        case .months, .years:
            return nil
        }
    }

    /// Calendar fields of `t` seconds since 1970, UTC.
    package static func fields(_ t: Double) -> (year: Int, month: Int, day: Int, secondOfDay: Int) {
        let seconds = Int(t.rounded(.down))
        var days = seconds / 86_400, second = seconds % 86_400
        if second < 0 { days -= 1; second += 86_400 }
        let date = CivilTime.date(daysSinceEpoch: days)
        return (date.year, date.month, date.day, second)
    }

    /// The first moment of month `index` (year × 12 + month − 1), in seconds since 1970.
    package static func monthStart(_ index: Int) -> Double {
        let year = Int((Double(index) / 12).rounded(.down)), month = index - year * 12 + 1
        return Double(CivilTime.daysSinceEpoch(year: year, month: month, day: 1)) * 86_400
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
