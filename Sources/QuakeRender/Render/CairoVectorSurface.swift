import CCairo
import Foundation
import QuakeModel
import QuakeQuery
import QuakeScene

/// Owns a Cairo PDF or SVG surface that writes into memory. The byte sink
/// must outlive the surface, which writes into it until it is finished.
package final class CairoVectorSurface {
    package enum Kind { case pdf, svg }

    package let pointer: OpaquePointer
    private let sink = ByteSink()

    package init(kind: Kind, width: Double, height: Double) throws {
        let write = ByteSink.write
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        let surface: OpaquePointer
        switch kind {
        case .pdf: surface = cairo_pdf_surface_create_for_stream(write, closure, width, height)!
        case .svg: surface = cairo_svg_surface_create_for_stream(write, closure, width, height)!
        }
        try CairoStatus.check(cairo_surface_status(surface)) { cairo_surface_destroy(surface) }
        pointer = surface
        if kind == .svg { cairo_svg_surface_restrict_to_version(surface, CAIRO_SVG_VERSION_1_1) }
    }

    /// Ends the document and returns its bytes.
    package func finish() throws -> Data {
        cairo_surface_finish(pointer)
        try CairoStatus.check(cairo_surface_status(pointer))
        return sink.data
    }

    deinit {
        cairo_surface_destroy(pointer)
    }
}
