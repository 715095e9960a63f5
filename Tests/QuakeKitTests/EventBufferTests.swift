import Foundation
import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

@Suite("Event buffer", .timeLimit(.minutes(10)))
struct EventBufferTests {
    /// An event whose place is long enough to live on the heap, so that
    /// destroying a taken event again is a use after free (AddressSanitizer
    /// reports it in CI's second pass, and it often crashes without).
    func event(_ number: Int) -> SeismicEvent {
        SeismicEvent(id: "id\(number)", time: Date(timeIntervalSince1970: Double(number)), latitude: 0, longitude: 0,
                     place: "\(number) km somewhere far beyond the short-string length")
    }

    @Test func eventsComeOutOnceInTheOrderTheyWentIn() {
        let buffer = EventBuffer()
        for number in 0..<100 { buffer.append(event(number)) }
        #expect(buffer.remaining == 100)
        for number in 0..<40 { #expect(buffer.takeNext() == event(number)) }
        #expect(buffer.remaining == 60)
        // The rest are destroyed, the storage kept for the next batch.
        buffer.removeAll()
        #expect(buffer.remaining == 0)
        for number in 100..<105 { buffer.append(event(number)) }
        #expect((0..<5).map { _ in buffer.takeNext() } == (100..<105).map(event))
        #expect(buffer.remaining == 0)
    }

    @Test func growingKeepsTheEventsNotYetTaken() {
        let buffer = EventBuffer()
        for number in 0..<20 { buffer.append(event(number)) }
        for _ in 0..<5 { _ = buffer.takeNext() }
        buffer.reserveCapacity(1000)
        for number in 20..<30 { buffer.append(event(number)) }
        #expect(buffer.remaining == 25)
        #expect((0..<25).map { _ in buffer.takeNext() } == (5..<30).map(event))
    }

    /// A reader stopped by its consumer leaves events untaken: they go with
    /// the buffer, and the ones taken before stay whole.
    @Test func untakenEventsGoWithTheBufferAndTakenOnesStay() {
        var buffer: EventBuffer? = EventBuffer()
        for number in 0..<50 { buffer?.append(event(number)) }
        let taken = (0..<10).compactMap { _ in buffer?.takeNext() }
        buffer = nil
        #expect(taken == (0..<10).map(event))
    }
}
