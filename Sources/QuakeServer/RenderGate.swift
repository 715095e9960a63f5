import Dispatch
import Foundation
import Synchronization

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
    private let slots: DispatchSemaphore
    private let timeout: Duration
    private let queueLimit: Int
    private let state = Mutex(0)

    init(width: Int, queueLimit: Int, timeout: Duration) {
        slots = DispatchSemaphore(value: max(1, width))
        self.timeout = timeout
        self.queueLimit = queueLimit
    }

    /// `work`'s result, computed on the render queue.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let admitted = state.withLock { waiting in
            guard waiting < queueLimit else { return false }
            waiting += 1
            return true
        }
        guard admitted else { throw Refusal.busy }
        let outcome = Outcome<T>()
        return try await withCheckedThrowingContinuation { continuation in
            outcome.install(continuation)
            queue.async { [self] in
                slots.wait()
                state.withLock { $0 -= 1 }
                defer { slots.signal() }
                // Work whose caller has given up is not started at all.
                guard !outcome.isSettled else { return }
                outcome.settle(Result(catching: work))
            }
            let timeout = self.timeout
            outcome.startTimer {
                try? await Task.sleep(for: timeout)
                outcome.settle(.failure(Refusal.timedOut))
            }
        }
    }
}

/// A continuation resumed once, by whichever of the render and the timer comes first.
private final class Outcome<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)
    private let settled = Mutex(false)
    private let timer = Mutex<Task<Void, Never>?>(nil)

    func install(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    /// Runs `body` (the timeout) until the outcome is settled.
    func startTimer(_ body: @escaping @Sendable () async -> Void) {
        let task = Task { await body() }
        timer.withLock { $0 = task }
        if isSettled { task.cancel() }
    }

    var isSettled: Bool { settled.withLock { $0 } }

    func settle(_ result: Result<T, any Error>) {
        let first = settled.withLock { done in
            defer { done = true }
            return !done
        }
        guard first, let continuation = continuation.withLock({ $0.take() }) else { return }
        timer.withLock { $0?.cancel() }
        continuation.resume(with: result)
    }
}
