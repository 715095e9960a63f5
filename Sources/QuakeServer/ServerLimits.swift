#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HummingbirdCore
import Logging

/// The process's descriptor limit and the connection cap derived from it.
package enum ServerLimits {
    /// Descriptors kept back from connections: the listening socket, feeds
    /// being read, the log, and the runtime's own.
    static let reservedDescriptors = 64

    /// Raises the soft limit on open descriptors to the hard limit, so that
    /// the cap, not `EMFILE` in the middle of accepting, is what bounds
    /// connections. Returns the soft limit in force afterwards.
    @discardableResult
    package static func raiseDescriptorLimit() -> Int {
        guard var limit = current() else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return count(limit.rlim_cur)
    }

    /// The soft limit on open descriptors now in force.
    package static func descriptorLimit() -> Int {
        current().map { count($0.rlim_cur) } ?? 1024
    }

    private static func current() -> rlimit? {
        var limit = rlimit()
        return getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? limit : nil
    }

    /// A limit as a count; "unlimited" (all bits set) is read as `Int32.max`.
    private static func count(_ limit: rlim_t) -> Int {
        Int(min(limit, rlim_t(Int32.max)))
    }

    /// Connections a process with `descriptors` open files may hold, keeping
    /// ``reservedDescriptors`` for everything else (at least 16).
    package static func connectionCap(descriptors: Int = descriptorLimit()) -> Int {
        max(16, descriptors - reservedDescriptors)
    }
}

/// Hummingbird's connection limit, with one warning when the cap is reached
/// and one line when connections are accepted again: without them a full
/// server looks hung from the outside.
struct ConnectionCap: AvailableConnectionsDelegate {
    let maximum: Int
    let logger: Logger
    private var open = 0
    private var saturated = false

    init(_ maximum: Int, logger: Logger) {
        self.maximum = maximum
        self.logger = logger
    }

    mutating func connectionOpened() {
        open += 1
        if open >= maximum, !saturated {
            saturated = true
            logger.warning("\(open) connections open, the cap (--max-connections \(maximum)): new connections wait until one closes",
                           metadata: ["outcome": "connection-cap", "connections": .stringConvertible(open)])
        }
    }

    mutating func connectionClosed() {
        open -= 1
        // Below nine tenths again: a server hovering at the cap logs twice, not on every connection.
        if saturated, open < maximum - max(1, maximum / 10) {
            saturated = false
            logger.info("\(open) connections open: accepting again", metadata: ["outcome": "connection-cap-cleared"])
        }
    }

    func isAcceptingNewConnections() -> Bool {
        open < maximum
    }
}
