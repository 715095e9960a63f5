import QuakeModel
import QuakeScene

/// Why a scene could not be drawn or an image not decoded.
public enum RenderError: QuakeKitError, Equatable {
    /// The image size is outside 1…``MapOptions/maximumSide`` pixels a side.
    case invalidSize(width: Int, height: Int)
    /// Cairo reported an error.
    case cairo(String)
    /// Bytes that should be a PNG image are not.
    case notPNG(String)

    /// The message.
    public var message: String {
        switch self {
        case let .invalidSize(width, height):
            return "cannot draw a \(width)×\(height) image: each side must be 1…\(MapOptions.maximumSide) pixels"
        case let .cairo(reason):
            return "drawing failed: \(reason)"
        case let .notPNG(reason):
            return "not a PNG image: \(reason)"
        }
    }
}
