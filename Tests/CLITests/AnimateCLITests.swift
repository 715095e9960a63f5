import Foundation
import Testing
import QuakeKit

/// `quakemap animate` end to end: the APNG, the frames folder, the still of
/// one moment, and refusals of bad values with exit 64 before any feed is read.
@Suite("quakemap animate", .timeLimit(.minutes(10)))
struct AnimateCLITests {
    let sample = "Data/synthetic_all_day.csv"

    /// The frame count an APNG announces (its acTL chunk), or nil.
    static func announcedFrames(_ data: Data) -> Int? {
        let bytes = [UInt8](data)
        guard let index = (0..<max(0, bytes.count - 8)).first(where: { Array(bytes[$0..<$0 + 4]) == Array("acTL".utf8) })
        else { return nil }
        return Int(bytes[index + 4..<index + 8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    @Test func writesAnAnimatedPNGAndLogsOneLine() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.png").path
        let result = try QuakemapProcess.run(["animate", sample, "--width", "300", "--duration", "1.5s", "--fps", "4",
                                              "-o", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("in 6 frames → \(path) (300×150)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one log line: \(result.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(Self.announcedFrames(data) == 6)
        // A viewer without APNG shows the first frame.
        #expect(try RasterImage(png: data).width == 300)
    }

    @Test func framesGoToAFolderOfNumberedPNGs() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = folder.appendingPathComponent("frames")
        let result = try QuakemapProcess.run(["animate", sample, "--width", "200", "--duration", "1", "--fps", "3",
                                              "--frames", frames.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted()
        #expect(names == ["frame-00001.png", "frame-00002.png", "frame-00003.png"])
        let first = try RasterImage(png: Data(contentsOf: frames.appendingPathComponent(names[0])))
        let last = try RasterImage(png: Data(contentsOf: frames.appendingPathComponent(names[2])))
        #expect(first.width == 200 && first != last)
    }

    @Test func atWritesTheStillOfThatMoment() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let animation = folder.appendingPathComponent("a").path, still = folder.appendingPathComponent("last.png").path
        let frames = try QuakemapProcess.run(["animate", sample, "--width", "200", "--duration", "1", "--fps", "2",
                                              "--frames", animation, "--quiet"])
        #expect(frames.status == 0, "\(frames.stderr)")
        let result = try QuakemapProcess.run(["animate", sample, "--width", "200", "--at", "last", "-o", still])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("drew 300 at 20"), "\(result.stderr)")
        let lastFrame = try RasterImage(png: Data(contentsOf: URL(fileURLWithPath: animation + "/frame-00002.png")))
        #expect(try RasterImage(png: Data(contentsOf: URL(fileURLWithPath: still))) == lastFrame)
    }

    /// Killed while frames stream to the file, SIGTERM or `kill -9`: the previous
    /// animation stays as it was; the temporary goes at once (SIGTERM) or on the next run.
    @Test(arguments: [SIGTERM, SIGKILL])
    func aKillMidwayKeepsThePreviousAnimation(_ signal: Int32) throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.png")
        try Data("previous".utf8).write(to: path)
        let process = try QuakemapProcess.start(["animate", sample, "--width", "1024", "--duration", "60", "--fps", "30",
                                                 "-o", path.path, "--quiet"])
        // Until the temporary has frames in it.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let temporaries = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".a.png.tmp-") }
            if let name = temporaries.first,
               let size = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? Int,
               size > 1_000_000 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal || process.terminationReason == .uncaughtSignal)
        #expect(try Data(contentsOf: path) == Data("previous".utf8))
        if signal == SIGTERM {
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.png"])
        } else {
            // The next run to the same path sweeps up what the killed one left.
            let next = try QuakemapProcess.run(["animate", sample, "--width", "100", "--duration", "0.5", "--fps", "2",
                                                "-o", path.path, "--quiet"])
            #expect(next.status == 0, "\(next.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.png"])
        }
    }

    @Test(arguments: [
        (["--fps", "0"], "--fps"),
        (["--fps", "61"], "--fps"),
        (["--duration", "abc"], "--duration"),
        (["--duration", "0"], "--duration"),
        (["--duration", "500", "--fps", "10"], "at most 3600"),
        (["--fade", "-3h"], "--fade"),
        (["--remnant", "2"], "--remnant"),
        (["--hold", "-1"], "--hold"),
        (["--at", "soon"], "--at"),
        (["--frames", "x", "-o", "y.png"], "--frames"),
        (["--width", "5000", "--height", "4000"], "4096×4096"),
        (["--width", "0"], "--width"),
        (["-o", "-"], "standard output"),
    ])
    func badValuesExit64(_ arguments: [String], _ expected: String) throws {
        let result = try QuakemapProcess.run(["animate", sample] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
    }
}
