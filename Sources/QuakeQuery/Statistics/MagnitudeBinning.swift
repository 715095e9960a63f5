import Foundation
import QuakeParse

/// Magnitudes rounded to bins of one width, as frequency–magnitude statistics
/// need them: a catalogue's magnitudes come with two or three decimals and in
/// several types, and the estimators assume one discrete step Δm.
///
/// A magnitude goes to the nearest bin centre (a multiple of the width); one
/// exactly between two centres goes up (`1.25` → `1.3` with width 0.1), as
/// SeismoStats's `bin_to_precision` rounds, so both tools count the same bins.
public struct MagnitudeBinning: Sendable, Hashable {
    /// The bin width Δm, in magnitude units; 0.1 unless chosen.
    public let width: Double

    /// The usual binning of catalogue statistics: Δm = 0.1.
    public static let tenth = MagnitudeBinning(uncheckedWidth: 0.1)

    /// A binning of `width`.
    ///
    /// - Throws: ``StatisticsError/invalidBinWidth(_:)`` unless 0.001 ≤ `width` ≤ 1.
    public init(width: Double) throws(StatisticsError) {
        guard width.isFinite, width >= 0.001, width <= 1 else { throw .invalidBinWidth(width) }
        self.init(uncheckedWidth: width)
    }

    private init(uncheckedWidth width: Double) {
        self.width = width
    }

    /// The bin of `magnitude`, counted in widths from 0 (`1.25` → 13 with width 0.1).
    package func index(of magnitude: Double) -> Int {
        // The slack absorbs binary representation (1.25 / 0.1 is 12.499999999999998); 1e-12 is
        // SeismoStats's, so a magnitude a hair below a half bin goes where its bin_to_precision puts it.
        Int((magnitude / width + 0.5 + 1e-12).rounded(.down))
    }

    /// The centre of bin `index`, rounded to the decimals the width has, so
    /// that bin 12 of 0.1 prints as `1.2`, not `1.2000000000000002`.
    package func magnitude(ofBin index: Int) -> Double {
        (Double(index) * width * 1e9).rounded() / 1e9
    }

    /// `magnitude` rounded to its bin's centre.
    package func binned(_ magnitude: Double) -> Double {
        self.magnitude(ofBin: index(of: magnitude))
    }

    /// How many decimals a bin centre needs (0.1 → 1, 0.05 → 2, 0.5 → 1, 1 → 0).
    package var decimals: Int {
        var decimals = 0
        var scaled = width
        while decimals < 3, abs(scaled - scaled.rounded()) > 1e-9 {
            scaled *= 10
            decimals += 1
        }
        return decimals
    }
}

/// The frequency–magnitude distribution (FMD) of a set of magnitudes: for
/// every bin from the smallest to the largest, how many magnitudes fall in it
/// and how many in it or above.
public struct FrequencyMagnitudeDistribution: Sendable, Hashable {
    /// One magnitude bin.
    public struct Bin: Sendable, Hashable {
        /// The bin's centre.
        public var magnitude: Double
        /// Magnitudes in this bin (non-cumulative).
        public var count: Int
        /// Magnitudes in this bin or a higher one (cumulative).
        public var cumulativeCount: Int
    }

    /// How magnitudes were binned.
    package var binning: MagnitudeBinning
    /// Every bin from the lowest to the highest magnitude, empty ones included;
    /// no bins for no magnitudes.
    public var bins: [Bin]

    /// How many magnitudes were counted.
    package var total: Int { bins.first?.cumulativeCount ?? 0 }

    /// Counts `magnitudes` (NaN and infinities are left out).
    public init(magnitudes: some Sequence<Double>, binning: MagnitudeBinning = .tenth) {
        self.binning = binning
        var counts: [Int: Int] = [:]
        for magnitude in magnitudes where magnitude.isFinite {
            counts[binning.index(of: magnitude), default: 0] += 1
        }
        guard let low = counts.keys.min(), let high = counts.keys.max() else {
            bins = []
            return
        }
        var bins: [Bin] = []
        bins.reserveCapacity(high - low + 1)
        var above = counts.values.reduce(0, +)
        for index in low...high {
            let count = counts[index] ?? 0
            bins.append(Bin(magnitude: binning.magnitude(ofBin: index), count: count, cumulativeCount: above))
            above -= count
        }
        self.bins = bins
    }

    /// The centre of the bin holding the most magnitudes (the lowest such bin
    /// on a tie): the maximum-curvature estimate of completeness before its
    /// correction. `nil` without magnitudes.
    package var mostPopulatedBin: Double? {
        var best: Bin?
        for bin in bins where bin.count > (best?.count ?? 0) { best = bin }
        return best?.magnitude
    }
}
