import ArgumentParser
import Foundation
import Logging
import QuakeCommand
import QuakeKit
import QuakeMBTiles

#if canImport(Glibc)
import Glibc
#endif

/// `--format` of `tiles`.
enum TileFormat: String, CaseIterable, ExpressibleByArgument {
    /// A folder of `z/x/y.png` with a `tilejson.json`.
    case png
    /// One MBTiles 1.3 (SQLite) file.
    case mbtiles
}

extension Quakemap {
    struct Tiles: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw the selected events as Web Mercator XYZ tiles (a PNG folder or an MBTiles file).",
            discussion: """
                Tiles are a transparent overlay (circles only) for a map client's base map, \
                in the XYZ scheme: DIR/z/x/y.png, y counted from the north, plus DIR/tilejson.json. \
                Tiles without a circle are not written (clients show nothing where a tile is missing), \
                so no events give a pyramid of no tiles, only its metadata. \
                Every event belongs to the tile its centre lies in; a tile keeps at most --tile-limit \
                of its events, the largest magnitudes first (then the most recent), like a paging \
                layer's feature limit. A kept circle is drawn whole on every tile it touches.
                By default every event is drawn (--limit 0); the output replaces the previous \
                pyramid only once complete.

                Examples:
                  quakemap tiles all_month.csv --zoom 0-6 -o Output/tiles
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

        @Option(help: ArgumentHelp("Zoom levels: one (4) or a range (0-6), within 0…\(Self.maximumZoom).", valueName: "range"))
        var zoom = "0-6"

        @Option(name: .shortAndLong, help: ArgumentHelp(
            "The tile folder, or the .mbtiles file. It replaces a previous pyramid; a folder of other files is refused.",
            valueName: "path"))
        var output: String

        @Option(help: "png (a z/x/y.png folder) or mbtiles (default: mbtiles when the output ends in .mbtiles).")
        var format: TileFormat?

        @Option(help: "Tile side in pixels: 256, or 512 for high-density screens (same ground, twice the pixels).")
        var tileSize = 256


        @Flag(inversion: .prefixedNo, help: "A progress bar on standard error (default: when it is a terminal and the pyramid takes over a second).")
        var progress: Bool?

        /// Deep enough for street level; deeper pyramids of a catalogue are mostly empty.
        static let maximumZoom = 18

        func validate() throws {
            try SelectionOptions.check(limit: limit)
            _ = try zooms()
            _ = try tileOptions()
        }

        private func zooms() throws -> ClosedRange<Int> {
            do { return try TileOptions.zoomRange(parsing: zoom, limit: Self.maximumZoom) } catch let error as TileError {
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

        private var outputFormat: TileFormat {
            format ?? (output.lowercased().hasSuffix(".mbtiles") ? .mbtiles : .png)
        }

        func run() async throws {
            let start = ContinuousClock.now
            let log = Reporting.logger(inputOptions)
            try await reportingErrors(log) {
                let loader = try FeedLoader(input: inputOptions, fetch: fetchArguments, limit: limit, filters: filterOptions, log: log,
                                            readsDetails: symbolOptions.color.readsDetails)
                guard case .loaded(let loaded) = try await loader.load(as: MapEvent.self) else { return }
                let zooms = try zooms()
                // Opened before drawing, so a refused output fails at once.
                let sink: any TileSink = outputFormat == .mbtiles
                    ? try MBTilesWriter(path: output) : try TileDirectoryWriter(path: output)
                var bar = ProgressBar(forced: progress, zooms: zooms)
                let pyramid = TilePyramid(zooms: zooms, options: try tileOptions())
                let summary = try pyramid.render(loaded.selection.events, feedGenerated: loaded.generated,
                                                 progress: { bar.show($0) }, write: { try sink.write($1, for: $0) })
                bar.finish()
                try sink.commit(TileSetMetadata(
                    name: "quakemap", description: "Earthquakes: \(loaded.selection.events.count) events, circles coloured by \(symbolOptions.color.name)",
                    zooms: zooms, tileSize: tileSize))
                let count = loaded.selection.events.count
                let dropped = summary.droppedByLimit > 0 ? ", up to \(summary.droppedByLimit) events over --tile-limit left out" : ""
                Reporting.finish(loaded, loader: loader, outcome: "tiled",
                                 done: "drew \(count) events as \(summary.tiles) tiles (zoom \(zooms.lowerBound)–\(zooms.upperBound), "
                                     + "\(summary.bytes / 1000) kB\(dropped)) → \(output)",
                                 selected: count, start: start, log: log,
                                 extra: ["output": .string(output), "tiles": .stringConvertible(summary.tiles),
                                         "bytes": .stringConvertible(summary.bytes),
                                         "droppedByLimit": .stringConvertible(summary.droppedByLimit)])
            }
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
