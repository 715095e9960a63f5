import Foundation
import Testing
import QuakeKit

/// Killing quakemap at any moment never leaves a half-written map or a pile of temporary files.
@Suite("Crash safety", .timeLimit(.minutes(10)), .serialized)
struct CrashSafetyTests {
    @Test func sigtermMidRenderKeepsThePreviousMapAndRemovesItsTemporaryFile() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let map = folder.appendingPathComponent("quakes.png")
        try Data("previous".utf8).write(to: map)
        for delay in stride(from: 0.05, through: 1.0, by: 0.1) {
            let process = try QuakemapProcess.start(["render", "Data/synthetic_all_day.csv", "-o", map.path, "--width", "4000", "--quiet"])
            Thread.sleep(forTimeInterval: delay)
            process.terminate()
            process.waitUntilExit()
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(names == ["quakes.png"], "after SIGTERM at \(delay) s: \(names)")
            let content = try Data(contentsOf: map)
            #expect(content == Data("previous".utf8) || (try? RasterImage(png: content)) != nil, "a half-written map")
            if process.terminationStatus != 143 {
                break  // it finished before the signal: the new map is complete
            }
        }
    }

    /// `kill -9` at random moments during 200 renders to one path: the file is always
    /// one complete map or the other, and abandoned temporary files are swept up.
    @Test func killNineNeverLeavesAHalfMap() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let map = folder.appendingPathComponent("quakes.png")
        let variants = [["--color", "depth"], ["--color", "magnitude"]]
        let base = ["render", "Data/synthetic_all_day.csv", "-o", map.path, "--width", "1500", "--quiet"]
        var expected: [RasterImage] = []
        var duration = 0.0
        for variant in variants {
            let started = Date()
            let process = try QuakemapProcess.start(base + variant)
            process.waitUntilExit()
            duration = max(duration, Date().timeIntervalSince(started))
            expected.append(try RasterImage(png: Data(contentsOf: map)))
        }
        // A temporary file left by a process that is gone must be swept by the next write.
        let abandoned = folder.appendingPathComponent(".quakes.png.tmp-999999999-abcdef")
        try Data("junk".utf8).write(to: abandoned)

        var random = SystemRandomNumberGenerator()
        var killedMidWrite = 0
        for iteration in 0..<200 {
            let process = try QuakemapProcess.start(base + variants[iteration % 2])
            if iteration % 2 == 0 {
                // Half the kills at a random moment of the run…
                Thread.sleep(forTimeInterval: Double.random(in: 0...(duration * 1.1), using: &random))
            } else {
                // …and half the moment a temporary file appears, while the map is being written.
                let deadline = Date().addingTimeInterval(duration * 3)
                while process.isRunning, Date() < deadline,
                      (try FileManager.default.contentsOfDirectory(atPath: folder.path)).allSatisfy({ !$0.contains(".tmp-\(process.processIdentifier)-") }) {
                    usleep(200)
                }
            }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            if names.contains(where: { $0.contains(".tmp-\(process.processIdentifier)-") }) { killedMidWrite += 1 }
            let image = try RasterImage(png: Data(contentsOf: map))
            #expect(expected.contains(image), "iteration \(iteration): the map is neither the old nor the new one")
            #expect(names.count <= 2, "temporary files pile up: \(names)")
        }
        let finish = try QuakemapProcess.start(base)
        finish.waitUntilExit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["quakes.png"])
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(killedMidWrite >= 20, "only \(killedMidWrite) kills landed while the map was being written")
        print("kill -9 landed during a write \(killedMidWrite) times of 200")
    }
}
