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
}

extension AnimationOptions {
    /// These options with the feed's sources as the data's credit, unless the caller set one.
    package func crediting(_ summary: FeedSummary) -> AnimationOptions {
        var options = self
        options.map = map.crediting(summary)
        return options
    }
}
