import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeScene
import QuakeWrite

extension QuakeMap {
    /// A selection as a time-lapse (see ``Animation``): its frames, and the
    /// scene of any moment (``Animation/scene(at:)``).
    public static func animation(for selection: FeedSelection, options: AnimationOptions = AnimationOptions()) -> Animation {
        Animation(events: selection.events.compactMap(MapEvent.init), options: options.crediting(selection.summary),
                  feedGenerated: selection.summary.generated, feedTitle: selection.summary.title)
    }

    /// A selection of map events as a time-lapse.
    package static func animation(for selection: MapSelection, options: AnimationOptions = AnimationOptions()) -> Animation {
        Animation(events: selection.events, options: options.crediting(selection.summary),
                  feedGenerated: selection.summary.generated, feedTitle: selection.summary.title)
    }

    /// Writes a selection as an animated PNG to `path`, atomically, the
    /// frames streamed (``Animation/writeAPNG(to:)``).
    ///
    /// - Throws: ``AnimationOptionsError`` for options out of range, before
    ///   anything is drawn; ``WriteError`` or ``RenderError``.
    public static func animate(for selection: FeedSelection, options: AnimationOptions = AnimationOptions(),
                               to path: String) throws {
        try options.validate()
        try animation(for: selection, options: options).writeAPNG(to: path)
    }

    /// Writes a selection as an animation in the format `path`'s extension names
    /// (``AnimationFormat``): an animated PNG, or a video encoded by the system's ffmpeg,
    /// found before anything is drawn unless `ffmpeg` names it (the public
    /// ``animate(for:options:to:)`` writes an APNG whatever the name).
    ///
    /// - Throws: ``AnimationOptionsError`` for options out of range and ``VideoError`` for an
    ///   unsupported extension or a missing ffmpeg, before anything is drawn; ``VideoError``
    ///   when ffmpeg fails, ``WriteError`` or ``RenderError``.
    package static func animate(for selection: FeedSelection, options: AnimationOptions = AnimationOptions(),
                                to path: String, ffmpeg: String?) throws {
        try options.validate()
        let format = try AnimationFormat(outputPath: path)
        let program = format.isVideo ? try ffmpeg ?? FFmpegEncoder.locate() : nil
        try animation(for: selection, options: options).write(to: path, format: format, ffmpeg: program)
    }
}

extension Animation {
    /// Writes the animation to `path` as `format`: ``writeAPNG(to:)``, or
    /// ``writeVideo(to:format:ffmpeg:frameDone:)`` with the ffmpeg at `ffmpeg` (which a video needs).
    package func write(to path: String, format: AnimationFormat, ffmpeg: String?) throws {
        switch format {
        case .apng: try writeAPNG(to: path)
        case .mp4, .webm:
            guard let ffmpeg else { throw VideoError.ffmpegNotFound(named: "ffmpeg") }
            try writeVideo(to: path, format: format, ffmpeg: ffmpeg)
        }
    }
}

extension AnimationOptions {
    /// These options with the feed's sources as the data's credit, unless the caller set one.
    package func crediting(_ summary: FeedSummary) -> AnimationOptions {
        var options = self
        options.map = map.crediting(summary)
        return options
    }
}
