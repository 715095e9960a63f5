import Foundation
import Testing
import QuakeKit

/// Filters, `--where`, export formats and `stats` through the binary, on the
/// project's sample and, when present, on the real feeds in ../shared.
@Suite("quakemap queries", .timeLimit(.minutes(10)))
struct QueryCLITests {
    static let shared = QuakemapProcess.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data/usgs")
    static var sharedPresent: Bool { FileManager.default.fileExists(atPath: shared.appendingPathComponent("PROVENANCE.md").path) }

    @Test func whereErrorsPointAtTheColumn() throws {
        let result = try QuakemapProcess.run(["list", "Data/synthetic_all_day.csv", "--where", "depth < 10 AND mag >="])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --where: at column 22: expected a value after '>='"), "\(result.stderr)")
        let unknown = try QuakemapProcess.run(["list", "Data/synthetic_all_day.csv", "--where", "magnitude > 3"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--where: at column 1: unknown property 'magnitude'"))
        for (arguments, message) in [(["--bbox", "0,0,10"], "--bbox: '0,0,10' is not W,S,E,N"),
                                     (["--since", "soon"], "--since: 'soon' is not a time"),
                                     (["--min-mag", "5", "--max-mag", "4"], "--min-mag is above --max-mag"),
                                     (["--since", "1d", "--until", "2d"], "--since is after --until")] {
            let result = try QuakemapProcess.run(["list", "Data/synthetic_all_day.csv"] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    @Test func filtersCombineWithTheLimitAndPinnedNow() throws {
        let result = try QuakemapProcess.run([
            "list", "Data/synthetic_all_day.csv", "--now", "2026-11-22T00:00:00Z", "--since", "12h", "--min-mag", "2.5",
            "--exclude-type", "quarry blast", "--where", "net = 'us' OR net = 'ak'", "--limit", "0", "--format", "json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        #expect(!events.isEmpty)
        for event in events {
            #expect((event["mag"] as? Double ?? 0) >= 2.5)
            #expect((event["time"] as? String ?? "") >= "2026-11-21T12:00:00.000Z")
            #expect(["us", "ak"].contains { (event["id"] as? String ?? "").hasPrefix($0) })
        }
    }

    /// The FDSN service's filters on the command line: the same rule, so the same events.
    @Test func theCircleSourcesAndUpdateTime() throws {
        let result = try QuakemapProcess.run([
            "list", "Data/synthetic_all_day.csv", "--circle", "37,-119,1,4", "--mag-type", "ML", "--contributor", "NC",
            "--contributor", "nn", "--updated-after", "2026-11-21T06:00:00Z", "--limit", "0", "--format", "json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        #expect(events.count > 3)
        for event in events {
            let latitude = try #require(event["latitude"] as? Double), longitude = try #require(event["longitude"] as? Double)
            let distance = GeoCircleReference.degrees(37, -119, latitude, longitude)
            #expect(distance >= 1 && distance <= 4, "\(event)")
            #expect(event["magType"] as? String == "ml" && ["nc", "nn"].contains(event["net"] as? String))
            #expect((event["updated"] as? String ?? "") >= "2026-11-21T06:00:00.000Z")
        }
        for (arguments, message) in [(["--circle", "37,-119"], "--circle: '37,-119' is not LAT,LON,RADIUS"),
                                     (["--circle", "95,0,3"], "--circle: the centre's latitude 95.0 is outside"),
                                     (["--circle", "0,0,5,2"], "--circle: the minimum radius 5.0 exceeds the maximum 2.0"),
                                     (["--updated-after", "later"], "--updated-after: 'later' is not a time")] {
            let refused = try QuakemapProcess.run(["list", "Data/synthetic_all_day.csv"] + arguments)
            #expect(refused.status == 64, "\(arguments)")
            #expect(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
    }

    @Test func tableAndStatsForPeople() throws {
        let table = try QuakemapProcess.run(["list", "Data/synthetic_all_day.csv", "--limit", "3", "--format", "table", "--quiet"])
        let lines = table.stdoutText.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("time (UTC)"))
        // Columns line up: the right-aligned magnitude ends where the header's "mag" ends, on every row.
        let magEnd = try #require(lines[0].range(of: "mag ")).lowerBound.utf16Offset(in: lines[0]) + 3
        for line in lines.dropFirst(2) {
            let characters = Array(line)
            #expect(characters[magEnd - 1].isNumber && characters[magEnd] == " ", "misaligned: \(line)")
        }
        let stats = try QuakemapProcess.run(["stats", "Data/synthetic_all_day.csv", "--format", "json", "--quiet"])
        #expect(stats.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: stats.stdout) as? [String: Any])
        #expect(object["count"] as? Int == 417)
        #expect((object["types"] as? [String: Int])?["quarry blast"] == 6)
        let text = try QuakemapProcess.run(["stats", "Data/synthetic_all_day.csv", "--min-mag", "5", "--quiet"])
        #expect(text.stdoutText.hasPrefix("events     7\n"), "\(text.stdoutText)")
    }

    /// Without a limit stats folds a spool of records; with a limit above the
    /// count it keeps the events: the same selection, so the same bytes.
    @Test func statsWithoutALimitPrintsWhatTheKeptEventsGive() throws {
        var files = ["Data/synthetic_all_day.csv"]
        if Self.sharedPresent {
            files += ["all_month_2020-06.csv", "eqs7day-M1_2011-05.txt", "all_week_2014-04.geojson"]
                .map { Self.shared.appendingPathComponent($0).path }
        }
        for file in files {
            for options in [[], ["--format", "json"], ["--min-mag", "2", "--bbox=-130,20,-60,50"], ["--mag-bin", "0.2", "--format", "json"]] {
                let spooled = try QuakemapProcess.run(["stats", file, "--quiet"] + options)
                let kept = try QuakemapProcess.run(["stats", file, "--quiet", "--limit", "100000000"] + options)
                #expect(spooled.status == 0 && kept.status == 0, "\(spooled.stderr) \(kept.stderr)")
                #expect(spooled.stdout == kept.stdout, "\(file) \(options)")
                #expect(spooled.stdoutText.count > 100, "\(file) \(options): \(spooled.stdoutText)")
            }
            // The same for a table: spooled without a limit, kept with one.
            let spooledTable = try QuakemapProcess.run(["list", file, "--quiet", "--limit", "0", "--format", "table"])
            let keptTable = try QuakemapProcess.run(["list", file, "--quiet", "--limit", "100000000", "--format", "table"])
            #expect(spooledTable.status == 0 && spooledTable.stdout == keptTable.stdout, "\(file) as a table")
            #expect(spooledTable.stdoutText.split(separator: "\n").count > 100, "\(file) as a table")
        }
    }

    /// `--type earthquake --min-mag 4.5` on every real feed, counted independently by Python's csv and json modules.
    @Test(.enabled(if: sharedPresent, "../shared/data/usgs is not beside the repository: skipped"),
          arguments: ["all_month_2020-06.csv", "all_month_2022-03.csv", "all_month_2015-12_15col.csv", "4.5_week_2020-04.csv",
                      "significant_month_2024-05.csv", "eqs7day-M1_2011-05.txt", "all_week_2014-04.geojson", "4.5_week_2020-10.geojson"])
    func countsAgreeWithAnIndependentReader(_ file: String) throws {
        let path = Self.shared.appendingPathComponent(file).path
        let result = try QuakemapProcess.run(["stats", path, "--type", "earthquake", "--min-mag", "4.5", "--format", "json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let count = (try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])?["count"] as? Int
        #expect(count == (try Self.pythonCount(path)), "\(file)")
    }

    /// list → GeoJSON → list gives the same CSV.
    @Test(.enabled(if: sharedPresent, "../shared/data/usgs is not beside the repository: skipped"),
          arguments: ["all_month_2020-06.csv", "all_month_2015-12_15col.csv", "eqs7day-M1_2011-05.txt", "all_week_2014-04.geojson"])
    func geoJSONRoundTrips(_ file: String) throws {
        let path = Self.shared.appendingPathComponent(file).path
        let csv = try QuakemapProcess.run(["list", path, "--limit", "0", "--quiet"])
        let geojson = try QuakemapProcess.run(["list", path, "--limit", "0", "--format", "geojson", "--quiet"])
        let again = try QuakemapProcess.run(["list", "-", "--limit", "0", "--quiet"], stdin: geojson.stdout)
        #expect(csv.status == 0 && geojson.status == 0 && again.status == 0, "\(again.stderr)")
        #expect(again.stdout == csv.stdout)
        #expect(csv.stdoutText.split(separator: "\n").count > 100)
    }

    static func pythonCount(_ path: String) throws -> Int {
        let script = """
            import csv, json, sys
            path = sys.argv[1]
            def count(rows):
                return sum(1 for mag, kind in rows if mag not in (None, "") and float(mag) >= 4.5
                           and (kind or "earthquake").strip().lower() == "earthquake")
            if path.endswith(".geojson"):
                features = json.load(open(path, encoding="utf-8"))["features"]
                print(count((f["properties"]["mag"], f["properties"]["type"]) for f in features))
            else:
                reader = csv.DictReader(open(path, encoding="utf-8", newline=""))
                lower = {name.lower(): name for name in reader.fieldnames}
                mag, kind = lower.get("mag") or lower["magnitude"], lower.get("type")
                print(count((row[mag], row[kind] if kind else "") for row in reader))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try #require(Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}

/// Great-circle distance in degrees by the spherical law of cosines: a formula of its own, not the filter's haversine.
enum GeoCircleReference {
    static func degrees(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let r = Double.pi / 180
        let cosine = sin(latitude1 * r) * sin(latitude2 * r) + cos(latitude1 * r) * cos(latitude2 * r) * cos((longitude2 - longitude1) * r)
        return acos(min(1, max(-1, cosine))) / r
    }
}
