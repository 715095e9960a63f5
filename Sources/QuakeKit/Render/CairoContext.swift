import CCairo
import Foundation

/// Owns a Cairo drawing context on a surface; destroyed with the object.
final class CairoContext {
    let pointer: OpaquePointer
    private let surface: CairoImageSurface

    init(surface: CairoImageSurface) throws {
        let context = cairo_create(surface.pointer)!
        try CairoStatus.check(cairo_status(context)) { cairo_destroy(context) }
        self.pointer = context
        self.surface = surface
        cairo_set_antialias(context, CAIRO_ANTIALIAS_DEFAULT)
    }

    deinit {
        cairo_destroy(pointer)
    }

    func setColor(_ color: RGBA) {
        cairo_set_source_rgba(pointer, color.red, color.green, color.blue, color.alpha)
    }

    func paint(_ color: RGBA) {
        setColor(color)
        cairo_paint(pointer)
    }

    func fillPolygon(_ polygon: ScenePolygon) {
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

    func fillCircle(_ circle: SceneCircle) {
        cairo_new_path(pointer)
        cairo_arc(pointer, circle.center.x, circle.center.y, circle.diameter / 2, 0, 2 * Double.pi)
        setColor(circle.fill)
        cairo_fill(pointer)
    }

    func checkStatus() throws {
        try CairoStatus.check(cairo_status(pointer))
    }
}
