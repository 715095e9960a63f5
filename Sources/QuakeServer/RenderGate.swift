import Dispatch
import Foundation
import QuakeKit

/// Runs drawing off the server's threads, a few at a time: at most `width`
/// renders run at once, at most `queueLimit` wait, and a caller stops waiting
/// after `timeout` (the render, which cannot be interrupted, finishes in the
/// background and still counts against the width). Requests that only read
/// JSON never wait behind a render.
final class RenderGate: Sendable {
    enum Refusal: Error, Equatable {
        /// Too many renders already waiting.
        case busy
        /// The render took longer than the timeout.
        case timedOut
    }

    private let queue = DispatchQueue(label: "quakemap.render", attributes: .concurrent)
    // Timeouts fire on a queue of their own, not in a task: a render can keep every thread of
    // the cooperative pool busy (2 on a 2-core machine), and a sleeping task then wakes only when
    // the render is done. A serial queue gets a thread even while the others are busy.
    private let timers = DispatchQueue(label: "quakemap.render-timeouts")
    private let timeout: Duration
    private let queueLimit: Int
    // Free slots, and the renders waiting for one (in arrival order). Waiting
    // costs no thread: a render is dispatched only when it holds a slot.
    private let slots: Locked<(free: Int, waiting: [@Sendable () -> Void])>

    init(width: Int, queueLimit: Int, timeout: Duration) {
        slots = Locked((max(1, width), []))
        self.timeout = timeout
        self.queueLimit = queueLimit
    }

    /// `work`'s result, computed on the render queue.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let outcome = Outcome<T>()
        let start: @Sendable () -> Void = { [self] in
            queue.async { [self] in
                defer { release() }
                // Work whose caller has given up is not started at all.
                guard !outcome.isSettled else { return }
                outcome.settle(Result(catching: work))
            }
        }
        let admitted: Bool? = slots.withLock { slots in
            if slots.free > 0 {
                slots.free -= 1
                return true
            }
            guard slots.waiting.count < queueLimit else { return nil }
            slots.waiting.append(start)
            return false
        }
        guard let admitted else { throw Refusal.busy }
        return try await withCheckedThrowingContinuation { continuation in
            outcome.install(continuation)
            if admitted { start() }
            outcome.startTimer(after: timeout, on: timers) {
                outcome.settle(.failure(Refusal.timedOut))
            }
        }
    }

    /// Renders waiting for a slot now.
    var waiting: Int { slots.withLock { $0.waiting.count } }

    /// Hands the slot to the first waiting render, or frees it.
    private func release() {
        let next: (@Sendable () -> Void)? = slots.withLock { slots in
            guard !slots.waiting.isEmpty else {
                slots.free += 1
                return nil
            }
            return slots.waiting.removeFirst()
        }
        next?()
    }
}

/// A continuation resumed once, by whichever of the render and the timer comes
/// first. A render handed a slot by another request may finish before its
/// continuation is installed; its result waits here until then.
private final class Outcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var settled = false
    }

    private let state = Locked(State())
    private let timer = Locked<DispatchWorkItem?>(nil)

    func install(_ continuation: CheckedContinuation<T, any Error>) {
        let early: Result<T, any Error>? = state.withLock { state in
            guard let early = state.early else {
                state.continuation = continuation
                return nil
            }
            state.early = nil
            return early
        }
        if let early { continuation.resume(with: early) }
    }

    /// Runs `body` (the timeout) on `queue` after `delay`, unless the outcome is settled first.
    func startTimer(after delay: Duration, on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
        let item = DispatchWorkItem(block: body)
        timer.withLock { $0 = item }
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        queue.asyncAfter(deadline: .now() + max(0, seconds), execute: item)
        if isSettled { item.cancel() }
    }

    var isSettled: Bool { state.withLock { $0.settled } }

    func settle(_ result: Result<T, any Error>) {
        let continuation: CheckedContinuation<T, any Error>?? = state.withLock { state in
            guard !state.settled else { return .none }
            state.settled = true
            guard let continuation = state.continuation else {
                state.early = result
                return .some(nil)
            }
            state.continuation = nil
            return .some(continuation)
        }
        guard case .some(let waiting) = continuation else { return }
        timer.withLock { $0?.cancel() }
        waiting?.resume(with: result)
    }
}
