import FeedTestServer
import Foundation
import GRDB
import GRDBSQLite
import QuakeCatalogue
import QuakeKit
import Testing

/// The catalogue keeps every field of ``EventField`` (schema step 4): what `list --columns all`
/// prints of a file it prints of the catalogue the file went into, in both databases, and a
/// catalogue of the previous schema is migrated by the next ingest with every event kept.
@Suite("the catalogue keeps every field", .timeLimit(.minutes(10)))
struct CatalogueDetailsCLITests {
    static let monthFile = ChartCLITests.shared.appendingPathComponent("all_month_2022-03.csv")
    static let monthPresent = FileManager.default.fileExists(atPath: monthFile.path)
    static let sample = "Data/synthetic_all_day.csv"
    static let every = ["--limit", "0", "--columns", "all", "-q"]
    static let detailFilter = ["--where", "gap < 100 AND horizontalError < 1"]

    @Test("a month of USGS CSV: list --columns all, and a CQL2 filter of details, from the catalogue are the file's; again: all unchanged",
          .enabled(if: monthPresent, "../shared/data/usgs/all_month_2022-03.csv is not beside the repository: skipped"),
          arguments: CatalogueFixture.available)
    func everyFieldOfAMonth(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        let feed = Self.monthFile.path
        let first = try fixture.ingest(feed)
        #expect(first.status == 0, "\(first.stderr)")
        for arguments in [Self.every, Self.every + ["--format", "json"], Self.every + ["--format", "geojson"], Self.every + Self.detailFilter] {
            let file = try FileAnswers.run(["list", feed] + arguments)
            let stored = try fixture.read(["list"] + arguments)
            #expect(stored.status == 0, "\(arguments): \(stored.stderr)")
            #expect(stored.stdout == file.stdout, "\(arguments): the catalogue lists other bytes")
        }
        // The filter keeps some rows, not all: it is the details that decide.
        let kept = try FileAnswers.run(["list", feed] + Self.every + Self.detailFilter).stdoutText.split(separator: "\n").count - 1
        #expect(kept > 100 && kept < 5_000, "\(kept)")
        let events = CatalogueCLITests.count(first.stderr, " new")
        let again = try fixture.ingest(feed)
        #expect(again.stderr.contains("0 new, 0 updated, \(events) unchanged"), "\(again.stderr)")
    }

    @Test("a newer version updates an event's details (one cleared too), as does an equally new one that differs; the same again changes nothing",
          arguments: CatalogueFixture.available)
    func revisionsUpdateDetails(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        #expect(try fixture.ingest(Self.sample).status == 0)
        #expect(try fixture.read(["list"] + Self.every + Self.detailFilter).stdout
                == QuakemapProcess.run(["list", Self.sample] + Self.every + Self.detailFilter).stdout)
        // Row 1: a later `updated`, another gap, no rms. Row 2: the same `updated`, another horizontalError.
        var lines = try String(contentsOfFile: Self.sample, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[1].hasPrefix("2026-11-21T23:56:34.360Z,34.9186667,-119.278,6.52,0.31,ml,55,216,0.3987,0.09,ci,ci40513131,2026-11-21T23:57:46.791Z,"))
        lines[1] = lines[1].replacingOccurrences(of: ",55,216,0.3987,0.09,ci,ci40513131,2026-11-21T23:57:46.791Z,",
                                                 with: ",55,99.5,0.3987,,ci,ci40513131,2026-11-22T00:10:00.000Z,")
        #expect(lines[2].hasPrefix("2026-11-21T23:45:12.835Z,39.4806,-119.699,13.7,0.7,ml,15,113.9,0.24,0.1238,nn,nn00801451,"))
        var fields = lines[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        // The place is quoted with a comma in it: the columns after it are counted from the end.
        fields[fields.count - 7] = "0.75"
        lines[2] = fields.joined(separator: ",")
        let revised = fixture.folder.appendingPathComponent("revised.csv")
        try lines.joined(separator: "\n").write(to: revised, atomically: true, encoding: .utf8)
        let outcome = try fixture.ingest(revised.path)
        #expect(outcome.stderr.contains("0 new, 2 updated, 418 unchanged"), "\(outcome.stderr)")
        let file = try QuakemapProcess.run(["list", revised.path] + Self.every)
        #expect(file.stdoutText.contains(",ci40513131,2026-11-22T00:10:00.000Z,") && file.stdoutText.contains(",0.75,"))
        #expect(try fixture.read(["list"] + Self.every).stdout == file.stdout)
        #expect(try fixture.read(["list"] + Self.every + Self.detailFilter).stdout
                == QuakemapProcess.run(["list", revised.path] + Self.every + Self.detailFilter).stdout)
        #expect(try fixture.ingest(revised.path).stderr.contains("0 new, 0 updated, 420 unchanged"))
        // The first row's previous version is older: it stays. The second's is as new and differs: the later read wins.
        let back = try fixture.ingest(Self.sample)
        #expect(back.stderr.contains("0 new, 1 updated, 419 unchanged"), "\(back.stderr)")
        #expect(try fixture.read(["list", "--where", "id = 'nn00801451'"] + Self.every).stdout
                == QuakemapProcess.run(["list", Self.sample, "--where", "id = 'nn00801451'"] + Self.every).stdout)
    }

    /// What the previous release stored of three events (schema step 3, no detail columns): two
    /// that the sample feed holds (with its `updated`) and one it does not.
    static let oldRows: [(key: String, time: String, latitude: Double, longitude: Double, depth: Double, magnitude: Double,
                          magnitudeType: String, place: String, network: String, updated: String, status: String)] = [
        ("ci40513131", "2026-11-21T23:56:34.360Z", 34.9186667, -119.278, 6.52, 0.31, "ml", "65 km NNE of Ventana Bay, CA", "ci",
         "2026-11-21T23:57:46.791Z", "automatic"),
        ("nn00801451", "2026-11-21T23:45:12.835Z", 39.4806, -119.699, 13.7, 0.7, "ml", "22 km E of Verdi Hills, Nevada", "nn",
         "2026-11-21T23:47:19.161Z", "automatic"),
        ("usold0001", "2026-11-20T08:00:00.000Z", 10.5, 20.25, 12, 3.1, "mb", "O'Neill Ridge, somewhere", "us",
         "2026-11-20T09:00:00.000Z", "reviewed"),
    ]

    /// The event of the previous release only, as a row of the sample's layout: no details.
    static let oldOnlyRow = "2026-11-20T08:00:00.000Z,10.5,20.25,12,3.1,mb,,,,,us,usold0001,2026-11-20T09:00:00.000Z,"
        + "\"O'Neill Ridge, somewhere\",earthquake,,,,,reviewed,,"

    static func milliseconds(_ text: String) -> Int64 {
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return Int64((parser.date(from: text)!.timeIntervalSince1970 * 1000).rounded())
    }

    /// A catalogue as the previous release left it: its DDL steps 1–3 run, three events written as it wrote them.
    static func makeVersion3(_ fixture: CatalogueFixture) throws {
        let insert = """
            INSERT INTO events (key, id, time_ms, latitude, longitude, depth, magnitude, magnitude_type, place, event_type,
                network, updated_ms, status, type_key) VALUES
            """
        switch fixture.backend {
        case .sqlite:
            var migrator = DatabaseMigrator()
            for step in CatalogueSchema.sqliteSteps.prefix(3) {
                migrator.registerMigration(step.name) { db in try db.execute(sql: step.sql) }
            }
            let pool = try DatabasePool(path: fixture.writer)
            try migrator.migrate(pool)
            try pool.write { db in
                for row in oldRows {
                    try db.execute(sql: insert + " (?, ?, ?, ?, ?, ?, ?, ?, ?, 'earthquake', ?, ?, ?, 'earthquake')", arguments: [
                        row.key, row.key, milliseconds(row.time), row.latitude, row.longitude, row.depth, row.magnitude,
                        row.magnitudeType, row.place, row.network, milliseconds(row.updated), row.status])
                }
                try db.execute(sql: "INSERT INTO events_position SELECT seq, longitude, longitude, latitude, latitude FROM events")
                try db.execute(sql: Self.bumpStateOfVersion3, arguments: [milliseconds("2026-11-22T00:00:00.000Z")])
            }
            try pool.close()
        case .postgres:
            func text(_ value: String) -> String { "'" + value.replacingOccurrences(of: "'", with: "''") + "'" }
            let values = oldRows.map { row in
                "(\(text(row.key)), \(text(row.key)), \(milliseconds(row.time)), \(row.latitude), \(row.longitude), \(row.depth), "
                    + "\(row.magnitude), \(text(row.magnitudeType)), \(text(row.place)), 'earthquake', \(text(row.network)), "
                    + "\(milliseconds(row.updated)), \(text(row.status)), 'earthquake')"
            }
            // As the writer role, so that it owns the tables (the ingest alters them) and the reader may read them.
            try fixture.sql(["SET ROLE quakemap_writer", "CREATE TABLE schema_version (version integer NOT NULL)",
                             "INSERT INTO schema_version VALUES (3)"] .joined(separator: ";\n") + ";\n"
                            + CatalogueSchema.postgresSteps.prefix(3).joined(separator: "\n") + "\n"
                            + insert + values.joined(separator: ", ") + ";\n"
                            + Self.bumpStateOfVersion3.replacingOccurrences(of: "?", with: "0"))
        }
    }

    /// What an ingest of that release ran last.
    static let bumpStateOfVersion3 = """
        UPDATE catalogue_state SET version = version + 1, changed_ms = ?,
            events = (SELECT count(*) FROM events WHERE magnitude IS NOT NULL)
        """

    @Test("a catalogue of schema 3: readers are told to ingest; the next ingest keeps every event and fills the new columns",
          arguments: CatalogueFixture.available)
    func version3IsMigrated(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        try Self.makeVersion3(fixture)
        let before = try fixture.read(["list", "--limit", "0", "--format", "text", "-q"])
        #expect(before.status == 65, "\(before.stderr)")
        #expect(before.stderr.contains("is older: run 'quakemap ingest' into it once"), "\(before.stderr)")
        let ingest = try fixture.ingest(Self.sample)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        // The two the feed holds had no details: revised (the feed's version is as new, and not identical).
        #expect(ingest.stderr.contains("418 new, 2 updated, 0 unchanged"), "\(ingest.stderr)")
        let expected = fixture.folder.appendingPathComponent("expected.csv")
        let sample = try String(contentsOfFile: Self.sample, encoding: .utf8)
        try (sample + (sample.hasSuffix("\n") ? "" : "\n") + Self.oldOnlyRow + "\n").write(to: expected, atomically: true, encoding: .utf8)
        let listed = try fixture.read(["list"] + Self.every)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout == (try QuakemapProcess.run(["list", expected.path] + Self.every)).stdout)
        #expect(listed.stdoutText.contains("2026-11-20T08:00:00.000Z,10.5,20.25,12,3.1,mb,,,,,us,usold0001,2026-11-20T09:00:00.000Z,"))
        #expect(try fixture.read(["list"] + Self.every + Self.detailFilter).stdout
                == QuakemapProcess.run(["list", expected.path] + Self.every + Self.detailFilter).stdout)
        #expect(try fixture.ingest(Self.sample).stderr.contains("0 new, 0 updated, 420 unchanged"))
        let steps: String
        switch backend {
        case .sqlite:
            steps = try DatabaseQueue(path: fixture.writer).read { db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier").joined(separator: ",")
            }
        case .postgres:
            steps = try fixture.sql("SELECT version FROM schema_version")
        }
        #expect(steps == (backend == .sqlite ? "1-events,2-state,3-mechanism,4-details,5-changes" : "5"))
    }

    @Test("each ingest stamps the events it creates or revises after the last stamp, in feed order; a removal takes a stamp of its own",
          arguments: CatalogueFixture.available)
    func changeStampsFollowIngests(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        func query(_ statement: String) throws -> [[String]] {
            switch backend {
            case .sqlite:
                return try DatabaseQueue(path: fixture.writer).read { db in
                    try Row.fetchAll(db, sql: statement).map { row in row.databaseValues.map { $0.isNull ? "" : "\($0.storage.value!)" } }
                }
            case .postgres:
                return try fixture.sql(statement).split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
            }
        }
        let rows = try String(contentsOfFile: Self.sample, encoding: .utf8).split(separator: "\n").map(String.init)
        let first = fixture.folder.appendingPathComponent("first.csv"), second = fixture.folder.appendingPathComponent("second.csv")
        try (rows[0...50].joined(separator: "\n") + "\n").write(to: first, atomically: true, encoding: .utf8)
        // The first fifty again, one revised (a later update, a new magnitude), and ten more.
        var revised = rows[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        revised[4] = "6.1"
        revised[12] = "2026-11-22T00:00:00.000Z"
        let secondRows = [rows[0], revised.joined(separator: ",")] + rows[2...60]
        try (secondRows.joined(separator: "\n") + "\n").write(to: second, atomically: true, encoding: .utf8)
        #expect(try fixture.ingest(first.path).status == 0)
        #expect(try query("SELECT changes, pruned_at FROM catalogue_state") == [["50", "0"]])
        // Stamps 1…50, the feed's order, each event created by its stamp.
        let stamps = try query("SELECT id, change_stamp, created_stamp FROM events ORDER BY change_stamp")
        #expect(stamps.map { $0[1] } == (1...50).map(String.init) && stamps.allSatisfy { $0[1] == $0[2] })
        #expect(stamps.map(\.[0]) == rows[1...50].map { String($0.split(separator: ",", omittingEmptySubsequences: false)[11]) })
        let ingest = try fixture.ingest(second.path)
        #expect(ingest.status == 0 && ingest.stderr.contains("10 new, 1 updated, 49 unchanged"), "\(ingest.stderr)")
        // After 50: the revised event (the first row) and the ten new ones; the 49 unchanged keep theirs.
        let changed = try query("SELECT id, change_stamp, created_stamp FROM events WHERE change_stamp > 50 ORDER BY change_stamp")
        #expect(changed.count == 11)
        #expect(changed.first == [revised[11], "51", "1"], "a revision keeps the stamp that created it")
        #expect(changed.dropFirst().allSatisfy { $0[1] == $0[2] })
        let last = try #require(changed.last.flatMap { Int($0[1]) })
        #expect(try query("SELECT changes, pruned_at FROM catalogue_state") == [["\(last)", "0"]])
        // A removal (--keep): a stamp after every change, which the state keeps as pruned_at.
        #expect(try fixture.ingest(second.path, ["--keep", "2h", "--now", "2026-11-22T00:00:00Z"]).status == 0)
        #expect(try query("SELECT changes, pruned_at FROM catalogue_state") == [["\(last + 1)", "\(last + 1)"]])
    }

    /// The detail columns go into statements unquoted, named by ``EventField``: a new field must not be named
    /// by a word either database reserves (PostgreSQL's list is asked of the server when one runs).
    @Test func detailColumnsArePlainIdentifiers() throws {
        let columns = CatalogueSchema.detailFields.map(\.spec.column)
        #expect(Set(columns).count == columns.count)
        #expect(Set(columns).isDisjoint(with: CatalogueSchema.columns.prefix(CatalogueSchema.firstDetailColumn) + ["seq", "position", "type_key"]))
        for column in columns {
            #expect(column.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") } && !column.first!.isNumber, "\(column)")
            #expect(sqlite3_keyword_check(column, Int32(column.utf8.count)) == 0, "\(column) is an SQLite keyword")
        }
        if CatalogueFixture.postgresPresent {
            let reserved = Set(try TestPostgres.psql("postgres", "SELECT word FROM pg_get_keywords() WHERE catcode <> 'U'")
                .split(separator: "\n").map(String.init))
            #expect(reserved.isDisjoint(with: columns), "\(reserved.intersection(columns))")
        }
    }

    @Test("a detail column a catalogue lacks is added by the next ingest (readers are told to run it); one this quakemap does not know refuses an ingest",
          arguments: CatalogueFixture.available)
    func detailColumnsFollowTheFields(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        #expect(try fixture.ingest(Self.sample).status == 0)
        let column = CatalogueSchema.detailFields.last!.spec.column
        func sql(_ statement: String) throws {
            switch backend {
            case .sqlite: try DatabaseQueue(path: fixture.writer).write { try $0.execute(sql: statement) }
            case .postgres: try fixture.sql(statement)
            }
        }
        // As a quakemap that knew one field fewer left it.
        try sql("ALTER TABLE events DROP COLUMN \(column)")
        let told = try fixture.read(["list", "-q"])
        #expect(told.status == 65 && told.stderr.contains("no column '\(column)'") && told.stderr.contains("run 'quakemap ingest'"),
                "\(told.stderr)")
        let ingest = try fixture.ingest(Self.sample)
        #expect(ingest.status == 0 && ingest.stderr.contains("0 new, 0 updated, 420 unchanged"), "\(ingest.stderr)")
        #expect(try fixture.read(["list"] + Self.every).stdout == QuakemapProcess.run(["list", Self.sample] + Self.every).stdout)
        // As a newer quakemap, with a field this one does not know, left it: reading ignores the column, writing would leave it stale.
        try sql("ALTER TABLE events ADD COLUMN some_future_field TEXT")
        #expect(try fixture.read(["list", "-q"]).status == 0)
        let refused = try fixture.ingest(Self.sample)
        #expect(refused.status == 65 && refused.stderr.contains("newer than this quakemap knows") && refused.stderr.contains("some_future_field"),
                "\(refused.stderr)")
    }
}
