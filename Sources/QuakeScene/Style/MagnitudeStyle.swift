// Style/ — how an event looks, decided from its values alone: circle sizes and colours by magnitude,
// depth or age.


/// How an event's magnitude becomes a circle: the seed's formulas, with their
/// edge cases decided.
///
/// With m = max(magnitude, 0):
/// - diameter = max(0.75 · m² · `symbolScale`, `minimumDiameter`) pixels;
/// - fill = RGBA(1, clamp(1 − 0.015 · m², 0, 1), 0.211, 0.6): yellow for small
///   events, red from about M8.2 up; no stroke.
///
/// A negative magnitude draws as m = 0, never as large as its absolute value.
/// Sizes do not depend on the catalogue, so two maps can be compared.
public struct MagnitudeStyle: Sendable, Hashable {
    /// Multiplies every diameter. Default 1.
    package var symbolScale: Double
    /// The smallest diameter in pixels, so every selected event leaves a mark.
    /// Default 2; 0 gives the seed's formula exactly.
    package var minimumDiameter: Double

    /// Creates a style.
    public init(symbolScale: Double = 1, minimumDiameter: Double = 2) {
        self.symbolScale = symbolScale
        self.minimumDiameter = minimumDiameter
    }

    /// The largest `symbolScale`: a larger one would overflow a map's or a tile's pixel
    /// arithmetic, not draw a larger circle.
    package static let maximumSymbolScale = 100.0
    /// The minimum diameters a style takes, in pixels.
    package static let minimumDiameterRange = 0.0...1000.0

    /// Checks the scale (above 0, at most 100) and the minimum diameter (0…1000 pixels). ``MapOptions/validate()`` and ``TileOptions`` call it.
    ///
    /// - Throws: ``MapOptionsError/symbolScaleOutOfRange(_:)``, ``MapOptionsError/minimumDiameterOutOfRange(_:)``.
    package func validate() throws(MapOptionsError) {
        guard symbolScale.isFinite, symbolScale > 0, symbolScale <= Self.maximumSymbolScale else {
            throw .symbolScaleOutOfRange(symbolScale)
        }
        guard minimumDiameter.isFinite, Self.minimumDiameterRange.contains(minimumDiameter) else {
            throw .minimumDiameterOutOfRange(minimumDiameter)
        }
    }

    /// The circle's diameter in pixels for a magnitude.
    package func diameter(magnitude: Double) -> Double {
        let m = Self.drawnMagnitude(magnitude)
        return max(0.75 * m * m * symbolScale, minimumDiameter)
    }

    /// The circle's fill for a magnitude.
    package func fill(magnitude: Double) -> RGBA {
        let m = Self.drawnMagnitude(magnitude)
        return RGBA(red: 1, green: 1 - 0.015 * m * m, blue: 0.211, alpha: 0.6)
    }

    private static func drawnMagnitude(_ magnitude: Double) -> Double {
        magnitude.isFinite ? max(magnitude, 0) : 0
    }
}
