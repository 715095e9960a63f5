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
