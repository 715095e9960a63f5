/// A map fully resolved into pixels: every shape has its position, size and
/// colour, so rendering makes no decisions and a scene can be checked as text.
public struct MapScene: Sendable, Hashable {
    /// Image width in pixels.
    public var width: Int
    /// Image height in pixels.
    public var height: Int
    /// The colour under everything; `nil` leaves the image transparent.
    public var background: RGBA?
    /// Filled polygons (land), drawn first, in order.
    public var polygons: [ScenePolygon]
    /// Circles (events), drawn after the polygons, in order.
    public var circles: [SceneCircle]

    /// Creates a scene.
    public init(width: Int, height: Int, background: RGBA?, polygons: [ScenePolygon], circles: [SceneCircle]) {
        self.width = width
        self.height = height
        self.background = background
        self.polygons = polygons
        self.circles = circles
    }
}

/// A filled circle in pixels.
public struct SceneCircle: Sendable, Hashable {
    /// The centre.
    public var center: PixelPoint
    /// The diameter in pixels.
    public var diameter: Double
    /// The fill colour.
    public var fill: RGBA
    /// The event it stands for.
    public var eventID: String

    /// Creates a circle.
    public init(center: PixelPoint, diameter: Double, fill: RGBA, eventID: String) {
        self.center = center
        self.diameter = diameter
        self.fill = fill
        self.eventID = eventID
    }
}

/// A filled polygon in pixels; rings after the first are holes (non-zero winding).
public struct ScenePolygon: Sendable, Hashable {
    /// Closed rings of pixel positions.
    public var rings: [[PixelPoint]]
    /// The fill colour.
    public var fill: RGBA

    /// Creates a polygon.
    public init(rings: [[PixelPoint]], fill: RGBA) {
        self.rings = rings
        self.fill = fill
    }
}
