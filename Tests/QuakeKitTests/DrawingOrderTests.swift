import Testing
@testable import QuakeKit

@Suite("Drawing order")
struct DrawingOrderTests {
    /// The order as one comparison sort states it: larger first (at Float
    /// precision), then newer, then earlier in the input.
    static func reference(diameters: [Double], times: [Double]) -> [UInt32] {
        (0..<UInt32(diameters.count)).sorted { lhs, rhs in
            let left = Float(diameters[Int(lhs)]), right = Float(diameters[Int(rhs)])
            if left != right { return left > right }
            if times[Int(lhs)] != times[Int(rhs)] { return times[Int(lhs)] > times[Int(rhs)] }
            return lhs < rhs
        }
    }

    /// Few sizes and times (many ties) and many; times newest first (a feed's
    /// order, where the time step is only a check) and shuffled; above and
    /// below the radix sort's threshold.
    @Test(arguments: [(20, 7, true), (20, 7, false), (5000, 50, true), (5000, 50, false),
                      (60_000, 400, true), (60_000, 1_000_000, false)])
    func matchesOneComparisonSort(count: Int, distinct: Int, newestFirst: Bool) {
        var state = UInt64(count * 31 + distinct)
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        // Sizes include 0, −0 and values that differ only beyond Float precision.
        let sizes = [0, -0.0, 2, 2 + 1e-12, 3.5, 190.0] + (0..<distinct).map { Double($0) * 0.37 }
        let diameters = (0..<count).map { _ in sizes[next(sizes.count)] }
        var times = (0..<count).map { _ in Double(next(distinct)) * 60 - 1e6 }
        if newestFirst { times.sort(by: >) }
        let order = DrawingOrder.indices(diameters: diameters, times: times)
        #expect(order == Self.reference(diameters: diameters, times: times))
    }

    @Test func emptyAndSingle() {
        #expect(DrawingOrder.indices(diameters: [], times: []).isEmpty)
        #expect(DrawingOrder.indices(diameters: [4], times: [1]) == [0])
    }
}
