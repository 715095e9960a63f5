import Foundation

/// A value behind a lock. `NSLock` rather than the standard library's `Mutex`:
/// on Linux `Mutex` waits on raw futexes, which ThreadSanitizer cannot see, so
/// every correctly locked access would be reported as a race.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `lock`.
    private var value: Value
    private let lock = NSLock()

    /// A lock around `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value while holding the lock.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
