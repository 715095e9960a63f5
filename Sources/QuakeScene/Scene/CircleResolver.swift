import Foundation
import QuakeModel
import QuakeGeo

/// What a map and its tiles decide about each event's circle, decided in one
/// place so both draw the same circles: its diameter in pixels, its fill, its
/// shape (a diamond for other event types than earthquakes), and the order
/// circles are stacked in.
package struct CircleResolver: Sendable {
    /// Sizes and colouring.
    package let symbols: SymbolStyle
    /// Multiplies every diameter: a map's ``MapOptions/scale``, 2 for 512-pixel tiles.
    package let scale: Double
    /// "Now" of ``SymbolColoring/age(reference:)``: one time for all circles.
    package let reference: Date

    /// A resolver for drawing `events`; the age colouring's "now" is the
    /// style's own, else `feedGenerated`, else the latest of `events`.
    /// Borrowed, not taken: a scene builder still needs its events after this.
    package init(symbols: SymbolStyle, scale: Double, events: borrowing [MapEvent], feedGenerated: Date?) {
        self.symbols = symbols
        self.scale = scale
        self.reference = symbols.coloring.referenceTime(for: events, feedGenerated: feedGenerated)
    }

    /// The diameter in pixels of a circle for `magnitude`.
    package func diameter(magnitude: Double) -> Double {
        symbols.diameter(magnitude: magnitude, scale: scale)
    }

    /// The diameter in pixels of `event`'s circle.
    package func diameter(_ event: MapEvent) -> Double {
        diameter(magnitude: event.magnitude)
    }

    /// The fill of `event`'s circle.
    package func fill(_ event: MapEvent) -> RGBA {
        symbols.fill(for: event, reference: reference)
    }

    /// The outline of `event`'s symbol.
    package func shape(_ event: MapEvent) -> SymbolShape {
        SymbolShape(event)
    }

    /// How far `event`'s symbol reaches from its centre along x or y.
    package func reach(_ event: MapEvent) -> Double {
        shape(event).reach(diameter: diameter(event))
    }

    /// `event`'s circle (or diamond), centred on `center`.
    package func circle(_ event: MapEvent, at center: PixelPoint) -> SceneCircle {
        SceneCircle(center: center, diameter: diameter(event), fill: fill(event), eventID: event.id, shape: shape(event))
    }

    /// Positions in `events` in drawing order (``DrawingOrder``): largest
    /// first, the most recent first among equal sizes, then the earlier.
    package func drawingOrder<Events: Collection<MapEvent>>(_ events: Events) -> [UInt32] {
        DrawingOrder.indices(diameters: events.map(diameter), times: events.map(\.time.timeIntervalSinceReferenceDate))
    }
}
