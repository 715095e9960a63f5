import Foundation

/// Runs a synchronous producer (a feed reader) on a thread of its own and hands what it makes
/// to an async consumer (PostgreSQL's `COPY`), at most two chunks ahead: the producer waits for
/// the consumer, so memory stays that of a few chunks however long the feed.
final class ChunkHandOff<Chunk: Sendable, Outcome: Sendable>: @unchecked Sendable {
    // @unchecked: `stopped` is guarded by `lock`; the semaphore and continuation are thread-safe.
    private let room = DispatchSemaphore(value: 2)
    private let lock = NSLock()
    private var stopped = false
    private let continuation: AsyncThrowingStream<Chunk, Error>.Continuation
    /// The chunks, in order; ends with the producer's error if it failed.
    let chunks: AsyncThrowingStream<Chunk, Error>
    private let finished: Task<Outcome, Error>

    /// Starts `produce`, which calls its argument with each chunk in order and returns its outcome.
    init(_ produce: @escaping @Sendable (_ send: (Chunk) throws -> Void) throws -> Outcome) {
        (chunks, continuation) = AsyncThrowingStream.makeStream(of: Chunk.self, bufferingPolicy: .unbounded)
        let (outcome, resolve) = AsyncThrowingStream.makeStream(of: Outcome.self, bufferingPolicy: .unbounded)
        let continuation = continuation
        finished = Task {
            for try await value in outcome { return value }
            throw CancellationError()
        }
        let thread = Thread { [self] in
            do {
                let value = try produce { chunk in
                    room.wait()
                    if lock.withLock({ stopped }) { throw CancellationError() }
                    continuation.yield(chunk)
                }
                continuation.finish()
                resolve.yield(value)
                resolve.finish()
            } catch {
                continuation.finish(throwing: error)
                resolve.finish(throwing: error)
            }
        }
        thread.name = "quakemap-staging"
        thread.start()
    }

    /// The consumer is done with a chunk: the producer may make another.
    func consumed() { room.signal() }

    /// Stops the producer at its next chunk (the consumer failed) and waits for it to end.
    func stop() async {
        lock.withLock { stopped = true }
        room.signal()
        _ = try? await finished.value
    }

    /// The producer's outcome, once it has ended.
    var outcome: Outcome {
        get async throws { try await finished.value }
    }
}
