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

    /// `work` on what `read` reads, both within one slot: the read waits for the slot as a
    /// render does (so no more requests hold their events at once than draw), then `work`
    /// runs on the render queue. The slot is given back when `work` ends, or when `read` throws;
    /// a caller that gives up waiting for `work` (the timeout) leaves it the slot until it ends.
    func run<Events: Sendable, T: Sendable>(reading read: @Sendable () async throws -> Events,
                                            _ work: @escaping @Sendable (Events) throws -> T) async throws -> T {
        try await acquire()
        let events: Events
        do {
            events = try await read()
        } catch {
            release()
            throw error
        }
        return try await runHolding { try work(events) }
    }

    /// `work`'s result, computed on the render queue.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await acquire()
        return try await runHolding(work)
    }

    /// Waits for a free slot and takes it; refuses at once when too many wait already.
    private func acquire() async throws {
        let waiter = Outcome<Void>()
        let admitted: Bool? = slots.withLock { slots in
            if slots.free > 0 {
                slots.free -= 1
                return true
            }
            guard slots.waiting.count < queueLimit else { return nil }
            // A waiter that gave up (timed out) passes the slot on.
            slots.waiting.append { [self] in if !waiter.settle(.success(())) { release() } }
            return false
        }
        guard let admitted else { throw Refusal.busy }
        if admitted { return }
        try await withCheckedThrowingContinuation { continuation in
            waiter.install(continuation)
            waiter.startTimer(after: timeout, on: timers) {
                waiter.settle(.failure(Refusal.timedOut))
            }
        }
    }

    /// Runs `work` on the render queue with the slot the caller holds, giving it back when
    /// `work` ends; the caller stops waiting after the timeout.
    private func runHolding<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let outcome = Outcome<T>()
        return try await withCheckedThrowingContinuation { continuation in
            outcome.install(continuation)
            queue.async { [self] in
                defer { release() }
                guard !outcome.isSettled else { return }
                outcome.settle(Result(catching: work))
            }
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

    /// Settles the outcome with `result` unless it is settled already; whether it did.
    @discardableResult
    func settle(_ result: Result<T, any Error>) -> Bool {
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
        guard case .some(let waiting) = continuation else { return false }
        timer.withLock { $0?.cancel() }
        waiting?.resume(with: result)
        return true
    }
}
