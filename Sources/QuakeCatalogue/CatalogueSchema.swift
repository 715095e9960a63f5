import Foundation
import GRDB
import QuakeKit

/// The catalogue's tables, in one place for both databases (docs/catalogue.md
/// shows them). One row an event: `key` is its id, or, for the rare layout
/// with no id, its time and position; times are whole milliseconds since 1970
/// (the feeds' own precision, so an event reads back exactly as it was read);
/// `seq` orders the events of equal time as the feed listed them.
package enum CatalogueSchema {
    /// The event columns after `seq`, in the order rows are written; the last, `type_key`, is the
    /// type as the filters compare it (``EventType/normalized(_:)``), so `--type` goes into SQL.
    package static let columns = readColumns + ["type_key"]

    /// The columns an event is read back from, in order: the stored properties', then one a detail field.
    package static let readColumns = coreColumns.map(\.name) + detailFields.map(\.spec.column)

    /// The SQLite types of ``columns`` (a staging table's must match, or keys lose their index).
    package static let sqliteTypes = coreColumns.map(\.sqlite) + detailFields.map(\.spec.sqliteType) + ["TEXT"]

    /// The PostgreSQL types of ``columns``, for the staging table.
    package static let postgresTypes = coreColumns.map(\.postgres) + detailFields.map(\.spec.postgresType) + ["text"]

    /// The columns of ``SeismicEvent``'s stored properties (steps 1 and 3), in the order
    /// ``SeismicEvent/forEachCatalogueValue(typeKey:_:)`` gives them and the decoders read them.
    private static let coreColumns: [(name: String, sqlite: String, postgres: String)] = [
        ("key", "TEXT", "text"), ("id", "TEXT", "text"), ("time_ms", "INTEGER", "bigint"), ("latitude", "REAL", "double precision"),
        ("longitude", "REAL", "double precision"), ("depth", "REAL", "double precision"), ("magnitude", "REAL", "double precision"),
        ("magnitude_type", "TEXT", "text"), ("place", "TEXT", "text"), ("event_type", "TEXT", "text"), ("network", "TEXT", "text"),
        ("updated_ms", "INTEGER", "bigint"), ("status", "TEXT", "text"), ("mechanism", "TEXT", "text"),
    ]

    /// Where the detail columns start in ``readColumns``.
    package static let firstDetailColumn = coreColumns.count

    /// The fields kept in detail columns, in ``readColumns`` order: every one ``EventField`` has
    /// but those it says are not catalogued (what `decluster` computes), so a field added there
    /// is a column here (step 4 adds what a catalogue lacks).
    package static let detailFields = EventField.detailFields.filter { $0.spec.catalogued }


    /// Each step of the SQLite schema, named, applied in order by GRDB's `DatabaseMigrator`.
    package static let sqliteSteps: [(name: String, sql: String)] = [
        ("1-events", """
            CREATE TABLE events (
                seq INTEGER PRIMARY KEY,
                key TEXT NOT NULL,
                id TEXT NOT NULL,
                time_ms INTEGER NOT NULL,
                latitude REAL NOT NULL,
                longitude REAL NOT NULL,
                depth REAL,
                magnitude REAL,
                magnitude_type TEXT,
                place TEXT NOT NULL,
                event_type TEXT NOT NULL,
                network TEXT,
                updated_ms INTEGER,
                status TEXT,
                type_key TEXT NOT NULL
            );
            CREATE UNIQUE INDEX events_key ON events (key);
            CREATE INDEX events_time ON events (time_ms DESC, seq);
            CREATE INDEX events_magnitude ON events (magnitude);
            CREATE VIRTUAL TABLE events_position USING rtree(seq, min_longitude, max_longitude, min_latitude, max_latitude);
            CREATE TABLE sync_marks (query TEXT PRIMARY KEY, newest_updated_ms INTEGER NOT NULL);
            """),
        ("2-state", """
            CREATE TABLE catalogue_state (
                lock INTEGER PRIMARY KEY CHECK (lock = 1),
                instance TEXT NOT NULL,
                version INTEGER NOT NULL,
                events INTEGER NOT NULL,
                changed_ms INTEGER
            );
            INSERT INTO catalogue_state
                SELECT 1, lower(hex(randomblob(8))), 1, (SELECT count(*) FROM events WHERE magnitude IS NOT NULL), NULL;
            CREATE INDEX events_updated ON events (updated_ms);
            """),
        // The focal mechanism as JSON (``FocalMechanism``'s Codable form); NULL for an event without one.
        ("3-mechanism", "ALTER TABLE events ADD COLUMN mechanism TEXT;"),
        // One column a detail field (``EventField/detailFields``), typed by its kind; who the data
        // is from (each feed's ``FeedSummary/sources``), credited on maps of the catalogue.
        ("4-details", addColumns(detailFields, postgres: false)
            + "\nCREATE TABLE catalogue_sources (source TEXT PRIMARY KEY, first_ms INTEGER NOT NULL);"),
        ("5-changes", changeStep),
    ]

    /// Each step of the PostgreSQL schema, numbered from 1; `schema_version` holds the last applied.
    package static let postgresSteps: [String] = [
        """
        CREATE TABLE events (
            seq bigint GENERATED ALWAYS AS IDENTITY,
            key text PRIMARY KEY,
            id text NOT NULL,
            time_ms bigint NOT NULL,
            latitude double precision NOT NULL,
            longitude double precision NOT NULL,
            depth double precision,
            magnitude double precision,
            magnitude_type text,
            place text NOT NULL,
            event_type text NOT NULL,
            network text,
            updated_ms bigint,
            status text,
            type_key text NOT NULL,
            position geometry(Point, 4326) GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(longitude, latitude), 4326)) STORED
        );
        CREATE INDEX events_time ON events (time_ms DESC, seq);
        CREATE INDEX events_magnitude ON events (magnitude);
        CREATE INDEX events_position ON events USING gist (position);
        CREATE TABLE sync_marks (query text PRIMARY KEY, newest_updated_ms bigint NOT NULL);
        """,
        """
        CREATE TABLE catalogue_state (
            lock integer PRIMARY KEY CHECK (lock = 1),
            instance text NOT NULL,
            version bigint NOT NULL,
            events bigint NOT NULL,
            changed_ms bigint
        );
        INSERT INTO catalogue_state
            SELECT 1, substr(md5(random()::text || clock_timestamp()::text), 1, 16), 1,
                   (SELECT count(*) FROM events WHERE magnitude IS NOT NULL), NULL;
        CREATE INDEX events_updated ON events (updated_ms);
        """,
        "ALTER TABLE events ADD COLUMN mechanism text;",
        addColumns(detailFields, postgres: true) + ";\nCREATE TABLE catalogue_sources (source text PRIMARY KEY, first_ms bigint NOT NULL);",
        changeStep,
    ]

    /// Step 5, the same in both dialects: each event's change stamp, the stamp its last ingest that
    /// created or revised it gave (what a client of the change stream resumes from; events from
    /// before this step have none), and the stamp that created it (a client told of an earlier
    /// stamp knew the event, and hears of an update rather than a creation); in the state, the
    /// last stamp given and the stamp at which an ingest last removed events (a client behind it
    /// cannot be told exactly what changed).
    static let changeStep = """
        ALTER TABLE events ADD COLUMN change_stamp bigint;
        ALTER TABLE events ADD COLUMN created_stamp bigint;
        CREATE INDEX events_change ON events (change_stamp);
        ALTER TABLE catalogue_state ADD COLUMN changes bigint NOT NULL DEFAULT 0;
        ALTER TABLE catalogue_state ADD COLUMN pruned_at bigint NOT NULL DEFAULT 0
        """

    /// The detail fields whose columns a table of `present` columns lacks: none once step 4 ran,
    /// unless this quakemap knows fields the one that ran it did not. An ingest adds them
    /// (``addColumns(_:postgres:)``); a reader is told to run one.
    package static func missingDetails(present: Set<String>) -> [EventField] {
        detailFields.filter { !present.contains($0.spec.column) }
    }

    /// The columns of `present` this quakemap does not know: a newer one's fields. An ingest
    /// refuses them (it would leave them stale in the events it revises); a reader ignores them.
    package static func unknownColumns(present: [String], postgres: Bool) -> [String] {
        let known = Set(["seq", "change_stamp", "created_stamp"] + columns + (postgres ? ["position"] : []))
        return present.filter { !known.contains($0) }
    }

    /// The statement that adds `fields`' columns.
    package static func addColumns(_ fields: [EventField], postgres: Bool) -> String {
        postgres
            ? "ALTER TABLE events " + fields.map { "ADD COLUMN \($0.spec.column) \($0.spec.postgresType)" }.joined(separator: ", ")
            : fields.map { "ALTER TABLE events ADD COLUMN \($0.spec.column) \($0.spec.sqliteType);" }.joined(separator: "\n")
    }

    /// A detail as its column holds it: a time as whole milliseconds, like the other times.
    package static func sqlValue(_ value: EventValue) -> SQLValue {
        switch value {
        case .text(let text): .text(text)
        case .number(let number): .real(number)
        case .integer(let integer): .integer(integer)
        case .time(let date): .integer(milliseconds(date))
        }
    }

    /// The value of `field` its column holds (`nil`: NULL), as the feed reader made it.
    package static func value(_ stored: SQLValue?, of field: EventField) -> EventValue? {
        switch (field.kind, stored) {
        case (_, nil): nil
        case (.text, .text(let text)?): .text(text)
        case (.number, .real(let number)?): .number(number)
        case (.number, .integer(let integer)?): .number(Double(integer))
        case (.integer, .integer(let integer)?): .integer(integer)
        case (.time, .integer(let milliseconds)?): .time(date(milliseconds: milliseconds))
        // Not what this program writes (an edit by hand): read as nothing rather than as something else.
        default: nil
        }
    }

    /// A mechanism as its column holds it: JSON with sorted keys, so that an unchanged one compares equal.
    package static func text(_ mechanism: FocalMechanism) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // FocalMechanism holds numbers and arrays only: its encoding cannot fail.
        return (try? encoder.encode(mechanism)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The mechanism of a column's JSON; `nil` for NULL (and for text this program did not write).
    package static func mechanism(_ text: String?) -> FocalMechanism? {
        guard let text else { return nil }
        return try? JSONDecoder().decode(FocalMechanism.self, from: Data(text.utf8))
    }

    /// The channel an ingest that changed a PostgreSQL catalogue notifies, with its ``CatalogueState/tag``.
    package static let changeChannel = "quakemap_catalogue"

    /// What an ingest that changed anything runs last, in its transaction: the version moves on
    /// (every server sees a new tag), the served count and the time are kept for them. Its
    /// values: the time, the last change stamp given, the count of events removed and, when
    /// some were, the stamp of their removal.
    package static let bumpState = """
        UPDATE catalogue_state SET version = version + 1, changed_ms = ?, changes = ?,
            pruned_at = CASE WHEN ? > 0 THEN ? ELSE pruned_at END,
            events = (SELECT count(*) FROM events WHERE magnitude IS NOT NULL)
        """

    /// The last change stamp an ingest gave: its own stamps follow it, each `base + ord + 1` (the
    /// row's place in the feed), so they grow with the feed's order and never repeat.
    package static let lastChange = "SELECT changes FROM catalogue_state"

    /// The events changed after a stamp (the first `?`), in the order of their stamps, up to a count
    /// (the second): the columns a page reads, then the stamps.
    package static let changes = """
        SELECT seq, \(readColumns.joined(separator: ", ")), change_stamp, created_stamp FROM events
        WHERE change_stamp > ? ORDER BY change_stamp LIMIT ?
        """

    /// One row: the state's columns, then the newest and oldest time of a served event
    /// (each one step down the time index) and the largest magnitude (one down its index).
    /// Last, the sources its ingests recorded, in the order first recorded, one a line.
    package static func readState(postgres: Bool) -> String {
        let sources = postgres
            ? "(SELECT string_agg(source, E'\\n' ORDER BY first_ms, source) FROM catalogue_sources)"
            : "(SELECT group_concat(source, char(10)) FROM (SELECT source FROM catalogue_sources ORDER BY first_ms, source))"
        return """
            SELECT instance, version, events, changed_ms, changes, pruned_at,
                (SELECT time_ms FROM events WHERE magnitude IS NOT NULL ORDER BY time_ms DESC LIMIT 1),
                (SELECT time_ms FROM events WHERE magnitude IS NOT NULL ORDER BY time_ms ASC LIMIT 1),
                (SELECT magnitude FROM events WHERE magnitude IS NOT NULL ORDER BY magnitude DESC LIMIT 1),
                \(sources)
            FROM catalogue_state
            """
    }

    /// Records `sources` (an ingest's feed's) once each, keeping when each was first recorded.
    package static func recordSources(postgres: Bool) -> String {
        postgres ? "INSERT INTO catalogue_sources (source, first_ms) VALUES (?, ?) ON CONFLICT (source) DO NOTHING"
            : "INSERT OR IGNORE INTO catalogue_sources (source, first_ms) VALUES (?, ?)"
    }

    /// The sources of ``readState(postgres:)``'s last column.
    package static func sources(_ text: String?) -> [String] {
        (text ?? "").split(separator: "\n").map(String.init)
    }

    /// The migrator of a SQLite catalogue.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for step in sqliteSteps {
            migrator.registerMigration(step.name) { db in try db.execute(sql: step.sql) }
        }
        return migrator
    }

    /// A page of events newest first (equal times in feed order) that pass `conditions`, after
    /// `cursor` (keyset paging): the one statement both databases read with; the page size is its
    /// last `?`, bound by the caller. The cursor's values are appended to `values`.
    ///
    /// `sortingMatches`: the conditions hold few events (``fewMatches``), so they are found
    /// through their own index and sorted, rather than by walking the time index: `time_ms + 0`
    /// keeps both planners off it. A planner that misjudges how rare a large magnitude is
    /// (PostgreSQL's estimate from a sample: 158 events of 5 M are M4.5+) otherwise walks the
    /// whole time index for a page of them (0.7 s a page, measured).
    package static func page(where conditions: [String], after cursor: CatalogueCursor?, values: inout [SQLValue?],
                             sortingMatches: Bool = false) -> String {
        var conditions = conditions
        if let cursor {
            // The first term is a range the time index starts from: with the OR alone, PostgreSQL walks the
            // index from its newest event to the cursor on every page (each page slower than the last).
            conditions.append("time_ms <= ? AND (time_ms < ? OR seq > ?)")
            values += [.integer(cursor.timeMilliseconds), .integer(cursor.timeMilliseconds), .integer(cursor.seq)]
        }
        return """
            SELECT seq, \(readColumns.joined(separator: ", ")) FROM events
            WHERE \(conditions.isEmpty ? "1 = 1" : conditions.joined(separator: " AND "))
            ORDER BY \(sortingMatches ? "time_ms + 0" : "time_ms") DESC, seq LIMIT ?
            """
    }

    /// The most events conditions may hold for a page to sort them rather than walk the time index.
    package static let fewMatches = 10_000

    /// How many events `conditions` hold, counted up to its last `?` (``fewMatches``).
    package static func held(where conditions: [String]) -> String {
        "SELECT count(*) FROM (SELECT 1 FROM events WHERE \(conditions.isEmpty ? "1 = 1" : conditions.joined(separator: " AND ")) LIMIT ?) AS held"
    }

    /// The events `conditions` pass, largest magnitude first (then newest, then in feed
    /// order): what a tile keeps when more events reach it than it draws. The count is the last `?`.
    /// Every event with a magnitude, as vector tiles' index reads them.
    package static let positions = "SELECT key, latitude, longitude, magnitude, time_ms FROM events WHERE magnitude IS NOT NULL"

    /// The events with `count` keys, bound in order (SQLite; PostgreSQL binds one array).
    package static func events(keys count: Int) -> String {
        "SELECT seq, \(readColumns.joined(separator: ", ")) FROM events WHERE key IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))"
    }

    package static func largest(where conditions: [String]) -> String {
        """
        SELECT seq, \(readColumns.joined(separator: ", ")) FROM events
        WHERE \(conditions.isEmpty ? "1 = 1" : conditions.joined(separator: " AND "))
        ORDER BY magnitude DESC, time_ms DESC, seq LIMIT ?
        """
    }

    /// Settles the staged events without an id (in both dialects): one event when time and
    /// position agree (their ``key(_:)``), and the last staged stays.
    static let settleKeyless = """
        DELETE FROM staging WHERE id = '' AND EXISTS (SELECT 1 FROM staging later WHERE later.key = staging.key AND later.ord > staging.ord)
        """

    /// The staged events' count, how many the filters admitted, and their newest `updated` (in both dialects).
    static let tallyStaging = "SELECT count(*), coalesce(sum(CASE WHEN admitted THEN 1 ELSE 0 END), 0), max(updated_ms) FROM staging"

    /// Who an ingest's data is from: what its plan credits first, then what the feed names.
    static func credits(_ plan: IngestPlan, _ summary: FeedSummary) -> [String] {
        plan.creditedFirst + summary.sources.filter { !plan.creditedFirst.contains($0) }
    }

    /// The key of `event`: its id, else (no id in the layout) its time and position.
    package static func key(_ event: SeismicEvent) -> String {
        event.id.isEmpty ? "@\(milliseconds(event.time)),\(event.latitude),\(event.longitude)" : event.id
    }

    package static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The date of stored milliseconds: made as the readers make it, so equal to the event read.
    package static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
