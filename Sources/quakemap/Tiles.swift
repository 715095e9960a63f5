import ArgumentParser
import Foundation
import Logging
import QuakeCatalogue
import QuakeCommand
import QuakeKit
import QuakeMBTiles

#if canImport(Glibc)
import Glibc
#endif

/// `--container` of `tiles`: where the tiles go, whatever they hold.
enum TileContainer: String, CaseIterable, ExpressibleByArgument {
    /// A folder of `z/x/y.png` or `.pbf` with a `tilejson.json`.
    case folder
    /// One MBTiles 1.3 (SQLite) file.
    case mbtiles
    /// One PMTiles v3 archive, for static hosting with range requests.
    case pmtiles

    /// The container an output's name asks for: `.mbtiles`, `.pmtiles`, else a folder.
    init(path: String) {
        let lowered = path.lowercased()
        self = lowered.hasSuffix(".mbtiles") ? .mbtiles : lowered.hasSuffix(".pmtiles") ? .pmtiles : .folder
    }
}

/// The retired `--format` of `tiles`, which named an encoding and a container at once.
enum LegacyTileFormat: String, CaseIterable, ExpressibleByArgument {
    case png
    case mbtiles
}

extension TileEncoding: ExpressibleByArgument {}

extension Quakemap {
    struct Tiles: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make Web Mercator XYZ tiles of the selected events: PNG or vector tiles, in a folder, MBTiles or PMTiles.",
            discussion: """
                What a tile holds (--encoding) and where the tiles go (--container) are chosen apart. \
                PNG tiles are a transparent overlay of circles for a map client's base map; a tile keeps \
                at most --tile-limit of its events, the largest first. Vector tiles (mvt, Mapbox Vector \
                Tile 2.1, layer 'quakes') hold every event as a point with its properties, for the client \
                to style and filter; where a tile would hold more than --tile-limit features, nearby events \
                become clusters with their count, largest magnitude and latest time, and none is left out.
                The container follows the output's name: a folder (DIR/z/x/y.png or .pbf, y from the north, \
                plus DIR/tilejson.json), an .mbtiles file, or a .pmtiles archive for static hosting. \
                Tiles with nothing on them are not written. By default every event is tiled (--limit 0); \
                the output replaces the previous pyramid only once complete.

                Examples:
                  quakemap tiles all_month.csv --zoom 0-6 -o Output/tiles
                  quakemap tiles all_month.csv --encoding mvt --zoom 0-10 -o Output/quakes.pmtiles
                  quakemap tiles all_month.csv --zoom 0-8 --tile-size 512 -o Output/quakes.mbtiles
                """
        )

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var fetchArguments: FetchArguments
        @OptionGroup(title: "Filters") var filterOptions: FilterOptions
        @OptionGroup(title: "Circles") var symbolOptions: SymbolOptions
        @OptionGroup var tileLimitOption: TileLimitOption

        @Option(help: ArgumentHelp("Keep the N most recent events with a magnitude; 0 (the default) keeps all.", valueName: "N"))
        var limit = 0

        @Option(help: ArgumentHelp("Zoom levels: one (4) or a range (0-6), within 0…\(Self.maximumZoom) (0…\(ClusterIndex.maximumZoom) for vector tiles).", valueName: "range"))
        var zoom = "0-6"

        @Option(name: .shortAndLong, help: ArgumentHelp(
            "The tile folder, or the .mbtiles or .pmtiles file. It replaces a previous pyramid; a folder of other files is refused.",
            valueName: "path"))
        var output: String

        @Option(help: "What a tile holds: png (drawn circles) or mvt (vector tiles: the events and clusters with their properties).")
        var encoding: TileEncoding = .png

        @Option(help: "Where tiles go: folder, mbtiles or pmtiles (default: from the output's name).")
        var container: TileContainer?

        // Before the encoding and the container were apart: `png` a folder, `mbtiles` a file.
        @Option(help: .hidden)
        var format: LegacyTileFormat?

        @Option(help: "Tile side in pixels: 256, or 512 for high-density screens (same ground, twice the pixels).")
        var tileSize = 256


        @Flag(inversion: .prefixedNo, help: "A progress bar on standard error (default: when it is a terminal and the pyramid takes over a second).")
        var progress: Bool?

        /// Deep enough for street level; deeper pyramids of a catalogue are mostly empty.
        static let maximumZoom = 18

        func validate() throws {
            try SelectionOptions.check(limit: limit)
            if format != nil, container != nil { throw ValidationError("--format is the older spelling of --container: give one") }
            _ = try zooms()
            _ = try tileOptions()
        }

        private func zooms() throws -> ClosedRange<Int> {
            // Vector tiles go deeper: their clusters reach the index's finest cells at zoom 22.
            let limit = encoding == .mvt ? ClusterIndex.maximumZoom : Self.maximumZoom
            do { return try TileOptions.zoomRange(parsing: zoom, limit: limit) } catch let error as TileError {
                throw ValidationError("--zoom: \(error.message)")
            }
        }

        private func tileOptions() throws -> TileOptions {
            do {
                return try TileOptions(tileSize: tileSize, tileLimit: tileLimitOption.limit,
                                       style: symbolOptions.style, coloring: symbolOptions.color)
            } catch let error as TileError {
                throw ValidationError("--tile-size: \(error.message)")
            }
        }

        private var outputContainer: TileContainer {
            switch format {
            case .png: return .folder
            case .mbtiles: return .mbtiles
            case nil: return container ?? TileContainer(path: output)
            }
        }

        func run() async throws {
            let start = ContinuousClock.now
            let log = Reporting.logger(inputOptions)
            if format != nil {
                log.warning("--format is retired: say --encoding png and --container folder or mbtiles (the output's name chooses the container)")
            }
            try await reportingErrors(log) {
                let loader = try FeedLoader(input: inputOptions, fetch: fetchArguments, limit: limit, filters: filterOptions, log: log,
                                            readsDetails: encoding == .mvt || symbolOptions.color.readsDetails)
                let zooms = try zooms()
                var bar = ProgressBar(forced: progress, zooms: zooms)
                let pyramid = TilePyramid(zooms: zooms, options: try tileOptions())
                // Reported alike whatever the tiles hold.
                func finish<Event>(_ feed: LoadedFeed<Event>, _ summary: TilePyramid.Summary, count: Int) {
                    let dropped = summary.droppedByLimit > 0 ? ", up to \(summary.droppedByLimit) events over --tile-limit left out" : ""
                    Reporting.finish(feed, loader: loader, outcome: "tiled",
                                     done: encoding == .png
                                         ? "drew \(count) events as \(summary.tiles) tiles (zoom \(zooms.lowerBound)–\(zooms.upperBound), "
                                             + "\(summary.bytes / 1000) kB\(dropped)) → \(output)"
                                         : "tiled \(count) events as \(summary.tiles) vector tiles (zoom \(zooms.lowerBound)–\(zooms.upperBound), "
                                             + "\(summary.bytes / 1000) kB, the largest \(summary.largestTile / 1000) kB) → \(output)",
                                     selected: count, start: start, log: log,
                                     extra: ["output": .string(output), "tiles": .stringConvertible(summary.tiles),
                                             "bytes": .stringConvertible(summary.bytes),
                                             "droppedByLimit": .stringConvertible(summary.droppedByLimit),
                                             "largestTile": .stringConvertible(summary.largestTile)])
                }
                switch encoding {
                case .png:
                    guard case .loaded(let feed) = try await loader.load(as: MapEvent.self) else { return }
                    let sink = try sink()
                    let summary = try pyramid.render(feed.selection.events, feedGenerated: feed.generated,
                                                     progress: { bar.show($0) }, write: { try sink.write($1, for: $0) })
                    try commit(sink, description: "Earthquakes: \(feed.selection.events.count) events, circles coloured by \(symbolOptions.color.name)",
                               zooms: zooms, sources: feed.selection.summary.sources, bar: &bar)
                    finish(feed, summary, count: feed.selection.events.count)
                case .mvt:
                    let budget = tileLimitOption.limit ?? Int.max
                    guard case .loaded(let feed) = try await loader.load(reading: { source, feed, selection in
                        try QuakeMap.vectorTileEvents(from: source, feed: feed, selection: selection, budget: budget)
                    }, fromCatalogue: { catalogue, selection in
                        // Streamed page by page into the spool: a whole catalogue never sits in memory.
                        try await QuakeMap.vectorTileEvents(budget: budget) { append in try await catalogue.forEach(selection, append) }
                    }) else { return }
                    let events = feed.selection.events[0]
                    let sink = try sink()
                    let summary = try pyramid.renderVectors(events, compressed: outputContainer != .folder,
                                                            progress: { bar.show($0) }, write: { try sink.write($1, for: $0) })
                    try commit(sink, description: "Earthquakes: \(events.count) events, clustered where a tile would hold over \(budget)",
                               zooms: zooms, sources: feed.selection.summary.sources, bar: &bar)
                    finish(feed, summary, count: events.count)
                }
            }
        }

        /// Opened before drawing, so that a refused output fails at once.
        private func sink() throws -> any TileSink {
            switch outputContainer {
            case .folder: return try TileDirectoryWriter(path: output, encoding: encoding)
            case .mbtiles: return try MBTilesWriter(path: output, encoding: encoding)
            case .pmtiles: return try PMTilesWriter(path: output, encoding: encoding)
            }
        }

        private func commit(_ sink: any TileSink, description: String, zooms: ClosedRange<Int>, sources: [String],
                            bar: inout ProgressBar) throws {
            bar.finish()
            try sink.commit(TileSetMetadata(name: "quakemap", description: description, zooms: zooms, tileSize: tileSize,
                                            encoding: encoding, attribution: Credits.data(sources)))
        }
    }
}

/// A one-line bar on standard error, redrawn in place: shown when forced, or
/// when standard error is a terminal and the pyramid has taken over a second.
/// (`--progress` shows it from the start, `--no-progress` never.)
struct ProgressBar {
    private let enabled: Bool
    private let always: Bool
    private let zooms: ClosedRange<Int>
    private let start = ContinuousClock.now
    private var shown = false

    init(forced: Bool?, zooms: ClosedRange<Int>) {
        enabled = forced ?? (isatty(STDERR_FILENO) == 1)
        always = forced == true
        self.zooms = zooms
    }

    mutating func show(_ progress: TilePyramid.Progress) {
        guard enabled, forcedOrSlow else { return }
        let width = 30
        let filled = progress.total == 0 ? width : width * progress.done / progress.total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data(
            "\rzoom \(progress.zoom)/\(zooms.upperBound) [\(bar)] \(progress.done)/\(progress.total) tiles ".utf8))
        shown = true
    }

    mutating func finish() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    private var forcedOrSlow: Bool {
        always || shown || ContinuousClock.now - start > .seconds(1)
    }
}
