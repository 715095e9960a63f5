import ArgumentParser
import Foundation
import Logging
import QuakeCommand
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

extension Quakemap {
    struct Render: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw the selected events on a map (PNG, PDF or SVG).",
            discussion: """
                Examples:
                  quakemap render Data/synthetic_all_day.csv -o Output/quakes.png
                  cat all_day.csv | quakemap render -o - > map.png
                  quakemap render all_day.csv --region 120,-60,-60,60 --color depth -o pacific.pdf
                  quakemap render --url https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_day.csv \\
                      -o /var/www/quakes.png --if-changed --stale-ok
                """
        )

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var fetchArguments: FetchArguments
        @OptionGroup var selectionOptions: SelectionOptions
        @OptionGroup(title: "Filters") var filterOptions: FilterOptions
        @OptionGroup(title: "Circles") var symbolOptions: SymbolOptions
        @OptionGroup(title: "Focal mechanisms") var mechanismOptions: MechanismOptions

        @Option(name: .shortAndLong, help: ArgumentHelp(
            "Where to write the PNG ('-' for standard output). Folders are created as needed.",
            valueName: "path"))
        var output = "Output/quakes.png"

        @Flag(help: "With --url: do nothing (exit 0) when the feed is the one last rendered to this output.")
        var ifChanged = false

        @Option(help: ArgumentHelp("Output format: png, pdf or svg (default: from the output's extension; png for '-' or no extension).",
                                   valueName: "format"))
        var format: ImageFormat?

        @OptionGroup(title: "Map") var mapArguments: MapArguments

        @OptionGroup(title: "Declustering") var declusterOptions: DeclusterOptions

        enum DeclusterShow: String, ExpressibleByArgument { case mainshocks, clusters }

        @Option(help: ArgumentHelp(
            "With --decluster: draw the mainshocks only (the default), or every event, those of each cluster in a colour of their own (background events as usual).",
            valueName: "mainshocks|clusters"))
        var declusterShow: DeclusterShow?

        func validate() throws {
            if ifChanged && ((inputOptions.url == nil && inputOptions.fdsn == nil) || output == "-") {
                throw ValidationError("--if-changed needs --url or --fdsn, and an output file")
            }
            _ = try outputFormat()
            if declusterShow != nil, declusterOptions.method == nil {
                throw ValidationError("--decluster-show needs --decluster METHOD")
            }
        }

        private func outputFormat() throws -> ImageFormat {
            try OutputFormat.resolve(output: output, format: format)
        }

        func run() async throws {
            let start = ContinuousClock.now
            let log = Reporting.logger(inputOptions)
            try await reportingErrors(log) {
                let box = try mapArguments.regionBox()
                var map = try mapArguments.options(symbols: symbolOptions)
                map.symbols.beachballs = mechanismOptions.style
                var selection = try selectionOptions.selection(filteredBy: filterOptions)
                selection.region = box
                selection.readsDetails = map.symbols.coloring.readsDetails
                var loader = FeedLoader(input: inputOptions, fetch: fetchArguments, selection: selection, log: log,
                                        now: try filterOptions.pinnedNow(), filters: filterOptions)
                let byCluster = declusterShow == .clusters
                loader.declustering = try declusterOptions.declustering(mainshocksOnly: !byCluster)
                var loaded: LoadedFeed<MapEvent>
                switch try await loader.load(ifChangedOutput: ifChanged ? output : nil, as: MapEvent.self) {
                case .unchanged(let url):
                    log.info("\(url): unchanged since the last render to \(output): nothing to do",
                             metadata: ["outcome": "unchanged", "url": .string(url), "output": .string(output)])
                    return
                case .loaded(let feed):
                    loaded = feed
                }
                // The scene builder takes the events over, so they are gone (56 MB for
                // a million) before the image is drawn.
                let events = loaded.selection.events
                loaded.selection.events = []
                if byCluster, let clusters = loaded.clusters {
                    map.symbols.clusterFills = ClusterPalette.fills(ids: events.map(\.id), clusters: clusters.map(\.clusterID))
                }
                let drawn = events.count
                let scene = SceneBuilder(drawing: map.crediting(loaded.selection.summary))
                    .scene(for: consume events, feedGenerated: loaded.generated,
                                                             feedTitle: loaded.selection.summary.title,
                                                             places: loaded.selection.places)
                let bytes = try MapRenderer().data(for: scene, format: try outputFormat())
                if output == "-" {
                    try AtomicFileWriter.writeAll(bytes, to: STDOUT_FILENO, path: "<stdout>")
                } else {
                    try AtomicFileWriter.write(bytes, to: output)
                }
                let destination = output == "-" ? "<stdout>" : output
                Reporting.finish(loaded, loader: loader, renderedOutput: output == "-" ? nil : output, outcome: "rendered",
                                 done: "drew \(drawn) → \(destination) (\(map.pixelWidth)×\(map.pixelHeight))",
                                 selected: drawn, start: start, log: log,
                                 extra: ["output": .string(destination), "width": .stringConvertible(map.pixelWidth),
                                         "height": .stringConvertible(map.pixelHeight)])
            }
        }
    }
}
