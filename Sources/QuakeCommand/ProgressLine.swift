import Foundation

/// One line on standard error rewritten in place (a terminal only), for
/// fetches of many slices; cleared before the run's own lines.
package final class ProgressLine: @unchecked Sendable {
    // @unchecked: `shown` is only touched under `lock`.
    private let enabled: Bool
    private let lock = NSLock()
    private var shown = false

    package init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Replaces the line with `text`.
    package func show(_ text: String) {
        guard enabled else { return }
        lock.withLock {
            shown = true
            FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
        }
    }

    /// Removes the line, if one was shown.
    package func clear() {
        guard enabled else { return }
        lock.withLock {
            if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            shown = false
        }
    }
}
