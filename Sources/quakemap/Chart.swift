import ArgumentParser
import Foundation
import Logging
import QuakeCommand
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

extension Quakemap {
    struct Chart: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw a chart of the selected events (PNG, PDF or SVG).",
            discussion: """
                Kinds: magnitude-time, cumulative, rate (events per hour, day or week, from the span), \
                depth (histogram), fmd (frequency–magnitude), cross-section (with --profile), \
                mc-time and b-time (Mc, or b by --b-method at each window's Mc, in windows of --window \
                events moved on by --step, with ±σ bars: a bootstrap of --mc-resamples for Mc, the \
                estimator's σ for b).
                Like stats, chart takes every matching event unless --limit is given.

                Examples:
                  quakemap chart magnitude-time all_month.csv -o Output/magnitudes.png
                  quakemap chart rate --url https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_week.csv -o rate.pdf
                  quakemap chart cross-section all_month.csv --profile -120,34,-116,37 --half-width 50 -o section.svg
                """
        )

        /// The charts `chart` draws.
        enum Kind: String, ExpressibleByArgument, CaseIterable {
            case magnitudeTime = "magnitude-time", cumulative, rate, depth, fmd, crossSection = "cross-section"
            case mcTime = "mc-time", bTime = "b-time"
        }

        @Argument(help: ArgumentHelp("magnitude-time, cumulative, rate, depth, fmd, cross-section, mc-time or b-time.",
                                     valueName: "kind"))
        var kind: Kind

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var fetchArguments: FetchArguments
        @OptionGroup(title: "Filters") var filterOptions: FilterOptions
        @OptionGroup(title: "Circles") var symbolOptions: SymbolOptions

        @Option(help: ArgumentHelp("Keep only the N most recent matching events; 0 (the default) keeps all.", valueName: "N"))
        var limit: Int = 0

        @Option(name: .shortAndLong, help: ArgumentHelp(
            "Where to write the chart ('-' for standard output; default Output/<kind>.png). Folders are created as needed.",
            valueName: "path"))
        var output: String?

        @Option(help: ArgumentHelp("Output format: png, pdf or svg (default: from the output's extension; png for '-' or no extension).",
                                   valueName: "format"))
        var format: ImageFormat?

        @Option(help: "Chart width in pixels.")
        var width = 800

        @Option(help: "Chart height in pixels.")
        var height = 500

        @Option(help: "Multiply the pixel size of everything (2 for HiDPI).")
        var scale: Double = 1

        @Option(help: "The title (default: the chart's own; '' for none).")
        var title: String?

        @OptionGroup(title: "Cross-section") var profileOptions: ProfileOptions
        @OptionGroup(title: "Magnitude statistics (fmd, mc-time, b-time)") var magnitudeStatistics: MagnitudeStatisticsOptions
        @OptionGroup(title: "b-values (b-time: --b-method, --dmc, --completeness, --bootstrap)") var bValueOptions: BValueOptions

        @Option(help: ArgumentHelp("mc-time, b-time: events per window.", valueName: "N"))
        var window = 500

        @Option(help: ArgumentHelp("mc-time, b-time: events from one window's start to the next (default: a fifth of --window).",
                                   valueName: "N"))
        var step: Int?

        @Option(help: ArgumentHelp("mc-time: bootstrap resamples for σ(Mc) (0: no bars; none for --mc-method ks).", valueName: "N"))
        var mcResamples = 100
        @OptionGroup(title: "Declustering") var declusterOptions: DeclusterOptions

        var outputPath: String { output ?? "Output/\(kind.rawValue).png" }

        var chartOptions: ChartOptions {
            ChartOptions(width: width, height: height, scale: scale, title: title,
                         symbols: SymbolStyle(sizes: symbolOptions.style, coloring: symbolOptions.color))
        }

        func validate() throws {
            try SelectionOptions.check(limit: limit)
            do {
                try chartOptions.validate()
            } catch {
                let options = switch error {
                case .sideOutOfRange: "--width, --height"
                case .scaleOutOfRange: "--scale"
                case .tooLarge: "--width, --height, --scale"
                }
                throw ValidationError("\(options): \(error.message)")
            }
            if kind == .crossSection {
                guard try profileOptions.crossSection() != nil else {
                    throw ValidationError("cross-section needs --profile LON1,LAT1,LON2,LAT2")
                }
            } else if profileOptions.profile != nil {
                throw ValidationError("--profile applies to cross-section only")
            }
            _ = try OutputFormat.resolve(output: outputPath, format: format)
            guard (2...1_000_000).contains(window) else { throw ValidationError("--window must be 2…1000000") }
            if let step, !(1...window).contains(step) { throw ValidationError("--step must be 1…--window") }
            guard (0...10_000).contains(mcResamples) else { throw ValidationError("--mc-resamples must be 0…10000") }
        }

        func run() async throws {
            let start = ContinuousClock.now
            let log = Reporting.logger(inputOptions)
            try await reportingErrors(log) {
                var loader = try FeedLoader(input: inputOptions, fetch: fetchArguments, limit: limit, filters: filterOptions, log: log)
                loader.declustering = try declusterOptions.declustering()
                guard case .loaded(let loaded) = try await loader.load() else { return }
                let events = loaded.selection.events
                let builder = ChartBuilder(options: chartOptions)
                let step = self.step ?? max(1, window / 5)
                let scene: MapScene = switch kind {
                case .magnitudeTime: builder.scene(.magnitudeTime, for: events)
                case .cumulative: builder.scene(.cumulative, for: events)
                case .rate: builder.scene(.rate, for: events)
                case .depth: builder.scene(.depth, for: events)
                case .fmd: builder.scene(.frequencyMagnitude(binning: try magnitudeStatistics.binning(),
                                                             completeness: magnitudeStatistics.completeness), for: events)
                case .crossSection: builder.scene(.crossSection(try profileOptions.crossSection()!), for: events)
                case .mcTime: builder.completenessOverTime(events, window: window, step: step, binning: try magnitudeStatistics.binning(),
                                                           completeness: magnitudeStatistics.completeness,
                                                           resamples: mcResamples, seed: magnitudeStatistics.seed)
                case .bTime: builder.bValueOverTime(events, window: window, step: step, binning: try magnitudeStatistics.binning(),
                                                    completeness: magnitudeStatistics.completeness,
                                                    settings: try bValueOptions.settings(seed: magnitudeStatistics.seed))
                }
                let output = outputPath
                let bytes = try MapRenderer().data(for: scene, format: try OutputFormat.resolve(output: output, format: format))
                if output == "-" {
                    try AtomicFileWriter.writeAll(bytes, to: STDOUT_FILENO, path: "<stdout>")
                } else {
                    try AtomicFileWriter.write(bytes, to: output)
                }
                let destination = output == "-" ? "<stdout>" : output
                Reporting.finish(loaded, loader: loader, outcome: "charted",
                                 done: "charted \(events.count) (\(kind.rawValue)) → \(destination) (\(scene.width)×\(scene.height))",
                                 selected: events.count, start: start, log: log,
                                 extra: ["output": .string(destination), "chart": .string(kind.rawValue)])
            }
        }
    }
}
