/// A colour with straight (not premultiplied) alpha, each channel 0…1.

public struct RGBA: Sendable, Hashable, Codable {
    /// Red, 0…1.
    package var red: Double
    /// Green, 0…1.
    package var green: Double
    /// Blue, 0…1.
    package var blue: Double
    /// Opacity, 0…1.
    package var alpha: Double

    /// Creates a colour; each channel is clamped to 0…1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Self.clamp(red)
        self.green = Self.clamp(green)
        self.blue = Self.clamp(blue)
        self.alpha = Self.clamp(alpha)
    }

    /// Creates an opaque colour from a `0xRRGGBB` value.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(red: Double((hex >> 16) & 0xFF) / 255,
                  green: Double((hex >> 8) & 0xFF) / 255,
                  blue: Double(hex & 0xFF) / 255,
                  alpha: alpha)
    }

    /// The colour with full opacity.
    package var opaque: RGBA { RGBA(red: red, green: green, blue: blue) }

    package static func clamp(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }
}
