// Render/ — scenes drawn with Cairo into pixels, PDF or SVG; it decides nothing the scene has not.
// The only folder that imports Cairo; it hands pixels on as a PixelBuffer and measures text for Scene.

import CCairo
import Foundation
import QuakeParse
import QuakeGeo
import QuakeScene

/// Owns a Cairo drawing context; destroyed with the object.
package final class CairoContext {
    package let pointer: OpaquePointer
    /// Keeps the surface alive while the context draws on it.
    private let surfaceOwner: AnyObject
    /// Whether text is filled as outlines rather than shown as glyphs.
    private let textAsPaths: Bool

    /// - Parameter textAsPaths: fill text as glyph outlines. Raster output
    ///   wants this: Cairo caches rendered glyphs process-wide, and which
    ///   sub-pixel placement a cached glyph was first drawn at depends on the
    ///   order of earlier renders; outlines give the same pixels every time.
    ///   Vector output keeps real text, so a PDF's words stay selectable.
    package init(surface: OpaquePointer, owner: AnyObject, textAsPaths: Bool) throws {
        let context = cairo_create(surface)!
        try CairoStatus.check(cairo_status(context)) { cairo_destroy(context) }
        self.pointer = context
        self.surfaceOwner = owner
        self.textAsPaths = textAsPaths
        cairo_set_antialias(context, CAIRO_ANTIALIAS_DEFAULT)
    }

    package convenience init(surface: CairoImageSurface) throws {
        try self.init(surface: surface.pointer, owner: surface, textAsPaths: true)
    }

    deinit {
        cairo_destroy(pointer)
    }

    package func setColor(_ color: RGBA) {
        cairo_set_source_rgba(pointer, color.red, color.green, color.blue, color.alpha)
    }

    package func fillRectangle(width: Double, height: Double, _ color: RGBA) {
        cairo_new_path(pointer)
        cairo_rectangle(pointer, 0, 0, width, height)
        setColor(color)
        cairo_fill(pointer)
    }

    /// Paints `surface` over everything, its top-left corner at the origin.
    package func paint(_ surface: CairoImageSurface) {
        cairo_set_source_surface(pointer, surface.pointer, 0, 0)
        cairo_paint(pointer)
        // Drop the pattern's reference to the surface, which is freed with its owner.
        cairo_set_source_rgb(pointer, 0, 0, 0)
    }

    package func fillPolygon(_ polygon: ScenePolygon) {
        cairo_new_path(pointer)
        for ring in polygon.rings {
            guard let first = ring.first else { continue }
            cairo_move_to(pointer, first.x, first.y)
            for point in ring.dropFirst() { cairo_line_to(pointer, point.x, point.y) }
            cairo_close_path(pointer)
        }
        cairo_set_fill_rule(pointer, CAIRO_FILL_RULE_WINDING)
        setColor(polygon.fill)
        cairo_fill(pointer)
    }

    /// Runs `body` with drawing confined to the inside of `polygons`.
    package func clipped(to polygons: [ScenePolygon], _ body: () -> Void) {
        cairo_save(pointer)
        cairo_new_path(pointer)
        for ring in polygons.flatMap(\.rings) {
            guard let first = ring.first else { continue }
            cairo_move_to(pointer, first.x, first.y)
            for point in ring.dropFirst() { cairo_line_to(pointer, point.x, point.y) }
            cairo_close_path(pointer)
        }
        cairo_set_fill_rule(pointer, CAIRO_FILL_RULE_WINDING)
        cairo_clip(pointer)
        body()
        cairo_restore(pointer)
    }

    package func strokeLine(_ line: SceneLine) {
        guard let first = line.points.first, line.points.count > 1 else { return }
        cairo_new_path(pointer)
        cairo_move_to(pointer, first.x, first.y)
        for point in line.points.dropFirst() { cairo_line_to(pointer, point.x, point.y) }
        cairo_set_line_width(pointer, line.width)
        cairo_set_line_join(pointer, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(pointer, CAIRO_LINE_CAP_ROUND)
        setColor(line.stroke)
        cairo_stroke(pointer)
    }

    /// A beachball: a white ball, its compressional parts filled together (one path, so
    /// that the quadrilaterals they are made of leave no seams), the nodal planes, the rim.
    package func drawBeachball(_ ball: SceneBeachball) {
        let radius = ball.diameter / 2
        if let epicentre = ball.epicentre {
            // The leader line to the rim facing the epicentre, and a dot where the event is.
            let dx = epicentre.x - ball.center.x, dy = epicentre.y - ball.center.y, length = (dx * dx + dy * dy).squareRoot()
            let rim = PixelPoint(x: ball.center.x + dx / length * radius, y: ball.center.y + dy / length * radius)
            let leader = RGBA(red: 0.92, green: 0.92, blue: 0.92, alpha: 0.9)
            strokeLine(SceneLine(points: [epicentre, rim], stroke: leader, width: max(0.6, radius / 20)))
            cairo_new_path(pointer)
            cairo_arc(pointer, epicentre.x, epicentre.y, max(1.2, radius / 8), 0, 2 * Double.pi)
            setColor(ball.fill)
            cairo_fill_preserve(pointer)
            setColor(leader)
            cairo_set_line_width(pointer, 0.5)
            cairo_stroke(pointer)
        }
        cairo_new_path(pointer)
        cairo_arc(pointer, ball.center.x, ball.center.y, radius, 0, 2 * Double.pi)
        setColor(RGBA(red: 1, green: 1, blue: 1))
        cairo_fill(pointer)
        fillPolygon(ScenePolygon(rings: ball.compressional, fill: ball.fill))
        let ink = RGBA(red: 0, green: 0, blue: 0)
        let width = max(0.5, min(1.2, ball.diameter / 40))
        for line in ball.nodalLines { strokeLine(SceneLine(points: line, stroke: ink, width: width * 0.75)) }
        cairo_new_path(pointer)
        cairo_arc(pointer, ball.center.x, ball.center.y, radius, 0, 2 * Double.pi)
        cairo_set_line_width(pointer, width)
        setColor(ink)
        cairo_stroke(pointer)
    }

    /// Fills `circle` as its shape: a circle, or the diamond of its area.
    package func fillCircle(_ circle: SceneCircle) {
        cairo_new_path(pointer)
        switch circle.shape {
        case .circle:
            cairo_arc(pointer, circle.center.x, circle.center.y, circle.diameter / 2, 0, 2 * Double.pi)
        case .diamond:
            let corners = SymbolShape.diamondCorners(center: circle.center, diameter: circle.diameter)
            cairo_move_to(pointer, corners[0].x, corners[0].y)
            for corner in corners.dropFirst() { cairo_line_to(pointer, corner.x, corner.y) }
            cairo_close_path(pointer)
        }
        setColor(circle.fill)
        cairo_fill(pointer)
    }

    package func showText(_ label: SceneText) {
        MapFont.select(pointer, size: label.size, bold: label.bold)
        var extents = cairo_text_extents_t()
        cairo_text_extents(pointer, label.text, &extents)
        var x = label.position.x
        switch label.alignment {
        case .left: break
        case .center: x -= extents.x_advance / 2
        case .right: x -= extents.x_advance
        }
        cairo_new_path(pointer)
        cairo_move_to(pointer, x, label.position.y)
        setColor(label.color)
        if textAsPaths {
            cairo_text_path(pointer, label.text)
            cairo_fill(pointer)
        } else {
            cairo_show_text(pointer, label.text)
        }
    }

    package func checkStatus() throws {
        try CairoStatus.check(cairo_status(pointer))
    }
}
