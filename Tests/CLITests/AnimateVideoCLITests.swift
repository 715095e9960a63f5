import Foundation
import Testing

/// `quakemap animate -o NAME.mp4|.webm` end to end: the system's ffmpeg writes the video (an
/// odd size padded to even); without ffmpeg, or when it fails or dies, the run exits 69 with
/// its reason and leaves the previous file and no temporary; an unsupported extension is a
/// usage error.
@Suite("quakemap animate to video", .timeLimit(.minutes(10)))
struct AnimateVideoCLITests {
    let sample = "Data/synthetic_all_day.csv"

    /// ffmpeg and ffprobe on PATH (make test installs Debian's ffmpeg).
    static let ffmpegPresent = ["ffmpeg", "ffprobe"].allSatisfy { name in
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

    /// ffprobe's `codec_name,width,height,pix_fmt,nb_read_frames` of the first video stream.
    static func probe(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                             "stream=codec_name,width,height,pix_fmt,nb_read_frames", "-of", "csv=p=0", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A stand-in for ffmpeg: a shell script with `body`, executable, in `folder`.
    static func fakeFFmpeg(_ body: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("fake-ffmpeg").path
        try Data(("#!/bin/sh\n" + body + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test(.enabled(if: ffmpegPresent, "ffmpeg is missing: make test installs it"),
          arguments: [("mp4", "h264"), ("webm", "vp9")])
    func writesTheVideoItsExtensionNamesPaddedToEven(_ suffix: String, _ codec: String) throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.\(suffix)").path
        let result = try QuakemapProcess.run(["animate", sample, "--width", "161", "--height", "81", "--duration", "1",
                                              "--fps", "10", "--hold", "0.3", "-o", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("in 10 frames → \(path) (161×81)"), "\(result.stderr)")
        // The animation's 10 frames and the hold's 3; 161 × 81 padded to 162 × 82.
        #expect(try Self.probe(path) == "\(codec),162,82,yuv420p,13")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.\(suffix)"])
    }

    @Test func withoutFFmpegExits69AndKeepsThePreviousFile() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.mp4")
        try Data("previous".utf8).write(to: path)
        let arguments = ["animate", sample, "--width", "100", "--duration", "1", "-o", path.path]
        let noPath = try QuakemapProcess.run(arguments, environment: ["PATH": folder.path, "QUAKEMAP_FFMPEG": ""])
        #expect(noPath.status == 69, "\(noPath.stderr)")
        #expect(noPath.stderr.contains("ffmpeg was not found on PATH"), "\(noPath.stderr)")
        #expect(noPath.stderr.contains("ffmpeg is needed for .mp4/.webm; install it (Debian: apt-get install ffmpeg)"
            + " or write an APNG with -o NAME.png"), "\(noPath.stderr)")
        // Before the feed is read: one line, the error.
        #expect(noPath.stderr.split(separator: "\n").count == 1, "\(noPath.stderr)")
        let named = try QuakemapProcess.run(arguments, environment: ["QUAKEMAP_FFMPEG": "/no/such/ffmpeg"])
        #expect(named.status == 69, "\(named.stderr)")
        #expect(named.stderr.contains("QUAKEMAP_FFMPEG names no program: '/no/such/ffmpeg'"), "\(named.stderr)")
        #expect(try Data(contentsOf: path) == Data("previous".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.mp4"])
    }

    /// ffmpeg that fails after reading its input, or dies before reading any (quakemap's writes
    /// then meet a closed socket: no SIGPIPE, exit 141): 69, its last words and status, the
    /// previous file as it was, no temporary left.
    @Test(arguments: [
        ("cat >/dev/null; echo 'first line' >&2; echo 'Unknown encoder libx264' >&2; exit 3",
         "exited with status 3:\n  first line\n  Unknown encoder libx264"),
        ("echo 'gone at once' >&2; exit 7", "exited with status 7:\n  gone at once"),
        ("kill -9 $$", "was killed by signal 9 and said nothing"),
    ])
    func aFailingFFmpegExits69WithItsLastWords(_ script: String, _ expected: String) throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.webm")
        try Data("previous".utf8).write(to: path)
        let ffmpeg = try Self.fakeFFmpeg(script, in: folder)
        // 640 × 320 frames (800 kB each) overflow the socket's buffer: a dead reader is met mid-frame.
        let result = try QuakemapProcess.run(["animate", sample, "--width", "640", "--duration", "1", "--fps", "5",
                                              "-o", path.path], environment: ["QUAKEMAP_FFMPEG": ffmpeg])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("\(ffmpeg) \(expected)"), "\(result.stderr)")
        #expect(try Data(contentsOf: path) == Data("previous".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.webm", "fake-ffmpeg"])
    }

    @Test(arguments: [
        (["-o", "a.mov"], "'.mov' is not an animation format quakemap writes: use .mp4 (H.264), .webm (VP9) or .png"),
        (["-o", "a.GIF"], "'.gif' is not an animation format"),
        (["--at", "last", "-o", "still.mp4"], "--at writes a still PNG"),
    ])
    func unsupportedOutputsExit64(_ arguments: [String], _ expected: String) throws {
        let result = try QuakemapProcess.run(["animate", sample] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
    }
}
