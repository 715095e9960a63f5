import CCairo
import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeScene

/// Draws a ``MapScene`` with Cairo, antialiased, as PNG, PDF or SVG.
///
/// Every call creates and releases its own Cairo objects, so renderers may run
/// on many threads at once; the same scene always gives the same bytes.
public struct MapRenderer: Sendable {
    /// Creates a renderer.
    public init() {}

    /// The scene as one page of PDF (`svg` false) or SVG, one pixel a point.
    package func vectorData(for scene: MapScene, svg: Bool) throws -> Data {
        let page = ReportPage(width: Double(scene.width), height: Double(scene.height),
                              maps: [PlacedMap(scene: scene, frame: PixelRect(x: 0, y: 0, width: Double(scene.width),
                                                                              height: Double(scene.height)))])
        return try vectorData(pages: [page], kind: svg ? .svg : .pdf)
    }

    /// The scene as pixels.
    package func image(for scene: MapScene) throws -> RasterImage {
        let surface = try rasterize(scene)
        return RasterImage(width: surface.width, height: surface.height, rgba: surface.rgbaBytes())
    }

    /// A PDF of one or more report pages, each with maps placed in frames;
    /// `title` goes in the document's metadata (what a viewer's title bar shows).
    public func pdfData(for pages: [ReportPage], title: String? = nil) throws -> Data {
        try vectorData(pages: pages, kind: .pdf, title: title)
    }

    /// How raster output draws circles: stamped straight into the pixels (the
    /// default; see ``CircleStamper``), or one Cairo path fill each, the
    /// straightforward way the stamped circles are tested against.
    package enum CircleDrawing { case stamped, cairoPaths }

    package func rasterize(_ scene: MapScene, circles: CircleDrawing = .stamped) throws -> CairoImageSurface {
        // The limit of map options, so that no scene is drawn that options would refuse.
        guard MapOptions.fits(width: Double(scene.width), height: Double(scene.height)) else {
            throw RenderError.invalidSize(width: scene.width, height: scene.height)
        }
        let surface = try CairoImageSurface(width: scene.width, height: scene.height)
        let context = try CairoContext(surface: surface)
        switch circles {
        case .stamped:
            drawBase(scene, on: context)
            try context.checkStatus()
            try surface.withMutablePixels { pixels, stride in
                CircleStamper(width: scene.width, height: scene.height, stride: stride).stamp(scene.circles, onto: pixels)
            }
            for ball in scene.beachballs { context.drawBeachball(ball) }
            drawOverlay(scene, on: context)
        case .cairoPaths:
            draw(scene, on: context)
        }
        try context.checkStatus()
        return surface
    }

    private func vectorData(pages: [ReportPage], kind: CairoVectorSurface.Kind, title: String? = nil) throws -> Data {
        guard let first = pages.first else { throw RenderError.invalidSize(width: 0, height: 0) }
        for page in pages where !(page.width > 0 && page.height > 0 && page.width <= Double(MapOptions.maximumSide) && page.height <= Double(MapOptions.maximumSide)) {
            throw RenderError.invalidSize(width: Int(page.width), height: Int(page.height))
        }
        let surface = try CairoVectorSurface(kind: kind, width: first.width, height: first.height)
        if kind == .pdf {
            cairo_pdf_surface_set_metadata(surface.pointer, CAIRO_PDF_METADATA_CREATOR, "quakemap")
            if let title { cairo_pdf_surface_set_metadata(surface.pointer, CAIRO_PDF_METADATA_TITLE, title) }
        }
        do {
            let context = try CairoContext(surface: surface.pointer, owner: surface, textAsPaths: false)
            for (index, page) in pages.enumerated() {
                if index > 0, kind == .pdf { cairo_pdf_surface_set_size(surface.pointer, page.width, page.height) }
                for line in page.lines { context.strokeLine(line) }
                for placed in page.maps {
                    cairo_save(context.pointer)
                    cairo_rectangle(context.pointer, placed.frame.x, placed.frame.y, placed.frame.width, placed.frame.height)
                    cairo_clip(context.pointer)
                    cairo_translate(context.pointer, placed.frame.x, placed.frame.y)
                    cairo_scale(context.pointer, placed.frame.width / Double(placed.scene.width),
                                placed.frame.height / Double(placed.scene.height))
                    draw(placed.scene, on: context)
                    cairo_restore(context.pointer)
                }
                // The page's own text last: over any map that reaches it.
                for text in page.texts { context.showText(text) }
                cairo_show_page(context.pointer)
            }
            try context.checkStatus()
        }
        return try surface.finish()
    }

    private func draw(_ scene: MapScene, on context: CairoContext) {
        drawBase(scene, on: context)
        for circle in scene.circles { context.fillCircle(circle) }
        for ball in scene.beachballs { context.drawBeachball(ball) }
        drawOverlay(scene, on: context)
    }

    /// Background, land or relief, and lines: what lies under the circles.
    package func drawBase(_ scene: MapScene, on context: CairoContext) {
        if let background = scene.background {
            context.fillRectangle(width: Double(scene.width), height: Double(scene.height), background)
        }
        for polygon in scene.polygons { context.fillPolygon(polygon) }
        // Over the polygons: a globe's are its ocean, which the relief covers inside the outline.
        if let relief = scene.relief, let surface = try? CairoImageSurface(width: relief.width, height: relief.height) {
            _ = try? surface.withMutablePixels { pixels, stride in
                ReliefRaster.builtIn.draw(relief, into: pixels, stride: stride)
            }
            context.paint(surface)
        }
        for line in scene.lines { context.strokeLine(line) }
        for mark in scene.lineMarks { context.fillPolygon(mark) }
    }

    /// The legend, title, footer and labels over the circles, with the events
    /// their panels cover drawn again on the panels.
    package func drawOverlay(_ scene: MapScene, on context: CairoContext) {
        for line in scene.overlay.lines { context.strokeLine(line) }
        for panel in scene.overlay.panels { context.fillPolygon(panel) }
        // Only the part under the panels: outside them the circle is already drawn once.
        if !scene.overlay.eventCircles.isEmpty {
            context.clipped(to: scene.overlay.panels) {
                for circle in scene.overlay.eventCircles { context.fillCircle(circle) }
            }
        }
        for circle in scene.overlay.circles { context.fillCircle(circle) }
        for ball in scene.overlay.beachballs { context.drawBeachball(ball) }
        for text in scene.overlay.texts { context.showText(text) }
    }
}
