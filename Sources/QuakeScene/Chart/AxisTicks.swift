// Chart/ — charts of a catalogue (magnitude–time, counts, depths, frequency–magnitude, cross-sections)
// resolved into a MapScene: ticks, axes and marks in pixels, drawn by the map renderer unchanged.

import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery

/// One tick of an axis: a major tick carries a label, a minor one (`label` nil) only a short mark.
package struct AxisTick: Sendable, Hashable {
    /// Where, in the axis's data units (seconds since 1970 on a time axis).
    package var value: Double
    /// The label, or `nil` for a minor tick.
    package var label: String?
}

/// An axis's range and ticks, in data units.
package struct ChartAxis: Sendable, Hashable {
    /// How data values map onto the axis.
    package enum Kind: Sendable, Hashable { case linear, log10, time }

    package var kind: Kind
    /// The range drawn; `lower < upper` always (positive on a log axis).
    package var lower: Double
    package var upper: Double
    package var ticks: [AxisTick]
    /// Context the labels leave out (the day of a time-of-day axis), shown beside the axis title.
    package var caption: String?

    /// `value`'s place along the axis, 0 at `lower` and 1 at `upper`.
    package func fraction(_ value: Double) -> Double {
        switch kind {
        case .linear, .time: return (value - lower) / (upper - lower)
        case .log10: return (log10(max(value, lower / 10)) - log10(lower)) / (log10(upper) - log10(lower))
        }
    }

    package var labelled: [AxisTick] { ticks.filter { $0.label != nil } }

    /// Whether `value` lies within the range, give or take a rounding error.
    package func contains(_ value: Double) -> Bool {
        let f = fraction(value)
        return f >= -1e-9 && f <= 1 + 1e-9
    }
}

/// Tick choice for chart axes, following the usual plotting conventions:
/// - linear: steps of 1, 2 or 5 × 10^k, the range widened to whole steps, labels with just the
///   decimals the step needs (never `-0`);
/// - log10 (counts): a labelled tick at each decade (1, 10, 100 …), unlabelled minor ticks at 2–9;
/// - time (UTC): a step among 10, 15 and 30 minutes, 1, 3, 6 and 12 hours, 1 and 2 days, weeks
///   (starting on Monday, as ISO 8601 weeks do), 1, 3 and 6 months, and 1, 2, 5, 10, 20 and 50 years,
///   on whole units of the calendar (midnight, the 1st of a month, 1 January).
///
/// Each function takes the room it has (`fits`: whether labels at these values overlap), and
/// picks the finest step whose labels fit, so no two labels ever overlap.
package enum AxisTicks {
    /// The steps 1, 2, 5 × 10^k from below `rough` upwards.
    package static func niceSteps(atLeast rough: Double) -> [Double] {
        let magnitude = pow(10, floor(log10(rough)))
        var steps: [Double] = []
        for exponent in 0..<4 {
            for mantissa in [1.0, 2, 5] {
                let step = mantissa * magnitude * pow(10, Double(exponent))
                if step >= rough * 0.999 { steps.append(step) }
            }
        }
        return steps
    }

    /// The smallest nice step (1, 2, 5 × 10^k) at least `rough`.
    package static func niceStep(atLeast rough: Double) -> Double {
        niceSteps(atLeast: rough)[0]
    }

    /// A linear axis over the data range `lower…upper`, widened to whole steps with about
    /// `target` intervals (at least `minimumStep` apart); a single value gets a range around it.
    /// `fits` says whether labels at positions (fractions 0…1) overlap; coarser steps are tried until they fit.
    /// With `widened` false the axis keeps the data's ends and only the ticks between them.
    package static func linear(lower: Double, upper: Double, target: Int = 6, minimumStep: Double = 0, widened: Bool = true,
                       fits: ([(fraction: Double, label: String)]) -> Bool = { _ in true }) -> ChartAxis {
        var (low, high) = finiteRange(lower, upper)
        if high - low < 1e-9 * max(1, abs(low)) {
            let half = max(abs(low) * 0.05, max(minimumStep, 0.5))
            low -= half; high += half
        }
        let rough = max((high - low) / Double(max(target, 1)), minimumStep)
        var last: ChartAxis?
        for step in niceSteps(atLeast: rough) {
            var axis = linearAxis(low, high, step: step)
            if !widened {
                // The data's own ends (a profile's length): only the ticks within them.
                axis.lower = low
                axis.upper = high
                let within = axis
                axis.ticks.removeAll { !within.contains($0.value) }
            }
            last = axis
            let placed = axis.labelled.map { (axis.fraction($0.value), $0.label!) }
            if fits(placed) { return axis }
        }
        return last!
    }

    private static func linearAxis(_ low: Double, _ high: Double, step: Double) -> ChartAxis {
        // Values within a rounding error of a whole step count as on it, not past it.
        let first = (low / step + 1e-9).rounded(.down), last = (high / step - 1e-9).rounded(.up)
        let decimals = max(0, -Int(floor(log10(step) + 1e-9)))
        var ticks: [AxisTick] = []
        var index = first
        while index <= last {
            ticks.append(AxisTick(value: index * step, label: label(index * step, decimals: decimals)))
            index += 1
        }
        return ChartAxis(kind: .linear, lower: first * step, upper: max(last, first + 1) * step, ticks: ticks)
    }

    /// `value` with `decimals` decimals, without a locale, and `0` rather than `-0` (`0.0` with one decimal).
    package static func label(_ value: Double, decimals: Int) -> String {
        let factor = pow(10, Double(decimals))
        let scaled = Int((value * factor).rounded())
        if scaled == 0 { return decimals > 0 ? "0." + String(repeating: "0", count: decimals) : "0" }
        let digits = String(abs(scaled))
        let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
        let whole = padded.dropLast(decimals), fraction = padded.suffix(decimals)
        return (scaled < 0 ? "−" : "") + whole + (decimals > 0 ? "." + fraction : "")
    }

    /// A log10 axis for counts up to `maximum`: from 1 (or the decade below `minimum`) to the decade
    /// above `maximum`, every decade labelled unless labels overlap, then every second or third.
    package static func logarithmic(minimum: Double = 1, maximum: Double,
                      fits: ([(fraction: Double, label: String)]) -> Bool = { _ in true }) -> ChartAxis {
        let smallest = minimum.isFinite && minimum > 0 ? min(minimum, max(maximum, minimum)) : 1
        let lowExponent = Int(floor(log10(smallest) + 1e-9))
        var highExponent = Int(ceil(log10(max(maximum, 1)) - 1e-9))
        if highExponent <= lowExponent { highExponent = lowExponent + 1 }
        let lower = pow(10, Double(lowExponent)), upper = pow(10, Double(highExponent))
        for every in 1...max(1, highExponent - lowExponent) {
            var ticks: [AxisTick] = []
            for exponent in lowExponent...highExponent {
                let decade = pow(10, Double(exponent))
                let labelled = (exponent - lowExponent) % every == 0
                ticks.append(AxisTick(value: decade, label: labelled ? decadeLabel(exponent) : nil))
                if exponent < highExponent {
                    for multiple in 2...9 { ticks.append(AxisTick(value: decade * Double(multiple), label: nil)) }
                }
            }
            let axis = ChartAxis(kind: .log10, lower: lower, upper: upper, ticks: ticks)
            if fits(axis.labelled.map { (axis.fraction($0.value), $0.label!) }) || every == highExponent - lowExponent {
                return axis
            }
        }
        return ChartAxis(kind: .log10, lower: lower, upper: upper, ticks: [])
    }

    /// `1`, `10` … `100000`, then `10^6` written with a superscript.
    package static func decadeLabel(_ exponent: Int) -> String {
        if exponent >= 0 && exponent <= 5 { return "1" + String(repeating: "0", count: exponent) }
        if exponent < 0 && exponent >= -3 { return "0." + String(repeating: "0", count: -exponent - 1) + "1" }
        let superscripts: [Character: Character] = ["0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵",
                                                    "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹", "-": "⁻"]
        return "10" + String(String(exponent).map { superscripts[$0] ?? $0 })
    }

    private static func finiteRange(_ lower: Double, _ upper: Double) -> (Double, Double) {
        let low = lower.isFinite ? lower : 0, high = upper.isFinite ? upper : low
        return (min(low, high), max(low, high))
    }
}
