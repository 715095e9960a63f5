import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeScene
import QuakeRender
import QuakeWrite

extension QuakeMap {
    /// Draws a b-value map of a selection in `format`: b (or σ(b), or Mc) on a
    /// grid of nodes, each estimated from its own events (``BValueGridOptions``),
    /// coloured on a scale shown in the legend's place, under the coastlines and
    /// plate boundaries. Nodes with too few events stay clear. The grid covers
    /// the map's region, or the events' extent on a map of the world.
    ///
    /// Give it every event of the region (`EventSelection(limit: nil)`): a
    /// node's b is only as good as its events.
    ///
    /// - Throws: ``MapOptionsError`` or ``StatisticsError`` for options out of
    ///   range, before anything is computed; ``RenderError``.
    public static func bValueMap(_ selection: MapSelection, grid: BValueGridOptions = BValueGridOptions(),
                                 options: MapOptions = MapOptions(), format: ImageFormat = .png) throws -> Data {
        try options.validate()
        let computed = try bValueGrid(selection.events, grid: grid, region: options.region)
        let scene = SceneBuilder(drawing: options.crediting(selection.summary))
            .scene(for: computed, events: selection.events, feedGenerated: selection.summary.generated,
                   feedTitle: selection.summary.title)
        return try MapRenderer().data(for: scene, format: format)
    }

    /// The grid of ``bValueMap(_:grid:options:format:)``: over `region`, or
    /// the events' extent (the world when they spread over more than 300° of longitude).
    package static func bValueGrid(_ events: [MapEvent], grid: BValueGridOptions,
                                   region: GeoBox?) throws(StatisticsError) -> BValueGrid {
        try grid.validate()
        let box = region ?? GeoBox.enclosing(events.map { GeoPoint(longitude: $0.longitude, latitude: $0.latitude) },
                                             margin: 0, minimumMargin: grid.spacing ?? 0.01) ?? .world
        return try BValueGrid(events: events, region: box, options: grid)
    }
}
