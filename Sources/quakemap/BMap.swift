import ArgumentParser
import Foundation
import Logging
import QuakeCommand
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

extension BValueGridOptions.Layer: ExpressibleByArgument {}

extension Quakemap {
    struct BMap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bmap",
            abstract: "Map the b-value (or its error, or Mc) on a grid over the region (PNG, PDF or SVG).",
            discussion: """
                Each node of a grid takes its nearest --nearest events (or every event within \
                --radius km), finds Mc and b from their magnitudes as `stats` does, and is coloured \
                by --layer; a node with fewer than --min-events events at or above its Mc stays \
                clear. Coastlines and plate boundaries are drawn over the grid, a colour bar in \
                the legend's place. Every matching event is used unless --limit is given.

                Examples:
                  quakemap bmap socal.csv --region -121,32,-114,37 --spacing 0.1 -o socal-b.png
                  quakemap bmap socal.csv --region -121,32,-114,37 --layer mc -o socal-mc.pdf
                  quakemap bmap --catalogue quakes.sqlite --nearest 150 --grid nodes.csv -o b.png
                """
        )

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var fetchArguments: FetchArguments
        @OptionGroup(title: "Filters") var filterOptions: FilterOptions

        @Option(help: ArgumentHelp("Use only the N most recent matching events; 0 (the default) uses all.", valueName: "N"))
        var limit: Int = 0

        @Option(name: .shortAndLong, help: ArgumentHelp(
            "Where to write the map ('-' for standard output). Folders are created as needed.", valueName: "path"))
        var output = "Output/bvalue.png"

        @Option(help: ArgumentHelp("Output format: png, pdf or svg (default: from the output's extension).", valueName: "format"))
        var format: ImageFormat?

        @Option(help: ArgumentHelp("Colour the nodes by: bvalue, bvalue-sigma (its standard error) or mc.", valueName: "layer"))
        var layer: BValueGridOptions.Layer = .bValue

        @Option(help: ArgumentHelp("Degrees between nodes (default: a round step giving about 100 nodes across the region).",
                                   valueName: "degrees"))
        var spacing: Double?

        @Option(help: ArgumentHelp("Each node takes its N nearest events (the default, 200).", valueName: "N"))
        var nearest: Int?

        @Option(help: ArgumentHelp("Each node takes every event within this distance instead of the nearest N.", valueName: "km"))
        var radius: Double?

        @Option(help: ArgumentHelp("With --nearest: take no event farther than this (default: five node spacings, at most 200 km).", valueName: "km"))
        var maxRadius: Double?

        @Option(help: ArgumentHelp("The fewest events at or above a node's Mc for an estimate.", valueName: "N"))
        var minEvents = GutenbergRichterFit.minimumEvents

        @Option(help: ArgumentHelp("The colour scale's span (default: 0.5,1.5 for b; the nodes' own range otherwise).",
                                   valueName: "low,high"))
        var range: String?

        @Option(help: ArgumentHelp("Also write every node (position, events, radius, Mc, b, σ(b), a) to this CSV file.",
                                   valueName: "path"))
        var grid: String?

        @OptionGroup(title: "Magnitude statistics") var magnitudeStatistics: MagnitudeStatisticsOptions
        @OptionGroup(title: "b-values (--b-method and its settings, as stats)") var bValueOptions: BValueOptions
        @OptionGroup(title: "Declustering (--decluster METHOD: the mainshocks' b)") var declusterOptions: DeclusterOptions
        @OptionGroup(title: "Map") var mapArguments: MapArguments

        func validate() throws {
            try SelectionOptions.check(limit: limit)
            if nearest != nil && radius != nil { throw ValidationError("--nearest and --radius: give one") }
            if radius != nil && maxRadius != nil { throw ValidationError("--max-radius goes with --nearest, not --radius") }
            _ = try OutputFormat.resolve(output: output, format: format)
            do {
                try gridOptions().validate()
            } catch let error as StatisticsError {
                throw ValidationError(error.message)
            }
        }

        func gridOptions() throws -> BValueGridOptions {
            var span: ClosedRange<Double>?
            if let range {
                let parts = range.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 2, let low = parts[0], let high = parts[1], low.isFinite, high.isFinite, low < high else {
                    throw ValidationError("--range: '\(range)' is not two numbers low,high with low < high")
                }
                span = low...high
            }
            var options = BValueGridOptions(spacing: spacing, neighbourhood: radius.map { .radius($0) } ?? .nearest(nearest ?? 200),
                                            maximumRadius: maxRadius, minimumEvents: minEvents,
                                            completeness: magnitudeStatistics.completeness, binning: try magnitudeStatistics.binning(),
                                            layer: layer, range: span)
            options.estimation = try bValueOptions.settings(seed: magnitudeStatistics.seed)
            return options
        }

        func run() async throws {
            let start = ContinuousClock.now
            let log = Reporting.logger(inputOptions)
            try await reportingErrors(log) {
                var map = try mapArguments.options()
                map.labelCount = 0
                let gridOptions = try gridOptions()
                var selection = try SelectionOptions.selection(limit: limit, filteredBy: filterOptions)
                selection.region = map.region
                var loader = FeedLoader(input: inputOptions, fetch: fetchArguments, selection: selection, log: log,
                                        now: try filterOptions.pinnedNow(), filters: filterOptions)
                loader.declustering = try declusterOptions.declustering()
                guard case .loaded(let loaded) = try await loader.load(ifChangedOutput: nil, as: MapEvent.self) else { return }
                let events = loaded.selection.events
                let computed = try QuakeMap.bValueGrid(events, grid: gridOptions, region: map.region)
                let scene = SceneBuilder(drawing: map.crediting(loaded.selection.summary))
                    .scene(for: computed, events: events, feedGenerated: loaded.generated, feedTitle: loaded.selection.summary.title)
                let bytes = try MapRenderer().data(for: scene, format: try OutputFormat.resolve(output: output, format: format))
                if let grid { try AtomicFileWriter.write(Data(computed.csv.utf8), to: grid) }
                if output == "-" {
                    try AtomicFileWriter.writeAll(bytes, to: STDOUT_FILENO, path: "<stdout>")
                } else {
                    try AtomicFileWriter.write(bytes, to: output)
                }
                let destination = output == "-" ? "<stdout>" : output
                let estimated = computed.nodes.count { $0.fit != nil }
                Reporting.finish(loaded, loader: loader, renderedOutput: nil, outcome: "rendered",
                                 done: "estimated \(estimated) of \(computed.nodes.count) nodes from \(events.count) events → \(destination)",
                                 selected: events.count, start: start, log: log,
                                 extra: ["output": .string(destination), "nodes": .stringConvertible(computed.nodes.count),
                                         "estimated": .stringConvertible(estimated)])
            }
        }
    }
}
