import Foundation
import QuakeKit
import Testing
@testable import QuakeServer

/// The render gate: how many run, how many wait, who is turned away, and that
/// a caller who gave up never has its render started.
///
/// One test at a time: each holds a render thread until its own task lets it go, and renders
/// share libdispatch's worker threads with Swift's task pool (one a core). Two such tests at
/// once hold both threads of this machine, and the tasks that would let them go never run:
/// the process stalls until something else times out, other suites' deadlines with it.
@Suite("Render gate", .timeLimit(.minutes(10)), .serialized)
struct RenderGateTests {
    /// The names of the jobs that started, in order.
    final class Started: Sendable {
        let names = Locked<[String]>([])
        func withLock<R>(_ body: (inout [String]) -> R) -> R { names.withLock { body(&$0) } }
    }

    /// A render that notes its start, then holds its slot until `release` is signalled.
    static func job(_ started: Started, _ name: String, until release: DispatchSemaphore? = nil) -> @Sendable () throws -> String {
        { started.withLock { $0.append(name) }; release?.wait(); return name }
    }

    /// Polls until `condition` holds (at most about 10 s), so the test does not race the gate.
    static func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<1000 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the condition never held within about 10 s")
    }

    @Test func runsInTurnRefusesBeyondTheQueueAndTimesOut() async throws {
        // Renders hold their slot until the test lets them go: no timing assumptions,
        // even on a loaded machine or under a sanitizer.
        let gate = RenderGate(width: 1, queueLimit: 1, timeout: .seconds(60))
        let started = Started()
        let holdFirst = DispatchSemaphore(value: 0)
        let first = Task { try await gate.run(Self.job(started, "first", until: holdFirst)) }
        try await Self.eventually { started.withLock { $0 } == ["first"] }
        let second = Task { try await gate.run(Self.job(started, "second")) }
        try await Self.eventually { gate.waiting == 1 }
        await #expect(throws: RenderGate.Refusal.busy) { try await gate.run(Self.job(started, "third")) }
        holdFirst.signal()
        #expect(try await first.value == "first")
        #expect(try await second.value == "second")
        #expect(started.withLock { $0 } == ["first", "second"])

        let impatient = RenderGate(width: 1, queueLimit: 4, timeout: .milliseconds(200))
        let holdSlow = DispatchSemaphore(value: 0)
        let slow = Task { try await impatient.run(Self.job(started, "slow", until: holdSlow)) }
        try await Self.eventually { started.withLock { $0 }.contains("slow") }
        await #expect(throws: RenderGate.Refusal.timedOut) { try await impatient.run(Self.job(started, "given up")) }
        await #expect(throws: RenderGate.Refusal.timedOut) { try await slow.value }
        holdSlow.signal()
        try await Self.eventually { impatient.waiting == 0 }
        // The slot came back: the gate still works, and the abandoned render never ran.
        #expect(try await impatient.run(Self.job(started, "after")) == "after")
        #expect(started.withLock { $0 } == ["first", "second", "slow", "after"], "a render whose caller left is never started")
    }

    /// What the gate reports to the server's metrics: each refusal with its reason, each admitted
    /// render's wait, and what it holds and queues now.
    @Test func reportsRefusalsByReasonAndWhatItHolds() async throws {
        let reasons = Locked<[String]>([]), admitted = Locked(0)
        let reporting = RenderGate.Reporting(refused: { reason in reasons.withLock { $0.append(reason.rawValue) } },
                                             admitted: { _ in admitted.withLock { $0 += 1 } })
        let gate = RenderGate(width: 1, queueLimit: 1, timeout: .milliseconds(300), reporting: reporting)
        let started = Started()
        let hold = DispatchSemaphore(value: 0)
        let first = Task { try await gate.run(Self.job(started, "first", until: hold)) }
        try await Self.eventually { started.withLock { $0 } == ["first"] }
        #expect(gate.holding == (renders: 1, slots: 1) && gate.waiting == 0)
        let second = Task { try await gate.run(Self.job(started, "second")) }
        try await Self.eventually { gate.waiting == 1 }
        await #expect(throws: RenderGate.Refusal.busy) { try await gate.run(Self.job(started, "third")) }
        #expect(reasons.withLock { $0 } == ["queue_full"])
        // Both time out: the first while drawing, the second while waiting for the slot the first holds.
        await #expect(throws: RenderGate.Refusal.timedOut) { try await first.value }
        await #expect(throws: RenderGate.Refusal.timedOut) { try await second.value }
        #expect(reasons.withLock { $0 }.sorted() == ["queue_full", "queue_timeout", "render_timeout"])
        // The drawing goes on, holding its slot, until it ends.
        #expect(gate.holding == (renders: 1, slots: 1))
        hold.signal()
        try await Self.eventually { gate.holding == (renders: 0, slots: 0) && gate.waiting == 0 }
        #expect(admitted.withLock { $0 } == 1, "only the first got its slot")
    }

    /// A map's read happens inside its slot: a second request does not read its events while
    /// the first draws, a failed read gives the slot back, and so does a reader that gave up waiting.
    @Test func readsWaitForTheirSlotAsRendersDo() async throws {
        let gate = RenderGate(width: 1, queueLimit: 4, timeout: .seconds(60))
        let started = Started()
        let holdFirst = DispatchSemaphore(value: 0)
        let first = Task {
            try await gate.run(reading: { started.withLock { $0.append("read first") }; return "first" }) { name in
                started.withLock { $0.append("draw \(name)") }
                holdFirst.wait()
                return name
            }
        }
        try await Self.eventually { started.withLock { $0 } == ["read first", "draw first"] }
        let second = Task {
            try await gate.run(reading: { started.withLock { $0.append("read second") }; return "second" }) { $0 }
        }
        try await Self.eventually { gate.waiting == 1 }
        #expect(started.withLock { $0 } == ["read first", "draw first"], "the second read waits for the slot")
        holdFirst.signal()
        #expect(try await first.value == "first")
        #expect(try await second.value == "second")
        #expect(started.withLock { $0 } == ["read first", "draw first", "read second"])

        struct Unreadable: Error {}
        await #expect(throws: Unreadable.self) { try await gate.run(reading: { () throws -> Int in throw Unreadable() }) { $0 } }
        #expect(try await gate.run(reading: { 7 }) { $0 * 6 } == 42, "a failed read gave its slot back")

        let impatient = RenderGate(width: 1, queueLimit: 4, timeout: .milliseconds(200))
        let holdSlow = DispatchSemaphore(value: 0)
        let slow = Task { try await impatient.run(Self.job(started, "slow read", until: holdSlow)) }
        try await Self.eventually { started.withLock { $0 }.contains("slow read") }
        await #expect(throws: RenderGate.Refusal.timedOut) {
            try await impatient.run(reading: { started.withLock { $0.append("never") }; return 1 }) { $0 }
        }
        holdSlow.signal()
        _ = try? await slow.value
        try await Self.eventually { impatient.waiting == 0 }
        #expect(try await impatient.run(reading: { 2 }) { $0 } == 2, "the slot a reader gave up came back")
        #expect(!started.withLock { $0 }.contains("never"), "a reader that gave up never reads")
    }

    /// A map of many events holds a slot for each started million, up to the whole width, so
    /// two maps of a large catalogue never hold their events at once; renders are admitted in
    /// arrival order, so a small one does not pass a large one waiting for the whole width.
    @Test func largeMapsHoldMoreSlotsAndKeepTheirTurn() async throws {
        let gate = RenderGate(width: 2, queueLimit: 4, timeout: .seconds(60))
        #expect([1, 1_000_000, 1_000_001, 5_000_000].map(gate.slots(forEvents:)) == [1, 1, 2, 2])
        #expect(RenderGate(width: 8, queueLimit: 4, timeout: .seconds(60)).slots(forEvents: 5_000_000) == 5)
        let started = Started()
        let holdSmall = DispatchSemaphore(value: 0)
        let small = Task {
            try await gate.run(events: 300, reading: { "small" }) { name in started.withLock { $0.append(name) }; holdSmall.wait(); return name }
        }
        try await Self.eventually { started.withLock { $0 } == ["small"] }
        let large = Task {
            try await gate.run(events: 5_000_000, reading: { "large" }) { name in started.withLock { $0.append(name) }; return name }
        }
        try await Self.eventually { gate.waiting == 1 }
        let next = Task {
            try await gate.run(events: 300, reading: { "next" }) { name in started.withLock { $0.append(name) }; return name }
        }
        try await Self.eventually { gate.waiting == 2 }
        #expect(started.withLock { $0 } == ["small"], "one slot is free, but the large map waits for two and came first")
        holdSmall.signal()
        #expect(try await small.value == "small")
        #expect(try await large.value == "large")
        #expect(try await next.value == "next")
        #expect(started.withLock { $0 } == ["small", "large", "next"])
    }

    /// The timeout fires on time while every thread of the cooperative pool is held: a render
    /// that stamps circles on all cores can hold them, and a timer that needs one of them woke
    /// only after the render was done, which then answered instead of the 503.
    @Test func theTimeoutFiresWhileTheCooperativePoolIsBusy() async throws {
        let gate = RenderGate(width: 1, queueLimit: 4, timeout: .milliseconds(50))
        let started = Started()
        let caller = Task {
            try await gate.run { started.withLock { $0.append("render") }; Thread.sleep(forTimeInterval: 0.3); return "drawn" }
        }
        try await Self.eventually { started.withLock { $0 } == ["render"] }
        // Every pool thread (one a core) held for 0.8 s, past the render's end; let go from outside the pool.
        let width = ProcessInfo.processInfo.activeProcessorCount
        let holding = DispatchSemaphore(value: 0)
        let blockers = (0..<width).map { _ in Task.detached { Self.hold(holding) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.8) { for _ in 0..<width { holding.signal() } }
        for blocker in blockers { await blocker.value }
        await #expect(throws: RenderGate.Refusal.timedOut) { try await caller.value }
    }

    /// Blocks the calling thread until `semaphore` is signalled.
    static func hold(_ semaphore: DispatchSemaphore) { semaphore.wait() }

    @Test func manyRequestsAtOnceAllGetAnAnswer() async throws {
        let gate = RenderGate(width: 2, queueLimit: 1000, timeout: .seconds(30))
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<500 { group.addTask { try await gate.run { index } } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.sorted() == Array(0..<500))
    }
}
