import CCairo
import QuakeScene

/// The font every label uses. DejaVu Sans is installed by `make`'s set-up
/// (Debian `fonts-dejavu-core`), so text renders the same on every machine.
package enum MapFont {
    package static let family = "DejaVu Sans"

    package static func select(_ context: OpaquePointer, size: Double, bold: Bool) {
        cairo_select_font_face(context, family, CAIRO_FONT_SLANT_NORMAL,
                               bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
        // Every rendering option spelled out: Cairo resolves a font face once per
        // process with the options of its first use, so leaving them to the
        // surface (PDF unhinted, PNG hinted) would make text depend on what was
        // drawn before. Unhinted outlines also place text where the layout says.
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }
}

/// Measures text with the same font and Cairo as the renderer, so the scene can
/// size its panels exactly while staying free of Cairo types (it asks through
/// ``TextMetrics``).
package final class TextMeasurer: TextMetrics {
    private let surface: CairoImageSurface?
    private let context: CairoContext?

    package init() {
        surface = try? CairoImageSurface(width: 1, height: 1)
        context = surface.flatMap { try? CairoContext(surface: $0) }
    }

    /// The advance width of `text` in pixels (an estimate if Cairo is unavailable).
    package func width(_ text: String, size: Double, bold: Bool) -> Double {
        guard let context else { return Double(text.count) * size * 0.6 }
        MapFont.select(context.pointer, size: size, bold: bold)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context.pointer, text, &extents)
        return extents.x_advance
    }
}
