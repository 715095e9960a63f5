// `quakemap-bench estimators [RUNS] [MAGNITUDES.bin]`: times every b-value estimator (bootstrap
// excluded), the a-values, the b-significance test and each Mc method on 1,000,000 magnitudes
// drawn from a realistic Gutenberg–Richter distribution (b = 1 above Mc 1.5 with a detection
// roll-off below it, 0.01 precision, times sorted over 10 years, four magnitude types), binned
// to 0.1. Writes the magnitudes and times (little-endian float64 pairs: magnitude, seconds since
// 1970) to MAGNITUDES.bin so Benchmarks/stats_estimators.py times SeismoStats on the same ones.
import Foundation
import QuakeKit

/// The catalogue: magnitudes (0.01 precision) and times (seconds since 2001), in time order.
func estimatorCatalogue(count: Int, seed: UInt64) -> (magnitudes: [Double], times: [Double], types: [String]) {
    var generator = Xoshiro256StarStar(seed: seed)
    let beta = log(10.0)
    var magnitudes: [Double] = []
    magnitudes.reserveCapacity(count)
    while magnitudes.count < count {
        // GR from 0.5; below Mc 1.5 an event is detected with a probability rising linearly to 1.
        let magnitude = 0.5 - log(generator.unitInterval()) / beta
        if magnitude < 1.5, generator.unitInterval() > magnitude - 0.5 { continue }
        magnitudes.append((magnitude * 100).rounded() / 100)
    }
    let start = 15 * 365.25 * 86_400.0   // 2016
    var times = magnitudes.indices.map { _ in start + generator.unitInterval() * 10 * 365.25 * 86_400 }
    times.sort()
    let types = ["ml", "md", "mb", "mw"]
    return (magnitudes, times, magnitudes.indices.map { types[$0 % 7 == 0 ? 2 : ($0 % 3 == 0 ? 1 : ($0 % 101 == 0 ? 3 : 0))] })
}

func runEstimatorBenchmark(runs: Int, output: String) throws {
    func time<T>(_ label: String, _ note: (T) -> String = { _ in "" }, _ body: () throws -> T) rethrows {
        var seconds: [Double] = []
        var result: T?
        for _ in 0..<runs {
            let start = ContinuousClock.now
            result = try body()
            let elapsed = ContinuousClock.now - start
            seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        let median = seconds.sorted()[seconds.count / 2]
        print(label.padding(toLength: 40, withPad: " ", startingAt: 0) + String(format: "%9.1f ms", median * 1000)
              + "  " + note(result!))
    }
    let count = 1_000_000
    let (magnitudes, times, types) = estimatorCatalogue(count: count, seed: 42)
    var bytes = Data(capacity: count * 16)
    for (magnitude, time) in zip(magnitudes, times) {
        withUnsafeBytes(of: magnitude.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: (time + 978_307_200).bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }
    try bytes.write(to: URL(fileURLWithPath: output))
    print("\(count) magnitudes (b = 1, Mc ≈ 1.5, 0.01 precision, 10 years, \(Set(types).count) magnitude types) → \(output); "
          + "median of \(runs) runs, Δm = 0.1")
    let width = 0.1, mc = 1.5, dmc = 0.1
    let binned = SeismoStatsNumerics.binned(magnitudes, width: width)
    let years = times.map { SeismoStatsNumerics.year(secondsSinceReferenceDate: $0) }
    let table = try CompletenessTable(parsing: "2016:2.0,2021:1.5")
    func b(_ result: BValueResult) -> String { String(format: "b %.4f ± %.4f, n %d", result.b, result.std, result.n) }

    time("accumulate (times, types)") { () -> String in
        var accumulator = CatalogStatistics.Accumulator()
        for index in magnitudes.indices {
            accumulator.add(time: Date(timeIntervalSinceReferenceDate: times[index]), magnitude: magnitudes[index],
                            depth: nil, type: "earthquake", magnitudeType: types[index])
        }
        return "\(accumulator.magnitudeTypes.count) types"
    }
    time("bin to 0.1", { "\($0.count)" }) { SeismoStatsNumerics.binned(magnitudes, width: width) }
    try time("b utsu", b) { try BValueEstimators.utsu(binned, mc: mc, width: width) }
    try time("b classic", b) { try BValueEstimators.classic(binned, mc: mc, width: width) }
    try time("b positive", b) { try BValueEstimators.positive(binned, mc: mc, width: width, dmc: dmc) }
    try time("b more-positive (no bootstrap)", b) { try BValueEstimators.morePositive(binned, mc: mc, width: width, dmc: dmc) }
    try time("b weichert", b) { try BValueEstimators.weichert(binned, years: years, table: table, width: width) }
    try time("b kijko-smit", b) { try BValueEstimators.kijkoSmit(binned, years: years, table: table, width: width) }
    for method in AValueMethod.allCases {
        try time("a \(method.rawValue)", { String(format: "a %.4f", $0) }) {
            try AValueEstimators.estimate(method, timeOrdered: binned, times: times, mc: mc, width: width, dmc: dmc, b: 1)
        }
    }
    try time("b-significance utsu, windows of 1000", { String(format: "p %.3g", $0.pValue) }) {
        try BSignificance(binned, mc: mc, width: width, window: 1000, method: .utsu, dmc: dmc)
    }
    time("Mc maxc", { String(format: "Mc %.2f", $0) }) {
        FrequencyMagnitudeDistribution(magnitudes: binned, binning: .tenth).mostPopulatedBin! + 0.2
    }
    try time("Mc b-stability", { String(format: "Mc %.2f", $0 ?? .nan) }) { () -> Double? in
        var search = CompletenessSearch()
        return try CompletenessEstimators.bStability(binned, width: width, search: &search)
    }
    time("Mc ks (10000 simulations, the default)", { String(format: "Mc %.2f", $0 ?? .nan) }) { () -> Double? in
        var search = CompletenessSearch()
        return CompletenessEstimators.kolmogorovSmirnov(binned, width: width, seed: 1, search: &search)
    }
    time("Mc ks (20 simulations)", { String(format: "Mc %.2f", $0 ?? .nan) }) { () -> Double? in
        var search = CompletenessSearch()
        return CompletenessEstimators.kolmogorovSmirnov(binned, width: width, simulations: 20, seed: 1, search: &search)
    }
}
