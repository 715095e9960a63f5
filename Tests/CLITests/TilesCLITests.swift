import Foundation
import GRDB
import QuakeKit
import Testing

/// `quakemap tiles`: folders and MBTiles files, what they hold, and what is never overwritten.
@Suite("quakemap tiles", .timeLimit(.minutes(10)))
struct TilesCLITests {
    static let sample = QuakemapProcess.repositoryRoot.appendingPathComponent("Data/synthetic_all_day.csv").path

    @Test func writesAFolderOfTilesWithTileJSON() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("tiles").path
        let result = try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0-3", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("417 events as") && result.stderr.contains("→ \(output)"), "\(result.stderr)")
        let world = try RasterImage(png: Data(contentsOf: URL(fileURLWithPath: output + "/0/0/0.png")))
        #expect(world.width == 256 && world.height == 256)
        let alphas = stride(from: 3, to: world.rgba.count, by: 4).map { world.rgba[$0] }
        #expect(alphas.contains(0) && alphas.contains { $0 > 100 }, "a transparent overlay with circles")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/tilejson.json")))
        let tileJSON = try #require(json as? [String: Any])
        #expect(tileJSON["tiles"] as? [String] == ["{z}/{x}/{y}.png"] && tileJSON["maxzoom"] as? Int == 3)
        // Empty tiles are not written: zoom 3 has 64 tiles, the sample covers a few.
        let zoom3 = try FileManager.default.subpathsOfDirectory(atPath: output + "/3").filter { $0.hasSuffix(".png") }
        #expect(!zoom3.isEmpty && zoom3.count < 64, "\(zoom3.count)")
        // Nothing temporary is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["tiles"])
        // The same feed gives the same files, byte for byte.
        let again = folder.appendingPathComponent("again").path
        #expect(try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0-3", "-o", again]).status == 0)
        let files = try FileManager.default.subpathsOfDirectory(atPath: output).sorted()
        #expect(try FileManager.default.subpathsOfDirectory(atPath: again).sorted() == files)
        for file in files where file.hasSuffix(".png") || file.hasSuffix(".json") {
            #expect(FileManager.default.contentsEqual(atPath: "\(output)/\(file)", andPath: "\(again)/\(file)"), "\(file)")
        }
    }

    @Test func replacesItsOwnPyramidButNeverAnotherFolder() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("tiles").path
        #expect(try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0-2", "-o", output]).status == 0)
        #expect(try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0", "-o", output]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: output + "/2"), "the old pyramid's deeper tiles are gone")
        #expect(FileManager.default.fileExists(atPath: output + "/0/0/0.png"))

        let documents = folder.appendingPathComponent("documents")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: documents.appendingPathComponent("thesis.txt"))
        let refused = try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0", "-o", documents.path])
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("\(documents.path): not replaced: the folder holds other files"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: documents.path) == ["thesis.txt"])
        // A tilejson.json alone does not make a folder of other files a pyramid.
        try Data("{}".utf8).write(to: documents.appendingPathComponent("tilejson.json"))
        let stillRefused = try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0", "-o", documents.path])
        #expect(stillRefused.status == 73, "\(stillRefused.stderr)")
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: documents.path)) == ["thesis.txt", "tilejson.json"])
        let mbtilesOverFolder = try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0", "--format", "mbtiles",
                                                         "-o", documents.path])
        #expect(mbtilesOverFolder.status == 73 && mbtilesOverFolder.stderr.contains("it is a folder, not an MBTiles file"))
    }

    @Test func aFailedRunLeavesThePreviousPyramid() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("tiles").path
        #expect(try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0-1", "-o", output]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: output + "/0/0/0.png"))
        let bad = try QuakemapProcess.run(["tiles", "-", "--zoom", "0-1", "-o", output], stdin: Data("not,a\nfeed\n".utf8))
        #expect(bad.status == 65, "\(bad.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output + "/0/0/0.png")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["tiles"])
    }

    @Test func writesAnMBTilesFileWithRowsFromTheSouth() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("quakes.mbtiles").path
        let result = try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0-2", "--tile-size", "512", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let queue = try DatabaseQueue(path: output)
        try queue.read { db in
            let metadata = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT name, value FROM metadata")
                .map { ($0["name"] as String, $0["value"] as String) })
            #expect(metadata["format"] == "png" && metadata["minzoom"] == "0" && metadata["maxzoom"] == "2")
            #expect(metadata["name"] == "quakemap" && metadata["type"] == "overlay")
            let world = try #require(try Data.fetchOne(db, sql: "SELECT tile_data FROM tiles WHERE zoom_level = 0"))
            #expect(try RasterImage(png: world).width == 512)
            // Every tile's rows count from the south: row r of zoom z is XYZ row 2^z − 1 − r.
            for row in try Row.fetchAll(db, sql: "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles") {
                let zoom: Int = row["zoom_level"], tmsRow: Int = row["tile_row"]
                #expect((0..<(1 << zoom)).contains(tmsRow))
            }
        }
        // The same tiles as the folder, row for row.
        let plain = folder.appendingPathComponent("plain").path
        #expect(try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0-2", "--tile-size", "512", "-o", plain]).status == 0)
        try queue.read { db in
            for row in try Row.fetchAll(db, sql: "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles") {
                let zoom: Int = row["zoom_level"], x: Int = row["tile_column"], tmsRow: Int = row["tile_row"]
                let file = "\(plain)/\(zoom)/\(x)/\((1 << zoom) - 1 - tmsRow).png"
                #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == row["tile_data"] as Data, "\(file)")
            }
            // And no tile more or less than the folder has.
            let files = (FileManager.default.enumerator(atPath: plain)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".png") }
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM tiles") == files.count && !files.isEmpty)
        }
    }

    @Test func vectorTilesGoToAnyContainerAndReplaceOnlyWhenComplete() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("quakes.pmtiles").path
        let result = try QuakemapProcess.run(["tiles", Self.sample, "--encoding", "mvt", "--zoom", "0-4", "--tile-limit", "50",
                                              "-o", archive])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("tiled 417 events as") && result.stderr.contains("vector tiles"), "\(result.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: archive))
        #expect(before.prefix(8) == Data("PMTiles".utf8 + [3]))
        // Nothing temporary is left beside it, and a feed that fails leaves it as it was.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["quakes.pmtiles"])
        let bad = try QuakemapProcess.run(["tiles", "-", "--encoding", "mvt", "--zoom", "0", "-o", archive], stdin: Data("not,a\nfeed\n".utf8))
        #expect(bad.status == 65, "\(bad.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["quakes.pmtiles"])
        // A folder of vector tiles: .pbf files, TileJSON with the layer, and GDAL's metadata.json.
        let tiles = folder.appendingPathComponent("tiles").path
        #expect(try QuakemapProcess.run(["tiles", Self.sample, "--encoding", "mvt", "--zoom", "0-1", "-o", tiles]).status == 0)
        #expect(FileManager.default.fileExists(atPath: tiles + "/0/0/0.pbf"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tiles + "/tilejson.json"))) as? [String: Any]
        #expect(json?["tiles"] as? [String] == ["{z}/{x}/{y}.pbf"])
        #expect((json?["vector_layers"] as? [[String: Any]])?.first?["id"] as? String == "quakes")
        #expect(FileManager.default.fileExists(atPath: tiles + "/metadata.json"))
        // The container by name, or said outright; never a folder of other files, or a folder for a file.
        let refused = try QuakemapProcess.run(["tiles", Self.sample, "--encoding", "mvt", "--container", "pmtiles", "-o", tiles])
        #expect(refused.status == 73 && refused.stderr.contains("it is a folder, not a PMTiles file"), "\(refused.stderr)")
        let retired = try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0", "--format", "png", "-o", tiles + "-png"])
        #expect(retired.status == 0 && retired.stderr.contains("--format is retired"), "\(retired.stderr)")
    }

    @Test(arguments: [
        (["--encoding", "mvt", "--zoom", "0-23"], "--zoom: zoom '0-23' is not a level or a range like 0-6 within 0…22"),
        (["--encoding", "jpeg"], "The value 'jpeg' is invalid for '--encoding <encoding>'"),
        (["--format", "png", "--container", "folder"], "--format is the older spelling of --container: give one"),
        (["--zoom", "6-2"], "--zoom: zoom '6-2' is not a level or a range like 0-6 within 0…18"),
        (["--zoom", "0-25"], "--zoom: zoom '0-25' is not a level or a range like 0-6 within 0…18"),
        (["--tile-size", "300"], "--tile-size: tile size 300 is not 256 or 512"),
        (["--tile-limit=-1"], "--tile-limit must be 0 (no limit) or more"),
    ])
    func refusesBadOptions(arguments: [String], message: String) throws {
        let result = try QuakemapProcess.run(["tiles", Self.sample, "-o", "/tmp/never-written"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written"))
    }

    @Test func showsProgressWhenAsked() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0-2", "--progress", "-o", folder.path + "/t"])
        #expect(result.stderr.contains("\rzoom 2/2 [##############################] "), "\(result.stderr)")
        let quiet = try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0-2", "-o", folder.path + "/u"])
        #expect(!quiet.stderr.contains("\r"), "no bar when standard error is not a terminal")
    }
}

/// Stopping `quakemap tiles` at any moment leaves the previous pyramid whole and nothing beside it.
@Suite("Crash safety of tile pyramids", .timeLimit(.minutes(10)), .serialized)
struct TilesCrashSafetyTests {
    @Test func stoppedRunsLeaveThePreviousPyramidAndNoTemporaryFolder() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("tiles").path
        let arguments = ["tiles", TilesCLITests.sample, "--zoom", "0-9", "-o", output, "--quiet"]
        let first = try QuakemapProcess.start(["tiles", TilesCLITests.sample, "--zoom", "0-1", "-o", output, "--quiet"])
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        let previous = try Data(contentsOf: URL(fileURLWithPath: output + "/0/0/0.png"))
        var stopped = 0
        for delay in [0.05, 0.2, 0.4, 0.8] {
            let process = try QuakemapProcess.start(arguments)
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, delay < 0.3 ? SIGTERM : SIGKILL)
            process.waitUntilExit()
            guard process.terminationReason == .uncaughtSignal || process.terminationStatus == 143 else { break }
            stopped += 1
            #expect(try Data(contentsOf: URL(fileURLWithPath: output + "/0/0/0.png")) == previous)
            #expect(!FileManager.default.fileExists(atPath: output + "/9"), "no tile of the stopped run")
        }
        #expect(stopped > 0, "the pyramid finished before any signal: make it larger")
        // The next run sweeps what a kill -9 left and replaces the pyramid.
        let last = try QuakemapProcess.start(arguments)
        last.waitUntilExit()
        #expect(last.terminationStatus == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["tiles"])
        #expect(FileManager.default.fileExists(atPath: output + "/9"))
    }
}
