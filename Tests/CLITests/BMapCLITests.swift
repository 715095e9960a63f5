import Foundation
import Testing
import QuakeKit

/// `quakemap bmap`: every layer and format, the node table, every event used, refusals with
/// exit 64 before anything is read, and a previous map kept when a run fails.
@Suite("quakemap bmap", .timeLimit(.minutes(10)))
struct BMapCLITests {
    /// Events on a regular lattice over a 3° × 2° box (`side` × 50 of them… 30 × 50 by default) with
    /// b = 1 magnitudes (evenly spaced quantiles above 1.95).
    static func catalogue(in folder: URL, side: Int = 30) throws -> String {
        var rows = ["time,latitude,longitude,depth,mag,magType,net,id,updated,place,type"]
        for index in 0..<(side * 50) {
            let quantile = (Double(index % 150) + 0.5) / 150
            let magnitude = ((1.95 - log10(1 - quantile)) * 100).rounded() / 100
            let time = CivilTime.iso8601(Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 300))
            rows.append("\(time),\(34 + Double(index % side) * 2 / Double(side)),\(-120 + Double(index / side) * 0.06),5,\(magnitude),ml,"
                        + "ci,ci\(index),\(time),here,earthquake")
        }
        let path = folder.appendingPathComponent("box.csv").path
        try (rows.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: [("bvalue", "b.png"), ("bvalue-sigma", "s.pdf"), ("mc", "m.svg")])
    func everyLayerAndFormat(layer: String, name: String) throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.catalogue(in: folder)
        let output = folder.appendingPathComponent(name).path, nodes = folder.appendingPathComponent("nodes.csv").path
        let result = try QuakemapProcess.run(["bmap", input, "--region=-121,33,-116,37", "--spacing", "0.5", "--layer", layer,
                                              "--grid", nodes, "-o", output, "--width", "500"])
        #expect(result.status == 0, "\(result.stderr)")
        // All 1,500 events, though render's default is the newest 300.
        #expect(result.stderr.contains("of 99 nodes from 1500 events"), "\(result.stderr)")
        let table = try String(contentsOfFile: nodes, encoding: .utf8).split(separator: "\n")
        #expect(table.count == 100 && table[0] == "latitude,longitude,events,radius_km,mc,events_above_mc,b,b_sigma,a")
        let inside = table.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .filter { Double($0[0])! == 35 && Double($0[1])! == -119 }
        #expect(inside.count == 1 && Int(inside[0][2]) == 200 && !inside[0][6].isEmpty, "\(inside)")
        let head = String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)).prefix(5), as: UTF8.self)
        #expect(name.hasSuffix(".png") ? head.hasPrefix("\u{FFFD}PNG") : head.hasPrefix(name.hasSuffix(".pdf") ? "%PDF" : "<?xml"), "\(head)")
    }

    @Test(arguments: [
        (["--spacing", "0"], "node spacing 0.0° is outside 0.001…30"),
        (["--nearest", "50", "--radius", "20"], "--nearest and --radius: give one"),
        (["--radius", "20", "--max-radius", "30"], "--max-radius goes with --nearest, not --radius"),
        (["--range", "1.5,0.5"], "--range: '1.5,0.5' is not two numbers low,high with low < high"),
        (["--layer", "density"], "--layer"),
        (["--min-events", "1"], "minimum events 1: give 2 or more"),
    ])
    func refusalsExit64AndKeepThePreviousMap(arguments: [String], message: String) throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("b.png")
        try Data("previous".utf8).write(to: output)
        let result = try QuakemapProcess.run(["bmap", "Data/synthetic_all_day.csv", "-o", output.path] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try Data(contentsOf: output) == Data("previous".utf8))
    }

    @Test func tooManyNodesIsABadRequestNotAnHourOfWork() throws {
        let result = try QuakemapProcess.run(["bmap", "Data/synthetic_all_day.csv", "--spacing", "0.01", "-o", "/dev/null"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("choose a wider spacing"), "\(result.stderr)")
    }
}
