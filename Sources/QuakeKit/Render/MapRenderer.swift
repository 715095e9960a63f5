import Foundation

/// Draws a ``MapScene`` with Cairo, antialiased.
///
/// Every call creates and releases its own Cairo objects, so renderers may run
/// on many threads at once; the same scene always gives the same bytes.
public struct MapRenderer: Sendable {
    /// Creates a renderer.
    public init() {}

    /// The scene as a PNG file's bytes.
    public func pngData(for scene: MapScene) throws -> Data {
        try draw(scene).pngData()
    }

    /// The scene as pixels.
    public func image(for scene: MapScene) throws -> RasterImage {
        let surface = try draw(scene)
        return RasterImage(width: surface.width, height: surface.height, rgba: surface.rgbaBytes())
    }

    func draw(_ scene: MapScene) throws -> CairoImageSurface {
        let surface = try CairoImageSurface(width: scene.width, height: scene.height)
        let context = try CairoContext(surface: surface)
        if let background = scene.background { context.paint(background) }
        for polygon in scene.polygons { context.fillPolygon(polygon) }
        for circle in scene.circles { context.fillCircle(circle) }
        try context.checkStatus()
        return surface
    }
}
