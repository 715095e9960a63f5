#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import QuakeModel
import QuakeRender

/// A running ffmpeg that encodes frames into a video file, fed as GMT's `movie` feeds it: raw
/// RGBA frames, one at a time, on its standard input (`-f rawvideo -pix_fmt rgba -s W×H
/// -framerate FPS -i -`). It owns the process and both of its descriptors; ``finish()`` ends
/// the input and waits, and a release before that stops ffmpeg and waits for it, so no
/// encoder outlives its call.
///
/// - Standard input is one end of a socket pair rather than a pipe: `send` with
///   `MSG_NOSIGNAL` reports a dead ffmpeg as `EPIPE` instead of raising `SIGPIPE`, whose
///   default action would end quakemap at once, and no process-wide signal state changes.
/// - Standard error is read on its own thread as it comes, so ffmpeg never blocks on a full
///   pipe; its last bytes are kept for the message when it fails.
/// - Odd sizes are padded to even ones (yuv420p holds colour per 2 × 2 pixels) with black on
///   the right and bottom; the last frame is repeated for the hold. Colour is converted with
///   the BT.709 matrix into limited range and tagged so, which is what players assume for
///   video that is not standard definition.
package final class FFmpegEncoder {
    /// The ffmpeg that runs (shown in errors).
    package let executable: String
    package let width: Int
    package let height: Int
    private let process: Process
    /// Our end of ffmpeg's standard input; -1 once closed.
    private var input: Int32
    private let errors: StandardErrorTail
    /// One frame as ffmpeg reads it: straight (not premultiplied) RGBA, rows without padding.
    private var rgba: [UInt8]
    private var finished = false

    /// What the background of a frame that is not opaque (a map without a basemap) and the
    /// padding of an odd size become, as 0xRRGGBB: video has no transparency. Black: the
    /// nearest to the maps' dark sea, so a padding line at the edge is hardly seen.
    package static let background: UInt32 = 0x000000

    /// Finds ffmpeg: `QUAKEMAP_FFMPEG` (a path, or a name looked up on `PATH`) when set and
    /// not empty, else `ffmpeg` on `PATH`.
    ///
    /// - Throws: ``VideoError/ffmpegNotFound(named:)``.
    package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(VideoError) -> String {
        let name = environment["QUAKEMAP_FFMPEG"].flatMap { $0.isEmpty ? nil : $0 } ?? "ffmpeg"
        if name.contains("/") {
            guard isExecutableFile(name) else { throw .ffmpegNotFound(named: name) }
            return name
        }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
            if isExecutableFile(candidate) { return candidate }
        }
        throw .ffmpegNotFound(named: name)
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }

    /// The whole command line after the program's name: input, filters, the format's encoder
    /// and its fixed quality, output.
    package static func arguments(format: AnimationFormat, width: Int, height: Int, fps: Int, holdFrames: Int,
                                  output: String) -> [String] {
        let colour = String(background, radix: 16).uppercased()
        let paddedColour = "0x" + String(repeating: "0", count: max(0, 6 - colour.count)) + colour
        var filters = ["pad=ceil(iw/2)*2:ceil(ih/2)*2:0:0:color=\(paddedColour)"]
        if holdFrames > 0 { filters.append("tpad=stop_mode=clone:stop=\(holdFrames)") }
        filters.append("scale=out_color_matrix=bt709:out_range=tv")
        filters.append("format=yuv420p")
        return ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y",
                "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-framerate", "\(fps)", "-i", "pipe:0",
                "-vf", filters.joined(separator: ","), "-pix_fmt", "yuv420p",
                "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
            + format.encoderArguments
            // file: so that a name with a colon is not read as a protocol.
            + ["file:" + output]
    }

    /// Starts ffmpeg writing `format` to `output` (a path it creates or truncates).
    ///
    /// - Parameter holdFrames: how many times the last frame is repeated at the end.
    /// - Throws: ``VideoError/ffmpegCannotStart(path:reason:)``.
    package init(executable: String, format: AnimationFormat, width: Int, height: Int, fps: Int, holdFrames: Int,
                 output: String) throws(VideoError) {
        precondition(format.isVideo && width > 0 && height > 0 && fps > 0, "a video of some size")
        self.executable = executable
        self.width = width
        self.height = height
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw .ffmpegCannotStart(path: executable, reason: String(cString: strerror(errno)))
        }
        var errorPipe: [Int32] = [-1, -1]
        // pipe2 is declared for _GNU_SOURCE only, which Swift's Glibc module does not set.
        guard pipe(&errorPipe) == 0, fcntl(errorPipe[0], F_SETFD, FD_CLOEXEC) == 0,
              fcntl(errorPipe[1], F_SETFD, FD_CLOEXEC) == 0 else {
            let code = errno
            for descriptor in pair + errorPipe where descriptor >= 0 { close(descriptor) }
            throw .ffmpegCannotStart(path: executable, reason: String(cString: strerror(code)))
        }
        // The child's ends: Process duplicates them onto 0 and 2; ours are closed once it runs.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Self.arguments(format: format, width: width, height: height, fps: fps, holdFrames: holdFrames,
                                           output: output)
        process.standardInput = FileHandle(fileDescriptor: pair[1], closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(fileDescriptor: errorPipe[1], closeOnDealloc: false)
        do {
            try process.run()
        } catch {
            for descriptor in pair + errorPipe { close(descriptor) }
            throw .ffmpegCannotStart(path: executable, reason: Self.reason(error))
        }
        // Only ffmpeg may hold its ends: our copy of its input would keep it from seeing the end,
        // our copy of its error output would keep the reader from seeing it exit.
        close(pair[1])
        close(errorPipe[1])
        self.process = process
        input = pair[0]
        errors = StandardErrorTail(descriptor: errorPipe[0])
        rgba = [UInt8](repeating: 0, count: width * height * 4)
    }

    deinit {
        // Not finished: a frame failed to draw, or quakemap is unwinding. ffmpeg is told to stop
        // and waited for, so it is not left writing a temporary that is being removed.
        if !finished {
            if input >= 0 { close(input) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            errors.wait()
        }
    }

    /// The system's words for a failed start (`No such file or directory`).
    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code ?? ((error as NSError).domain == NSPOSIXErrorDomain ? (error as NSError).code : nil) {
            return String(cString: strerror(Int32(code)))
        }
        return error.localizedDescription
    }

    /// Sends one frame (the size given at the start).
    ///
    /// - Throws: ``VideoError/ffmpegFailed(path:status:signalled:lastLines:)`` when ffmpeg has
    ///   stopped reading: it has ended, and says why.
    package func append(_ pixels: PixelBuffer) throws(VideoError) {
        precondition(!finished && pixels.width == width && pixels.height == height, "frames of the size given")
        convert(pixels)
        let sent = rgba.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = send(input, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        if !sent { throw end(failedWriting: true) }
    }

    /// Ends the input and waits for ffmpeg to write the file.
    ///
    /// - Throws: ``VideoError/ffmpegFailed(path:status:signalled:lastLines:)`` unless it exited 0.
    package func finish() throws(VideoError) {
        precondition(!finished, "finished once")
        let failure = end(failedWriting: false)
        if case .ffmpegFailed(_, let status, let signalled, _) = failure, status == 0, !signalled { return }
        throw failure
    }

    /// Closes the input, waits for ffmpeg and its error output; how it ended.
    private func end(failedWriting: Bool) -> VideoError {
        finished = true
        close(input)
        input = -1
        process.waitUntilExit()
        errors.wait()
        let signalled = process.terminationReason == .uncaughtSignal
        var status = process.terminationStatus
        // It stopped reading yet exited 0: not a file to keep.
        if failedWriting && status == 0 && !signalled { status = 1 }
        return .ffmpegFailed(path: executable, status: status, signalled: signalled, lastLines: errors.lastLines())
    }

    /// Cairo's premultiplied ARGB32 words (native order) as straight RGBA over ``background``.
    private func convert(_ pixels: PixelBuffer) {
        let backRed = Self.background >> 16 & 0xFF, backGreen = Self.background >> 8 & 0xFF, backBlue = Self.background & 0xFF
        rgba.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = (pixels.base + y * pixels.stride).assumingMemoryBound(to: UInt32.self)
                var index = y * width * 4
                for x in 0..<width {
                    let word = row[x], alpha = word >> 24
                    var red = word >> 16 & 0xFF, green = word >> 8 & 0xFF, blue = word & 0xFF
                    if alpha != 0xFF {
                        // Premultiplied: the colour over the background is colour + (1 − α) · background.
                        let clear = 255 - alpha
                        red += (clear * backRed + 127) / 255
                        green += (clear * backGreen + 127) / 255
                        blue += (clear * backBlue + 127) / 255
                    }
                    out[index] = UInt8(min(red, 255))
                    out[index + 1] = UInt8(min(green, 255))
                    out[index + 2] = UInt8(min(blue, 255))
                    out[index + 3] = 255
                    index += 4
                }
            }
        }
    }
}

/// Reads a child's standard error to its end on a thread of its own, keeping the last bytes.
private final class StandardErrorTail: Sendable {
    /// The most bytes kept: a few lines of ffmpeg's messages.
    private static let kept = 4096
    private let tail = Locked<[UInt8]>([])
    private let done = DispatchSemaphore(value: 0)
    private let waited = Locked(false)

    /// Starts reading `descriptor`, which it closes at the end.
    init(descriptor: Int32) {
        Thread.detachNewThread { [tail, done] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                tail.withLock { kept in
                    kept.append(contentsOf: buffer[0..<count])
                    if kept.count > Self.kept { kept.removeFirst(kept.count - Self.kept) }
                }
            }
            close(descriptor)
            done.signal()
        }
    }

    /// Until the child's error output has ended (it has exited); once, later calls return at once.
    func wait() {
        guard waited.withLock({ (seen: inout Bool) -> Bool in
            defer { seen = true }
            return !seen
        }) else { return }
        done.wait()
    }

    /// The last five lines that are not blank, control characters replaced and each cut to 300 characters.
    func lastLines() -> [String] {
        // Split on the bytes: "\r\n" is one Character, equal to neither "\r" nor "\n".
        let lines = tail.withLock { $0 }.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }).map { bytes in
            String(String(decoding: bytes, as: UTF8.self).unicodeScalars
                .map { $0.properties.generalCategory == .control ? "?" : Character($0) }.prefix(300))
        }
        return Array(lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.suffix(5))
    }
}
