import Foundation

/// The small numeric rules of SeismoStats 1.0.1 and NumPy that decide which
/// values its estimators see, written once so every estimator here rounds,
/// counts and steps as it does: results then agree to rounding error, not
/// merely to a bin.
package enum SeismoStatsNumerics {
    /// SeismoStats's `bin_to_precision`: the nearest multiple of `width`
    /// (halves go up, with its 1e-12 slack), then rounded to the decimals
    /// `str(width)` has, so 12 × 0.1 comes out as 1.2.
    package static func binned(_ value: Double, width: Double) -> Double {
        let index = (value / width + 0.5 + 1e-12).rounded(.down)
        let scale = pow(10, Double(decimals(of: width)))
        return (index * width * scale + 0.5 + 1e-12).rounded(.down) / scale
    }

    /// Every value of `values` ``binned(_:width:)``, the scale worked out once.
    package static func binned(_ values: [Double], width: Double) -> [Double] {
        let scale = pow(10, Double(decimals(of: width)))
        return values.map { value in
            let index = (value / width + 0.5 + 1e-12).rounded(.down)
            return (index * width * scale + 0.5 + 1e-12).rounded(.down) / scale
        }
    }

    /// The decimals Python prints `width` with (0.1 → 1, 0.05 → 2, 1.0 → 1).
    package static func decimals(of width: Double) -> Int {
        var decimals = 0
        var scaled = width
        while decimals < 12, abs(scaled - scaled.rounded()) > 1e-9 * max(1, abs(scaled)) {
            scaled *= 10
            decimals += 1
        }
        return max(decimals, 1)
    }

    /// `numpy.arange(start, stop, step)` for a positive step: ⌈(stop − start)/step⌉
    /// values, the i-th being start + i·(start + step − start) as NumPy fills them
    /// (its rounding of the step decides, for instance, whether arange(1.1, 1.6, 0.1)
    /// has 5 or 6 values, and SeismoStats's b-stability divides by that count).
    package static func arange(_ start: Double, _ stop: Double, _ step: Double) -> [Double] {
        let count = Int(max(0, ((stop - start) / step).rounded(.up)))
        guard count > 0 else { return [] }
        let delta = (start + step) - start
        return (0..<count).map { $0 == 0 ? start : ($0 == 1 ? start + step : start + Double($0) * delta) }
    }

    /// The calendar year (UTC) of a time in seconds since 2001-01-01, as NumPy's
    /// `astype("datetime64[Y]")` takes it.
    package static func year(secondsSinceReferenceDate seconds: Double) -> Int {
        // Days since 1970-01-01, then Howard Hinnant's civil-from-days.
        let days = Int(((seconds + 978_307_200) / 86_400).rounded(.down)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        return yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0)
    }

    /// The standard normal distribution's upper tail 1 − Φ(z), computed as SciPy's
    /// `1 - norm.cdf(z)` is (Cephes `ndtr`: erf near 0, erfc beyond 1/√2), so
    /// the p-values agree to the last digits.
    package static func normalUpperTail(_ z: Double) -> Double {
        let x = z / 2.0.squareRoot()
        let cdf: Double
        if abs(x) < 0.5.squareRoot() {
            cdf = 0.5 + 0.5 * erf(x)
        } else {
            let tail = 0.5 * erfc(abs(x))
            cdf = x > 0 ? 1 - tail : tail
        }
        return 1 - cdf
    }
}

/// A small, fast, documented random generator for the Monte Carlo parts
/// (bootstrap, the KS test's synthetic catalogues): xoshiro256** (Blackman &
/// Vigna 2018), seeded by SplitMix64 from one 64-bit seed, so a seed repeats a
/// run exactly on every platform; uniform integers by Lemire's (2019)
/// multiply-and-reject, doubles from the top 53 bits.
package struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// A generator whose sequence `seed` decides.
    package init(seed: UInt64) {
        var splitMix = seed
        func next() -> UInt64 {
            splitMix &+= 0x9E37_79B9_7F4A_7C15
            var z = splitMix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = (next(), next(), next(), next())
    }

    package mutating func next() -> UInt64 {
        let result = ((state.1 &* 5) << 7 | (state.1 &* 5) >> 57) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = state.3 << 45 | state.3 >> 19
        return result
    }

    /// A uniform integer in 0..<`bound` (`bound` > 0), unbiased.
    package mutating func index(below bound: Int) -> Int {
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold { product = next().multipliedFullWidth(by: range) }
        }
        return Int(product.high)
    }

    /// A uniform double in (0, 1]: never 0, so its logarithm is finite.
    package mutating func unitInterval() -> Double {
        Double((next() >> 11) + 1) * 0x1p-53
    }
}
