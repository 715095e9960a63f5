import Foundation
import QuakeModel
import QuakeScene
import QuakeWrite

/// Draws every tile with a circle on it, over a range of zoom levels: the
/// tiles of a zoom are drawn on all cores, and handed on one by one in
/// ``TileID`` order, so the same events always give the same pyramid.
public struct TilePyramid: Sendable {
    /// The zoom levels drawn.
    package var zooms: ClosedRange<Int>
    /// How the tiles look.
    package var options: TileOptions

    /// Where a pyramid's drawing has got to.
    public struct Progress: Sendable, Hashable {
        /// The zoom level being drawn.
        public var zoom: Int
        /// Tiles of this zoom written so far.
        public var done: Int
        /// Tiles with circles at this zoom.
        public var total: Int
    }

    /// What a pyramid holds once drawn.
    public struct Summary: Sendable, Hashable {
        /// Tiles written (empty tiles are not).
        public var tiles: Int
        /// Bytes of tiles written (before any compression).
        public var bytes: Int
        /// The most events any zoom left out under the per-tile limit (PNG tiles; vector tiles leave none out).
        public var droppedByLimit: Int
        /// The bytes of the largest tile.
        package var largestTile: Int = 0
    }

    /// Units of a vector tile's 4,096 drawn around it from its neighbours: 32 pixels of a 512-pixel
    /// tile, the radius of a magnitude 9.2's circle, so that no symbol is cut at a tile's edge.
    package static let vectorBuffer: Int32 = 256

    /// Creates a pyramid description.
    public init(zooms: ClosedRange<Int>, options: TileOptions) {
        precondition(zooms.lowerBound >= 0 && zooms.upperBound <= TileID.maximumZoom, "zooms within 0…30")
        self.zooms = zooms
        self.options = options
    }

    /// Draws the tiles of `events` and hands each to `write`.
    ///
    /// - Parameters:
    ///   - events: the events, drawn at every zoom.
    ///   - feedGenerated: the feed's own time, "now" of the age colouring.
    ///   - progress: called after each batch of tiles, on the calling thread.
    ///   - write: receives each non-empty tile's PNG, in order; what it throws ends the run.
    public func render(
        _ events: [MapEvent], feedGenerated: Date? = nil,
        progress: (Progress) -> Void = { _ in },
        write: (TileID, Data) throws -> Void
    ) throws -> Summary {
        var summary = Summary(tiles: 0, bytes: 0, droppedByLimit: 0)
        var options = self.options
        options.symbols.coloring = options.symbols.coloring.resolved(for: events, feedGenerated: feedGenerated)
        // Which events a crowded tile keeps is ranked the same at every zoom: once.
        let ranking = options.tileLimit == nil ? nil : TileLayer.ranking(Array(events.indices), of: events)
        for zoom in zooms {
            let layer = TileLayer(events: events, zoom: zoom, options: options, feedGenerated: feedGenerated, around: nil,
                                  ranking: ranking)
            summary.droppedByLimit = max(summary.droppedByLimit, layer.droppedByLimit)
            let tiles = layer.tiles
            try Self.make(tiles, zoom: zoom, perCore: 32, progress: progress, into: &summary, write: write) { tile in
                // `tiles` lists the tiles some circle touches, so each has a picture.
                guard let data = try layer.pngData(for: tile) else { preconditionFailure("tile \(tile) has no circle") }
                return (data, data.count)
            }
        }
        return summary
    }

    /// Encodes `events` as Mapbox Vector Tiles, one layer `quakes`: every event as a point with
    /// its properties, or, where a tile would hold more than `budget` features, counted in a
    /// cluster of the events of its cell of the tile, with their count, largest magnitude, latest
    /// time and the zoom at which they come apart. None is left out. Each tile with a feature, its
    /// own or a neighbour's in its buffer, is handed to `write`, uncompressed, in ``TileID`` order.
    ///
    /// ```swift
    /// let selection = try QuakeMap.select(from: .file("all_month.csv"), selection: EventSelection(limit: nil))
    /// let pyramid = TilePyramid(zooms: 0...8, options: try TileOptions())
    /// try pyramid.renderVectors(selection.events) { tile, data in
    ///     try data.write(to: URL(fileURLWithPath: "tiles/\(tile.zoom)-\(tile.x)-\(tile.y).pbf"))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - events: the events, in any order.
    ///   - budget: the most features a tile holds before its events are clustered.
    ///   - progress: called after each batch of tiles, on the calling thread.
    ///   - write: receives each tile's bytes; what it throws ends the run.
    public func renderVectors(
        _ events: [SeismicEvent], budget: Int = TileOptions.defaultTileLimit,
        progress: (Progress) -> Void = { _ in },
        write: (TileID, Data) throws -> Void
    ) throws -> Summary {
        try renderVectors(VectorTileEvents(events, budget: budget), progress: progress, write: write)
    }

    /// ``renderVectors(_:budget:progress:write:)`` of events prepared for it (read through a
    /// spool); `compressed`: each tile gzip-compressed on the cores that encode it, as MBTiles
    /// and PMTiles store them.
    package func renderVectors(
        _ events: VectorTileEvents, compressed: Bool = false,
        progress: (Progress) -> Void = { _ in },
        write: (TileID, Data) throws -> Void
    ) throws -> Summary {
        precondition(zooms.upperBound <= ClusterIndex.maximumZoom, "vector tiles to zoom \(ClusterIndex.maximumZoom)")
        var summary = Summary(tiles: 0, bytes: 0, droppedByLimit: 0)
        for zoom in zooms {
            let tiles = events.index.tilesWithFeatures(zoom: zoom, buffer: Self.vectorBuffer)
            try Self.make(tiles, zoom: zoom, perCore: 64, progress: progress, into: &summary, write: write) { tile in
                let data = events.tile(tile, buffer: Self.vectorBuffer)
                return (compressed && !data.isEmpty ? Gzip.compress(data) : data, data.count)
            }
        }
        return summary
    }

    /// Makes `tiles` on every core, in batches of `perCore` tiles a core (bounded memory, steady
    /// progress), and hands each with bytes to `write` in order; `make` gives a tile's bytes and
    /// their size before any compression (0: nothing to write).
    private static func make(_ tiles: [TileID], zoom: Int, perCore: Int, progress: (Progress) -> Void, into summary: inout Summary,
                             write: (TileID, Data) throws -> Void, make: (TileID) throws -> (data: Data, size: Int)) throws {
        progress(Progress(zoom: zoom, done: 0, total: tiles.count))
        let batch = ParallelParts.cores * perCore
        for start in stride(from: 0, to: tiles.count, by: batch) {
            let slice = tiles[start..<min(start + batch, tiles.count)]
            let parts = min(ParallelParts.cores, slice.count)
            let made = ParallelParts.map(parts: parts) { part in
                let range = (slice.startIndex + slice.count * part / parts)..<(slice.startIndex + slice.count * (part + 1) / parts)
                return Result { try tiles[range].map { ($0, try make($0)) } }
            }
            for part in made {
                for (tile, (data, size)) in try part.get() where size > 0 {
                    try write(tile, data)
                    summary.tiles += 1
                    summary.bytes += size
                    summary.largestTile = max(summary.largestTile, size)
                }
            }
            progress(Progress(zoom: zoom, done: min(start + batch, tiles.count), total: tiles.count))
        }
    }
}

extension QuakeMap {
    /// Draws a selection's tiles for `zooms` into the folder `path`, as
    /// `z/x/y.png` with a TileJSON `tilejson.json`, for a web map to show over
    /// its own base layer. The folder is written beside and moved into place
    /// when complete, so a previous good set stays until the new one is whole.
    ///
    /// For another store (an MBTiles file, object storage), hand
    /// ``TilePyramid/render(_:feedGenerated:progress:write:)`` the tiles' destination.
    ///
    /// - Throws: ``TileError``, ``WriteError`` or ``RenderError``.
    public static func tiles(for selection: MapSelection, zooms: ClosedRange<Int>, options: TileOptions,
                             to path: String) throws -> TilePyramid.Summary {
        guard zooms.lowerBound >= 0, zooms.upperBound <= TileID.maximumZoom else {
            throw TileError.invalidZoomRange("\(zooms.lowerBound)-\(zooms.upperBound)", limit: TileID.maximumZoom)
        }
        let writer = try TileDirectoryWriter(path: path)
        let summary = try TilePyramid(zooms: zooms, options: options)
            .render(selection.events, feedGenerated: selection.summary.generated) { try writer.write($1, for: $0) }
        try writer.commit(TileSetMetadata(name: "quakemap", description: "Earthquakes: \(selection.events.count) events",
                                          zooms: zooms, tileSize: options.tileSize))
        return summary
    }
}
