import Foundation
import Synchronization
import Testing
@testable import QuakeServer

/// The render gate: how many run, how many wait, who is turned away, and that
/// a caller who gave up never has its render started.
@Suite("Render gate")
struct RenderGateTests {
    /// The names of the jobs that started, in order.
    final class Started: Sendable {
        let names = Mutex<[String]>([])
        func withLock<R>(_ body: (inout [String]) -> R) -> R { names.withLock { body(&$0) } }
    }

    /// A render that notes its start and takes `seconds`.
    static func job(_ started: Started, _ name: String, _ seconds: Double) -> @Sendable () throws -> String {
        { started.withLock { $0.append(name) }; Thread.sleep(forTimeInterval: seconds); return name }
    }

    /// Polls until `condition` holds (at most 10 s), so the test does not race the gate.
    static func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<1000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func runsInTurnRefusesBeyondTheQueueAndTimesOut() async throws {
        let gate = RenderGate(width: 1, queueLimit: 1, timeout: .seconds(20))
        let started = Started()
        func job(_ name: String, _ seconds: Double) -> @Sendable () throws -> String { Self.job(started, name, seconds) }
        let first = Task { try await gate.run(job("first", 0.5)) }
        try await Self.eventually { started.withLock { $0 } == ["first"] }
        let second = Task { try await gate.run(job("second", 0)) }
        try await Self.eventually { gate.waiting == 1 }
        await #expect(throws: RenderGate.Refusal.busy) { try await gate.run(job("third", 0)) }
        #expect(try await first.value == "first")
        #expect(try await second.value == "second")
        #expect(started.withLock { $0 } == ["first", "second"])

        let impatient = RenderGate(width: 1, queueLimit: 4, timeout: .milliseconds(200))
        let slow = Task { try await impatient.run(job("slow", 0.6)) }
        try await Self.eventually { started.withLock { $0 }.contains("slow") }
        await #expect(throws: RenderGate.Refusal.timedOut) { try await impatient.run(job("given up", 0)) }
        await #expect(throws: RenderGate.Refusal.timedOut) { try await slow.value }
        try await Self.eventually { impatient.waiting == 0 }
        try await Task.sleep(for: .milliseconds(700))
        #expect(!started.withLock { $0 }.contains("given up"), "a render whose caller left is never started")
        // The slot came back: the gate still works.
        #expect(try await impatient.run(job("after", 0)) == "after")
    }

    @Test func manyRequestsAtOnceAllGetAnAnswer() async throws {
        let gate = RenderGate(width: 2, queueLimit: 1000, timeout: .seconds(30))
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<500 { group.addTask { try await gate.run { index } } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.sorted() == Array(0..<500))
    }
}
