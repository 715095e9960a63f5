import Foundation

/// A value behind a lock. `NSLock` rather than the standard library's `Mutex`:
/// on Linux `Mutex` waits on raw futexes, which ThreadSanitizer cannot see, so
/// every correctly locked access would be reported as a race.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `lock`.
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
