import QuakeModel

/// The order circles are drawn in, shared by maps and tiles so both stack
/// them the same way: largest first (small ones stay visible on top), among
/// equal sizes the most recent first, then the earlier in the input.
package enum DrawingOrder {
    /// Indices into `diameters` and `times` (seconds, any epoch) in drawing order.
    ///
    /// Sizes compare at Float precision (a millionth of a pixel); they must
    /// not be NaN (a style's sizes are finite). In two
    /// stable steps: by time, which a feed's rows usually already are (newest
    /// first, so that step is a check), then by size with a linear-time radix
    /// sort, instead of one comparison sort over (size, time, index).
    /// `times` is taken over and dropped once the time order exists.
    package static func indices(diameters: [Double], times: consuming [Double]) -> [UInt32] {
        precondition(diameters.count == times.count && diameters.count < Int(UInt32.max), "one time per circle, under 2^32")
        assert(!diameters.contains(where: \.isNaN), "no size is NaN")
        let byTime = newestFirst(times)
        times = []
        // Size key over position in `byTime`, so even a whole-key sort keeps
        // the time order among equal sizes. `+ 0` makes −0 into +0: they
        // compare equal but have different bits.
        var keys = byTime.enumerated().map { position, index in
            UInt64(descendingKey(Float(diameters[Int(index)]) + 0)) << 32 | UInt64(position)
        }
        RadixSort.sortByHighHalf(&keys)
        return keys.map { byTime[Int(truncatingIfNeeded: $0 & 0xFFFF_FFFF)] }
    }

    /// Indices by time, newest first, equal times in index order.
    private static func newestFirst(_ times: [Double]) -> [UInt32] {
        let indices = Array(0..<UInt32(times.count))
        if zip(times, times.dropFirst()).allSatisfy({ $0 >= $1 }) { return indices }
        return indices.sorted { lhs, rhs in
            let left = times[Int(lhs)], right = times[Int(rhs)]
            return left != right ? left > right : lhs < rhs
        }
    }

    /// A key whose ascending unsigned order is `value`'s descending order
    /// (for any non-NaN Float): the sign bit flipped for positives, all bits
    /// flipped for negatives, then all flipped once more.
    private static func descendingKey(_ value: Float) -> UInt32 {
        let bits = value.bitPattern
        return bits & 0x8000_0000 == 0 ? ~(bits | 0x8000_0000) : bits
    }
}
