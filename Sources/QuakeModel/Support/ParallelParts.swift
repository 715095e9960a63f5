import Foundation

/// Work cut into parts that run on all cores at once.
package enum ParallelParts {
    /// How many parts to cut work into: one per core.
    package static var cores: Int { max(1, min(ProcessInfo.processInfo.activeProcessorCount, 16)) }

    /// `body(0)`, …, `body(parts - 1)` run concurrently; the results come back in part order.
    ///
    /// `body` may read shared state but must write only what its part owns:
    /// that is what makes handing it to other threads sound, which the type
    /// system cannot check for the borrowed buffers the parsers pass in.
    // Inlinable, so that each caller's stage specializes it for its own results.
    @inlinable
    package static func map<T>(parts: Int, _ body: (Int) -> T) -> [T] {
        guard parts > 1 else { return (0..<max(parts, 0)).map(body) }
        return withoutActuallyEscaping(body) { body in
            let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: parts)
            results.initialize(repeating: nil)
            defer {
                _ = results.deinitialize()
                results.deallocate()
            }
            let shared = Unchecked(value: (body, results))
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                shared.value.1[part] = shared.value.0(part)
            }
            return results.map { $0! }
        }
    }
}

/// Carries a value into concurrent code whose safety is argued at the use.
@usableFromInline
struct Unchecked<Value>: @unchecked Sendable {
    @usableFromInline let value: Value

    @usableFromInline init(value: Value) { self.value = value }
}
