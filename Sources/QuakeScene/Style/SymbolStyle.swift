import Foundation
import QuakeModel

/// How events become circles, on maps and tiles alike: the size of a circle
/// (always the magnitude) and what its colour tells.
///
/// ``MapOptions`` and ``TileOptions`` both hold one (their initializers take
/// its two parts as `style` and `coloring`), so a map and the tiles of the
/// same events draw the same circles.
public struct SymbolStyle: Sendable, Hashable {
    /// Circle sizes by magnitude (and the colours of ``SymbolColoring/magnitude``).
    package var sizes: MagnitudeStyle
    /// What the circles' colour tells. Default ``SymbolColoring/magnitude``.
    package var coloring: SymbolColoring
    /// Events with a focal mechanism drawn as beachballs; `nil` draws circles for all.
    package var beachballs: BeachballStyle?
    /// `render --decluster-show clusters`: the fill of each clustered event, by id
    /// (``ClusterPalette``); events not in it keep ``coloring``'s.
    package var clusterFills: [String: RGBA]?

    /// Creates a symbol style: by default the command line's (``MagnitudeStyle``'s
    /// default sizes, coloured by magnitude).
    public init(sizes: MagnitudeStyle = MagnitudeStyle(), coloring: SymbolColoring = .magnitude) {
        self.sizes = sizes
        self.coloring = coloring
    }

    /// The diameter in pixels of a circle for `magnitude`, at `scale` (2 for HiDPI).
    package func diameter(magnitude: Double, scale: Double) -> Double {
        sizes.diameter(magnitude: magnitude) * scale
    }

    /// The fill of a drawn event; `reference` is the resolved "now" of `.age`
    /// (``SymbolColoring/referenceTime(for:feedGenerated:)``).
    package func fill(for event: MapEvent, reference: Date) -> RGBA {
        if let clusterFills, let fill = clusterFills[event.id] { return fill }
        return coloring.fill(for: event, style: sizes, reference: reference)
    }
}
