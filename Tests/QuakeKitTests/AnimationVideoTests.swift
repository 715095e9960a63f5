import Foundation
import Testing
import QuakeKit

/// The video side of animations without running ffmpeg: the format an output's name gives,
/// where ffmpeg is looked for, the command line it gets, and the one-call job's refusals
/// (before anything is drawn or written).
@Suite("Animation videos", .timeLimit(.minutes(10)))
struct AnimationVideoTests {
    @Test func theExtensionNamesTheFormat() throws {
        #expect(try AnimationFormat(outputPath: "out/week.mp4") == .mp4)
        #expect(try AnimationFormat(outputPath: "WEEK.WebM") == .webm)
        for apng in ["week.png", "week", "Output/animation.apng", "videos.mp4/week", ".mp4", ""] {
            #expect(try AnimationFormat(outputPath: apng) == .apng, "\(apng)")
        }
        #expect(throws: VideoError.unsupportedExtension("mov")) { try AnimationFormat(outputPath: "week.MOV") }
    }

    @Test func ffmpegIsFoundOnPathOrWhereTheVariableSays() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-ffmpeg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["ffmpeg", "ffmpeg-7", "not-executable"] {
            let path = folder.appendingPathComponent(name).path
            try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.posixPermissions: name == "not-executable" ? 0o644 : 0o755],
                                                  ofItemAtPath: path)
        }
        let path = "/no/such:" + folder.path
        #expect(try FFmpegEncoder.locate(environment: ["PATH": path]) == folder.path + "/ffmpeg")
        #expect(try FFmpegEncoder.locate(environment: ["PATH": path, "QUAKEMAP_FFMPEG": ""]) == folder.path + "/ffmpeg")
        #expect(try FFmpegEncoder.locate(environment: ["PATH": path, "QUAKEMAP_FFMPEG": "ffmpeg-7"]) == folder.path + "/ffmpeg-7")
        #expect(throws: VideoError.ffmpegNotFound(named: "ffmpeg")) { try FFmpegEncoder.locate(environment: ["PATH": "/no/such"]) }
        let notExecutable = folder.path + "/not-executable"
        #expect(throws: VideoError.ffmpegNotFound(named: notExecutable)) {
            try FFmpegEncoder.locate(environment: ["PATH": path, "QUAKEMAP_FFMPEG": notExecutable])
        }
    }

    /// Raw RGBA of the map's size in, padded to even, the hold's frames cloned, BT.709 4:2:0 out.
    @Test func ffmpegReadsRawFramesAndPadsToEven() {
        let arguments = FFmpegEncoder.arguments(format: .mp4, width: 161, height: 81, fps: 12, holdFrames: 5,
                                                output: "/tmp/.a.mp4.tmp-1-x")
        let joined = arguments.joined(separator: " ")
        #expect(joined.contains("-f rawvideo -pix_fmt rgba -s 161x81 -framerate 12 -i pipe:0"))
        #expect(joined.contains("-vf pad=ceil(iw/2)*2:ceil(ih/2)*2:0:0:color=0x000000,tpad=stop_mode=clone:stop=5,"
            + "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p"))
        #expect(joined.contains("-c:v libx264 -preset medium -crf 18 -movflags +faststart -f mp4"))
        #expect(arguments.last == "file:/tmp/.a.mp4.tmp-1-x")
        let webm = FFmpegEncoder.arguments(format: .webm, width: 64, height: 48, fps: 10, holdFrames: 0, output: "x")
        #expect(webm.contains("libvpx-vp9") && !webm.joined(separator: " ").contains("tpad"))
    }

    /// The one-call job refuses an unsupported name and reports an ffmpeg that cannot start, leaving the
    /// previous file and no temporary.
    @Test func theJobRefusesBeforeWriting() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = GettingStartedExampleTests.root.appendingPathComponent("Data/synthetic_all_day.csv").path
        let selection = try QuakeMap.select(from: .file(sample), selection: EventSelection(limit: 20))
        let options = AnimationOptions(map: MapOptions(width: 64, height: 48), duration: 1, fps: 2)
        #expect(throws: VideoError.unsupportedExtension("mkv")) {
            try QuakeMap.animate(for: selection, options: options, to: folder.path + "/a.mkv", ffmpeg: nil)
        }
        let path = folder.appendingPathComponent("a.mp4")
        try Data("previous".utf8).write(to: path)
        #expect(throws: VideoError.ffmpegCannotStart(path: "/no/such/ffmpeg", reason: "No such file or directory")) {
            try QuakeMap.animate(for: selection, options: options, to: path.path, ffmpeg: "/no/such/ffmpeg")
        }
        #expect(try Data(contentsOf: path) == Data("previous".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.mp4"])
    }
}
