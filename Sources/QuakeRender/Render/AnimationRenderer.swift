import CCairo
import Foundation
import QuakeModel
import QuakeScene

// Here, not in Scene/: the scene stage must not name the renderer's font (``TextMeasurer``).
extension Animation {
    /// Resolves `events` (in any order; those outside the map's region are
    /// left out) into an animation, its text measured with the renderer's font.
    ///
    /// - Parameters:
    ///   - feedGenerated: the feed's own time, for the footer and the age colouring.
    ///   - feedTitle: named in the title of an animation with no events.
    package init(events: [MapEvent], options: AnimationOptions = AnimationOptions(), feedGenerated: Date? = nil,
                feedTitle: String? = nil) {
        self.init(events: events, options: options, builder: SceneBuilder(options: options.map),
                  feedGenerated: feedGenerated, feedTitle: feedTitle)
    }
}

/// Draws an animation's frames one after the other into the same pixels: the
/// base (land, lines, plates) is drawn once and copied under each frame's
/// circles and overlay, so memory is two images whatever the frame count,
/// and each frame is the pixels ``MapRenderer`` draws for the same scene.
package final class AnimationRenderer {
    package let animation: Animation
    private let base: CairoImageSurface
    private let frame: CairoImageSurface
    private let context: CairoContext
    /// The circles' masks, made once for all frames.
    private let masks = StampMemory()

    package init(_ animation: Animation) throws {
        let scene = animation.base
        guard MapOptions.fits(width: Double(scene.width), height: Double(scene.height)) else {
            throw RenderError.invalidSize(width: scene.width, height: scene.height)
        }
        self.animation = animation
        base = try CairoImageSurface(width: scene.width, height: scene.height)
        let baseContext = try CairoContext(surface: base)
        MapRenderer().drawBase(scene, on: baseContext)
        try baseContext.checkStatus()
        cairo_surface_flush(base.pointer)
        frame = try CairoImageSurface(width: scene.width, height: scene.height)
        context = try CairoContext(surface: frame)
    }

    /// Draws frame `index` and lends its pixels to `body`, valid only there.
    package func withFrame<T>(_ index: Int, _ body: (PixelBuffer) throws -> T) throws -> T {
        let scene = animation.scene(ofFrame: index)
        try frame.withMutablePixels { target, stride in
            try base.withPixels { source in
                precondition(source.stride == stride, "frame and base are alike")
                target.copyMemory(from: source.base, byteCount: stride * source.height)
            }
            CircleStamper(width: scene.width, height: scene.height, stride: stride).stamp(scene.circles, onto: target, memory: masks)
        }
        MapRenderer().drawOverlay(scene, on: context)
        try context.checkStatus()
        return try frame.withPixels(body)
    }
}
