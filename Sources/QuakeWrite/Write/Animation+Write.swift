#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import QuakeScene
import QuakeRender

extension Animation {
    /// Writes the animation to `path` as an animated PNG (APNG; browsers play
    /// it, and a viewer without APNG shows the first frame). Frames are drawn
    /// and written one at a time under a temporary name that is renamed over
    /// `path` at the end (see ``AtomicFileWriter``): memory holds two images
    /// and one frame's compressed bytes whatever the frame count, and a failure
    /// or a kill leaves a previous file at `path` as it was.
    ///
    /// - Throws: ``WriteError``, or ``RenderError`` when drawing fails.
    public func writeAPNG(to path: String) throws {
        try writeAPNG(to: path) { _ in }
    }

    /// ``writeAPNG(to:)``, calling `frameDone` after each frame is written
    /// (for tests: a throw there is a write failing midway).
    package func writeAPNG(to path: String, frameDone: (Int) throws -> Void) throws {
        let staged = try StagedOutput(target: path, kind: .file)
        let renderer = try AnimationRenderer(self)
        let writer = APNGWriter(descriptor: staged.descriptor, path: path, frameCount: frameCount)
        for index in 0..<frameCount {
            try renderer.withFrame(index) { pixels in try writer.append(pixels, delay: delay(ofFrame: index)) }
            try frameDone(index)
        }
        try writer.finish()
        try staged.commit()
    }

    /// Writes the animation to `path` as a video (`.mp4`: H.264; `.webm`: VP9) encoded by the
    /// system's ffmpeg at `ffmpeg` (see ``FFmpegEncoder/locate(environment:)``). Frames are drawn
    /// one at a time and piped to ffmpeg as raw RGBA, so memory holds two images and one frame's
    /// bytes whatever the frame count. The rate is `fps`; the last frame is repeated for the hold
    /// (rounded to whole frames), so the video lasts as long as the APNG plays once. ffmpeg
    /// writes a temporary beside `path` that is renamed over it only when ffmpeg succeeded: a
    /// failure, a missing codec or a kill leaves a previous file at `path` as it was.
    ///
    /// - Throws: ``VideoError`` (ffmpeg failed: its last messages and status), ``WriteError``
    ///   for the temporary or the rename, or ``RenderError`` when drawing fails.
    package func writeVideo(to path: String, format: AnimationFormat, ffmpeg: String,
                            frameDone: (Int) throws -> Void = { _ in }) throws {
        precondition(format.isVideo, "a video format")
        let staged = try StagedOutput.file(replacing: path, kind: "a video")
        let renderer = try AnimationRenderer(self)
        let fps = options.fps
        let holdFrames = Int((options.hold * Double(fps)).rounded())
        let encoder = try FFmpegEncoder(executable: ffmpeg, format: format, width: base.width, height: base.height,
                                        fps: fps, holdFrames: holdFrames, output: staged.stagingPath)
        for index in 0..<frameCount {
            try renderer.withFrame(index) { pixels in try encoder.append(pixels) }
            try frameDone(index)
        }
        try encoder.finish()
        try staged.commit()
    }

    /// The name of frame `index` (from 0) in a frames folder: `frame-00001.png` for the first.
    package static func frameFileName(_ index: Int) -> String {
        "frame-" + String(repeating: "0", count: max(0, 5 - String(index + 1).count)) + String(index + 1) + ".png"
    }

    /// Writes every frame as its own PNG (`frameFileName(_:)`) into the
    /// folder `path`, for a video encoder (ffmpeg). The folder is filled under
    /// a temporary name and put in place of any previous one at the end
    /// (see ``AtomicFileWriter``). The hold is not in the files: a video
    /// encoder takes the rate alone.
    ///
    /// - Throws: ``WriteError``, or ``RenderError`` when drawing fails.
    public func writeFrames(toFolder path: String) throws {
        let staged = try StagedOutput(target: path, kind: .folder)
        let renderer = try AnimationRenderer(self)
        for index in 0..<frameCount {
            let bytes = try renderer.withFrame(index) { try PNGEncoder.encode($0) }
            let file = staged.stagingPath + "/" + Self.frameFileName(index)
            let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else { throw WriteError(errno: errno, stage: .create, path: path) }
            defer { close(descriptor) }
            try AtomicFileWriter.writeAll(bytes, to: descriptor, path: path)
        }
        try staged.commit()
    }
}
