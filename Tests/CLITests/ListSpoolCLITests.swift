import Foundation
import Testing

/// `list --limit 0` spools its lines; a limit at least the feed's size keeps
/// every event in memory instead. Both must print the same bytes and the
/// same summary, from standard input as from a file.
@Suite("quakemap list without a limit", .timeLimit(.minutes(10)))
struct ListSpoolCLITests {
    static let header = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type"

    /// Repeated ids with older and newer `updated`, equal times, places with commas and quotes, rows without magnitude.
    static func feed(rows: Int) -> String {
        var lines = [header]
        for row in 0..<rows {
            let second = 1_700_000_000 - (row * 7919 % 5003) * 13
            let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(second)))
            let id = row % 7 == 0 ? "rep\(row % 50)" : "ev\(row)"
            let updated = row % 3 == 0 ? "" : "2026-11-2\(row % 9)T00:00:00.000Z"
            let magnitude = row % 11 == 0 ? "" : String(Double(row % 70) / 10 - 0.5)
            let place = row % 2 == 0 ? "\"\(row) km N of \"\"Town\"\", Åland\"" : "Ocean \(row % 13)"
            lines.append("\(time),\(Double(row % 1800) / 10 - 90),\(Double(row % 3600) / 10 - 180),\(row % 700).25,"
                         + "\(magnitude),ml,,,,,us,\(id),\(updated),\(place),earthquake")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: ["csv", "json", "geojson", "text"])
    func spooledAndInMemoryListsAgreeFromStandardInput(_ format: String) throws {
        let feed = Data(Self.feed(rows: 3_000).utf8)
        let spooled = try QuakemapProcess.run(["list", "-", "--limit", "0", "--format", format], stdin: feed)
        let kept = try QuakemapProcess.run(["list", "-", "--limit", "100000", "--format", format], stdin: feed)
        #expect(spooled.status == 0)
        #expect(!spooled.stdout.isEmpty)
        #expect(spooled.stdout == kept.stdout)
        // The summary line but its milliseconds.
        func summary(_ text: String) -> String { text.components(separatedBy: " in ").first ?? text }
        #expect(summary(spooled.stderr) == summary(kept.stderr))
        #expect(spooled.stderr.contains("duplicate ids (latest kept)"))
    }

    @Test func aStrictRejectionLeavesStandardOutputEmpty() throws {
        let feed = Data((Self.feed(rows: 100) + "not a time,1,2,3,4,ml,,,,,us,bad,,x,earthquake\n").utf8)
        let result = try QuakemapProcess.run(["list", "-", "--limit", "0", "--strict"], stdin: feed)
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("<stdin>:102"))
    }
}
