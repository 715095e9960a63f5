import Foundation
import Testing
import QuakeKit

/// `quakemap decluster` and `--decluster` on the other commands: the fields written, the rule that
/// declustering comes before the limit, catalogues read like files, and usage errors.
@Suite("quakemap decluster", .timeLimit(.minutes(10)))
struct DeclusterCLITests {
    /// A M 5 mainshock, an aftershock 10 km away an hour later (the most recent event), a foreshock
    /// a day before, and an event 500 km away: two mainshocks (main, far), two dependent events.
    static let feed = """
        time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,horizontalError,depthError,magError,magNst,status,locationSource,magSource
        2024-03-02T01:00:00.000Z,35.09,-117.0,8,3.1,ml,,,,,ci,after,,"A",earthquake,,,,,reviewed,ci,ci
        2024-03-02T00:00:00.000Z,35.0,-117.0,8,5.0,mw,,,,,ci,main,,"B",earthquake,,,,,reviewed,ci,ci
        2024-03-01T12:00:00.000Z,35.0,-112.0,8,2.5,ml,,,,,ci,far,,"C",earthquake,,,,,reviewed,ci,ci
        2024-03-01T00:00:00.000Z,35.02,-117.02,8,2.8,ml,,,,,ci,fore,,"D",earthquake,,,,,reviewed,ci,ci

        """

    static func rows(_ text: String) -> [String: [String]] {
        var rows: [String: [String]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            rows[cells[0]] = Array(cells.dropFirst())
        }
        return rows
    }

    @Test func declusterListsClustersAndMainshocks() throws {
        let result = try QuakemapProcess.run(["decluster", "-", "--columns", "id,clusterId,mainshock"], stdin: Data(Self.feed.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.hasPrefix("id,clusterId,mainshock\nafter,"), "most recent first: \(result.stdoutText)")
        let rows = Self.rows(result.stdoutText)
        #expect(rows["main"] == ["1", "1"] && rows["after"] == ["1", "0"] && rows["fore"] == ["1", "0"])
        #expect(rows["far"]?[1] == "1" && rows["far"]?[0] != "1")
        #expect(result.stderr.contains("2 mainshocks of 4 listed"), "\(result.stderr)")

        // No foreshock window: the foreshock founds its own cluster.
        let noForeshocks = try QuakemapProcess.run(["decluster", "-", "--columns", "id,mainshock", "--foreshock-fraction", "0", "-q"],
                                                   stdin: Data(Self.feed.utf8))
        #expect(Self.rows(noForeshocks.stdoutText)["fore"] == ["1"])

        let only = try QuakemapProcess.run(["decluster", "-", "--mainshocks-only", "--columns", "id", "-q"], stdin: Data(Self.feed.utf8))
        #expect(only.stdoutText == "id\nmain\nfar\n")
    }

    @Test func theDefaultColumnsAreTheUSGSOnesAndTheTwoFields() throws {
        let result = try QuakemapProcess.run(["decluster", "-", "-q"], stdin: Data(Self.feed.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.hasPrefix(EventListEncoder.csvHeader + ",clusterId,mainshock\n"))
        // GeoJSON carries both as properties.
        let geojson = try QuakemapProcess.run(["decluster", "-", "--format", "geojson", "-q"], stdin: Data(Self.feed.utf8))
        #expect(geojson.stdoutText.contains("\"clusterId\":1") && geojson.stdoutText.contains("\"mainshock\":0"))
    }

    @Test func nearestNeighbourRuns() throws {
        let result = try QuakemapProcess.run(["decluster", "-", "--method", "nearest-neighbour", "--columns", "id,mainshock", "-q"],
                                             stdin: Data(Self.feed.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let rows = Self.rows(result.stdoutText)
        // η of the aftershock from the M 5: (1 h in years)·(10 km)^1.6·10^−5 ≈ 4.6·10^−9 < 10^−5.
        #expect(rows["main"] == ["1"] && rows["after"] == ["0"] && rows["far"] == ["1"])
    }

    /// Declustering sees every matching event before the limit: the one most recent event kept is
    /// the mainshock, not its more recent aftershock.
    @Test func declusteringComesBeforeTheLimit() throws {
        let result = try QuakemapProcess.run(["stats", "-", "--decluster", "gk", "--limit", "1", "--format", "json", "-q"],
                                             stdin: Data(Self.feed.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(json["count"] as? Int == 1, "\(json)")
        #expect((json["last"] as? String)?.hasPrefix("2024-03-02T00:00:00") == true, "\(json)")

        let all = try QuakemapProcess.run(["stats", "-", "--decluster", "gk", "-q"], stdin: Data(Self.feed.utf8))
        #expect(all.stdoutText.contains("events     2"), "\(all.stdoutText)")
    }

    @Test func renderChartAndReportTakeDecluster() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let map = try QuakemapProcess.run(["render", "-", "--decluster", "gk-uhrhammer", "-o", folder.appendingPathComponent("m.png").path],
                                          stdin: Data(Self.feed.utf8))
        #expect(map.status == 0 && map.stderr.contains("drew 2 "), "\(map.stderr)")
        let clusters = try QuakemapProcess.run(["render", "-", "--decluster", "gk", "--decluster-show", "clusters",
                                                "-o", folder.appendingPathComponent("k.png").path], stdin: Data(Self.feed.utf8))
        #expect(clusters.status == 0 && clusters.stderr.contains("drew 4 "), "\(clusters.stderr)")
        let alone = try QuakemapProcess.run(["render", "-", "--decluster-show", "clusters", "-o", folder.appendingPathComponent("x.png").path],
                                            stdin: Data(Self.feed.utf8))
        #expect(alone.status == 64, "--decluster-show needs --decluster: \(alone.stderr)")
        let chart = try QuakemapProcess.run(["chart", "magnitude-time", "-", "--decluster", "gk",
                                             "-o", folder.appendingPathComponent("c.png").path], stdin: Data(Self.feed.utf8))
        #expect(chart.status == 0 && chart.stderr.contains("charted 2 "), "\(chart.stderr)")
        let report = try QuakemapProcess.run(["report", "-", "--decluster", "gk", "-o", folder.appendingPathComponent("r.pdf").path],
                                             stdin: Data(Self.feed.utf8))
        #expect(report.status == 0, "\(report.stderr)")
    }

    @Test func aCatalogueIsDeclusteredLikeTheFile() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = folder.appendingPathComponent("feed.csv"), database = folder.appendingPathComponent("c.sqlite").path
        try Data(Self.feed.utf8).write(to: feed)
        let ingest = try QuakemapProcess.run(["ingest", feed.path, "--catalogue", database, "-q"])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let fromFile = try QuakemapProcess.run(["decluster", feed.path, "--columns", "id,clusterId,mainshock", "-q"])
        let fromCatalogue = try QuakemapProcess.run(["decluster", "--catalogue", database, "--columns", "id,clusterId,mainshock", "-q"])
        #expect(fromCatalogue.status == 0, "\(fromCatalogue.stderr)")
        #expect(fromCatalogue.stdoutText == fromFile.stdoutText)
    }

    @Test(arguments: [["--foreshock-fraction", "1.5"], ["--time-cutoff", "0"], ["--nn-threshold", "low"], ["--nn-df", "-1"],
                      ["--method", "reasenberg"]])
    func badParametersAreUsageErrors(_ arguments: [String]) throws {
        let result = try QuakemapProcess.run(["decluster", "-"] + arguments, stdin: Data(Self.feed.utf8))
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(arguments[0]), "names the option: \(result.stderr)")
    }
}
