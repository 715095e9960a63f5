import Foundation
import GRDB
import GRDBSQLite
import QuakeKit

/// A catalogue in a SQLite file, through GRDB: WAL mode, so readers go on
/// while one ingest writes; each ingest one `IMMEDIATE` transaction, so two at
/// once take turns (the second waits up to ``busyTimeout``) and lose nothing.
package final class SQLiteCatalogue: CatalogueStore {
    /// SQLite copies the text it is given (`SQLITE_TRANSIENT`, a macro Swift does not import).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// The most events a box may hold and still be read through the R*Tree.
    private static let treeCap = 20_000

    /// How long a writer waits for another to finish.
    package static let busyTimeout: TimeInterval = 120

    private let path: String
    private let writer: (any DatabaseWriter)?
    private let reader: (any DatabaseReader)?

    /// Read-only connections of a store opened to read concurrently: two per core (at least two).
    package static var concurrentReaders: Int { max(2, ProcessInfo.processInfo.activeProcessorCount * 2) }

    /// Opens `path` to write (created when missing, migrated to the current
    /// schema) or to read (it must exist and have a schema this program knows).
    /// `concurrently`: to read from many tasks at once (a server), through a pool of read-only connections.
    package init(path: String, writing: Bool, concurrently: Bool = false) throws {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.label = "quakemap-catalogue"
        do {
            if writing {
                configuration.prepareDatabase { db in
                    // The staging table and statement journals in temporary files (a feed of millions is
                    // staged, not held), with 16 MiB of their pages cached; 64 MiB of the catalogue's
                    // pages cached, so that a large ingest does not spill to the write-ahead log again and again.
                    try db.execute(sql: "PRAGMA temp_store = FILE; PRAGMA main.cache_size = -65536; PRAGMA temp.cache_size = -16384")
                }
                let pool = try Self.whileBusy { try DatabasePool(path: path, configuration: configuration) }
                writer = pool
                reader = pool
            } else {
                guard FileManager.default.fileExists(atPath: path) else { throw CatalogueError.notFound(path) }
                configuration.readonly = true
                let opened: any DatabaseReader
                if concurrently {
                    configuration.maximumReaderCount = Self.concurrentReaders
                    opened = try DatabasePool(path: path, configuration: configuration)
                } else {
                    opened = try DatabaseQueue(path: path, configuration: configuration)
                }
                writer = nil
                reader = opened
                try opened.read { db in try Self.checkSchema(db, path: path, migrating: false) }
            }
        } catch let error as CatalogueError {
            throw error
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    /// `open` again while it fails busy, up to ``busyTimeout``: a new catalogue's switch to WAL mode
    /// waits for no other process (SQLite calls no busy handler there), and two first ingests open at once.
    private static func whileBusy<Opened>(_ open: () throws -> Opened) throws -> Opened {
        let deadline = ContinuousClock.now + .seconds(busyTimeout)
        while true {
            do {
                return try open()
            } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_BUSY && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }

    /// Refuses a schema newer than this program's, or (to read) none at all.
    private static func checkSchema(_ db: Database, path: String, migrating: Bool) throws {
        let migrator = CatalogueSchema.migrator
        let known = CatalogueSchema.sqliteSteps.last!.name
        if try migrator.hasBeenSuperseded(db) {
            let found = try migrator.appliedIdentifiers(db).sorted().last ?? "?"
            throw CatalogueError.newerSchema(path, found: found, known: known)
        }
        if !migrating, try !migrator.hasCompletedMigrations(db) {
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            if tables.contains("grdb_migrations") {
                let found = try migrator.appliedIdentifiers(db).sorted().last ?? "none"
                throw CatalogueError.notACatalogue(path, reason: "its schema \(found) is older: run 'quakemap ingest' into it once")
            }
            throw tables.isEmpty
                ? CatalogueError.notACatalogue(path, reason: "it holds no events yet (ingest into it first)")
                : CatalogueError.notACatalogue(path, reason: "it has no quakemap schema")
        }
        if !migrating {
            let present = Set(try db.columns(in: "events").map(\.name))
            if let missing = CatalogueSchema.missingDetails(present: present).first {
                throw CatalogueError.notACatalogue(path, reason: "its schema is older (no column '\(missing.spec.column)'): run 'quakemap ingest' into it once")
            }
        }
        if migrating, try !migrator.hasCompletedMigrations(db) {
            let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
            if !tables.isEmpty && !tables.contains("grdb_migrations") {
                throw CatalogueError.notACatalogue(path, reason: "it has tables of its own (\(tables.sorted().prefix(3).joined(separator: ", ")))")
            }
        }
    }

    /// Adds the detail columns a catalogue of step 4 lacks (fields this quakemap knows and the one that
    /// ran the step did not), in the ingest's transaction; refuses columns of a newer quakemap's fields.
    private static func addDetailColumns(_ db: Database, path: String) throws {
        // What the table holds now, inside this transaction: another ingest may have added them while this one waited.
        db.clearSchemaCache()
        let present = try db.columns(in: "events").map(\.name)
        let unknown = CatalogueSchema.unknownColumns(present: present, postgres: false)
        if !unknown.isEmpty {
            let known = CatalogueSchema.sqliteSteps.last!.name
            throw CatalogueError.newerSchema(path, found: "\(known) with the columns \(unknown.joined(separator: ", "))", known: known)
        }
        let missing = CatalogueSchema.missingDetails(present: Set(present))
        if !missing.isEmpty { try db.execute(sql: CatalogueSchema.addColumns(missing, postgres: false)) }
    }

    package func ingest(_ plan: IngestPlan, rows: @escaping IngestRows) async throws -> IngestReport {
        guard let writer else { preconditionFailure("opened to read") }
        let path = path
        do {
            try await writer.read { db in try Self.checkSchema(db, path: path, migrating: true) }
            try Self.migrate(writer)
            return try await writer.writeWithoutTransaction { db in
                var report = IngestReport()
                try db.inTransaction(.immediate) {
                    try Self.addDetailColumns(db, path: path)
                    try Self.checkSchema(db, path: path, migrating: false)
                    report = try Self.write(plan, rows, db)
                    return .commit
                }
                // The write-ahead log into the database, and emptied: a reader opening the catalogue would
                // otherwise read the whole log first (a second after a million-event ingest). A reader
                // still at work keeps it (busy): the next ingest tries again.
                _ = try? db.checkpoint(.truncate)
                return report
            }
        } catch {
            if let error = error as? CatalogueError { throw error }
            throw Self.mapped(error, path: path)
        }
    }

    /// Brings the schema up to date. GRDB's migrator reads which steps are applied before each
    /// step's own transaction: two first ingests at once may both start a step, and the second
    /// fails on the tables the first made. Once the first has committed, asking again finds them.
    private static func migrate(_ writer: any DatabaseWriter) throws {
        let migrator = CatalogueSchema.migrator
        for attempt in 1... {
            do {
                return try migrator.migrate(writer)
            } catch is DatabaseError where attempt < 10 {
                if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
            }
        }
    }

    /// Writes a feed as PostgreSQL does: the events into a temporary table as they are read, their
    /// repeats settled there, then set-wise (one join against the key index rather than a lookup a
    /// row, the repeated-id rule in its SQL spelling).
    private static func write(_ plan: IngestPlan, _ rows: IngestRows, _ db: Database) throws -> IngestReport {
        var report = IngestReport()
        let columns = CatalogueSchema.columns
        let list = columns.joined(separator: ", ")
        try db.execute(sql: """
            CREATE TEMPORARY TABLE staging (ord INTEGER PRIMARY KEY, admitted INTEGER NOT NULL,
                \(zip(columns, CatalogueSchema.sqliteTypes).map { "\($0) \($1)" }.joined(separator: ", ")))
            """)
        defer { try? db.execute(sql: "DROP TABLE temp.staging") }
        let stage = try db.makeStatement(sql: """
            INSERT INTO staging VALUES (?, ?, \(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
            """)
        // Bound through SQLite's own calls: GRDB's arguments cost five times as much a row.
        let handle = stage.sqliteStatement
        var typeKeys = TypeKeys()
        var ordinal: Int64 = 0, keyless = 0
        let staged = try rows { event, admitted in
            sqlite3_bind_int64(handle, 1, ordinal)
            sqlite3_bind_int64(handle, 2, admitted ? 1 : 0)
            Self.bind(event, typeKey: typeKeys.key(event.eventType), handle)
            let code = sqlite3_step(handle)
            sqlite3_reset(handle)
            guard code == SQLITE_DONE else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            ordinal += 1
            if event.id.isEmpty { keyless += 1 }
        }
        report.summary = staged.summary
        let remove = try db.makeStatement(sql: "DELETE FROM staging WHERE ord = ?")
        for ord in staged.replaced {
            remove.setUncheckedArguments([ord])
            try remove.execute()
        }
        report.duplicates = staged.duplicates
        if keyless > 1 {
            try db.execute(sql: "CREATE INDEX temp.staging_key ON staging (key)")
            try db.execute(sql: CatalogueSchema.settleKeyless)
            report.duplicates += db.changesCount
        }
        try Self.tally(&report, db)
        var counts = IngestCounts()
        let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM staging s WHERE EXISTS (SELECT 1 FROM events e WHERE e.key = s.key)") ?? 0
        // Revisions first (of admitted events and of those the filters refused alike), then what is new.
        let stored = "(" + columns.dropFirst().map { "events.\($0)" }.joined(separator: ", ") + ")"
        let incoming = "(" + columns.dropFirst().map { "s.\($0)" }.joined(separator: ", ") + ")"
        let base = try Int64.fetchOne(db, sql: CatalogueSchema.lastChange) ?? 0
        let moved = try Row.fetchAll(db, sql: """
            UPDATE events SET \(columns.dropFirst().map { "\($0) = s.\($0)" }.joined(separator: ", ")), change_stamp = \(base) + s.ord + 1
            FROM staging s
            WHERE events.key = s.key AND \(RevisionPolicy.sqlIsNewer("s.updated_ms", than: "events.updated_ms"))
              AND \(stored) IS NOT \(incoming)
            RETURNING seq, longitude, latitude
            """)
        counts.updated = moved.count
        counts.unchanged = existing - counts.updated
        let fresh = try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM events LIMIT 1)") == 0
        // Into an empty catalogue, indexes are built once after the rows rather than row by row.
        let indexes = fresh ? try String.fetchAll(db, sql: """
            SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' AND sql IS NOT NULL
            """) : []
        for name in fresh ? try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' AND sql IS NOT NULL") : [] {
            try db.execute(sql: "DROP INDEX \(name)")
        }
        let before = try Int64.fetchOne(db, sql: "SELECT coalesce(max(seq), 0) FROM events") ?? 0
        try db.execute(sql: """
            INSERT INTO events (\(list), change_stamp, created_stamp) SELECT \(list), \(base) + ord + 1, \(base) + ord + 1 FROM staging s
            WHERE admitted AND NOT EXISTS (SELECT 1 FROM events e WHERE e.key = s.key) ORDER BY ord
            """)
        counts.new = db.changesCount
        for index in indexes { try db.execute(sql: index) }
        // The R*Tree: packed when it is empty, else point by point in the order of the rows (for it, the fastest).
        var packed = false
        if fresh {
            var points = try Self.points(db)
            packed = try PackedRTree(table: "events_position").load(&points, db)
        }
        if !packed {
            try db.execute(sql: """
                INSERT INTO events_position SELECT seq, longitude, longitude, latitude, latitude FROM events WHERE seq > ?
                """, arguments: [before])
        }
        let move = try db.makeStatement(sql: """
            UPDATE events_position SET min_longitude = ?2, max_longitude = ?2, min_latitude = ?3, max_latitude = ?3 WHERE seq = ?1
            """)
        for row in moved {
            move.setUncheckedArguments([row[0] as Int64, row[1] as Double, row[2] as Double])
            try move.execute()
        }
        if let since = plan.keepSince {
            let cutoff = CataloguePredicate.milliseconds(since, rounding: .up)
            try db.execute(sql: "DELETE FROM events_position WHERE seq IN (SELECT seq FROM events WHERE time_ms < ?)", arguments: [cutoff])
            try db.execute(sql: "DELETE FROM events WHERE time_ms < ?", arguments: [cutoff])
            counts.pruned = db.changesCount
        }
        for source in CatalogueSchema.credits(plan, report.summary) {
            try db.execute(sql: CatalogueSchema.recordSources(postgres: false),
                           arguments: [source, CatalogueSchema.milliseconds(Date())])
        }
        if let query = plan.syncQuery, let newest = report.newestUpdated {
            try db.execute(sql: """
                INSERT INTO sync_marks (query, newest_updated_ms) VALUES (?, ?)
                ON CONFLICT (query) DO UPDATE SET newest_updated_ms = max(newest_updated_ms, excluded.newest_updated_ms)
                """, arguments: [query, CatalogueSchema.milliseconds(max(newest, plan.syncFloor ?? newest))])
        }
        // The planner's statistics, from a sample of each index (a few milliseconds): which of time,
        // magnitude and position narrows a read most.
        try db.execute(sql: "PRAGMA analysis_limit = 2000; ANALYZE events")
        if counts.new + counts.updated + counts.pruned > 0 {
            let given = max(base, try Int64.fetchOne(db, sql: "SELECT max(change_stamp) FROM events") ?? 0)
            // A removal takes a stamp of its own, after the changes.
            let last = given + (counts.pruned > 0 ? 1 : 0)
            try db.execute(sql: CatalogueSchema.bumpState,
                           arguments: [CatalogueSchema.milliseconds(Date()), last, counts.pruned, last])
        }
        report.counts = counts
        return report
    }

    /// The staged events' count, those admitted and the newest `updated`.
    private static func tally(_ report: inout IngestReport, _ db: Database) throws {
        guard let row = try Row.fetchOne(db, sql: CatalogueSchema.tallyStaging) else { return }
        report.events = row[0] ?? 0
        report.admitted = row[1] ?? 0
        report.newestUpdated = (row[2] as Int64?).map(CatalogueSchema.date(milliseconds:))
    }

    /// Binds `event`'s stored values (``SeismicEvent/forEachCatalogueValue(typeKey:_:)``) from the third parameter on.
    private static func bind(_ event: SeismicEvent, typeKey: String, _ handle: OpaquePointer?) {
        var position: Int32 = 3
        event.forEachCatalogueValue(typeKey: typeKey) { value in
            switch value {
            case nil: sqlite3_bind_null(handle, position)
            case .integer(let integer)?: sqlite3_bind_int64(handle, position, integer)
            case .real(let real)?: sqlite3_bind_double(handle, position, real)
            case .text(let text)?: sqlite3_bind_text(handle, position, text, -1, transient)
            }
            position += 1
        }
    }

    /// Every event's position, read through SQLite's own calls.
    private static func points(_ db: Database) throws -> [PackedRTree.Point] {
        let statement = try db.makeStatement(sql: "SELECT seq, longitude, latitude FROM events")
        let handle = statement.sqliteStatement
        var points: [PackedRTree.Point] = []
        while true {
            let code = sqlite3_step(handle)
            guard code == SQLITE_ROW else {
                sqlite3_reset(handle)
                guard code == SQLITE_DONE else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
                return points
            }
            points.append(PackedRTree.Point(id: sqlite3_column_int64(handle, 0), longitude: sqlite3_column_double(handle, 1),
                                            latitude: sqlite3_column_double(handle, 2)))
        }
    }

    /// `predicate`'s conditions and values, its boxes among them.
    private func conditions(_ predicate: CataloguePredicate, _ reader: any DatabaseReader) async throws -> ([String], [SQLValue?]) {
        var conditions = predicate.conditions
        var values: [SQLValue?] = predicate.values
        for parts in predicate.boxes {
            let any = parts.map { _ in
                "(max_longitude >= ? AND min_longitude <= ? AND max_latitude >= ? AND min_latitude <= ?)"
            }.joined(separator: " OR ")
            let bounds = parts.flatMap { [SQLValue.real($0.west), .real($0.east), .real($0.south), .real($0.north)] }
            // A box that holds few events is read through the R*Tree; one that holds many (the Pacific, a
            // dense network) as plain bounds, checked on the rows the time or magnitude index finds: through
            // the tree every one of them would be fetched and sorted. SQLite's planner cannot weigh the two,
            // so the tree is asked first how many it holds, up to a cap (a millisecond).
            let held = try await reader.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM events_position WHERE \(any) LIMIT ?)",
                                 arguments: StatementArguments(bounds.map { Optional($0).databaseValue } + [Self.treeCap.databaseValue]))
            } ?? 0
            if held < Self.treeCap {
                conditions.append("seq IN (SELECT seq FROM events_position WHERE \(any))")
            } else {
                conditions.append("(" + parts.map { _ in "(longitude BETWEEN ? AND ? AND latitude BETWEEN ? AND ?)" }
                    .joined(separator: " OR ") + ")")
            }
            values += bounds.map(Optional.some)
        }
        return (conditions, values)
    }

    package func events(_ predicate: CataloguePredicate, after cursor: CatalogueCursor?, count: Int) async throws
        -> [(event: SeismicEvent, cursor: CatalogueCursor)] {
        guard let reader else { return [] }
        do {
            var (conditions, values) = try await self.conditions(predicate, reader)
            var sorting = false
            if predicate.boundsMagnitude {
                let counted = CatalogueSchema.held(where: conditions)
                let arguments = StatementArguments(values.map(\.databaseValue) + [CatalogueSchema.fewMatches.databaseValue])
                sorting = try await reader.read { db in try Int.fetchOne(db, sql: counted, arguments: arguments) ?? 0 } < CatalogueSchema.fewMatches
            }
            let sql = CatalogueSchema.page(where: conditions, after: cursor, values: &values, sortingMatches: sorting)
            let arguments = StatementArguments(values.map(\.databaseValue) + [count.databaseValue])
            return try await reader.read { db in
                var events: [(event: SeismicEvent, cursor: CatalogueCursor)] = []
                events.reserveCapacity(min(count, 100_000))
                try Self.forEachRow(db, sql, arguments) { handle in
                    events.append((Self.event(handle, offset: 1),
                                   CatalogueCursor(timeMilliseconds: sqlite3_column_int64(handle, 3), seq: sqlite3_column_int64(handle, 0))))
                }
                return events
            }
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    package func largest(_ predicate: CataloguePredicate, count: Int) async throws -> [SeismicEvent] {
        guard let reader else { return [] }
        do {
            let (conditions, values) = try await self.conditions(predicate, reader)
            return try await Self.events(reader, CatalogueSchema.largest(where: conditions),
                                         StatementArguments(values.map(\.databaseValue) + [count.databaseValue]))
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    package func forEachPosition(_ body: (String, TilePoint) throws -> Void) async throws {
        guard let reader else { return }
        do {
            // One read transaction: one state of the catalogue, row by row.
            let rows = try await reader.read { db in
                var rows: [(String, TilePoint)] = []
                try Self.forEachRow(db, CatalogueSchema.positions, StatementArguments()) { handle in
                    rows.append((Self.text(handle, 0), TilePoint(
                        latitude: sqlite3_column_double(handle, 1), longitude: sqlite3_column_double(handle, 2),
                        magnitude: sqlite3_column_double(handle, 3),
                        time: CatalogueSchema.date(milliseconds: sqlite3_column_int64(handle, 4)))))
                }
                return rows
            }
            for (key, point) in rows { try body(key, point) }
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    package func events(keys: [String]) async throws -> [SeismicEvent] {
        guard let reader, !keys.isEmpty else { return [] }
        do {
            return try await Self.events(reader, CatalogueSchema.events(keys: keys.count), StatementArguments(keys.map(\.databaseValue)))
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    package func changes(after stamp: Int64, count: Int) async throws -> [CatalogueChange] {
        guard let reader else { throw CatalogueError.database(path, reason: "closed") }
        do {
            return try await reader.read { db in
                var changes: [CatalogueChange] = []
                let stampColumn = Int32(1 + CatalogueSchema.readColumns.count)
                try Self.forEachRow(db, CatalogueSchema.changes, [stamp, count]) {
                    let created = sqlite3_column_type($0, stampColumn + 1) == SQLITE_NULL ? nil : sqlite3_column_int64($0, stampColumn + 1)
                    changes.append(CatalogueChange(stamp: sqlite3_column_int64($0, stampColumn), created: created,
                                                   event: Self.event($0, offset: 1)))
                }
                return changes
            }
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    package func state() async throws -> CatalogueState {
        guard let reader else { throw CatalogueError.database(path, reason: "closed") }
        do {
            return try await reader.read { db in
                guard let row = try Row.fetchOne(db, sql: CatalogueSchema.readState(postgres: false)) else {
                    throw CatalogueError.notACatalogue(path, reason: "its catalogue_state has no row")
                }
                let changed: Int64? = row[3], newest: Int64? = row[6], oldest: Int64? = row[7]
                var state = CatalogueState(instance: row[0], version: row[1], events: row[2],
                                           changed: changed.map(CatalogueSchema.date(milliseconds:)),
                                           newest: newest.map(CatalogueSchema.date(milliseconds:)),
                                           oldest: oldest.map(CatalogueSchema.date(milliseconds:)), largestMagnitude: row[8])
                state.changes = row[4]
                state.prunedAt = row[5]
                state.sources = CatalogueSchema.sources(row[9])
                return state
            }
        } catch let error as CatalogueError {
            throw error
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    /// SQLite announces nothing to other processes: its readers poll ``state()`` (one row).
    package func watch(_ changed: @escaping @Sendable () async -> Void) async throws {}

    package func syncMark(_ query: String) async throws -> Date? {
        guard let reader else { return nil }
        do {
            return try await reader.read { db in
                guard try db.tableExists("sync_marks") else { return nil }
                return try Int64.fetchOne(db, sql: "SELECT newest_updated_ms FROM sync_marks WHERE query = ?", arguments: [query])
                    .map(CatalogueSchema.date(milliseconds:))
            }
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    package func close() async {
        try? writer?.close()
        if writer == nil { try? reader?.close() }
    }

    /// Calls `body` with the statement positioned on each row of `sql`: GRDB steps it, and the
    /// columns are read through SQLite's own calls (GRDB's typed decoding a column costs most of a read).
    /// The events of `sql`'s rows (`seq`, then ``CatalogueSchema/readColumns``).
    private static func events(_ reader: some DatabaseReader, _ sql: String, _ arguments: StatementArguments) async throws -> [SeismicEvent] {
        try await reader.read { db in
            var events: [SeismicEvent] = []
            try forEachRow(db, sql, arguments) { events.append(event($0, offset: 1)) }
            return events
        }
    }

    private static func forEachRow(_ db: Database, _ sql: String, _ arguments: StatementArguments,
                                   _ body: (OpaquePointer) -> Void) throws {
        let statement = try db.makeStatement(sql: sql)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while try rows.next() != nil { body(statement.sqliteStatement) }
    }

    /// The event of the row `handle` is on, whose ``CatalogueSchema/readColumns`` start at `offset`.
    private static func event(_ handle: OpaquePointer, offset: Int32) -> SeismicEvent {
        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, offset + column) == SQLITE_NULL }
        func real(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(handle, offset + column) }
        func milliseconds(_ column: Int32) -> Date? {
            isNull(column) ? nil : CatalogueSchema.date(milliseconds: sqlite3_column_int64(handle, offset + column))
        }
        func text(_ column: Int32) -> String? { isNull(column) ? nil : Self.text(handle, offset + column) }
        var details = EventDetails()
        for (index, field) in CatalogueSchema.detailFields.enumerated() {
            let column = offset + Int32(CatalogueSchema.firstDetailColumn + index)
            let stored: SQLValue
            switch sqlite3_column_type(handle, column) {
            case SQLITE_TEXT where field.kind == .text:
                // In field order: appended from SQLite's bytes, no String made.
                if let bytes = sqlite3_column_text(handle, column) {
                    details.appendText(field, UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
                }
                continue
            case SQLITE_TEXT: stored = .text(Self.text(handle, column))
            case SQLITE_INTEGER: stored = .integer(sqlite3_column_int64(handle, column))
            case SQLITE_FLOAT: stored = .real(sqlite3_column_double(handle, column))
            default: continue
            }
            if let value = CatalogueSchema.value(stored, of: field) { details.append(field, value) }
        }
        return SeismicEvent(id: text(1) ?? "", time: milliseconds(2) ?? Date(timeIntervalSince1970: 0),
                            latitude: real(3) ?? 0, longitude: real(4) ?? 0, depth: real(5), magnitude: real(6),
                            magnitudeType: text(7), place: text(8) ?? "", eventType: text(9) ?? "", network: text(10),
                            updated: milliseconds(11), status: text(12), mechanism: CatalogueSchema.mechanism(text(13)),
                            details: details)
    }

    /// The text of a column (not NULL), as SQLite holds it (UTF-8).
    private static func text(_ handle: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
    }

    /// SQLite's errors as the catalogue's.
    private static func mapped(_ error: Error, path: String) -> Error {
        guard let error = error as? DatabaseError else { return error }
        let reason = error.message ?? "\(error.resultCode)"
        switch error.resultCode.primaryResultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return CatalogueError.busy(path, reason: "another writer held it for more than \(Int(busyTimeout)) s")
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return CatalogueError.notACatalogue(path, reason: reason)
        case .SQLITE_CANTOPEN:
            return CatalogueError.unavailable(path, reason: "cannot open the file (\(reason))")
        case .SQLITE_FULL, .SQLITE_IOERR:
            return CatalogueError.ioFailed(path, reason: reason)
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            return CatalogueError.permissionDenied(path, reason: reason)
        default:
            return CatalogueError.database(path, reason: reason)
        }
    }
}

extension Optional where Wrapped == SQLValue {
    /// The value as GRDB binds it.
    var databaseValue: DatabaseValue {
        switch self {
        case nil: return .null
        case .integer(let value)?: return value.databaseValue
        case .real(let value)?: return value.databaseValue
        case .text(let value)?: return value.databaseValue
        }
    }
}
