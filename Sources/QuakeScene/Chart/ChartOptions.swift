import Foundation
import QuakeModel
import QuakeQuery

/// How a chart is drawn. Every default suits a chart on its own or a half page of a report.
public struct ChartOptions: Sendable, Hashable {
    /// Width in pixels before ``scale``. Default 800.
    package var width: Int
    /// Height in pixels before ``scale``. Default 500.
    package var height: Int
    /// Multiplies the pixel size of everything (2 for HiDPI). Default 1.
    package var scale: Double
    /// The title above the chart; `nil` (the default) gives the chart's own (`Magnitude over time`,
    /// …); an empty string draws none.
    package var title: String?
    /// Sizes and colours of event symbols, the same as a map's (``MapOptions/symbols``), so an
    /// event looks the same beside its map. Default: sized and coloured by magnitude.
    package var symbols: SymbolStyle

    /// The smallest chart side in pixels before scaling: below it axes, labels and titles no longer fit.
    package static let minimumSide = 200

    /// Creates options.
    public init(width: Int = 800, height: Int = 500, scale: Double = 1, title: String? = nil,
                symbols: SymbolStyle = SymbolStyle()) {
        self.width = width
        self.height = height
        self.scale = scale
        self.title = title
        self.symbols = symbols
    }

    /// The image width in pixels (width × scale).
    package var pixelWidth: Int { Int((Double(width) * scale).rounded()) }
    /// The image height in pixels (height × scale).
    package var pixelHeight: Int { Int((Double(height) * scale).rounded()) }

    /// Checks the sides (200 px…``MapOptions/maximumSide``), the scale (above 0, at most 8)
    /// and the scaled size (within the limits a map has).
    public func validate() throws(ChartOptionsError) {
        let sides = Self.minimumSide...MapOptions.maximumSide
        guard sides.contains(width), sides.contains(height) else {
            throw .sideOutOfRange(width: width, height: height)
        }
        guard scale.isFinite, scale > 0, scale <= MapOptions.maximumScale else { throw .scaleOutOfRange(scale) }
        guard MapOptions.fits(width: Double(width) * scale, height: Double(height) * scale) else {
            throw .tooLarge(width: width, height: height, scale: scale)
        }
    }
}

/// Why ``ChartOptions/validate()`` refused options.
public enum ChartOptionsError: QuakeKitError, Equatable {
    /// Width or height outside 200 px…``MapOptions/maximumSide``.
    case sideOutOfRange(width: Int, height: Int)
    /// A scale that is not above 0 and at most 8.
    case scaleOutOfRange(Double)
    /// Over 100,000,000 pixels or ``MapOptions/maximumSide`` once scaled.
    case tooLarge(width: Int, height: Int, scale: Double)

    /// The message, with the values.
    public var message: String {
        switch self {
        case let .sideOutOfRange(width, height):
            return "a \(width)×\(height) chart: width and height must be \(ChartOptions.minimumSide)…\(MapOptions.maximumSide) pixels"
        case let .scaleOutOfRange(scale):
            return "scale \(scale): it must be above 0 and at most \(Int(MapOptions.maximumScale))"
        case let .tooLarge(width, height, scale):
            return "a \(width)×\(height) chart at scale \(scale) is larger than \(MapOptions.maximumPixels) pixels or \(MapOptions.maximumSide) a side"
        }
    }
}
