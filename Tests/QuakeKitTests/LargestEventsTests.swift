import Foundation
import Testing
@testable import QuakeModel

/// The largest events kept while a feed streams past, and the threshold readers ask instead.
@Suite("Largest events")
struct LargestEventsTests {
    @Test(arguments: [0, 1, 5, 64])
    func whatIsKeptIsTheBestOfWhatWasOfferedAndTheThresholdSaysSoBeforehand(capacity: Int) {
        var generator = SplitMix64(state: UInt64(capacity) + 7)
        var largest = LargestEvents<Int>(capacity: capacity)
        var offered: [(magnitude: Double, time: Date, order: Int)] = []
        for order in 0..<5000 {
            // Few distinct magnitudes and times, so that ties on both are common.
            let magnitude = Double(Int.random(in: 0...40, using: &generator)) / 10
            let time = Date(timeIntervalSince1970: Double(Int.random(in: 0...50, using: &generator)))
            // What readers ask before making a payload: it must say whether the offer will be kept.
            let admitted = largest.threshold.admits(magnitude: magnitude, time: time)
            // Offered whatever the answer: the events that are not kept count in the order too.
            largest.offer(magnitude: magnitude, time: time, order)
            #expect(largest.entries.contains { $0.payload == order } == admitted)
            offered.append((magnitude, time, order))
        }
        // What is kept is the `capacity` best of everything offered, best first, by a plain sort.
        let best = offered.sorted { LargestEvents<Int>.ranks($0, above: $1) }.prefix(capacity)
        #expect(largest.entries.map(\.payload) == best.map(\.order))
    }
}
