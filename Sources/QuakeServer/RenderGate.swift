import Dispatch
import Foundation
import QuakeKit

/// Runs drawing off the server's threads, a few at a time: at most `width`
/// slots are held at once, at most `queueLimit` renders wait (in arrival order), and a
/// caller stops waiting after `timeout` (the render, which cannot be interrupted, finishes
/// in the background and still holds its slots). A render holds one slot, and one more for
/// each million events it may draw (``slots(forEvents:)``): its events and its scene take
/// about 110 bytes each, so the width bounds memory as well as cores, and a map of a whole
/// large catalogue is drawn alone. Requests that only read JSON never wait behind a render.
final class RenderGate: Sendable {
    enum Refusal: Error, Equatable {
        /// Too many renders already waiting.
        case busy
        /// The render took longer than the timeout.
        case timedOut
    }

    /// Why a render was refused, as the server's metrics tell it.
    enum RefusalReason: String, CaseIterable, Sendable {
        /// ``Refusal/busy``: the queue was full.
        case queueFull = "queue_full"
        /// ``Refusal/timedOut`` before a slot came free.
        case queueTimeout = "queue_timeout"
        /// ``Refusal/timedOut`` while drawing (the render goes on, holding its slots).
        case renderTimeout = "render_timeout"
    }

    /// What the gate tells as it goes (the server's metrics): each refusal, and each render's
    /// wait for its slots when it gets them. Nothing by default.
    struct Reporting: Sendable {
        var refused: @Sendable (RefusalReason) -> Void = { _ in }
        var admitted: @Sendable (_ waited: Duration) -> Void = { _ in }
    }

    private let queue = DispatchQueue(label: "quakemap.render", attributes: .concurrent)
    // Timeouts fire on a queue of their own, not in a task: a render can keep every thread of
    // the cooperative pool busy (2 on a 2-core machine), and a sleeping task then wakes only when
    // the render is done. A serial queue gets a thread even while the others are busy.
    private let timers = DispatchQueue(label: "quakemap.render-timeouts")
    private let timeout: Duration
    private let queueLimit: Int
    /// Slots in all.
    let width: Int
    private let reporting: Reporting
    // Free slots, the renders holding some, and the renders waiting for theirs (in arrival order)
    // with how many they need. Waiting costs no thread: a render is dispatched only when it holds its slots.
    private let slots: Locked<(free: Int, holding: Int, waiting: [(count: Int, admit: @Sendable () -> Void)])>

    init(width: Int, queueLimit: Int, timeout: Duration, reporting: Reporting = Reporting()) {
        self.width = max(1, width)
        slots = Locked((self.width, 0, []))
        self.timeout = timeout
        self.queueLimit = queueLimit
        self.reporting = reporting
    }

    /// The events one slot stands for.
    static let eventsPerSlot = 1_000_000

    /// The slots a render of at most `events` events holds: one, and one more for each
    /// started million beyond the first, at most the whole width.
    func slots(forEvents events: Int) -> Int {
        min(width, 1 + max(0, events - 1) / Self.eventsPerSlot)
    }

    /// `work` on what `read` reads, both within `events`' slots (``slots(forEvents:)``): the
    /// read waits for them as a render does (so no more requests hold their events at once than
    /// draw), then `work` runs on the render queue. The slots are given back when `work` ends, or
    /// when `read` throws; a caller that gives up waiting for `work` (the timeout) leaves it the
    /// slots until it ends.
    func run<Events: Sendable, T: Sendable>(events: Int = 1, reading read: @Sendable () async throws -> Events,
                                            _ work: @escaping @Sendable (Events) throws -> T) async throws -> T {
        let count = slots(forEvents: events)
        try await acquire(count)
        let events: Events
        do {
            events = try await read()
        } catch {
            release(count)
            throw error
        }
        return try await runHolding(count) { try work(events) }
    }

    /// `work`'s result, computed on the render queue with one slot.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await acquire(1)
        return try await runHolding(1, work)
    }

    /// Waits for `count` free slots and takes them; refuses at once when too many wait already.
    /// Renders are admitted in arrival order: one waiting for the whole width is not passed by
    /// smaller ones, so it is never starved.
    private func acquire(_ count: Int) async throws {
        let waiter = Outcome<Void>()
        let arrived = ContinuousClock.now
        let admitted: Bool? = slots.withLock { slots in
            if slots.waiting.isEmpty, slots.free >= count {
                slots.free -= count
                slots.holding += 1
                return true
            }
            guard slots.waiting.count < queueLimit else { return nil }
            // A waiter that gave up (timed out) passes its slots on.
            slots.waiting.append((count, { [self] in if !waiter.settle(.success(())) { release(count) } }))
            return false
        }
        guard let admitted else {
            reporting.refused(.queueFull)
            throw Refusal.busy
        }
        if !admitted {
            do {
                try await withCheckedThrowingContinuation { continuation in
                    waiter.install(continuation)
                    waiter.startTimer(after: timeout, on: timers) {
                        waiter.settle(.failure(Refusal.timedOut))
                    }
                }
            } catch {
                // Told here, on the caller's side: counted before its 503 is sent.
                reporting.refused(.queueTimeout)
                throw error
            }
        }
        reporting.admitted(ContinuousClock.now - arrived)
    }

    /// Runs `work` on the render queue with the `count` slots the caller holds, giving them back
    /// when `work` ends; the caller stops waiting after the timeout.
    private func runHolding<T: Sendable>(_ count: Int, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let outcome = Outcome<T>()
        do {
            return try await withCheckedThrowingContinuation { continuation in
                outcome.install(continuation)
                queue.async { [self] in
                    defer { release(count) }
                    guard !outcome.isSettled else { return }
                    outcome.settle(Result(catching: work))
                }
                outcome.startTimer(after: timeout, on: timers) {
                    outcome.settle(.failure(Refusal.timedOut))
                }
            }
        } catch Refusal.timedOut {
            reporting.refused(.renderTimeout)
            throw Refusal.timedOut
        }
    }

    /// Renders waiting for a slot now.
    var waiting: Int { slots.withLock { $0.waiting.count } }

    /// Renders holding slots now (reading their events or drawing), and the slots they hold;
    /// one that timed out holds them until it ends.
    var holding: (renders: Int, slots: Int) { slots.withLock { ($0.holding, width - $0.free) } }

    /// Gives back `count` slots, and hands them on to the renders waiting first, as many
    /// in a row as they are enough for.
    private func release(_ count: Int) {
        let admitted: [@Sendable () -> Void] = slots.withLock { slots in
            slots.free += count
            slots.holding -= 1
            var admitted: [@Sendable () -> Void] = []
            while let first = slots.waiting.first, first.count <= slots.free {
                slots.free -= first.count
                slots.holding += 1
                admitted.append(slots.waiting.removeFirst().admit)
            }
            return admitted
        }
        for admit in admitted { admit() }
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
