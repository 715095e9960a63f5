import QuakeScene

/// A rectangle in pixels (or PDF points).
public struct PixelRect: Sendable, Hashable {
    /// Left edge.
    package var x: Double
    /// Top edge.
    package var y: Double
    /// Width.
    package var width: Double
    /// Height.
    package var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A map scene placed in a frame of a page; the scene is scaled to fill the frame.
public struct PlacedMap: Sendable, Hashable {
    /// The map.
    package var scene: MapScene
    /// Where it goes on the page, in points.
    package var frame: PixelRect

    /// Places `scene` in `frame`.
    public init(scene: MapScene, frame: PixelRect) {
        self.scene = scene
        self.frame = frame
    }
}

/// One page of a report: maps in frames, and text of the caller's own, in PDF
/// points (1/72 inch; A4 is 595 × 842). Rendered by `pdfData(for:)`.
public struct ReportPage: Sendable, Hashable {
    /// Page width in points.
    package var width: Double
    /// Page height in points.
    package var height: Double
    /// The maps, drawn in order, each clipped to its frame.
    package var maps: [PlacedMap]
    /// Text drawn on the page itself (headings, captions), over the maps.
    package var texts: [SceneText]
    /// Lines drawn on the page itself (a table's rules), under the maps and text.
    package var lines: [SceneLine]

    /// Creates a page.
    public init(width: Double, height: Double, maps: [PlacedMap] = [], texts: [SceneText] = [], lines: [SceneLine] = []) {
        self.width = width
        self.height = height
        self.maps = maps
        self.texts = texts
        self.lines = lines
    }

    /// An A4 portrait page, 595 × 842 points.
    public static func a4(maps: [PlacedMap] = [], texts: [SceneText] = []) -> ReportPage {
        ReportPage(width: 595, height: 842, maps: maps, texts: texts)
    }
}
