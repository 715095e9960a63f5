import Foundation
import Testing
@testable import QuakeModel

/// The largest events kept while a feed streams past, and the threshold readers ask instead.
@Suite("Largest events")
struct LargestEventsTests {
    @Test(arguments: [0, 1, 5, 64])
    func theThresholdAnswersAsWouldKeepDoes(capacity: Int) {
        var generator = SplitMix64(state: UInt64(capacity) + 7)
        var largest = LargestEvents<Int>(capacity: capacity)
        var threshold = largest.threshold
        var kept: [(magnitude: Double, time: Date, order: Int)] = []
        for order in 0..<5000 {
            // Few distinct magnitudes and times, so that ties on both are common.
            let magnitude = Double(Int.random(in: 0...40, using: &generator)) / 10
            let time = Date(timeIntervalSince1970: Double(Int.random(in: 0...50, using: &generator)))
            let admitted = threshold.admits(magnitude: magnitude, time: time)
            #expect(admitted == largest.wouldKeep(magnitude: magnitude, time: time))
            guard admitted else { continue }
            largest.offer(magnitude: magnitude, time: time, order)
            threshold = largest.threshold
            kept.append((magnitude, time, order))
        }
        // What is kept is the `capacity` best of what was offered, best first.
        let best = kept.sorted { LargestEvents<Int>.ranks($0, above: $1) }.prefix(capacity)
        #expect(largest.entries.map(\.payload) == best.map(\.order))
    }
}
