import Foundation
import Hummingbird
import NIOCore
import QuakeCatalogue
import QuakeKit
import ServiceLifecycle

/// The changes a server tells its clients of, as Server-Sent Events (`/collections/quakes/changes`):
/// each event an ingest or a feed refresh created or revised, once, in the order of its change
/// stamp, to every client connected, with no polling. Each change is encoded once and the same
/// bytes go to every client (5,000 clients hold one copy of an ingest, not 5,000).
///
/// A frame is `id: <instance>:<stamp>`, `event: create|update`, `data:` the feature in the
/// items layout. A client that reconnects with `Last-Event-ID` gets what it missed, from the
/// recent changes kept here or from the catalogue; when that cannot be said exactly (too many,
/// events removed since, another catalogue), it gets `event: reload` instead.
package final class ChangeStream: Sendable {
    /// One change, encoded.
    package struct Frame: Sendable {
        package let stamp: Int64
        /// `nil` for a reload.
        package let event: SeismicEvent?
        package let bytes: ByteBuffer
    }

    /// What a new client is sent first.
    package enum Replay: Sendable {
        /// These frames (maybe none), then the live ones.
        case frames([Frame])
        /// Those after the stamp up to the second, which only the catalogue holds: read them there.
        case catalogue(after: Int64, through: Int64)
        /// A reload at the current stamp.
        case reload
    }

    private struct Subscriber {
        let continuation: AsyncStream<ByteBuffer>.Continuation
        let filter: EventFilter
    }

    private struct State {
        var latest: Int64
        var prunedAt: Int64
        /// The recent frames, oldest first; every stamp after ``floor`` is among them.
        var recent: [Frame] = []
        var floor: Int64
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
    }

    /// Names the stamps' sequence: a client's `Last-Event-ID` from another catalogue (or, for
    /// feeds, from another process) is not taken for one of these.
    package let instance: String
    private let state: Locked<State>
    /// Frames kept for clients that reconnect.
    package static let kept = 4096
    /// Frames a client may fall behind by; one slower is disconnected, and reconnects to catch up.
    package static let backlog = 256
    /// Changes sent one by one at most; beyond (a large ingest), clients are told to reload.
    package static let largestBatch = 10_000
    /// Changes replayed to a reconnecting client at most; beyond, it is told to reload.
    package static let largestReplay = 1_000

    package init(instance: String, latest: Int64, prunedAt: Int64 = 0) {
        self.instance = instance
        state = Locked(State(latest: latest, prunedAt: prunedAt, floor: latest))
    }

    /// The last stamp sent.
    package var latest: Int64 { state.withLock { $0.latest } }

    /// Clients connected.
    package var clients: Int { state.withLock { $0.subscribers.count } }

    // MARK: Frames

    /// The frame of one change: `created` says whether the event is new to a client that heard of `since`.
    package static func frame(_ event: SeismicEvent, stamp: Int64, created: Bool, instance: String) -> Frame {
        var bytes = ByteBuffer()
        bytes.reserveCapacity(1024)
        bytes.writeString("id: \(instance):\(stamp)\nevent: \(created ? "create" : "update")\ndata: ")
        // Links relative to the server (one encoding for every client, whatever host it named).
        bytes.writeBytes(FeatureBytes.feature(event, base: ""))
        bytes.writeString("\n\n")
        return Frame(stamp: stamp, event: event, bytes: bytes)
    }

    package func reloadFrame(_ stamp: Int64) -> Frame {
        Frame(stamp: stamp, event: nil, bytes: ByteBuffer(string: "id: \(instance):\(stamp)\nevent: reload\ndata: {}\n\n"))
    }

    /// The stamp of a `Last-Event-ID` of this stream, or `nil` (another stream's, or not one).
    func stamp(of lastEventID: String) -> Int64? {
        let parts = lastEventID.trimmingCharacters(in: .whitespaces).split(separator: ":")
        guard parts.count == 2, parts[0] == instance, let stamp = Int64(parts[1]), stamp >= 0 else { return nil }
        return stamp
    }

    // MARK: Sending

    /// Sends `frames` (in stamp order, after ``latest``) to every client whose filter admits
    /// them, keeps them for reconnecting clients, then a reload when `reloadAt` is given.
    package func publish(_ frames: [Frame], reloadAt: Int64? = nil) {
        let reload = reloadAt.map(reloadFrame)
        let all = frames + (reload.map { [$0] } ?? [])
        guard let last = all.last else { return }
        var joined = ByteBuffer()
        joined.reserveCapacity(all.reduce(0) { $0 + $1.bytes.readableBytes })
        for frame in all { joined.writeImmutableBuffer(frame.bytes) }
        let lagging = state.withLock { state -> [Subscriber] in
            state.latest = max(state.latest, last.stamp)
            if let reloadAt { state.prunedAt = max(state.prunedAt, reloadAt) }
            state.recent.append(contentsOf: all)
            if state.recent.count > Self.kept {
                let gone = state.recent.count - Self.kept
                state.floor = state.recent[gone - 1].stamp
                state.recent.removeFirst(gone)
            }
            var lagging: [Int] = []
            for (id, subscriber) in state.subscribers {
                let bytes = subscriber.filter == EventFilter() ? joined : Self.filtered(all, subscriber.filter)
                guard bytes.readableBytes > 0 else { continue }
                if case .dropped = subscriber.continuation.yield(bytes) { lagging.append(id) }
            }
            return lagging.compactMap { state.subscribers.removeValue(forKey: $0) }
        }
        // Outside the lock: finishing runs the stream's termination handler, which takes it.
        for subscriber in lagging { subscriber.continuation.finish() }
    }

    /// The frames of `frames` that `filter` admits (reloads always), joined.
    static func filtered(_ frames: [Frame], _ filter: EventFilter) -> ByteBuffer {
        var bytes = ByteBuffer()
        for frame in frames where frame.event.map(filter.matches) ?? true { bytes.writeImmutableBuffer(frame.bytes) }
        return bytes
    }

    /// A heartbeat to every client: proxies keep the connection, and a page knows the server is there.
    package func heartbeat(at date: Date = Date()) {
        let bytes = ByteBuffer(string: "event: heartbeat\ndata: {\"time\":\"\(CivilTime.iso8601(date))\"}\n\n")
        state.withLock { state in
            for subscriber in state.subscribers.values { subscriber.continuation.yield(bytes) }
        }
    }

    /// Ends every client's stream (the server is stopping): clients reconnect elsewhere.
    package func finishAll() {
        let subscribers = state.withLock { state in
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
    }

    // MARK: Clients

    /// Adds a client that last heard of `lastEventID` (`nil`: a new one), atomically with what
    /// it is to be sent first, so that it misses nothing and hears nothing twice.
    package func subscribe(lastEventID: String?, filter: EventFilter) -> (replay: Replay, frames: AsyncStream<ByteBuffer>) {
        let (frames, continuation) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .bufferingOldest(Self.backlog))
        let (id, replay) = state.withLock { state -> (Int, Replay) in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = Subscriber(continuation: continuation, filter: filter)
            guard let lastEventID else { return (id, .frames([])) }
            guard let heard = stamp(of: lastEventID), heard <= state.latest, heard >= state.prunedAt else { return (id, .reload) }
            if heard >= state.floor {
                return (id, .frames(state.recent.filter { $0.stamp > heard && ($0.event.map(filter.matches) ?? true) }))
            }
            return (id, .catalogue(after: heard, through: state.latest))
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return (replay, frames)
    }
}

/// Sends every store's heartbeats while the server runs.
struct ChangeHeartbeat: Service {
    let stream: ChangeStream
    let interval: Duration

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                stream.heartbeat()
            }
        }
    }
}
