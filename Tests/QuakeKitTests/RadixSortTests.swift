import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

@Suite("Radix sort", .timeLimit(.minutes(10)))
struct RadixSortTests {
    /// Keys numbered in their low half, with high halves that repeat often
    /// (ties must keep their order) or spread over all 32 bits.
    @Test(arguments: [UInt64(7), 1 << 32])
    func sortsLikeTheStandardLibrary(_ highValues: UInt64) {
        var state: UInt64 = highValues
        var keys = (0..<100_000).map { index -> UInt64 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return ((state >> 20) % highValues) << 32 | UInt64(index)
        }
        let expected = keys.sorted()
        RadixSort.sortByHighHalf(&keys)
        #expect(keys == expected)
    }

    @Test func shortInputsAreSortedToo() {
        func key(_ high: UInt64, _ row: UInt64) -> UInt64 { high << 32 | row }
        var few = [key(3, 0), key(1, 1), key(3, 2), key(2, 3)]
        RadixSort.sortByHighHalf(&few)
        #expect(few == [key(1, 1), key(2, 3), key(3, 0), key(3, 2)])
    }

    @Test func shortInputsStayAsTheyAre() {
        var empty: [UInt64] = []
        RadixSort.sortByHighHalf(&empty)
        #expect(empty.isEmpty)
        var one: [UInt64] = [42]
        RadixSort.sortByHighHalf(&one)
        #expect(one == [42])
    }
}
