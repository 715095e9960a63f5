/// The file an animation is written as, named by the output's extension: `.mp4` and `.webm`
/// are videos encoded by the system's ffmpeg (``FFmpegEncoder``), any other name an animated PNG.
/// The one place that reads an animation's format from a path, for the CLI's check and the write.
package enum AnimationFormat: String, Sendable, CaseIterable {
    /// An animated PNG, written by the project's own encoder (``APNGWriter``).
    case apng
    /// H.264 in MP4: plays everywhere (browsers, phones, presentation software).
    case mp4
    /// VP9 in WebM: open codecs, smaller than H.264 at the same quality.
    case webm

    /// Extensions of video containers quakemap does not write: naming one is a mistake, not an APNG.
    package static let unsupportedVideoExtensions: Set<String> = [
        "avi", "flv", "gif", "m4v", "mkv", "mov", "mpeg", "mpg", "ogg", "ogv", "ts", "wmv",
    ]

    /// The format `path`'s extension names (case-insensitive): `.mp4`, `.webm`, else APNG.
    ///
    /// - Throws: ``VideoError/unsupportedExtension(_:)`` for a video container that is neither.
    package init(outputPath path: String) throws(VideoError) {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
            self = .apng
            return
        }
        let suffix = name[name.index(after: dot)...].lowercased()
        switch suffix {
        case "mp4": self = .mp4
        case "webm": self = .webm
        case _ where Self.unsupportedVideoExtensions.contains(suffix): throw .unsupportedExtension(suffix)
        default: self = .apng
        }
    }

    /// Whether ffmpeg writes it.
    package var isVideo: Bool { self != .apng }

    /// ffmpeg's muxer and encoder arguments after the input: the codec and its fixed quality,
    /// the container. The quality is a constant rate factor per codec, chosen so the decoded
    /// frames stay at or above 35 dB PSNR against the PNG frames (docs/animate.md gives the
    /// figures); the preset and speed are ffmpeg's middle ground on two cores.
    package var encoderArguments: [String] {
        switch self {
        case .apng:
            return []
        case .mp4:
            // faststart: the index (moov) goes before the frames, so a browser plays while downloading.
            return ["-c:v", "libx264", "-preset", "medium", "-crf", "18", "-movflags", "+faststart", "-f", "mp4"]
        case .webm:
            // -b:v 0: constant quality (CRF alone), not CRF capped by a default bit rate.
            return ["-c:v", "libvpx-vp9", "-crf", "31", "-b:v", "0", "-deadline", "good", "-cpu-used", "2",
                    "-row-mt", "1", "-f", "webm"]
        }
    }
}
