import ArgumentParser
import Foundation
import Logging
import QuakeCatalogue
import QuakeCommand
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

extension Quakemap {
    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Summarize the selected events: count, time span, magnitude and depth ranges, Mc and b, types.",
            discussion: """
                Unlike render and list, stats takes every matching event unless --limit is given.

                Mc is found by maximum curvature plus --mc-correction (or given with --mc), on \
                magnitudes rounded to bins of --mag-bin; b is the Aki–Utsu maximum-likelihood \
                estimate with the half-bin correction, ± the Shi & Bolt (1982) standard error. \
                Below 50 events at or above Mc there is no estimate: stats says so and exits 0.
                """
        )

        enum Format: String, ExpressibleByArgument { case text, json }

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var fetchArguments: FetchArguments
        @OptionGroup(title: "Filters") var filterOptions: FilterOptions

        @Option(help: ArgumentHelp("Keep only the N most recent matching events; 0 (the default) keeps all.", valueName: "N"))
        var limit: Int = 0

        @Option(help: "Output format: text or json.")
        var format: Format = .text

        @OptionGroup(title: "Magnitude statistics") var magnitudeStatistics: MagnitudeStatisticsOptions

        @OptionGroup(title: "Declustering") var declusterOptions: DeclusterOptions

        func validate() throws {
            try SelectionOptions.check(limit: limit)
        }

        func run() async throws {
            let start = ContinuousClock.now
            let log = Reporting.logger(inputOptions)
            try await reportingErrors(log) {
                var loader = try FeedLoader(input: inputOptions, fetch: fetchArguments, limit: limit, filters: filterOptions, log: log)
                let binning = try magnitudeStatistics.binning(), completeness = magnitudeStatistics.completeness
                let limited = limit > 0
                loader.declustering = try declusterOptions.declustering()
                let outcome: FeedLoader.Outcome<CatalogStatistics>
                if loader.declustering != nil {
                    // Declustering needs the events themselves: the loader keeps the mainshocks.
                    guard case .loaded(let whole) = try await loader.load() else { return }
                    outcome = .loaded(whole.replacingEvents(
                        [CatalogStatistics(whole.selection.events, binning: binning, completeness: completeness)]))
                } else {
                    outcome = try await loader.load(reading: { source, feed, selection in
                        // Every event counts without a limit: they are folded from a spool of small records, not kept.
                        guard limited else {
                            return try QuakeMap.statistics(from: source, feed: feed, selection: selection, binning: binning,
                                                           completeness: completeness)
                        }
                        let selected = try QuakeMap.select(from: source, feed: feed, selection: selection)
                        return SelectedEvents(events: [CatalogStatistics(selected.events, binning: binning,
                                                                         completeness: completeness)],
                                              summary: selected.summary, duplicates: selected.duplicates)
                    }, fromCatalogue: { catalogue, selection in
                        let selected = try await catalogue.select(selection)
                        return SelectedEvents(events: [CatalogStatistics(selected.events, binning: binning,
                                                                         completeness: completeness)],
                                              summary: selected.summary)
                    })
                }
                guard case .loaded(let loaded) = outcome else { return }
                let statistics = loaded.selection.events[0]
                let data: Data
                switch format {
                case .text:
                    data = Data(statistics.text.utf8)
                case .json:
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
                    data = try encoder.encode(statistics) + Data("\n".utf8)
                }
                try AtomicFileWriter.writeAll(data, to: STDOUT_FILENO, path: "<stdout>")
                Reporting.finish(loaded, loader: loader, outcome: "summarized", done: "summarized \(statistics.count)",
                                 selected: statistics.count, start: start, log: log)
            }
        }
    }
}
