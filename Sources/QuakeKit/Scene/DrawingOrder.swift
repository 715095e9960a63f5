/// The order circles are drawn in, shared by maps and tiles so both stack
/// them the same way: largest first (small ones stay visible on top), among
/// equal sizes the most recent first, then the earlier in the input.
enum DrawingOrder {
    /// Indices into `diameters` and `times` (seconds, any epoch) in drawing order.
    ///
    /// Sizes compare at Float precision (a millionth of a pixel), so the sort
    /// moves 16-byte keys; for a million circles that is half the traffic of
    /// sorting whole circles.
    /// `times` is taken over and dropped once the keys exist (8 MB per million).
    static func indices(diameters: [Double], times: consuming [Double]) -> [UInt32] {
        precondition(diameters.count == times.count && diameters.count < Int(UInt32.max), "one time per circle, under 2^32")
        struct Key {
            var time: Double
            var diameter: Float
            var index: UInt32
        }
        var keys = diameters.indices.map { index in
            Key(time: times[index], diameter: Float(diameters[index]), index: UInt32(index))
        }
        times = []
        keys.sort { lhs, rhs in
            if lhs.diameter != rhs.diameter { return lhs.diameter > rhs.diameter }
            if lhs.time != rhs.time { return lhs.time > rhs.time }
            return lhs.index < rhs.index
        }
        return keys.map(\.index)
    }
}
