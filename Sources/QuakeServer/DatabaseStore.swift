import Foundation
import Logging
import QuakeCatalogue
import QuakeKit
import ServiceLifecycle

/// Serves a catalogue kept in a database (SQLite or PostgreSQL + PostGIS),
/// written by `quakemap ingest`: requests query it, through its indexes, and
/// nothing but its state (one row) is held here. Several servers may read one
/// catalogue; each learns of an ingest from PostgreSQL's `NOTIFY` at once and,
/// where none comes (SQLite, a hot standby), by asking the state every interval.
package actor DatabaseStore: EventStore {
    private let catalogue: QuakeCatalogue.Catalogue
    private let interval: Duration
    private let log: Logger
    private var state: CatalogueState
    private var loadedAt = Date()
    private var failedRefreshes = 0
    private var lastFailure: (date: Date, message: String)?
    /// Whether ingests' notifications arrive (PostgreSQL's primary), or only the polls.
    private var notified = false
    /// What clients of the change stream are told of each ingest.
    package nonisolated let changes: ChangeStream
    /// The last telling of changes to the stream: each waits for the one before, so that
    /// changes go out once each and in order however refreshes overlap.
    private var telling: Task<Void, Never>?

    private init(catalogue: QuakeCatalogue.Catalogue, state: CatalogueState, interval: Duration, log: Logger) {
        self.catalogue = catalogue
        self.state = state
        self.interval = interval
        self.log = log
        changes = ChangeStream(instance: state.instance, latest: state.changes, prunedAt: state.prunedAt)
    }

    /// Opens the catalogue at `location` to read, through up to `connections` connections.
    ///
    /// - Throws: ``CatalogueError``: missing, unreachable, refused, or not a catalogue.
    package static func open(_ location: CatalogueLocation, connections: Int, refresh interval: Duration,
                             log: Logger) async throws -> DatabaseStore {
        let catalogue = try await QuakeCatalogue.Catalogue.open(reading: location, connections: connections)
        do {
            return DatabaseStore(catalogue: catalogue, state: try await catalogue.state(), interval: interval, log: log)
        } catch {
            await catalogue.close()
            throw error
        }
    }

    package var description: String { catalogue.location.description }

    package func served() -> ServedEvents { .database(catalogue, state) }

    package func health() -> Health {
        Health(status: "ok", source: catalogue.location.kind, events: state.events, version: state.tag,
               loadedAt: CivilTime.iso8601(loadedAt), changedAt: state.changed.map(CivilTime.iso8601),
               notified: notified, failedRefreshes: failedRefreshes,
               lastFailure: lastFailure.map { Health.Failure(at: CivilTime.iso8601($0.date), message: $0.message) })
    }

    /// Reads the state again; a failure (the database restarting) keeps serving the last one.
    /// Returns whether it changed.
    @discardableResult
    package func refresh() async -> Bool {
        do {
            let next = try await catalogue.state()
            guard next != state else { return false }
            let before = state.tag
            state = next
            loadedAt = Date()
            if next.tag != before { log.info("catalogue \(before) → \(next.tag): \(next.events) events") }
            let previous = telling
            telling = Task { [catalogue, changes, log] in
                await previous?.value
                await Self.tell(changes, of: next, from: catalogue, log: log)
            }
            return true
        } catch {
            failedRefreshes += 1
            lastFailure = (Date(), "\(error)")
            log.warning("cannot read the catalogue's state, still serving \(state.tag): \(error)")
            return false
        }
    }

    private func setNotified(_ value: Bool) { notified = value }

    /// Tells the stream's clients what changed up to `state`: the changed events one by one, or
    /// a reload when an ingest changed too many or removed events. A failed read (the database
    /// restarting) is told as a reload too: the clients then ask for what they show.
    private static func tell(_ stream: ChangeStream, of state: CatalogueState, from catalogue: QuakeCatalogue.Catalogue,
                             log: Logger) async {
        let heard = stream.latest
        guard state.changes > heard || state.prunedAt > heard else { return }
        do {
            let changed = try await catalogue.changes(after: heard, count: ChangeStream.largestBatch + 1)
            if changed.count > ChangeStream.largestBatch {
                stream.publish([], reloadAt: max(state.changes, changed.last?.stamp ?? 0))
                return
            }
            let frames = changed.map { ChangeStream.frame($0.event, stamp: $0.stamp, created: $0.isCreation(after: heard),
                                                          instance: stream.instance) }
            let last = frames.last?.stamp ?? heard
            stream.publish(frames, reloadAt: state.prunedAt > heard ? max(state.prunedAt, last) : nil)
        } catch {
            log.warning("cannot read the catalogue's changes, telling clients to reload: \(error)")
            stream.publish([], reloadAt: state.changes)
        }
    }

    /// The changes after `stamp` up to `through`, for a client that reconnects; `nil`: too many to replay.
    package func replay(after stamp: Int64, through: Int64, filter: EventFilter) async throws -> [ChangeStream.Frame]? {
        let changed = try await catalogue.changes(after: stamp, count: ChangeStream.largestReplay + 1)
        guard changed.count <= ChangeStream.largestReplay else { return nil }
        return changed.filter { $0.stamp <= through && (filter == EventFilter() || filter.matches($0.event)) }.map {
            ChangeStream.frame($0.event, stamp: $0.stamp, created: $0.isCreation(after: stamp), instance: changes.instance)
        }
    }

    /// Polls every interval and, where the database announces ingests, listens too,
    /// until cancelled. A listener that fails (a standby, a dropped connection) is tried
    /// again after a while; the polls go on meanwhile.
    package func keepFresh() async {
        let interval = self.interval, catalogue = self.catalogue, log = self.log
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    do { try await Task.sleep(for: interval) } catch { return }
                    await self.refresh()
                }
            }
            group.addTask {
                var reported = false
                while !Task.isCancelled {
                    do {
                        await self.setNotified(true)
                        // An ingest between the last poll and the LISTEN is caught by the next poll.
                        try await catalogue.watch { await self.refresh() }
                        await self.setNotified(false)
                        return  // nothing to listen to: SQLite
                    } catch {
                        await self.setNotified(false)
                        if !reported {
                            log.info("not notified of ingests (\(error)); asking every \(interval)")
                            reported = true
                        }
                    }
                    do { try await Task.sleep(for: interval * 30) } catch { return }
                }
            }
            await group.waitForAll()
        }
    }

    /// Gives the connections back.
    package func close() async { await catalogue.close() }
}

/// What `/healthz` answers: which events a server serves, at which version, and how its refreshes go.
package struct Health: Codable, Sendable {
    package struct Failure: Codable, Sendable {
        package var at: String
        package var message: String
    }

    package var status: String
    /// Where the events come from: `feeds`, `sqlite` or `postgresql` (no path or host: the page is public).
    package var source: String
    package var events: Int
    /// The version in every ETag.
    package var version: String
    /// When this version was read.
    package var loadedAt: String
    /// When an ingest last changed the catalogue.
    package var changedAt: String?
    /// Whether the catalogue announces ingests to this server (else it asks every refresh interval).
    package var notified: Bool?
    package var failedRefreshes: Int
    package var lastFailure: Failure?
    /// A catalogue's vector tile index: `ready` for the version served, else `building`.
    package var tileIndex: String?
}

/// What the endpoints read: feeds in memory or a catalogue in a database.
package protocol EventStore: Sendable {
    /// What the change stream's clients are told.
    var changes: ChangeStream { get }
    /// The changes after a stamp up to another that only the store's catalogue holds, for a
    /// client that reconnects; `nil` when there are too many, or no catalogue to read them from.
    func replay(after stamp: Int64, through: Int64, filter: EventFilter) async throws -> [ChangeStream.Frame]?
    /// The events a request reads, at one version.
    func served() async -> ServedEvents
    /// What `/healthz` answers.
    func health() async -> Health
}

/// Keeps a store fresh for as long as the server runs: a service of its service group,
/// ended by the group's graceful shutdown (SIGTERM, SIGINT).
package struct StoreRefresher: Service {
    private let body: @Sendable () async -> Void

    package init(_ body: @escaping @Sendable () async -> Void) { self.body = body }

    package func run() async throws {
        await cancelWhenGracefulShutdown { await body() }
    }
}
