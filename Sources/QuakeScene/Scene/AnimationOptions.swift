import Foundation
import QuakeModel

/// How a time-lapse of a selection looks and plays: the map, how long it runs,
/// how events fade, the clock. The defaults are the command line's.
public struct AnimationOptions: Sendable, Hashable {
    /// The map every frame draws: size, region, projection, centre, plates,
    /// colouring, legend. Its ``MapOptions/labelCount`` is not used: a label
    /// would name an event before it happens, so an animation has none.
    package var map: MapOptions
    /// Seconds of playback from the first event to the last, the hold not
    /// counted. Default 10.
    package var duration: Double
    /// Frames a second. Default 10. With ``duration``, the number of frames
    /// (``frameCount``), at most 3,600.
    package var fps: Int
    /// Catalogue seconds an event takes to fade from its map colour to the
    /// remnant (``remnant``), which stays to the end, so the last frame shows
    /// the whole sequence. `nil` (the default) is a tenth of the selection's
    /// span: at the default duration an event fades over one second of playback.
    /// 0 shows an event at full colour only on the frames at its exact time.
    package var fade: TimeInterval?
    /// What is left of an event's opacity once it has faded: 0…1, default 0.25.
    package var remnant: Double
    /// Seconds the last frame stays on screen beyond its own frame time,
    /// before the animation loops. Default 2.
    package var hold: Double
    /// Draw the frame's UTC time in a corner (in a panel placed clear of the
    /// events and of the title, legend and footer). Default `true`.
    package var showsClock: Bool

    /// The most frames an animation may have (six minutes at 10 frames a second).
    package static let maximumFrames = 3_600
    /// The most pixels a frame may have, scale applied: 4096 × 4096 (64 MB a frame buffer).
    package static let maximumFramePixels = 16_777_216
    /// The longest playback, or hold, in seconds: an hour.
    package static let maximumSeconds = 3_600.0

    /// Creates options.
    public init(map: MapOptions = MapOptions(), duration: Double = 10, fps: Int = 10, fade: TimeInterval? = nil,
                remnant: Double = 0.25, hold: Double = 2, showsClock: Bool = true) {
        self.map = map
        self.duration = duration
        self.fps = fps
        self.fade = fade
        self.remnant = remnant
        self.hold = hold
        self.showsClock = showsClock
    }

    /// Frames from the first event to the last: `duration × fps`, rounded, at least 1.
    /// A selection with no span (no events, or all at one time) has one frame only.
    package var frameCount: Int {
        guard duration.isFinite, duration > 0, fps > 0 else { return 1 }
        return max(1, Int(min(duration * Double(fps), Double(Self.maximumFrames + 1)).rounded()))
    }

    /// Checks the options before any feed is read: the map's own limits, then
    /// the duration, rate, frame count, frame size, fade, remnant and hold.
    ///
    /// - Throws: ``AnimationOptionsError``.
    public func validate() throws(AnimationOptionsError) {
        do {
            try map.validate()
        } catch {
            throw .map(error)
        }
        guard duration.isFinite, duration > 0, duration <= Self.maximumSeconds else { throw .durationOutOfRange(duration) }
        guard (1...60).contains(fps) else { throw .fpsOutOfRange(fps) }
        guard frameCount <= Self.maximumFrames else { throw .tooManyFrames(frameCount) }
        guard map.pixelWidth * map.pixelHeight <= Self.maximumFramePixels else {
            throw .frameTooLarge(width: map.pixelWidth, height: map.pixelHeight)
        }
        if let fade, !(fade.isFinite && fade >= 0) { throw .fadeOutOfRange(fade) }
        guard remnant.isFinite, (0...1).contains(remnant) else { throw .remnantOutOfRange(remnant) }
        guard hold.isFinite, hold >= 0, hold <= Self.maximumSeconds else { throw .holdOutOfRange(hold) }
    }
}

/// Why ``AnimationOptions/validate()`` refused options.
public enum AnimationOptionsError: QuakeKitError, Equatable {
    /// The map options themselves.
    case map(MapOptionsError)
    /// A duration that is not above 0 and at most an hour.
    case durationOutOfRange(Double)
    /// A frame rate outside 1…60.
    case fpsOutOfRange(Int)
    /// More than 3,600 frames.
    case tooManyFrames(Int)
    /// A frame of more than 16,777,216 pixels pixels.
    case frameTooLarge(width: Int, height: Int)
    /// A negative or non-finite fade.
    case fadeOutOfRange(Double)
    /// A remnant outside 0…1.
    case remnantOutOfRange(Double)
    /// A hold that is negative or over an hour.
    case holdOutOfRange(Double)

    /// The message, with the values.
    public var message: String {
        switch self {
        case .map(let error): return error.message
        case .durationOutOfRange(let duration):
            return "duration \(duration) s: must be above 0 and at most \(Int(AnimationOptions.maximumSeconds)) seconds"
        case .fpsOutOfRange(let fps): return "\(fps) frames a second: must be 1…60"
        case .tooManyFrames(let frames):
            return "\(frames) frames: at most \(AnimationOptions.maximumFrames) (shorten the duration or lower the frame rate)"
        case let .frameTooLarge(width, height):
            return "\(width)×\(height) frames: at most \(AnimationOptions.maximumFramePixels) pixels (4096×4096) a frame"
        case .fadeOutOfRange(let fade): return "fade \(fade) s: must be 0 or more"
        case .remnantOutOfRange(let remnant): return "remnant \(remnant): must be 0…1"
        case .holdOutOfRange(let hold): return "hold \(hold) s: must be 0…\(Int(AnimationOptions.maximumSeconds)) seconds"
        }
    }
}
