import QuakeModel

/// Why a video could not be written. The previous file at the output's path is untouched in
/// every case, and no temporary file stays behind.
package enum VideoError: QuakeKitError, Equatable {
    /// The output's extension names a video container quakemap does not write (`mov`).
    case unsupportedExtension(String)
    /// No ffmpeg to run: none on `PATH`, or `QUAKEMAP_FFMPEG` names none (`named`, as given).
    case ffmpegNotFound(named: String)
    /// ffmpeg was found but could not be started (`reason`: the system's words).
    case ffmpegCannotStart(path: String, reason: String)
    /// ffmpeg ended with `status` (or was killed by signal `status` when `signalled`); its
    /// last lines on standard error say why.
    case ffmpegFailed(path: String, status: Int32, signalled: Bool, lastLines: [String])

    /// The message.
    package var message: String {
        switch self {
        case .unsupportedExtension(let suffix):
            return "'.\(suffix)' is not an animation format quakemap writes: use .mp4 (H.264), .webm (VP9) or .png (APNG)"
        case .ffmpegNotFound(let named):
            let what = named == "ffmpeg" ? "ffmpeg was not found on PATH" : "QUAKEMAP_FFMPEG names no program: '\(named)'"
            return what + ". ffmpeg is needed for .mp4/.webm; install it (Debian: apt-get install ffmpeg) or write"
                + " an APNG with -o NAME.png"
        case let .ffmpegCannotStart(path, reason):
            return "\(path): cannot start ffmpeg: \(reason)"
        case let .ffmpegFailed(path, status, signalled, lastLines):
            let how = signalled ? "was killed by signal \(status)" : "exited with status \(status)"
            let said = lastLines.isEmpty ? " and said nothing" : ":\n  " + lastLines.joined(separator: "\n  ")
            return "\(path) \(how)\(said)"
        }
    }
}
