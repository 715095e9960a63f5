import FeedTestServer
import Foundation
import GRDB
import QuakeCatalogue
import QuakeKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The database behind a catalogue test.
enum CatalogueBackend: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite, postgres
    var description: String { rawValue }
}

/// A fresh, empty catalogue: a SQLite file in a scratch folder, or a new
/// database on the PostgreSQL server `make test` started (scripts/with_postgres.sh),
/// made as docs/catalogue.md says (owned by the writer role, readable by the reader role).
struct CatalogueFixture {
    let backend: CatalogueBackend
    let folder: URL
    /// What `--catalogue` is given to write.
    let writer: String
    /// What `--catalogue` is given to read (the reader role for PostgreSQL).
    let reader: String
    private let database: String?

    static let postgresPresent = TestPostgres.present
    static let writerPassword = TestPostgres.writerPassword
    static let readerPassword = TestPostgres.readerPassword

    init(_ backend: CatalogueBackend) throws {
        self.backend = backend
        folder = try QuakemapProcess.temporaryFolder()
        switch backend {
        case .sqlite:
            writer = folder.appendingPathComponent("quakes.sqlite").path
            reader = writer
            database = nil
        case .postgres:
            let name = try TestPostgres.createCatalogueDatabase()
            database = name
            writer = "postgresql://quakemap_writer@127.0.0.1:\(TestPostgres.port)/\(name)"
            reader = "postgresql://quakemap_reader@127.0.0.1:\(TestPostgres.port)/\(name)"
        }
    }

    /// Runs psql as the superuser on `database`; its output.
    @discardableResult
    static func admin(_ database: String, _ sql: String? = nil, file: String? = nil) throws -> String {
        try TestPostgres.psql(database, sql, file: file)
    }

    /// Runs psql on this catalogue's database as the superuser.
    @discardableResult
    func sql(_ statement: String) throws -> String { try Self.admin(database!, statement) }

    /// `quakemap ARGUMENTS` with the writer's password in its environment.
    func run(_ arguments: [String], stdin: Data? = nil) throws -> QuakemapProcess.Outcome {
        try QuakemapProcess.run(arguments, stdin: stdin, environment: ["PGPASSWORD": Self.writerPassword])
    }

    /// `quakemap ARGUMENTS --catalogue READER`, as the reader role.
    func read(_ arguments: [String]) throws -> QuakemapProcess.Outcome {
        try QuakemapProcess.run(arguments + ["--catalogue", reader], environment: ["PGPASSWORD": Self.readerPassword])
    }

    func ingest(_ feed: String, _ extra: [String] = []) throws -> QuakemapProcess.Outcome {
        try run(["ingest", feed, "--catalogue", writer] + extra)
    }

    func finish() {
        try? FileManager.default.removeItem(at: folder)
        if let database { TestPostgres.drop(database) }
    }

    /// The backends this run can test: SQLite always; PostgreSQL when `make test` started one.
    static var available: [CatalogueBackend] { postgresPresent ? [.sqlite, .postgres] : [.sqlite] }
}

/// `quakemap ARGUMENTS` of a file, run once for both databases' tests (the file's answer does not depend on them).
enum FileAnswers {
    private static let answers = Locked<[[String]: QuakemapProcess.Outcome]>([:])

    static func run(_ arguments: [String]) throws -> QuakemapProcess.Outcome {
        if let known = answers.withLock({ $0[arguments] }) { return known }
        let outcome = try QuakemapProcess.run(arguments)
        answers.withLock { $0[arguments] = outcome }
        return outcome
    }
}

@Suite("quakemap ingest and --catalogue, in SQLite and PostgreSQL + PostGIS", .timeLimit(.minutes(15)))
struct CatalogueCLITests {
    static let shared = ChartCLITests.shared
    static let sharedFeeds = ((try? FileManager.default.contentsOfDirectory(atPath: shared.path)) ?? [])
        .filter { !$0.hasSuffix(".md") }.sorted()

    /// `make test` starts PostgreSQL; under CI the PostgreSQL half must run, never be skipped.
    @Test func postgresIsThereWhenCIRuns() {
        if ProcessInfo.processInfo.environment["CI"] != nil {
            #expect(CatalogueFixture.postgresPresent, "CI runs make test, which starts PostgreSQL (scripts/with_postgres.sh): it did not")
        }
    }

    /// The summary line without its milliseconds.
    static func summary(_ outcome: QuakemapProcess.Outcome) -> String {
        outcome.stderr.components(separatedBy: " → ").first ?? outcome.stderr
    }

    static let formats = ["csv", "geojson", "json", "text", "table", "quakeml"]

    @Test("every shared feed: list from the catalogue is list from the file, in every format; again: all unchanged",
          .enabled(if: ChartCLITests.sharedPresent, "../shared/data/usgs is not beside the repository: skipped"),
          arguments: CatalogueFixture.available)
    func everySharedFeedListsAlike(_ backend: CatalogueBackend) throws {
        for name in Self.sharedFeeds {
            let fixture = try CatalogueFixture(backend)
            defer { fixture.finish() }
            let feed = Self.shared.appendingPathComponent(name).path
            let first = try fixture.ingest(feed)
            #expect(first.status == 0, "\(name): \(first.stderr)")
            for format in Self.formats {
                let file = try FileAnswers.run(["list", feed, "--limit", "0", "--format", format, "-q"])
                let stored = try fixture.read(["list", "--limit", "0", "--format", format, "-q"])
                #expect(stored.status == 0, "\(name) \(format): \(stored.stderr)")
                #expect(stored.stdout == file.stdout, "\(name) \(format): the catalogue lists other bytes")
            }
            let limited = try FileAnswers.run(["list", feed, "--min-mag", "2.5", "--bbox", "150,-60,-100,70"])
            let storedLimited = try fixture.read(["list", "--min-mag", "2.5", "--bbox", "150,-60,-100,70"])
            #expect(storedLimited.stdout == limited.stdout, "\(name): the 300 most recent in a box across 180°")
            let types = ["--type", "quarry", "--type", "explosion", "--limit", "0", "--format", "text", "-q"]
            #expect(try fixture.read(["list"] + types).stdout == FileAnswers.run(["list", feed] + types).stdout, "\(name): types")
            let again = try fixture.ingest(feed)
            #expect(again.status == 0)
            if backend == .sqlite {
                // The R*Tree packed by the first ingest is one SQLite accepts, with a point for every event.
                let (verdict, points, events) = try DatabaseQueue(path: fixture.writer).read { db in
                    (try String.fetchOne(db, sql: "SELECT rtreecheck('events_position')"),
                     try Int.fetchOne(db, sql: "SELECT count(*) FROM events_position"), try Int.fetchOne(db, sql: "SELECT count(*) FROM events"))
                }
                #expect(verdict == "ok" && points == events, "\(name): \(verdict ?? "?")")
            }
            let events = Self.count(first.stderr, " new")
            #expect(events > 0)
            #expect(again.stderr.contains("0 new, 0 updated, \(events) unchanged"), "\(name): \(again.stderr)")
        }
    }

    /// The number before `word` in a summary line ("417 new" → 417).
    static func count(_ text: String, _ word: String) -> Int {
        guard let range = text.range(of: word) else { return -1 }
        return Int(text[..<range.lowerBound].split(whereSeparator: { !$0.isNumber }).last ?? "") ?? -1
    }

    static let header = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type"

    static func row(_ id: String, latitude: Double, longitude: Double, updated: String, magnitude: Double = 4.2,
                    time: String = "2026-11-20T10:00:00.000Z") -> String {
        "\(time),\(latitude),\(longitude),10,\(magnitude),mb,,,,,us,\(id),\(updated),Somewhere,earthquake"
    }

    static func write(_ rows: [String], to url: URL) throws {
        try ([header] + rows).joined(separator: "\n").appending("\n").write(to: url, atomically: true, encoding: .utf8)
    }

    @Test("focal mechanisms survive the catalogue: list and a beachball map from it are the file's",
          arguments: CatalogueFixture.available)
    func mechanismsSurviveTheCatalogue(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        // Made-up events in GCMT's NDK columns, each its own tensor and planes.
        let records = (0..<3).map { index in
            """
            PDEW 2020/01/0\(index + 1) 12:00:00.0  10.00  120.00  30.0 5.5 5.7 SYNTHETIC ISLANDS REGION
            C20200101120\(index)A   B: 10   20  40 S: 10   20  50 M:  0    0   0 CMT: 1 TRIHD:  2.0
            CENTROID:      4.0 0.1  1\(index).20 0.01  120.30 0.01  35.0  0.5 FREE S-20200201000000
            24  2.000 0.010 -1.\(index)00 0.010 -1.000 0.010  0.500 0.010 -0.500 0.010  0.250 0.010
            V10   2.300 80  90   0.000  5 200  -2.300  9 290   2.300 2\(index)0 36   90  20 54   90
            """
        }
        let ndk = fixture.folder.appendingPathComponent("mechanisms.ndk")
        try (records.joined(separator: "\n") + "\n").write(to: ndk, atomically: true, encoding: .utf8)
        let ingest = try fixture.ingest(ndk.path)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let fromFile = try QuakemapProcess.run(["list", ndk.path, "--format", "json", "--limit", "0"])
        let fromCatalogue = try fixture.read(["list", "--format", "json", "--limit", "0"])
        #expect(fromFile.status == 0 && fromCatalogue.status == 0, "\(fromCatalogue.stderr)")
        #expect(String(decoding: fromFile.stdout, as: UTF8.self).contains("\"mechanism\":{") && fromCatalogue.stdout == fromFile.stdout)
        // A second ingest of the same file changes nothing: the stored JSON compares equal.
        let again = try fixture.ingest(ndk.path)
        #expect(again.stderr.contains("3 unchanged"), "\(again.stderr)")
        let map = fixture.folder.appendingPathComponent("balls.png").path
        let fileMap = fixture.folder.appendingPathComponent("file-balls.png").path
        let drawn = try fixture.read(["render", "--symbol", "beachball", "--width", "400", "--region", "110,0,130,20", "-o", map])
        let reference = try QuakemapProcess.run(["render", ndk.path, "--symbol", "beachball", "--width", "400",
                                                  "--region", "110,0,130,20", "-o", fileMap])
        #expect(drawn.status == 0 && reference.status == 0, "\(drawn.stderr)")
        let ours = try RasterImage(png: Data(contentsOf: URL(fileURLWithPath: map)))
        let theirs = try RasterImage(png: Data(contentsOf: URL(fileURLWithPath: fileMap)))
        #expect(ours.rgba == theirs.rgba)
    }

    @Test("a revision that leaves the box takes the event out of it; older and equal versions change nothing",
          arguments: CatalogueFixture.available)
    func revisionsFollowTheOneRule(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        let first = fixture.folder.appendingPathComponent("first.csv"), moved = fixture.folder.appendingPathComponent("moved.csv"),
            older = fixture.folder.appendingPathComponent("older.csv")
        try Self.write([Self.row("us1", latitude: 10, longitude: 10, updated: "2026-11-20T11:00:00.000Z"),
                        Self.row("us2", latitude: 12, longitude: 12, updated: "2026-11-20T11:00:00.000Z")], to: first)
        try Self.write([Self.row("us1", latitude: 50, longitude: 50, updated: "2026-11-20T12:00:00.000Z")], to: moved)
        try Self.write([Self.row("us1", latitude: 11, longitude: 11, updated: "2026-11-20T10:30:00.000Z"),
                        Self.row("us2", latitude: 12, longitude: 12, updated: "2026-11-20T11:00:00.000Z")], to: older)
        #expect(try fixture.ingest(first.path).stderr.contains("2 new, 0 updated, 0 unchanged"))
        let box = ["--bbox", "0,0,20,20", "--format", "text", "-q"]
        #expect(try fixture.read(["list"] + box).stdoutText.contains("us1|"))
        // The revision lies outside the ingest's own box: it still revises the stored event.
        let revised = try fixture.ingest(moved.path, ["--bbox", "0,0,20,20"])
        #expect(revised.stderr.contains("0 new, 1 updated, 0 unchanged"), "\(revised.stderr)")
        #expect(!(try fixture.read(["list"] + box).stdoutText.contains("us1|")))
        #expect(try fixture.read(["list", "--format", "text", "-q"]).stdoutText.contains("us1|2026-11-20T10:00:00.000|50|50|"))
        let stale = try fixture.ingest(older.path)
        #expect(stale.stderr.contains("0 new, 0 updated, 2 unchanged"), "\(stale.stderr)")
        #expect(try fixture.read(["list", "--format", "text", "-q"]).stdoutText.contains("us1|2026-11-20T10:00:00.000|50|50|"))
        // The same file read as one feed after the catalogue's rows says the same.
        let together = try QuakemapProcess.run(["list", "-", "--format", "text", "-q"], stdin: Data((try String(contentsOf: first, encoding: .utf8)
            + (try String(contentsOf: moved, encoding: .utf8)).split(separator: "\n").dropFirst().joined(separator: "\n") + "\n"
            + (try String(contentsOf: older, encoding: .utf8)).split(separator: "\n").dropFirst().joined(separator: "\n") + "\n").utf8))
        #expect(try fixture.read(["list", "--format", "text", "-q"]).stdout == together.stdout)
    }

    @Test("a feed of repeated ids, equal times, quotes and rows without magnitude lists alike; --keep prunes",
          arguments: CatalogueFixture.available)
    func awkwardFeedListsAlike(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        let feed = fixture.folder.appendingPathComponent("awkward.csv")
        try ListSpoolCLITests.feed(rows: 3_000).write(to: feed, atomically: true, encoding: .utf8)
        let first = try fixture.ingest(feed.path)
        #expect(first.status == 0, "\(first.stderr)")
        for format in Self.formats {
            #expect(try fixture.read(["list", "--limit", "0", "--format", format, "-q"]).stdout
                    == QuakemapProcess.run(["list", feed.path, "--limit", "0", "--format", format, "-q"]).stdout, "\(format)")
        }
        for filter in [["--min-mag", "3", "--max-depth", "300"], ["--since", "2023-11-14T21:00:00Z", "--limit", "50"],
                       ["--where", "mag BETWEEN 1 AND 4 AND depth > 100 OR place LIKE '%Town%'"], ["--type", "EarthQuake", "--limit", "7"],
                       ["--exclude-type", "earthquake"], ["--type", "quarry", "--type", "explosion"]] {
            #expect(try fixture.read(["list", "--format", "text", "-q"] + filter).stdout
                    == QuakemapProcess.run(["list", feed.path, "--format", "text", "-q"] + filter).stdout, "\(filter)")
        }
        let before = try fixture.read(["list", "--limit", "0", "-q"]).stdoutText.split(separator: "\n").count - 1
        let pruned = try fixture.ingest(feed.path, ["--keep", "2d", "--now", "2023-11-16T12:00:00Z"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        let prunedCount = Self.count(pruned.stderr, " pruned")
        #expect(prunedCount > 0)
        let after = try fixture.read(["list", "--limit", "0", "-q"]).stdoutText.split(separator: "\n").count - 1
        let kept = try QuakemapProcess.run(["list", feed.path, "--limit", "0", "-q", "--since", "2023-11-14T12:00:00Z"])
        #expect(after == kept.stdoutText.split(separator: "\n").count - 1)
        #expect(after < before)
    }

    @Test("rows without an id are one event where time and position agree, the last staying; a repeated id keeps its newest",
          arguments: CatalogueFixture.available)
    func rowsWithoutIdsAreSettledByTimeAndPosition(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        let feed = fixture.folder.appendingPathComponent("no-ids.csv")
        try """
            time,latitude,longitude,mag
            2026-11-20T10:00:00.000Z,10,20,3.1
            2026-11-20T11:00:00.000Z,11,21,4.0
            2026-11-20T10:00:00.000Z,10,20,3.3
            2026-11-20T10:00:00.000Z,10,20.5,2.0
            2026-11-20T10:00:00.000Z,10,20,3.5
            """.write(to: feed, atomically: true, encoding: .utf8)
        let ingest = try fixture.ingest(feed.path)
        #expect(ingest.status == 0 && ingest.stderr.contains("3 new, 0 updated, 0 unchanged"), "\(ingest.stderr)")
        let listed = try fixture.read(["list", "--limit", "0", "--format", "csv", "--columns", "time,latitude,longitude,mag", "-q"])
        #expect(listed.stdoutText == """
            time,latitude,longitude,mag
            2026-11-20T11:00:00.000Z,11,21,4
            2026-11-20T10:00:00.000Z,10,20.5,2
            2026-11-20T10:00:00.000Z,10,20,3.5

            """, "\(listed.stdoutText)")
        // With ids: the newest `updated` stays wherever it lies in the feed, and only it is stored.
        let ids = fixture.folder.appendingPathComponent("ids.csv")
        try Self.write([Self.row("x1", latitude: 1, longitude: 1, updated: "2026-11-21T00:00:00.000Z"),
                        Self.row("x1", latitude: 2, longitude: 2, updated: "2026-11-23T00:00:00.000Z"),
                        Self.row("x1", latitude: 3, longitude: 3, updated: "2026-11-22T00:00:00.000Z"),
                        Self.row("x2", latitude: 4, longitude: 4, updated: "2026-11-21T00:00:00.000Z")], to: ids)
        let second = try fixture.ingest(ids.path)
        #expect(second.status == 0 && second.stderr.contains("2 new, 0 updated, 0 unchanged"), "\(second.stderr)")
        let stored = try fixture.read(["list", "--where", "id = 'x1'", "--format", "csv", "--columns", "id,latitude", "-q"])
        #expect(stored.stdoutText == "id,latitude\nx1,2\n", "\(stored.stdoutText)")
    }

    @Test("a box is read alike through the R*Tree (few events in it) and as plain bounds (many), across 180° too",
          arguments: CatalogueFixture.available)
    func boxesReadBothWays(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        let feed = fixture.folder.appendingPathComponent("wide.csv")
        // 25,000 events: more than the R*Tree is asked for (20,000) in the wide boxes.
        try ListSpoolCLITests.feed(rows: 25_000).write(to: feed, atomically: true, encoding: .utf8)
        #expect(try fixture.ingest(feed.path).status == 0)
        for (box, limit) in [("-180,-90,180,90", "0"), ("100,-90,-100,90", "40"), ("10,10,12,12", "0"), ("179,-5,-179,5", "0"),
                             ("-180,-90,-179,90", "40")] {
            let arguments = ["list", "--bbox=\(box)", "--limit", limit, "--format", "text", "-q"]
            #expect(try fixture.read(arguments).stdout == QuakemapProcess.run([arguments[0], feed.path] + arguments.dropFirst()).stdout,
                    "\(box) --limit \(limit)")
        }
    }

    @Test("render, stats, chart, tiles, report and animate read the catalogue as they read the file",
          arguments: CatalogueFixture.available)
    func everyCommandReadsTheCatalogue(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        let sample = "Data/synthetic_all_day.csv"
        #expect(try fixture.ingest(sample).status == 0)
        let out = fixture.folder
        for (name, arguments) in [("map", ["render", "--width", "800", "--limit", "0"]), ("limited", ["render", "--width", "640"]),
                                  ("chart", ["chart", "magnitude-time", "--width", "500", "--height", "300"])] {
            let fromFile = try QuakemapProcess.run(arguments + [sample, "-o", out.appendingPathComponent("\(name)-file.png").path])
            let stored = try fixture.read(arguments + ["-o", out.appendingPathComponent("\(name)-catalogue.png").path])
            #expect(fromFile.status == 0 && stored.status == 0, "\(stored.stderr)")
            let a = try RasterImage(png: Data(contentsOf: out.appendingPathComponent("\(name)-file.png")))
            let b = try RasterImage(png: Data(contentsOf: out.appendingPathComponent("\(name)-catalogue.png")))
            #expect(a.width == b.width && a.height == b.height)
            let differing = zip(a.rgba, b.rgba).count { abs(Int($0) - Int($1)) > 2 }
            #expect(differing == 0, "\(name): \(differing) channel values differ")
        }
        #expect(try fixture.read(["stats", "--limit", "0"]).stdout == QuakemapProcess.run(["stats", sample, "--limit", "0"]).stdout)
        let tiles = try fixture.read(["tiles", "--zoom", "0-1", "-o", out.appendingPathComponent("tiles").path])
        #expect(tiles.status == 0, "\(tiles.stderr)")
        let report = try fixture.read(["report", "-o", out.appendingPathComponent("report.pdf").path])
        #expect(report.status == 0, "\(report.stderr)")
        let animation = try fixture.read(["animate", "--width", "200", "--duration", "1", "--fps", "2", "-o", out.appendingPathComponent("a.png").path])
        #expect(animation.status == 0, "\(animation.stderr)")
    }

    @Test("hostile filters are bound, never spliced: the file's answer or the file's error, and the table stays",
          arguments: CatalogueFixture.available)
    func hostileFilters(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        let sample = "Data/synthetic_all_day.csv"
        #expect(try fixture.ingest(sample).status == 0)
        let nested = String(repeating: "(", count: 300) + "mag > 1" + String(repeating: ")", count: 300)
        for filter in [["--where", "place = 'x'' OR ''1''=''1'"], ["--where", "place LIKE '%''; DROP TABLE events; --%'"],
                       ["--where", "place LIKE '_%' AND type LIKE '%quake'"], ["--where", "mag >= 1e308"],
                       ["--where", "mag > -1e308 AND depth < 1e308"], ["--where", "mag = NaN"], ["--where", nested],
                       ["--where", "time > TIMESTAMP('2026-11-21T12:00:00Z') AND S_INTERSECTS(geometry, BBOX(170,-60,-60,60))"],
                       ["--min-mag", "nan"], ["--bbox", "1e400,0,1,1"], ["--type", "'; DROP TABLE events; --"]] {
            let fromFile = try QuakemapProcess.run(["list", sample, "--format", "text", "-q"] + filter)
            let stored = try fixture.read(["list", "--format", "text", "-q"] + filter)
            #expect(stored.status == fromFile.status, "\(filter): \(stored.stderr)")
            #expect(stored.stdout == fromFile.stdout, "\(filter)")
        }
        #expect(try fixture.read(["list", "--limit", "0", "-q"]).stdoutText.split(separator: "\n").count == 418)
    }

    @Test("a killed ingest leaves the catalogue exactly as it was", arguments: CatalogueFixture.available)
    func killedIngestChangesNothing(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        #expect(try fixture.ingest("Data/synthetic_all_day.csv").status == 0)
        let before = try fixture.read(["list", "--limit", "0", "--format", "geojson", "-q"]).stdout
        let big = fixture.folder.appendingPathComponent("big.csv")
        try ListSpoolCLITests.feed(rows: 150_000).write(to: big, atomically: true, encoding: .utf8)
        let process = try QuakemapProcess.start(["ingest", big.path, "--catalogue", fixture.writer],
                                                environment: ["PGPASSWORD": CatalogueFixture.writerPassword])
        // Killed once its transaction is writing: the SQLite write-ahead log grows, or the server holds its lock.
        let deadline = Date().addingTimeInterval(120)
        var writing = false
        while !writing && process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            switch backend {
            case .sqlite:
                let size = (try? FileManager.default.attributesOfItem(atPath: fixture.writer + "-wal")[.size] as? Int) ?? 0
                writing = size > 1 << 20
            case .postgres:
                writing = (try? fixture.sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")) == "1"
                    && (try? fixture.sql("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'WITH changed%' OR query LIKE 'COPY%'")) != "0"
            }
        }
        #expect(writing, "the ingest was not caught writing")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try fixture.read(["list", "--limit", "0", "--format", "geojson", "-q"]).stdout == before)
        let next = try fixture.ingest("Data/synthetic_all_day.csv")
        #expect(next.stderr.contains("0 new, 0 updated, 420 unchanged"), "\(next.stderr)")
    }

    @Test("two ingests at once of overlapping feeds keep the newest version of every event", arguments: CatalogueFixture.available)
    func concurrentIngestsKeepTheNewest(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        // Each feed newer for half the shared ids; each has ids of its own.
        let a = fixture.folder.appendingPathComponent("a.csv"), b = fixture.folder.appendingPathComponent("b.csv")
        var rowsA: [String] = [], rowsB: [String] = [], expected: [String: Double] = [:]
        for index in 0..<20_000 {
            let latitudeA = Double(index % 170) - 85, latitudeB = latitudeA / 2
            let newerInA = index % 2 == 0
            rowsA.append(Self.row("ev\(index)", latitude: latitudeA, longitude: 1,
                                  updated: newerInA ? "2026-11-22T00:00:00.000Z" : "2026-11-21T00:00:00.000Z"))
            rowsB.append(Self.row("ev\(index)", latitude: latitudeB, longitude: 1,
                                  updated: newerInA ? "2026-11-21T00:00:00.000Z" : "2026-11-22T00:00:00.000Z"))
            expected["ev\(index)"] = newerInA ? latitudeA : latitudeB
        }
        for index in 0..<2_000 {
            rowsA.append(Self.row("a\(index)", latitude: 1, longitude: 2, updated: "2026-11-21T00:00:00.000Z"))
            rowsB.append(Self.row("b\(index)", latitude: 2, longitude: 2, updated: "2026-11-21T00:00:00.000Z"))
            expected["a\(index)"] = 1
            expected["b\(index)"] = 2
        }
        try Self.write(rowsA, to: a)
        try Self.write(rowsB.reversed(), to: b)
        let environment = ["PGPASSWORD": CatalogueFixture.writerPassword]
        let first = try QuakemapProcess.start(["ingest", a.path, "--catalogue", fixture.writer], environment: environment)
        let second = try QuakemapProcess.start(["ingest", b.path, "--catalogue", fixture.writer], environment: environment)
        first.waitUntilExit()
        second.waitUntilExit()
        #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
        let listed = try fixture.read(["list", "--limit", "0", "--format", "text", "-q"]).stdoutText
        var found: [String: Double] = [:]
        for line in listed.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false)
            found[String(fields[0])] = Double(fields[2])
        }
        #expect(found == expected)
    }

    @Test("a catalogue of a newer schema is refused, and so is a database that is not one", arguments: CatalogueFixture.available)
    func newerSchemasAreRefused(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        let empty = try fixture.read(["list"])
        #expect(empty.status == (backend == .sqlite ? 66 : 65), "\(empty.stderr)")
        #expect(try fixture.ingest("Data/synthetic_all_day.csv").status == 0)
        switch backend {
        case .sqlite:
            try DatabaseQueue(path: fixture.writer).write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('9-future')") }
        case .postgres:
            try fixture.sql("UPDATE schema_version SET version = 99")
        }
        for outcome in [try fixture.read(["list"]), try fixture.ingest("Data/synthetic_all_day.csv")] {
            #expect(outcome.status == 65)
            #expect(outcome.stderr.contains("newer than this quakemap knows"), "\(outcome.stderr)")
        }
        if backend == .sqlite {
            let notOne = fixture.folder.appendingPathComponent("not.sqlite")
            try Data("not a database at all, but long enough to have a header of some kind........".utf8).write(to: notOne)
            let outcome = try QuakemapProcess.run(["list", "--catalogue", notOne.path])
            #expect(outcome.status == 65, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("is not a quakemap catalogue"))
        }
    }

    @Test("a feed that cannot be read leaves no catalogue behind, and one that is bad changes none")
    func badFeedsChangeNothing() throws {
        let fixture = try CatalogueFixture(.sqlite)
        defer { fixture.finish() }
        let missing = try fixture.ingest(fixture.folder.appendingPathComponent("missing.csv").path)
        #expect(missing.status == 66)
        #expect(!FileManager.default.fileExists(atPath: fixture.writer))
        #expect(try fixture.ingest("Data/synthetic_all_day.csv").status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: fixture.writer))
        let bad = fixture.folder.appendingPathComponent("bad.csv")
        try "time,latitude,longitude,mag\n2026-11-20T10:00:00Z,91,0,3\n".write(to: bad, atomically: true, encoding: .utf8)
        let strict = try fixture.ingest(bad.path, ["--strict"])
        #expect(strict.status == 65 && strict.stderr.contains("bad.csv:2"), "\(strict.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.writer)) == before)
    }

    @Test(.enabled(if: CatalogueFixture.postgresPresent, "no PostgreSQL: make test starts one (scripts/with_postgres.sh)"))
    func rolesAndPasswords() throws {
        let fixture = try CatalogueFixture(.postgres)
        defer { fixture.finish() }
        #expect(try fixture.ingest("Data/synthetic_all_day.csv").status == 0)
        // The reader's role may read, never write.
        let refused = try QuakemapProcess.run(["ingest", "Data/synthetic_all_day.csv", "--catalogue", fixture.reader],
                                              environment: ["PGPASSWORD": CatalogueFixture.readerPassword])
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("permission denied"))
        // A password in the URL or the environment is never printed, whatever fails.
        let secret = "s3cr3t-Zq9"
        let port = fixture.writer.split(separator: ":")[2].split(separator: "/")[0]
        for (catalogue, environment) in [("postgresql://quakemap_writer:\(secret)@127.0.0.1:\(port)/quakes", [String: String]()),
                                          (fixture.writer, ["PGPASSWORD": secret]),
                                          ("postgresql://quakemap_writer:\(secret)@127.0.0.1:1/quakes", [:]),
                                          ("postgresql://quakemap_writer:\(secret)@127.0.0.1:\(port)/quakes?sslmode=bogus", [:])] {
            let outcome = try QuakemapProcess.run(["list", "--catalogue", catalogue, "--log-format", "json"], environment: environment)
            #expect(outcome.status != 0)
            #expect(!outcome.stderr.contains(secret), "\(outcome.stderr)")
            #expect(!outcome.stdoutText.contains(secret))
        }
        // ~/.pgpass as libpq reads it (only when others may not read it).
        let home = fixture.folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let passFile = home.appendingPathComponent(".pgpass")
        try "# comment\n127.0.0.1:\(port):*:quakemap_reader:\(CatalogueFixture.readerPassword)\n".write(to: passFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passFile.path)
        let withFile = try QuakemapProcess.run(["list", "--catalogue", fixture.reader, "-q"], environment: ["HOME": home.path, "PGPASSWORD": ""])
        #expect(withFile.status == 0, "\(withFile.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: passFile.path)
        #expect(try QuakemapProcess.run(["list", "--catalogue", fixture.reader, "-q"], environment: ["HOME": home.path, "PGPASSWORD": ""]).status == 69)
    }

    @Test("--sync asks a loopback FDSN service only for what changed since the newest update it holds",
          arguments: CatalogueFixture.available)
    func syncAsksForUpdatesOnly(_ backend: CatalogueBackend) throws {
        let fixture = try CatalogueFixture(backend)
        defer { fixture.finish() }
        var events = FDSNCLITests.catalogue
        let service = try FDSNTestService(catalogue: events)
        defer { service.server.stop() }
        let arguments = ["ingest", "--fdsn", service.baseURL, "--fdsn-format", "csv", "--now", FDSNCLITests.now, "--since", "30d",
                         "--sync", "--catalogue", fixture.writer, "--cache-dir", fixture.folder.appendingPathComponent("cache").path]
        let first = try fixture.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("1300 new, 0 updated, 0 unchanged"), "\(first.stderr)")
        #expect(service.parameters(of: "query").allSatisfy { $0["updatedafter"] == nil })
        #expect(service.parameters(of: "query").count > 1, "the first run pages through the window")
        // Three revised, two new; then ask again.
        let newest = events.map(\.updated).max()!
        for index in [5, 500, 1_000] {
            events[index].latitude = -events[index].latitude
            events[index].updated = newest.addingTimeInterval(Double(index))
        }
        events.append(SyntheticEvent(id: "new1", time: newest.addingTimeInterval(-30), latitude: 1, longitude: 2, depth: 3, magnitude: 4,
                                     updated: newest.addingTimeInterval(60)))
        events.append(SyntheticEvent(id: "new2", time: newest.addingTimeInterval(-20), latitude: 2, longitude: 3, depth: 4, magnitude: 5,
                                     updated: newest.addingTimeInterval(70)))
        service.catalogue = events
        let before = service.server.requests.count, queriesBefore = service.parameters(of: "query").count
        let second = try fixture.run(arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("2 new, 3 updated, 0 unchanged"), "\(second.stderr)")
        let asked = service.parameters(of: "query").dropFirst(queriesBefore)
        // The newest `updated` stored, to the millisecond the feeds give.
        #expect(!asked.isEmpty && asked.allSatisfy {
            abs(($0["updatedafter"].flatMap(FDSNTestService.parseTime) ?? .distantPast).timeIntervalSince(newest)) < 0.001
        }, "\(asked)")
        #expect(service.server.requests.count - before <= 2, "one small request (and its count)")
        // The mirror equals the service.
        let mirror = try fixture.read(["list", "--limit", "0", "--format", "text", "-q"])
        let direct = try QuakemapProcess.run(["list", "--fdsn", service.baseURL, "--fdsn-format", "csv", "--now", FDSNCLITests.now,
                                              "--since", "30d", "--limit", "0", "--format", "text", "-q", "--no-cache"])
        #expect(mirror.stdout == direct.stdout)
    }

    @Test("the repeated-id rule's SQL says what the Swift rule says, in both databases", arguments: CatalogueFixture.available)
    func theRuleInSQLIsTheRule(_ backend: CatalogueBackend) throws {
        let values: [Int64?] = [nil, 1, 2]
        var cases: [(Int64?, Int64?)] = []
        for candidate in values { for existing in values { cases.append((candidate, existing)) } }
        let rows = cases.map { "(\($0.0.map(String.init) ?? "NULL")::bigint, \($0.1.map(String.init) ?? "NULL")::bigint)" }
        let rule = RevisionPolicy.sqlIsNewer("c", than: "e")
        let answers: [Bool]
        switch backend {
        case .sqlite:
            let queue = try DatabaseQueue()
            answers = try queue.read { db in
                try cases.map { try Bool.fetchOne(db, sql: "SELECT coalesce(\(rule), 0) FROM (SELECT ? AS c, ? AS e)", arguments: [$0.0, $0.1]) ?? false }
            }
        case .postgres:
            let fixture = try CatalogueFixture(.postgres)
            defer { fixture.finish() }
            let text = try fixture.sql("SELECT coalesce(\(rule), false) FROM (VALUES \(rows.joined(separator: ", "))) AS v(c, e)")
            answers = text.split(separator: "\n").map { $0 == "t" }
        }
        let expected = cases.map { RevisionPolicy.isNewer($0.0.map { Date(timeIntervalSince1970: Double($0)) },
                                                          than: $0.1.map { Date(timeIntervalSince1970: Double($0)) }) }
        #expect(answers == expected)
    }
}

/// What goes into SQL, and the locations `--catalogue` takes.
@Suite struct CataloguePartsTests {
    @Test func locations() throws {
        #expect(try CatalogueLocation("quakes.sqlite") == .sqlite(path: "quakes.sqlite"))
        guard case .postgres(let db) = try CatalogueLocation("postgresql://reader:pw%40x@db.example.org:5433/quakes?sslmode=require")
        else { Issue.record("not PostgreSQL"); return }
        #expect(db.host == "db.example.org" && db.port == 5433 && db.user == "reader" && db.database == "quakes" && db.sslMode == "require")
        #expect(db.password == "pw@x")
        #expect(!db.description.contains("pw"))
        #expect(throws: CatalogueError.self) { try CatalogueLocation("postgresql://h:99999/db") }
        #expect(throws: CatalogueError.self) { try CatalogueLocation("postgresql://h/db?options=-c%20x") }
        #expect(PostgresLocation.redact("postgresql://u:secret@h/db") == "postgresql://u:***@h/db")
    }

    @Test func boxesAcrossTheAntimeridianAreTwoAndTheMeridianHasBothNames() throws {
        let across = CataloguePredicate.parts(of: try GeoBox(west: 170, south: -10, east: -170, north: 10))
        #expect(across.count == 2)
        #expect(across.contains { $0.west == 170 && $0.east == 180 } && across.contains { $0.west == -180 && $0.east == -170 })
        let touching = CataloguePredicate.parts(of: try GeoBox(west: 100, south: -10, east: 180, north: 10))
        #expect(touching.contains { $0.west == -180 && $0.east == -180 })
    }

    @Test func onlyWholeNumericPartsOfCQLGoIntoSQL() throws {
        func predicate(_ text: String) throws -> CataloguePredicate {
            CataloguePredicate(EventSelection(filter: EventFilter(cql: try CQLFilter(text))))
        }
        let numeric = try predicate("mag >= 4.5 AND depth < 70")
        // A strict comparison widened to an inclusive one: the evaluator decides the edge.
        #expect(numeric.conditions.starts(with: ["magnitude >= ?", "depth <= ?"]))
        #expect(numeric.values == [.real(4.5), .real(70)])
        // OR: the span of both sides; times and `updated` in whole milliseconds.
        let spanned = try predicate("(mag > 5 AND depth < 10) OR (mag >= 4 AND depth < 30) AND updated > TIMESTAMP('2024-01-01T00:00:00.0005Z')")
        #expect(spanned.values == [.real(4), .real(30)])
        let updated = try predicate("updated >= TIMESTAMP('2024-01-01T00:00:00.25Z') AND S_INTERSECTS(geometry, POLYGON((170 0, 180 0, 175 10, 170 0)))")
        #expect(updated.conditions.first == "updated_ms >= ?" && updated.values.first == .integer(1_704_067_200_250))
        // Text and NOT stay with the evaluator; their AND partner still narrows.
        let mixed = try predicate("place LIKE '%x%' AND NOT mag < 2 AND mag <= 7")
        #expect(mixed.values == [.real(7)])
        let either = try predicate("mag > 6 OR place = 'x'")
        #expect(either.values.isEmpty)
        // Nothing from input reaches the statement's text.
        let hostile = try predicate("place = ''';DROP TABLE events;--' OR mag > 1")
        #expect(!hostile.conditions.joined().contains("DROP"))
    }
}
