import Foundation
import QuakeKit

/// Rendered images kept for repeated requests, up to a byte budget; the
/// oldest entry goes first. Keys include the catalogue version, so a refresh
/// makes old entries unreachable and they age out.
final class ResponseCache: Sendable {
    private struct State {
        var entries: [String: Data] = [:]
        var order: [String] = []
        var head = 0
        var bytes = 0
    }

    private let budget: Int
    private let state = Locked(State())

    init(budget: Int) {
        self.budget = budget
    }

    func value(for key: String) -> Data? {
        state.withLock { $0.entries[key] }
    }

    func store(_ data: Data, for key: String) {
        guard data.count <= budget else { return }
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            state.entries[key] = data
            state.order.append(key)
            state.bytes += data.count
            while state.bytes > budget, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                state.bytes -= state.entries.removeValue(forKey: oldest)?.count ?? 0
            }
            // Drop the spent part of the queue now and then, not on every eviction.
            if state.head > 1024 && state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
    }
}
