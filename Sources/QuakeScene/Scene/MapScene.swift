import QuakeGeo

/// A map fully resolved into pixels: every shape and label has its position,
/// size and colour, so rendering makes no decisions and a scene can be checked
/// as data. Layers are drawn in the order of the properties below.
public struct MapScene: Sendable, Hashable {
    /// Image width in pixels.
    public var width: Int
    /// Image height in pixels.
    public var height: Int
    /// The colour under everything; `nil` leaves the image transparent.
    package var background: RGBA?
    /// Shaded relief over the background (``BasemapChoice/relief``), under everything else.
    package var relief: SceneRelief?
    /// Filled polygons (land), drawn first, in order.
    package var polygons: [ScenePolygon]
    /// Stroked lines (graticule, coastline, plate boundaries), drawn over the polygons.
    package var lines: [SceneLine]
    /// Filled shapes that belong to the lines (a subduction zone's teeth), drawn over them.
    package var lineMarks: [ScenePolygon]
    /// Circles (events), in order: the first is drawn first, at the bottom.
    package var circles: CircleLayer
    /// Beachballs (events with a focal mechanism, when drawn so), over the circles, largest first.
    package var beachballs: [SceneBeachball] = []
    /// Panels, circles and text of the legend, title and footer, drawn last.
    package var overlay: SceneOverlay

    /// Creates a scene.
    package init(width: Int, height: Int, background: RGBA?, polygons: [ScenePolygon],
                lines: [SceneLine] = [], lineMarks: [ScenePolygon] = [], circles: [SceneCircle],
                overlay: SceneOverlay = SceneOverlay()) {
        self.init(width: width, height: height, background: background, polygons: polygons, lines: lines,
                  lineMarks: lineMarks, circleLayer: CircleLayer(circles), overlay: overlay)
    }

    /// Creates a scene whose circles are already a layer.
    package init(width: Int, height: Int, background: RGBA?, polygons: [ScenePolygon],
                lines: [SceneLine] = [], lineMarks: [ScenePolygon] = [], circleLayer: CircleLayer,
                overlay: SceneOverlay = SceneOverlay()) {
        self.width = width
        self.height = height
        self.background = background
        self.polygons = polygons
        self.lines = lines
        self.lineMarks = lineMarks
        self.circles = circleLayer
        self.overlay = overlay
    }
}

/// What is drawn on top of the map: leader lines, panels, the events under
/// panels again, the legend's circles, then text.
package struct SceneOverlay: Sendable, Hashable {
    /// Thin lines from an event to a label set further away.
    package var lines: [SceneLine]
    /// Filled rectangles or shapes behind the legend and labels.
    package var panels: [ScenePolygon]
    /// Event circles that a panel covers, drawn again over the panels (in the
    /// circles' drawing order, and only inside the panels) so that no
    /// selected event is hidden.
    package var eventCircles: [SceneCircle]
    /// The legend's sample circles.
    package var circles: [SceneCircle]
    /// The legend's sample beachball.
    package var beachballs: [SceneBeachball] = []
    /// Labels.
    package var texts: [SceneText]

    /// Creates an overlay; empty by default.
    package init(lines: [SceneLine] = [], panels: [ScenePolygon] = [], eventCircles: [SceneCircle] = [],
                circles: [SceneCircle] = [], texts: [SceneText] = []) {
        self.lines = lines
        self.panels = panels
        self.eventCircles = eventCircles
        self.circles = circles
        self.texts = texts
    }
}

/// A filled circle in pixels, or the diamond of the same area (``shape``).
package struct SceneCircle: Sendable, Hashable {
    /// The centre.
    package var center: PixelPoint
    /// The diameter in pixels.
    package var diameter: Double
    /// The fill colour.
    package var fill: RGBA
    /// The event it stands for (empty for a legend sample).
    package var eventID: String
    /// Its outline: a circle, or a diamond of the circle's area.
    package var shape: SymbolShape

    /// Creates a circle (or, with `shape`, a diamond of its area).
    package init(center: PixelPoint, diameter: Double, fill: RGBA, eventID: String, shape: SymbolShape = .circle) {
        self.center = center
        self.diameter = diameter
        self.fill = fill
        self.eventID = eventID
        self.shape = shape
    }
}

/// A filled shape in pixels: its rings are filled together with the non-zero
/// winding rule, so outlines and holes must run in opposite directions.
package struct ScenePolygon: Sendable, Hashable {
    /// Closed rings of pixel positions.
    package var rings: [[PixelPoint]]
    /// The fill colour.
    package var fill: RGBA

    /// Creates a shape.
    package init(rings: [[PixelPoint]], fill: RGBA) {
        self.rings = rings
        self.fill = fill
    }
}

/// An open polyline, stroked.
public struct SceneLine: Sendable, Hashable {
    /// The points, in order.
    package var points: [PixelPoint]
    /// The stroke colour.
    package var stroke: RGBA
    /// The stroke width in pixels.
    public var width: Double

    /// Creates a line.
    public init(points: [PixelPoint], stroke: RGBA, width: Double) {
        self.points = points
        self.stroke = stroke
        self.width = width
    }
}

/// A single line of text. `position` is the left, centre or right end of its
/// baseline, as `alignment` says.
public struct SceneText: Sendable, Hashable {
    /// How the text sits on its position.
    public enum Alignment: Sendable, Hashable { case left, center, right }

    /// The text.
    package var text: String
    /// The anchor on the baseline.
    package var position: PixelPoint
    /// The font size in pixels.
    package var size: Double
    /// Bold or regular.
    package var bold: Bool
    /// The colour.
    package var color: RGBA
    /// The alignment on `position`.
    package var alignment: Alignment

    /// Creates a label.
    public init(text: String, position: PixelPoint, size: Double, bold: Bool = false,
                color: RGBA, alignment: Alignment = .left) {
        self.text = text
        self.position = position
        self.size = size
        self.bold = bold
        self.color = color
        self.alignment = alignment
    }
}
