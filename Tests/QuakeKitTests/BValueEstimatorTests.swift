import Foundation
import Testing
import QuakeKit

/// SeismoStats's estimators on small inputs whose answers are known: SeismoStats 1.0.1's own
/// documented examples (and its values for a few more small cases, noted), sums by hand, and the
/// error paths.
@Suite("b-value, a-value and completeness estimators", .timeLimit(.minutes(10)))
struct BValueEstimatorTests {
    /// SeismoStats's documented sample (Mc 2.0, Δm 0.1), in time order.
    static let documented = MagnitudeStatisticsTests.documented
    /// The a-value examples' sample, at times 1…10.
    static let short = [2.1, 2.3, 2.0, 2.0, 2.1, 2.2, 2.1, 2.3, 2.0, 2.0]
    /// The completeness examples' sample.
    static let completenessExample = [2.3, 1.2, 1.5, 1.2, 1.7, 1.1, 1.2, 1.8, 1.6, 1.2, 1.5, 1.2, 1.7, 1.6, 1.1, 1.1, 1.2,
                                      2.0, 1.1, 1.2, 1.1, 1.2, 1.6, 1.9, 1.3, 1.7, 1.3, 1.0, 1.2, 1.7, 1.3, 1.3, 1.1, 1.5,
                                      1.4, 1.5]

    static func close(_ value: Double, _ expected: Double, _ tolerance: Double = 1e-12) -> Bool {
        abs(value - expected) <= tolerance * max(1, abs(expected))
    }

    @Test func theDocumentedBValues() throws {
        let utsu = try BValueEstimators.utsu(Self.documented, mc: 2.0, width: 0.1)
        #expect(Self.close(utsu.b, 1.1088369750721319) && utsu.n == 24)
        #expect(Self.close(utsu.std, 0.12628408758470624))
        let classic = try BValueEstimators.classic(Self.documented, mc: 2.0, width: 0.1)
        #expect(Self.close(classic.b, 1.114920128810535) && Self.close(classic.std, 0.127673494233682))
        let positive = try BValueEstimators.positive(Self.documented, mc: 2.0, width: 0.1, dmc: 0.2)
        #expect(Self.close(positive.b, 1.9188552623891313) && positive.n == 10)
        #expect(Self.close(positive.std, 0.41534189933444626))
        // dmc defaults to Δm: SeismoStats's estimate_b example with times 0…23.
        let positiveByDefault = try BValueEstimators.positive(Self.documented, mc: 2.0, width: 0.1, dmc: 0.1)
        #expect(Self.close(positiveByDefault.b, 1.5490195998574317) && positiveByDefault.n == 12)
        let morePositive = try BValueEstimators.morePositive(Self.documented, mc: 2.0, width: 0.1, dmc: 0.2)
        #expect(Self.close(morePositive.b, 2.253092817258629) && morePositive.n == 17)
        #expect(Self.close(try BValueEstimators.morePositive(Self.documented, mc: 2.0, width: 0.1, dmc: 0.1).b,
                           2.009148427807134))
    }

    @Test func utsuByHand() throws {
        // Mean of 1.0, 1.1, 1.2 is 1.1; β = 1/(1.1 − 1.0 + 0.05) = 1/0.15.
        let result = try BValueEstimators.utsu([0.9, 1.0, 1.1, 1.2], mc: 1.0, width: 0.1)
        #expect(result.n == 3)
        #expect(Self.close(result.b, 1 / 0.15 / log(10), 1e-12))
    }

    @Test func nextLargerMatchesTheQuadraticDefinition() {
        let magnitudes = [10.0, 4, 3, 9, 3, 3.5, 12, 1]
        #expect(BValueEstimators.nextLarger(magnitudes, width: 0.5, dmc: 0.5) == [6, 3, 3, 6, 5, 6, 0, 0])
        // Against the definition on a longer series.
        var generator = Xoshiro256StarStar(seed: 3)
        let series = (0..<400).map { _ in Double(generator.index(below: 30)) / 10 }
        let fast = BValueEstimators.nextLarger(series, width: 0.1, dmc: 0.2)
        for index in series.indices {
            let slow = series.indices.dropFirst(index + 1).first { series[$0] - series[index] >= 0.2 - 0.05 } ?? 0
            #expect(fast[index] == slow)
        }
    }

    @Test func theDocumentedAValues() throws {
        let times = (1...10).map(Double.init)
        #expect(try AValueEstimators.estimate(.classic, timeOrdered: Self.short, times: times, mc: 2.0, width: 0.1,
                                              dmc: 0.1, b: 1) == 1.0)
        #expect(Self.close(try AValueEstimators.estimate(.positive, timeOrdered: Self.short, times: times, mc: 2.0,
                                                         width: 0.1, dmc: 0.1, b: 1), 0.9542425094393249))
        #expect(Self.close(try AValueEstimators.estimate(.morePositive, timeOrdered: Self.short, times: times, mc: 2.0,
                                                         width: 0.1, dmc: 0.1, b: 1), 0.730070812347905))
        // m_ref and scaling: a − b(m_ref − Mc) − log₁₀ s.
        #expect(Self.close(try AValueEstimators.estimate(.classic, timeOrdered: Self.short, times: times, mc: 2.0,
                                                         width: 0.1, dmc: 0.1, b: 1, mRef: 3, scaling: 10), -1.0))
    }

    /// A tiny catalogue with SeismoStats 1.0.1's answers (estimate_b_weichert, estimate_b_kijko_smit).
    @Test func weichertAndKijkoSmitOnATinyCatalogue() throws {
        let magnitudes = [3.0, 3.1, 3.3, 4.0, 4.2, 5.0, 3.0, 3.5, 4.1, 4.6, 3.2, 3.0]
        let years = [2001, 2002, 2003, 1990, 1991, 1980, 2010, 2011, 1995, 1985, 2015, 2019]
        let table = try CompletenessTable(parsing: "1980:4.0,2000:3.0")
        let weichert = try BValueEstimators.weichert(magnitudes, years: years, table: table, width: 0.1)
        #expect(Self.close(weichert.b, 0.37811718116281584, 1e-8))
        #expect(Self.close(weichert.std, 0.21268204035453228, 1e-8))
        #expect(Self.close(weichert.a ?? 0, 0.8057023832594308, 1e-8))
        let kijko = try BValueEstimators.kijkoSmit(magnitudes, years: years, table: table, width: 0.1)
        #expect(Self.close(kijko.b, 1.4476482730108406, 1e-12))
        #expect(Self.close(kijko.std, 0.41790006005735286, 1e-12))
        #expect(Self.close(kijko.a ?? 0, 4.112681454681195, 1e-12))
    }

    @Test func completenessTablesSayWhatIsWrong() throws {
        #expect(try CompletenessTable(parsing: "1970:5.0, 1990:4,2005:3.0").periods.map(\.year) == [1970, 1990, 2005])
        let cases: [(String, String)] = [
            ("", "item 1 '' is not year:Mc"),
            ("1970:5.0,1990", "item 2 '1990' is not year:Mc"),
            ("1970:x", "'x' is not a magnitude"),
            ("nineteen:5", "'nineteen' is not a year"),
            ("1990:4,1970:5", "years must rise: 1970 follows 1990"),
            ("1970:4,1990:5", "Mc must fall as years rise"),
        ]
        for (text, message) in cases {
            do {
                _ = try CompletenessTable(parsing: text)
                Issue.record("'\(text)' was accepted")
            } catch {
                #expect(error.message.contains(message), "\(text): \(error.message)")
            }
        }
        #expect(throws: StatisticsError.invalidCompletenessTable("no periods")) { try CompletenessTable([]) }
    }

    @Test func tooFewValuesAreErrorsThatSaySo() {
        #expect(throws: StatisticsError.tooFewForEstimator(method: "Utsu", found: 0, required: 2,
                                                           what: "events at or above Mc 1.0")) {
            try BValueEstimators.utsu([], mc: 1.0, width: 0.1)
        }
        #expect(throws: StatisticsError.tooFewForEstimator(method: "b-positive", found: 1, required: 2,
                                                           what: "differences of at least dmc 0.1")) {
            try BValueEstimators.positive([1.0, 1.5, 1.2], mc: 1.0, width: 0.1, dmc: 0.1)
        }
        // Every magnitude in the Mc bin: no spread, no b.
        #expect(throws: StatisticsError.self) { try BValueEstimators.classic([1.0, 1.0, 1.0], mc: 1.0, width: 0.1) }
        #expect(throws: StatisticsError.self) {
            try MagnitudeEstimate(magnitudes: [1, 2, 3], times: [0, 1, 2], mc: 1, width: 0.1,
                                  settings: { var s = EstimationSettings(); s.bMethod = .weichert; return s }())
        }
    }

    @Test func theDocumentedCompletenessByBStability() throws {
        var search = CompletenessSearch()
        let mc = try CompletenessEstimators.bStability(Self.completenessExample, width: 0.1, search: &search)
        #expect(mc == 1.1)
        #expect(search.tested == [1.0, 1.1])
        #expect(Self.close(search.bValues[1], 1.190298769977797))
        #expect(Self.close(search.statistics[0], 2.2337527711215786, 1e-10))
        #expect(Self.close(search.statistics[1], 0.9457747650207581, 1e-10))
        var narrow = CompletenessSearch()
        #expect(throws: StatisticsError.self) {
            try CompletenessEstimators.bStability([1.0, 1.1, 1.2], width: 0.1, search: &narrow)
        }
    }

    @Test func ksPassesAGutenbergRichterSampleAtItsMcAndRepeatsWithItsSeed() {
        // Binned quantiles of b = 1 above 1.95: a perfect sample passes at the first Mc.
        let sample = MagnitudeStatisticsTests.gutenbergRichter(count: 2000, b: 1, minimum: 1.95)
            .map { SeismoStatsNumerics.binned($0, width: 0.1) }
        var first = CompletenessSearch(), second = CompletenessSearch()
        let mc = CompletenessEstimators.kolmogorovSmirnov(sample, width: 0.1, simulations: 200, seed: 9, search: &first)
        #expect(mc == 2.0)
        _ = CompletenessEstimators.kolmogorovSmirnov(sample, width: 0.1, simulations: 200, seed: 9, search: &second)
        #expect(first == second)
        #expect(first.simulatedDistances.count == first.tested.count && first.simulatedDistances[0].count == 200)
        #expect(first.statistics[0] >= 0.1)
    }

    @Test func moransIOfTheDocumentedSeriesAndTheSignificanceOfAConstantB() throws {
        let (ac, n, pairs) = BSignificance.moransI([1.0, 2.0, .nan, 1.5, 1.2, 0.8])
        #expect(Self.close(ac, -0.2727272727272727) && n == 5 && pairs == 3)
        // A constant b: no evidence of variation (p well above 0.01).
        let sample = MagnitudeStatisticsTests.gutenbergRichter(count: 3000, b: 1, minimum: 0.95)
        var generator = Xoshiro256StarStar(seed: 1)
        var shuffled = sample.map { SeismoStatsNumerics.binned($0, width: 0.1) }
        shuffled.shuffle(using: &generator)
        let test = try BSignificance(shuffled, mc: 1.0, width: 0.1, window: 100, method: .utsu, dmc: 0.1)
        #expect(test.pValue > 0.01 && test.window == 100)
        #expect(throws: StatisticsError.self) {
            try BSignificance(Array(shuffled.prefix(250)), mc: 1.0, width: 0.1, window: 100, method: .utsu, dmc: 0.1)
        }
    }

    @Test func bootstrapRepeatsWithItsSeedAndTracksShiBolt() throws {
        let magnitudes = MagnitudeStatisticsTests.gutenbergRichter(count: 2000, b: 1, minimum: 0.95)
        var settings = EstimationSettings()
        settings.bootstrap = 300
        settings.seed = 5
        let times = magnitudes.indices.map(Double.init)
        let first = try MagnitudeEstimate(magnitudes: magnitudes, times: times, mc: 1.0, width: 0.1, settings: settings)
        let second = try MagnitudeEstimate(magnitudes: magnitudes, times: times, mc: 1.0, width: 0.1, settings: settings)
        let sigma = try #require(first.bootstrapStd)
        #expect(first.bootstrapStd == second.bootstrapStd)
        #expect(abs(sigma - first.std) < 0.2 * first.std, "bootstrap \(sigma), Shi–Bolt \(first.std)")
        #expect(first.stdMethod == "shi-bolt")
    }

    @Test func binomialDrawsHaveTheirMeanAndVariance() {
        var generator = Xoshiro256StarStar(seed: 11)
        for (n, p) in [(20, 0.1), (1000, 0.3), (200_000, 0.9), (50, 0.5)] {
            let draws = (0..<4000).map { _ in Double(CompletenessEstimators.binomial(n, p, &generator)) }
            let mean = draws.reduce(0, +) / 4000
            let variance = draws.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 3999
            let expected = Double(n) * p * (1 - p)
            #expect(abs(mean - Double(n) * p) < 5 * (expected / 4000).squareRoot(), "Bin(\(n), \(p)): mean \(mean)")
            #expect(abs(variance / expected - 1) < 0.1, "Bin(\(n), \(p)): variance \(variance)")
            #expect(draws.allSatisfy { $0 >= 0 && $0 <= Double(n) })
        }
    }

    @Test func numpyAndSeismoStatsNumerics() {
        #expect(SeismoStatsNumerics.arange(1.1, 1.6, 0.1).count == 5)
        #expect(SeismoStatsNumerics.arange(0, 0.5, 0.1).count == 5)
        #expect(SeismoStatsNumerics.binned(1.25, width: 0.1) == 1.3)
        #expect(SeismoStatsNumerics.binned(0.30000000000000004, width: 0.1) == 0.3)
        #expect(SeismoStatsNumerics.year(secondsSinceReferenceDate: 0) == 2001)
        #expect(SeismoStatsNumerics.year(secondsSinceReferenceDate: -1) == 2000)
        #expect(SeismoStatsNumerics.year(secondsSinceReferenceDate: -978_307_200 - 1) == 1969)
        #expect(Self.close(SeismoStatsNumerics.normalUpperTail(0), 0.5))
        #expect(Self.close(SeismoStatsNumerics.normalUpperTail(1.959963984540054), 0.025, 1e-9))
    }
}
