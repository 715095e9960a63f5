/// A point in image pixels: x to the right, y down, (0, 0) the top-left corner.
public struct PixelPoint: Sendable, Hashable, Codable {
    /// Pixels from the left edge.
    public var x: Double
    /// Pixels from the top edge.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The plate carrée (equirectangular) projection of the whole world onto a
/// `width` × `height` image: x = (lon + 180) / 360 · W, y = (90 − lat) / 180 · H.
/// Longitude −180 is the left pixel edge, +180 the right one, the North Pole the top.
public struct PlateCarree: Sendable, Hashable {
    /// Image width in pixels.
    public let width: Double
    /// Image height in pixels.
    public let height: Double

    /// Creates the projection for an image size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The pixel position of a geographic point.
    public func project(latitude: Double, longitude: Double) -> PixelPoint {
        PixelPoint(x: (longitude + 180) / 360 * width, y: (90 - latitude) / 180 * height)
    }

    /// The horizontal pixel distance of a full turn of longitude, for the wrap.
    public var wrapWidth: Double { width }
}
