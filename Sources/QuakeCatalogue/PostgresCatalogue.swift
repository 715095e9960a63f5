import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import QuakeKit

/// A catalogue in PostgreSQL + PostGIS, through PostgresNIO. An ingest is one
/// transaction: the feed is copied (`COPY`) into a temporary table as it is read and merged
/// by one upsert whose condition is ``RevisionPolicy``'s own SQL. Ingests
/// take turns on a transaction-scoped advisory lock, so two at once lose
/// nothing and create the schema once; readers never wait for them.
package final class PostgresCatalogue: CatalogueStore {
    private let location: PostgresLocation
    private let connection: Connection
    private let logger: Logger

    /// One connection (a command), or a pool of them (a server answering many requests at once).
    private enum Connection: Sendable {
        case single(PostgresConnection)
        case pool(PostgresClient, running: Task<Void, Never>)

        func query(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
            switch self {
            case .single(let connection): return try await connection.query(query, logger: logger)
            case .pool(let client, _): return try await client.query(query, logger: logger)
            }
        }
    }

    /// The advisory lock ingests take turns on ("quakemap" as a number).
    private static let ingestLock: Int64 = 0x7175_616b_656d_6170

    private init(location: PostgresLocation, connection: Connection, logger: Logger) {
        self.location = location
        self.connection = connection
        self.logger = logger
    }

    /// Connects to `location`; to read, the schema must be one this program knows.
    /// `connections`: more than one keeps a pool of up to that many, to read from many tasks at once.
    package static func open(_ location: PostgresLocation, writing: Bool, connections: Int = 1) async throws -> PostgresCatalogue {
        // PostgresNIO's own logging stays quiet: its lines could carry a query.
        let logger = Logger(label: "quakemap.catalogue") { _ in SwiftLogNoOpLogHandler() }
        if connections > 1 {
            let catalogue = PostgresCatalogue(location: location, connection: try pool(location, connections: connections, logger: logger),
                                              logger: logger)
            do {
                try await catalogue.checkSchema(migrating: writing)
            } catch {
                await catalogue.close()
                throw error
            }
            return catalogue
        }
        let configuration: PostgresConnection.Configuration
        if location.isSocket {
            configuration = .init(unixSocketPath: location.host + "/.s.PGSQL.\(location.port)", username: location.user,
                                  password: location.password, database: location.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            do {
                switch location.sslMode {
                case "disable": tls = .disable
                case "require": tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                default: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                }
            } catch {
                throw CatalogueError.unavailable(location.description, reason: "TLS: \(error)")
            }
            configuration = .init(host: location.host, port: location.port, username: location.user,
                                  password: location.password, database: location.database, tls: tls)
        }
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(),
                                                              configuration: configuration, id: 1, logger: logger).get()
        } catch {
            throw mapped(error, location: location, connecting: true)
        }
        let catalogue = PostgresCatalogue(location: location, connection: .single(connection), logger: logger)
        if !writing {
            do {
                try await catalogue.checkSchema(migrating: false)
            } catch {
                await catalogue.close()
                throw error
            }
        }
        return catalogue
    }

    /// A running pool of up to `connections` connections to `location`.
    private static func pool(_ location: PostgresLocation, connections: Int, logger: Logger) throws -> Connection {
        var configuration: PostgresClient.Configuration
        if location.isSocket {
            configuration = .init(unixSocketPath: location.host + "/.s.PGSQL.\(location.port)", username: location.user,
                                  password: location.password, database: location.database)
        } else {
            let tls: PostgresClient.Configuration.TLS
            switch location.sslMode {
            case "disable": tls = .disable
            case "require": tls = .require(.makeClientConfiguration())
            default: tls = .prefer(.makeClientConfiguration())
            }
            configuration = .init(host: location.host, port: location.port, username: location.user,
                                  password: location.password, database: location.database, tls: tls)
        }
        configuration.options.maximumConnections = connections
        configuration.options.minimumConnections = 1
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return .pool(client, running: Task { await client.run() })
    }

    private func run(_ sql: String, _ values: [SQLValue?] = []) async throws -> PostgresRowSequence {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case nil: bindings.appendNull()
            case .integer(let value)?: bindings.append(value)
            case .real(let value)?: bindings.append(value)
            case .text(let value)?: bindings.append(value)
            }
        }
        do {
            return try await connection.query(PostgresQuery(unsafeSQL: Self.numbered(sql), binds: bindings), logger: logger)
        } catch {
            throw Self.mapped(error, location: location, connecting: false)
        }
    }

    private func firstInt(_ sql: String, _ values: [SQLValue?] = []) async throws -> Int64? {
        do {
            for try await row in try await run(sql, values) { return try row.decode(Int64?.self) }
        } catch let error as CatalogueError {
            throw error
        } catch {
            throw Self.mapped(error, location: location, connecting: false)
        }
        return nil
    }

    /// `?` placeholders as PostgreSQL's `$1`, `$2`…: statements here are
    /// written with `?` only where a value is bound.
    private static func numbered(_ sql: String) -> String {
        var result = "", number = 0
        for character in sql {
            if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The schema version the database holds (`nil`: none), refusing a newer one.
    private func checkSchema(migrating: Bool) async throws {
        let known = CatalogueSchema.postgresSteps.count
        let hasVersion = try await firstInt("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'schema_version'") ?? 0
        guard hasVersion > 0 else {
            let hasEvents = try await firstInt("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'events'") ?? 0
            if hasEvents > 0 {
                throw CatalogueError.notACatalogue(location.description, reason: "it has a table 'events' of its own, and no schema_version")
            }
            if !migrating {
                throw CatalogueError.notACatalogue(location.description, reason: "it holds no events yet (ingest into it first)")
            }
            try await migrate(from: 0)
            return
        }
        let version = Int(try await firstInt("SELECT max(version) FROM schema_version") ?? 0)
        if version > known {
            throw CatalogueError.newerSchema(location.description, found: String(version), known: String(known))
        }
        if version < known {
            guard migrating else {
                throw CatalogueError.notACatalogue(location.description, reason: "its schema \(version) is older: run 'quakemap ingest' into it once")
            }
            try await migrate(from: version)
        }
        // Detail fields this quakemap knows and the one that ran step 4 did not: added by an ingest.
        let present = try await eventColumns()
        if migrating {
            let unknown = CatalogueSchema.unknownColumns(present: present, postgres: true)
            if !unknown.isEmpty {
                throw CatalogueError.newerSchema(location.description, found: "\(known) with the columns \(unknown.joined(separator: ", "))",
                                                 known: String(known))
            }
        }
        let missing = CatalogueSchema.missingDetails(present: Set(present))
        if !missing.isEmpty {
            guard migrating else {
                throw CatalogueError.notACatalogue(location.description,
                                                   reason: "its schema is older (no column '\(missing[0].spec.column)'): run 'quakemap ingest' into it once")
            }
            _ = try await run(CatalogueSchema.addColumns(missing, postgres: true))
        }
    }

    /// The columns of the table `events`.
    private func eventColumns() async throws -> [String] {
        var names: [String] = []
        do {
            for try await row in try await run("""
                SELECT attname::text FROM pg_attribute WHERE attrelid = 'events'::regclass AND attnum > 0 AND NOT attisdropped
                """) {
                names.append(try row.decode(String.self))
            }
        } catch let error as CatalogueError {
            throw error
        } catch {
            throw Self.mapped(error, location: location, connecting: false)
        }
        return names
    }

    private func migrate(from version: Int) async throws {
        if version == 0 {
            // A database owner may create PostGIS; elsewhere an administrator has (docs/catalogue.md).
            _ = try await run("CREATE EXTENSION IF NOT EXISTS postgis")
            _ = try await run("CREATE TABLE schema_version (version integer NOT NULL)")
            _ = try await run("INSERT INTO schema_version VALUES (0)")
        }
        for (index, step) in CatalogueSchema.postgresSteps.enumerated().dropFirst(version) {
            for statement in step.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) where !statement.isEmpty {
                _ = try await run(statement)
            }
            _ = try await run("UPDATE schema_version SET version = ?", [.integer(Int64(index + 1))])
        }
    }

    package func ingest(_ plan: IngestPlan, rows: @escaping IngestRows) async throws -> IngestReport {
        // A transaction is one connection's: a pool would spread its statements over several.
        guard case .single = connection else { preconditionFailure("an ingest needs one connection, not a pool") }
        _ = try await run("BEGIN")
        do {
            let report = try await write(plan, rows)
            _ = try await run("COMMIT")
            return report
        } catch {
            _ = try? await run("ROLLBACK")
            // The feed's own errors as they are; also what the server said while rows streamed back.
            if error is CatalogueError || error is FeedError { throw error }
            throw Self.mapped(error, location: location, connecting: false)
        }
    }

    private func write(_ plan: IngestPlan, _ rows: @escaping IngestRows) async throws -> IngestReport {
        _ = try await run("SELECT pg_advisory_xact_lock(?)", [.integer(Self.ingestLock)])
        try await checkSchema(migrating: true)
        let columns = CatalogueSchema.columns
        let list = columns.joined(separator: ", ")
        _ = try await run("""
            CREATE TEMPORARY TABLE staging (ord bigint, admitted boolean,
                \(zip(columns, CatalogueSchema.postgresTypes).map { "\($0) \($1)" }.joined(separator: ", "))) ON COMMIT DROP
            """)
        var report = IngestReport()
        // The feed is read on a thread of its own, a MiB of COPY text at a time, while the server takes the last.
        let handOff = ChunkHandOff<ByteBuffer, (StagedFeed, keyless: Int)> { send in
            var buffer = ByteBuffer()
            var typeKeys = TypeKeys()
            var ordinal = 0, keyless = 0
            let staged = try rows { event, admitted in
                buffer.writeString("\(ordinal)\t\(admitted ? "t" : "f")")
                event.forEachCatalogueValue(typeKey: typeKeys.key(event.eventType)) { value in
                    buffer.writeInteger(UInt8(ascii: "\t"))
                    Self.appendCopyField(value, to: &buffer)
                }
                buffer.writeInteger(UInt8(ascii: "\n"))
                ordinal += 1
                if event.id.isEmpty { keyless += 1 }
                if buffer.readableBytes >= 1 << 20 {
                    try send(buffer)
                    buffer = ByteBuffer()
                }
            }
            if buffer.readableBytes > 0 { try send(buffer) }
            return (staged, keyless)
        }
        let keyless: Int
        do {
            guard case .single(let connection) = connection else { preconditionFailure("an ingest needs one connection, not a pool") }
            try await connection.copyFrom(table: "staging", columns: ["ord", "admitted"] + columns, logger: logger) { writer in
                for try await chunk in handOff.chunks {
                    try await writer.write(chunk)
                    handOff.consumed()
                }
            }
            let staged: StagedFeed
            (staged, keyless) = try await handOff.outcome
            report.summary = staged.summary
            report.duplicates = staged.duplicates
            if !staged.replaced.isEmpty {
                _ = try await run("DELETE FROM staging WHERE ord = ANY(string_to_array(?, ',')::bigint[])",
                                  [.text(staged.replaced.map(String.init).joined(separator: ","))])
            }
        } catch {
            await handOff.stop()
            if error is CatalogueError || error is FeedError { throw error }
            throw Self.mapped(error, location: location, connecting: false)
        }
        if keyless > 1 {
            report.duplicates += Int(try await firstInt("WITH gone AS (\(CatalogueSchema.settleKeyless) RETURNING 1) SELECT count(*) FROM gone") ?? 0)
        }
        for try await row in try await run(CatalogueSchema.tallyStaging) {
            let (events, admitted, newest) = try row.decode((Int64, Int64, Int64?).self)
            report.events = Int(events)
            report.admitted = Int(admitted)
            report.newestUpdated = newest.map(CatalogueSchema.date(milliseconds:))
        }
        let rule = RevisionPolicy.sqlIsNewer("excluded.updated_ms", than: "e.updated_ms")
        let assignments = columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let stored = "(" + columns.dropFirst().map { "e.\($0)" }.joined(separator: ", ") + ")"
        let incoming = "(" + columns.dropFirst().map { "excluded.\($0)" }.joined(separator: ", ") + ")"
        var counts = IngestCounts()
        let existingBefore = try await firstInt("SELECT count(*) FROM staging s WHERE EXISTS (SELECT 1 FROM events e WHERE e.key = s.key)") ?? 0
        // Into an empty catalogue, the indexes (but the key's) are built once after the rows, rather than row by row.
        var indexes: [(name: String, definition: String)] = []
        if report.events > 10_000, try await firstInt("SELECT count(*) FROM (SELECT 1 FROM events LIMIT 1) AS one") == 0 {
            for try await row in try await run("""
                SELECT indexname, indexdef FROM pg_indexes
                WHERE schemaname = current_schema() AND tablename = 'events' AND indexname <> 'events_pkey'
                """) {
                indexes.append(try row.decode((String, String).self))
            }
            for index in indexes { _ = try await run("DROP INDEX \"\(index.name)\"") }
        }
        let base = try await firstInt(CatalogueSchema.lastChange) ?? 0
        for try await row in try await run("""
            WITH changed AS (
                INSERT INTO events AS e (\(list), change_stamp, created_stamp) SELECT \(list), \(base) + ord + 1, \(base) + ord + 1 FROM staging WHERE admitted ORDER BY ord
                ON CONFLICT (key) DO UPDATE SET \(assignments), change_stamp = excluded.change_stamp
                WHERE \(rule) AND \(stored) IS DISTINCT FROM \(incoming)
                RETURNING (xmax = 0) AS inserted)
            SELECT count(*) FILTER (WHERE inserted), count(*) FILTER (WHERE NOT inserted) FROM changed
            """) {
            let (new, updated) = try row.decode((Int64, Int64).self)
            counts.new = Int(new)
            counts.updated = Int(updated)
        }
        for index in indexes { _ = try await run(index.definition) }
        // A large batch changes what the planner should know at once, not at autovacuum's next pass.
        if counts.new + Int(existingBefore) > 10_000 { _ = try await run("ANALYZE events") }
        // Versions the filters kept out still revise the events the catalogue holds.
        let revised = try await firstInt("""
            WITH changed AS (
                UPDATE events e SET \(columns.dropFirst().map { "\($0) = s.\($0)" }.joined(separator: ", ")), change_stamp = \(base) + s.ord + 1
                FROM staging s
                WHERE NOT s.admitted AND e.key = s.key AND \(RevisionPolicy.sqlIsNewer("s.updated_ms", than: "e.updated_ms"))
                  AND \(stored) IS DISTINCT FROM (\(columns.dropFirst().map { "s.\($0)" }.joined(separator: ", ")))
                RETURNING 1)
            SELECT count(*) FROM changed
            """) ?? 0
        counts.updated += Int(revised)
        counts.unchanged = Int(existingBefore) - counts.updated
        if let since = plan.keepSince {
            counts.pruned = Int(try await firstInt("WITH gone AS (DELETE FROM events WHERE time_ms < ? RETURNING 1) SELECT count(*) FROM gone",
                                                   [.integer(CataloguePredicate.milliseconds(since, rounding: .up))]) ?? 0)
        }
        if counts.new + counts.updated + counts.pruned > 0 {
            let given = max(base, try await firstInt("SELECT max(change_stamp) FROM events") ?? 0)
            // A removal takes a stamp of its own, after the changes.
            let last = given + (counts.pruned > 0 ? 1 : 0)
            _ = try await run(CatalogueSchema.bumpState, [.integer(CatalogueSchema.milliseconds(Date())), .integer(last),
                                                          .integer(Int64(counts.pruned)), .integer(last)])
            // Delivered at commit, to every server listening on the primary.
            _ = try await run("SELECT pg_notify(?, instance || '-' || version) FROM catalogue_state",
                              [.text(CatalogueSchema.changeChannel)])
        }
        for source in CatalogueSchema.credits(plan, report.summary) {
            _ = try await run(CatalogueSchema.recordSources(postgres: true),
                              [.text(source), .integer(CatalogueSchema.milliseconds(Date()))])
        }
        if let query = plan.syncQuery, let newest = report.newestUpdated {
            _ = try await run("""
                INSERT INTO sync_marks (query, newest_updated_ms) VALUES (?, ?)
                ON CONFLICT (query) DO UPDATE SET newest_updated_ms = greatest(sync_marks.newest_updated_ms, excluded.newest_updated_ms)
                """, [.text(query), .integer(CatalogueSchema.milliseconds(max(newest, plan.syncFloor ?? newest)))])
        }
        report.counts = counts
        return report
    }

    /// One field of `COPY … FROM STDIN` text: `\N` for NULL, and backslash,
    /// tab, newline and carriage return escaped.
    private static func appendCopyField(_ value: SQLValue?, to buffer: inout ByteBuffer) {
        switch value {
        case nil: buffer.writeString("\\N")
        case .integer(let value)?: buffer.writeString(String(value))
        case .real(let value)?: buffer.writeString(value.description)
        case .text(let text)?:
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): buffer.writeString("\\\\")
                case UInt8(ascii: "\t"): buffer.writeString("\\t")
                case UInt8(ascii: "\n"): buffer.writeString("\\n")
                case UInt8(ascii: "\r"): buffer.writeString("\\r")
                default: buffer.writeInteger(byte)
                }
            }
        }
    }

    /// `predicate`'s conditions and values, its boxes as GiST-indexed envelopes.
    private func conditions(_ predicate: CataloguePredicate) -> ([String], [SQLValue?]) {
        var conditions = predicate.conditions
        var values: [SQLValue?] = predicate.values
        for parts in predicate.boxes {
            conditions.append("(" + parts.map { _ in "position && ST_MakeEnvelope(?, ?, ?, ?, 4326)" }.joined(separator: " OR ") + ")")
            for part in parts { values += [.real(part.west), .real(part.south), .real(part.east), .real(part.north)] }
        }
        return (conditions, values)
    }

    /// The events of rows that begin with `seq` and the read columns.
    private func read(_ sql: String, _ values: [SQLValue?]) async throws -> [(event: SeismicEvent, cursor: CatalogueCursor)] {
        var events: [(event: SeismicEvent, cursor: CatalogueCursor)] = []
        do {
            for try await row in try await run(sql, values) {
                events.append(try Self.event(row))
            }
        } catch let error as CatalogueError {
            throw error
        } catch {
            throw Self.mapped(error, location: location, connecting: false)
        }
        return events
    }

    /// The event of a row that begins with `seq` and the read columns, its cells read in one pass
    /// from their binary form: a decoded tuple and a random-access row per row cost most of a read.
    private static func event(_ row: PostgresRow) throws -> (event: SeismicEvent, cursor: CatalogueCursor) {
        var seq: Int64 = 0, id = "", time: Int64 = 0, latitude = 0.0, longitude = 0.0, depth: Double?, magnitude: Double?
        var magnitudeType: String?, place = "", type = "", network: String?, updated: Int64?, status: String?, mechanism: String?
        var details = EventDetails()
        let first = 1 + CatalogueSchema.firstDetailColumn
        for (index, cell) in row.enumerated() {
            switch index {
            case 0: seq = try integer(cell) ?? 0
            case 1: continue
            case 2: id = try text(cell) ?? ""
            case 3: time = try integer(cell) ?? 0
            case 4: latitude = try real(cell) ?? 0
            case 5: longitude = try real(cell) ?? 0
            case 6: depth = try real(cell)
            case 7: magnitude = try real(cell)
            case 8: magnitudeType = try text(cell)
            case 9: place = try text(cell) ?? ""
            case 10: type = try text(cell) ?? ""
            case 11: network = try text(cell)
            case 12: updated = try integer(cell)
            case 13: status = try text(cell)
            case 14: mechanism = try text(cell)
            default:
                guard index >= first, index - first < CatalogueSchema.detailFields.count, let bytes = cell.bytes else { continue }
                let field = CatalogueSchema.detailFields[index - first]
                // In field order: each is appended, text straight from the row's bytes.
                if field.kind == .text, cell.dataType == .text || cell.dataType == .varchar {
                    bytes.withUnsafeReadableBytes { details.appendText(field, $0) }
                    continue
                }
                let stored: SQLValue?
                switch field.kind {
                case .text: stored = try text(cell).map(SQLValue.text)
                case .number: stored = try real(cell).map(SQLValue.real)
                case .integer, .time: stored = try integer(cell).map(SQLValue.integer)
                }
                if let value = CatalogueSchema.value(stored, of: field) { details.append(field, value) }
            }
        }
        let event = SeismicEvent(id: id, time: CatalogueSchema.date(milliseconds: time), latitude: latitude, longitude: longitude,
                                 depth: depth, magnitude: magnitude, magnitudeType: magnitudeType, place: place, eventType: type,
                                 network: network, updated: updated.map(CatalogueSchema.date(milliseconds:)), status: status,
                                 mechanism: CatalogueSchema.mechanism(mechanism), details: details)
        return (event, CatalogueCursor(timeMilliseconds: time, seq: seq))
    }

    /// A whole-number cell: `bigint` or `integer` read from its binary bytes (big-endian); anything
    /// else through PostgresNIO's decoding.
    private static func integer(_ cell: PostgresCell) throws -> Int64? {
        guard var bytes = cell.bytes else { return nil }
        switch (cell.format, cell.dataType) {
        case (.binary, .int8) where bytes.readableBytes == 8: return bytes.readInteger(as: Int64.self)
        case (.binary, .int4) where bytes.readableBytes == 4: return bytes.readInteger(as: Int32.self).map(Int64.init)
        default: return try cell.decode(Int64?.self)
        }
    }

    /// A `double precision` cell read from its binary bytes; anything else through PostgresNIO's decoding.
    private static func real(_ cell: PostgresCell) throws -> Double? {
        guard var bytes = cell.bytes else { return nil }
        switch (cell.format, cell.dataType) {
        case (.binary, .float8) where bytes.readableBytes == 8: return bytes.readInteger(as: UInt64.self).map(Double.init(bitPattern:))
        default: return try cell.decode(Double?.self)
        }
    }

    /// A `text` cell (UTF-8 in either format); anything else through PostgresNIO's decoding.
    private static func text(_ cell: PostgresCell) throws -> String? {
        guard var bytes = cell.bytes else { return nil }
        switch cell.dataType {
        case .text, .varchar: return bytes.readString(length: bytes.readableBytes)
        default: return try cell.decode(String?.self)
        }
    }

    package func events(_ predicate: CataloguePredicate, after cursor: CatalogueCursor?, count: Int) async throws
        -> [(event: SeismicEvent, cursor: CatalogueCursor)] {
        var (conditions, values) = self.conditions(predicate)
        var sorting = false
        if predicate.boundsMagnitude {
            let held = try await firstInt(CatalogueSchema.held(where: conditions), values + [.integer(Int64(CatalogueSchema.fewMatches))])
            sorting = (held ?? 0) < CatalogueSchema.fewMatches
        }
        let sql = CatalogueSchema.page(where: conditions, after: cursor, values: &values, sortingMatches: sorting)
        return try await read(sql, values + [.integer(Int64(count))])
    }

    package func largest(_ predicate: CataloguePredicate, count: Int) async throws -> [SeismicEvent] {
        let (conditions, values) = self.conditions(predicate)
        return try await read(CatalogueSchema.largest(where: conditions), values + [.integer(Int64(count))]).map(\.event)
    }

    package func forEachPosition(_ body: (String, TilePoint) throws -> Void) async throws {
        do {
            // One query, streamed: the rows arrive as they are read.
            for try await row in try await run(CatalogueSchema.positions) {
                let (key, latitude, longitude, magnitude, time) = try row.decode((String, Double, Double, Double, Int64).self)
                try body(key, TilePoint(latitude: latitude, longitude: longitude, magnitude: magnitude,
                                        time: CatalogueSchema.date(milliseconds: time)))
            }
        } catch let error as CatalogueError {
            throw error
        } catch {
            throw Self.mapped(error, location: location, connecting: false)
        }
    }

    package func changes(after stamp: Int64, count: Int) async throws -> [CatalogueChange] {
        var changes: [CatalogueChange] = []
        do {
            for try await row in try await run(CatalogueSchema.changes, [.integer(stamp), .integer(Int64(count))]) {
                // The stamps are the last cells, which the event's reading passes over.
                let cells = Array(row)
                changes.append(CatalogueChange(stamp: try Self.integer(cells[cells.count - 2]) ?? 0,
                                               created: try Self.integer(cells[cells.count - 1]), event: try Self.event(row).event))
            }
        } catch let error as CatalogueError {
            throw error
        } catch {
            throw Self.mapped(error, location: location, connecting: false)
        }
        return changes
    }

    package func events(keys: [String]) async throws -> [SeismicEvent] {
        guard !keys.isEmpty else { return [] }
        // One array bound, not a parameter a key: thousands of keys a tile, planned as one.
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(keys)
        var events: [SeismicEvent] = []
        do {
            let sql = "SELECT seq, \(CatalogueSchema.readColumns.joined(separator: ", ")) FROM events WHERE key = ANY($1)"
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
                events.append(try Self.event(row).event)
            }
        } catch let error as CatalogueError {
            throw error
        } catch {
            throw Self.mapped(error, location: location, connecting: false)
        }
        return events
    }

    package func state() async throws -> CatalogueState {
        do {
            for try await row in try await run(CatalogueSchema.readState(postgres: true)) {
                let (instance, version, events, changed, changes, prunedAt, newest, oldest, largest, sources) =
                    try row.decode((String, Int64, Int64, Int64?, Int64, Int64, Int64?, Int64?, Double?, String?).self)
                var state = CatalogueState(instance: instance, version: version, events: Int(events),
                                           changed: changed.map(CatalogueSchema.date(milliseconds:)),
                                           newest: newest.map(CatalogueSchema.date(milliseconds:)),
                                           oldest: oldest.map(CatalogueSchema.date(milliseconds:)), largestMagnitude: largest)
                state.changes = changes
                state.prunedAt = prunedAt
                state.sources = CatalogueSchema.sources(sources)
                return state
            }
        } catch let error as CatalogueError {
            throw error
        } catch {
            throw Self.mapped(error, location: location, connecting: false)
        }
        throw CatalogueError.notACatalogue(location.description, reason: "its catalogue_state has no row")
    }

    /// `LISTEN`s on one connection of the pool (of its own otherwise) for ingests' notifications.
    /// A hot standby cannot listen (PostgreSQL refuses `LISTEN` during recovery): that throws,
    /// and the caller polls.
    package func watch(_ changed: @escaping @Sendable () async -> Void) async throws {
        let listen: @Sendable (PostgresConnection) async throws -> Void = { connection in
            try await connection.listen(on: CatalogueSchema.changeChannel) { notifications in
                for try await _ in notifications { await changed() }
            }
        }
        do {
            switch connection {
            case .single(let connection): try await listen(connection)
            case .pool(let client, _): try await client.withConnection(listen)
            }
        } catch is CancellationError {
            return
        } catch {
            throw Self.mapped(error, location: location, connecting: false)
        }
    }

    package func syncMark(_ query: String) async throws -> Date? {
        guard try await firstInt("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'sync_marks'") ?? 0 > 0
        else { return nil }
        return try await firstInt("SELECT newest_updated_ms FROM sync_marks WHERE query = ?", [.text(query)])
            .map(CatalogueSchema.date(milliseconds:))
    }

    package func close() async {
        switch connection {
        case .single(let connection): try? await connection.close()
        case .pool(_, let running):
            running.cancel()
            await running.value
        }
    }

    /// PostgreSQL's and PostgresNIO's errors as the catalogue's: the server's
    /// own message, never the connection's password.
    private static func mapped(_ error: Error, location: PostgresLocation, connecting: Bool) -> Error {
        let name = location.description
        let scrub = { (text: String) -> String in
            guard let password = location.password, !password.isEmpty else { return text }
            return text.replacingOccurrences(of: password, with: "***")
        }
        guard let error = error as? PSQLError else {
            return CatalogueError.unavailable(name, reason: scrub(String(describing: error)))
        }
        if let info = error.serverInfo {
            let message = scrub(info[.message] ?? "error")
            switch info[.sqlState] ?? "" {
            case "42501": return CatalogueError.permissionDenied(name, reason: message)
            case "28000", "28P01", "3D000", "53300", "57P03": return CatalogueError.unavailable(name, reason: message)
            case "40P01", "55P03", "57014": return CatalogueError.busy(name, reason: message)
            case "53100", "58030": return CatalogueError.ioFailed(name, reason: message)
            default: return CatalogueError.database(name, reason: message)
            }
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .sslUnsupported, .failedToAddSSLHandler:
            let underlying = error.underlying.map { scrub(String(describing: $0)) } ?? "\(error.code)"
            return CatalogueError.unavailable(name, reason: underlying)
        case .authMechanismRequiresPassword:
            return CatalogueError.unavailable(name, reason: "the server asks for a password (give PGPASSWORD, ~/.pgpass or the URL's)")
        default:
            return connecting ? CatalogueError.unavailable(name, reason: "\(error.code)") : CatalogueError.database(name, reason: "\(error.code)")
        }
    }
}
