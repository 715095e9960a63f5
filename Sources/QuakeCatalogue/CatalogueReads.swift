import Foundation
import QuakeKit

/// How busy a server's catalogue connections are: the reads in progress, each holding (or waiting
/// for) one connection of the pool, and how many the pool may open. Counted here, around each
/// query, because neither PostgresNIO's pool nor GRDB's tells its counts.
package final class CatalogueReads: Sendable {
    /// The pool's connections at most (PostgreSQL's `--database-connections`, SQLite's readers).
    package let connections: Int
    private let counts = Locked((inProgress: 0, total: 0))

    init(connections: Int) {
        self.connections = connections
    }

    /// Reads in progress now (a listener for ingests' notifications holds one for as long as it listens).
    package var inProgress: Int { counts.withLock { $0.inProgress } }

    /// Reads begun since the catalogue was opened.
    package var total: Int { counts.withLock { $0.total } }

    func during<T>(_ body: () async throws -> T) async throws -> T {
        counts.withLock { $0.inProgress += 1; $0.total += 1 }
        defer { counts.withLock { $0.inProgress -= 1 } }
        return try await body()
    }
}

/// A store whose every query is counted in ``CatalogueReads``: each is one lease of a connection.
struct CountedReads: CatalogueStore {
    let base: any CatalogueStore
    let reads: CatalogueReads

    init(_ base: any CatalogueStore, connections: Int) {
        self.base = base
        reads = CatalogueReads(connections: connections)
    }

    func ingest(_ plan: IngestPlan, rows: @escaping IngestRows) async throws -> IngestReport {
        try await reads.during { try await base.ingest(plan, rows: rows) }
    }

    func events(_ predicate: CataloguePredicate, after cursor: CatalogueCursor?, count: Int) async throws
        -> [(event: SeismicEvent, cursor: CatalogueCursor)] {
        try await reads.during { try await base.events(predicate, after: cursor, count: count) }
    }

    func largest(_ predicate: CataloguePredicate, count: Int) async throws -> [SeismicEvent] {
        try await reads.during { try await base.largest(predicate, count: count) }
    }

    func forEachPosition(_ body: (String, TilePoint) throws -> Void) async throws {
        try await reads.during { try await base.forEachPosition(body) }
    }

    func events(keys: [String]) async throws -> [SeismicEvent] {
        try await reads.during { try await base.events(keys: keys) }
    }

    func changes(after stamp: Int64, count: Int) async throws -> [CatalogueChange] {
        try await reads.during { try await base.changes(after: stamp, count: count) }
    }

    func state() async throws -> CatalogueState {
        try await reads.during { try await base.state() }
    }

    func watch(_ changed: @escaping @Sendable () async -> Void) async throws {
        try await reads.during { try await base.watch(changed) }
    }

    func syncMark(_ query: String) async throws -> Date? {
        try await reads.during { try await base.syncMark(query) }
    }

    func close() async { await base.close() }
}
