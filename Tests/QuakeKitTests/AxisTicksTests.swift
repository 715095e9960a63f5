import Foundation
import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

@Suite("Axis ticks", .timeLimit(.minutes(10)))
struct AxisTicksTests {
    /// Whether every labelled step is 1, 2 or 5 × 10^k.
    static func isNice(_ step: Double) -> Bool {
        let mantissa = step / pow(10, floor(log10(step) + 1e-9))
        return [1.0, 2, 5].contains { abs(mantissa - $0) < 1e-6 }
    }

    static let ranges: [(Double, Double)] = [(0, 1), (-1.3, 7.8), (2.5, 2.6), (0, 1234), (0, 7), (-0.37, 0.41), (1e5, 1.1e6), (3.2, 3.2)]

    @Test(arguments: ranges)
    func linearStepsAreNiceAndCoverTheData(_ lower: Double, _ upper: Double) throws {
        let axis = AxisTicks.linear(lower: lower, upper: upper)
        let values = axis.ticks.map(\.value)
        let steps = zip(values, values.dropFirst()).map { $1 - $0 }
        let step = try #require(steps.first)
        #expect(steps.allSatisfy { abs($0 - step) < step * 1e-6 }, "equal steps")
        #expect(Self.isNice(step), "step \(step)")
        #expect((4...9).contains(axis.ticks.count), "\(axis.ticks.count) ticks for \(lower)…\(upper)")
        #expect(axis.lower <= lower && axis.upper >= upper && axis.lower < axis.upper)
        #expect(axis.lower.isFinite && axis.upper.isFinite)
    }

    @Test func labelsHaveTheStepsDecimalsAndNoMinusZero() {
        let axis = AxisTicks.linear(lower: -0.37, upper: 0.41)
        let labels = axis.ticks.compactMap(\.label)
        #expect(labels.contains("0.0"))
        #expect(!labels.contains { $0.hasPrefix("-0") || $0 == "−0.0" })
        #expect(labels.allSatisfy { $0.split(separator: ".").last?.count == 1 }, "\(labels)")
        #expect(AxisTicks.linear(lower: 0, upper: 1234).ticks.compactMap(\.label).allSatisfy { !$0.contains(".") })
        #expect(AxisTicks.label(-1e-12, decimals: 2) == "0.00")
        #expect(AxisTicks.label(-1e-12, decimals: 0) == "0")
        #expect(AxisTicks.label(-2.5, decimals: 1) == "−2.5")
        #expect(AxisTicks.label(0.05, decimals: 2) == "0.05")
    }

    @Test func aCrowdedAxisTakesACoarserStep() {
        let fine = AxisTicks.linear(lower: 0, upper: 10)
        // Room for at most three labels.
        let coarse = AxisTicks.linear(lower: 0, upper: 10) { $0.count <= 3 }
        #expect(coarse.ticks.count <= 3 && coarse.ticks.count < fine.ticks.count)
    }

    @Test func logAxisHasDecadesAndUnlabelledMinorTicks() {
        let axis = AxisTicks.logarithmic(maximum: 3456)
        #expect(axis.lower == 1 && axis.upper == 10_000)
        #expect(axis.labelled.compactMap(\.label) == ["1", "10", "100", "1000", "10000"])
        let minor = axis.ticks.filter { $0.label == nil }.map(\.value)
        #expect(minor.count == 4 * 8)
        #expect(minor.prefix(8) == [2, 3, 4, 5, 6, 7, 8, 9])
        #expect(AxisTicks.logarithmic(maximum: 1).upper == 10, "a single count still has a decade")
        #expect(AxisTicks.logarithmic(maximum: 0).lower == 1)
        #expect(AxisTicks.decadeLabel(7) == "10⁷")
    }

    // Time axes.

    static func seconds(_ iso: String) -> Double {
        let parts = iso.split(whereSeparator: { "-T:Z".contains($0) }).map { Int($0)! }
        return Double(CivilTime.daysSinceEpoch(year: parts[0], month: parts[1], day: parts[2])) * 86_400
            + Double(parts.count > 3 ? parts[3] * 3600 + parts[4] * 60 : 0)
    }

    @Test func hoursAreLabelledAsTimesWithTheDayInTheCaption() {
        let axis = TimeTicks.axis(lower: Self.seconds("2020-06-12T01:10Z"), upper: Self.seconds("2020-06-13T02:00Z"))
        let labels = axis.ticks.compactMap(\.label)
        #expect(labels.contains("06:00") && labels.contains("13 Jun"), "\(labels)")
        #expect(axis.caption == "12 Jun – 13 Jun 2020")
        let values = axis.ticks.map(\.value)
        #expect(values.allSatisfy { $0.truncatingRemainder(dividingBy: 3600) == 0 })
    }

    @Test func weeksStartOnMonday() {
        let axis = TimeTicks.axis(lower: Self.seconds("2020-06-01T00:00Z"), upper: Self.seconds("2020-07-31T00:00Z"), step: .weeks)
        for tick in axis.ticks {
            // 1970-01-05 was a Monday.
            let day = Int(tick.value / 86_400)
            #expect((day - 4) % 7 == 0)
        }
        #expect(axis.ticks.first?.label == "1 Jun", "1 June 2020 was a Monday")
    }

    @Test func monthsAndYearsStartOnTheFirst() {
        let months = TimeTicks.axis(lower: Self.seconds("2019-11-20T00:00Z"), upper: Self.seconds("2020-07-02T00:00Z"), step: .months(3))
        #expect(months.ticks.compactMap(\.label) == ["Jan 2020", "Apr 2020", "Jul 2020"])
        let years = TimeTicks.axis(lower: Self.seconds("1961-03-01T00:00Z"), upper: Self.seconds("2021-03-01T00:00Z"), step: .years(10))
        #expect(years.ticks.compactMap(\.label) == ["1970", "1980", "1990", "2000", "2010", "2020"])
    }

    /// From half an hour to sixty years, at a chart's usual width: a handful of
    /// ticks, on the calendar, labels that never overlap when measured with the
    /// renderer's font.
    static let spans: [Double] = [1800, 7200, 86_400, 2 * 86_400, 10 * 86_400, 45 * 86_400, 200 * 86_400, 400 * 86_400,
                                  3 * 365 * 86_400, 12 * 365 * 86_400, 60 * 365.25 * 86_400]

    @Test(arguments: spans)
    func spansFromMinutesToDecades(_ span: Double) throws {
        let measurer = TextMeasurer()
        let lower = Self.seconds("2001-04-17T05:23Z")
        let plotWidth = 700.0, size = 10.5
        let axis = TimeTicks.axis(lower: lower, upper: lower + span) { placed in
            let spans = placed.map { ($0.fraction * plotWidth - measurer.width($0.label, size: size) / 2,
                                      $0.fraction * plotWidth + measurer.width($0.label, size: size) / 2) }
            return zip(spans, spans.dropFirst()).allSatisfy { $1.0 - $0.1 >= 10 }
        }
        #expect((2...8).contains(axis.ticks.count), "\(axis.ticks.count) ticks over \(span) s")
        let xs = axis.ticks.map { axis.fraction($0.value) * plotWidth }
        let widths = axis.ticks.map { measurer.width($0.label!, size: size) }
        for i in xs.indices.dropLast() {
            #expect(xs[i] + widths[i] / 2 + 10 <= xs[i + 1] - widths[i + 1] / 2, "\(axis.ticks[i].label!) and the next overlap")
        }
        #expect(axis.ticks.allSatisfy { $0.value >= lower && $0.value <= lower + span })
        // A time of day repeats only on another day, whose date stands between the two.
        let labels = axis.ticks.compactMap(\.label)
        for (i, label) in labels.enumerated() {
            if let j = labels[(i + 1)...].firstIndex(of: label) {
                #expect(labels[i..<j].contains { !$0.contains(":") }, "\(label) twice on one day: \(labels)")
            }
        }
    }

    @Test func aSingleMomentGetsAnHourAround() {
        let range = TimeTicks.range(first: 1000, last: 1000)
        #expect(range.upper - range.lower == 3600)
        let axis = TimeTicks.axis(lower: range.lower, upper: range.upper)
        #expect(axis.ticks.count >= 2 && axis.ticks.allSatisfy { $0.value.isFinite })
    }
}
