import Dispatch
import Foundation
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

/// On SIGTERM, SIGINT or SIGHUP: remove the temporary file of a write in
/// progress and exit 128 + the signal, so an interrupted run leaves the
/// previous output exactly as it was and nothing behind.
package enum Termination {
    /// Holds the signal sources for the life of the process.
    private final class Handlers: @unchecked Sendable {
        // @unchecked: set once in init and never changed; Dispatch sources are thread-safe.
        let sources: [DispatchSourceSignal]

        init() {
            let queue = DispatchQueue(label: "quakemap.signals")
            sources = [SIGTERM, SIGINT, SIGHUP].map { signalNumber in
                // The default action would kill us before the clean-up runs.
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                source.setEventHandler {
                    AtomicFileWriter.removeFilesInProgress()
                    _exit(128 + signalNumber)
                }
                source.resume()
                return source
            }
        }
    }

    private static let handlers = Handlers()

    /// Sets the handlers up (once; later calls do nothing).
    package static func install() {
        _ = handlers
    }
}
