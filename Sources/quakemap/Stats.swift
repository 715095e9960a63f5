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

                Mc is found by --mc-method (maxc: maximum curvature plus --mc-correction; ks: the \
                Kolmogorov–Smirnov test, Monte Carlo with --ks-simulations and --seed; b-stability: \
                b stable over --stability-range), or given with --mc, on magnitudes rounded to bins \
                of --mag-bin. Below 50 events at or above Mc there is no estimate: stats says so \
                and exits 0.

                b is estimated by --b-method, as SeismoStats 1.0.1 does: utsu (Aki–Utsu with the \
                half-bin correction, the default), classic (Tinti & Mulargia 1987), positive \
                (van der Elst 2021) and more-positive (Lippiello & Petrillo 2024) on the events in \
                time order with differences of at least --dmc, weichert (1980) and kijko-smit \
                (2012) from a --completeness table. σ(b) is Shi & Bolt's (1982) for the first \
                three, a bootstrap of 500 for more-positive, the estimator's own for the last two; \
                --bootstrap N adds a bootstrap σ. The a-value is SeismoStats's estimator paired \
                with the b method (--a-method, --m-ref, --a-scaling). --b-significance N tests \
                whether b varies in time (Mirwald et al. 2024) over windows of N events. The JSON \
                output gives every figure at full precision; see docs/statistics.md.
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
        @OptionGroup(title: "b- and a-values") var bValueOptions: BValueOptions

        @Option(help: .hidden) var ksDistancesOut: String?

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
                let settings = try bValueOptions.settings(seed: magnitudeStatistics.seed)
                let limited = limit > 0
                loader.declustering = try declusterOptions.declustering()
                let outcome: FeedLoader.Outcome<CatalogStatistics>
                if loader.declustering != nil {
                    // Declustering needs the events themselves: the loader keeps the mainshocks.
                    guard case .loaded(let whole) = try await loader.load() else { return }
                    outcome = .loaded(whole.replacingEvents(
                        [CatalogStatistics(whole.selection.events, binning: binning, completeness: completeness, settings: settings)]))
                } else {
                    outcome = try await loader.load(reading: { source, feed, selection in
                        // Every event counts without a limit: they are folded from a spool of small records, not kept.
                        guard limited else {
                            return try QuakeMap.statistics(from: source, feed: feed, selection: selection, binning: binning,
                                                           completeness: completeness, settings: settings)
                        }
                        let selected = try QuakeMap.select(from: source, feed: feed, selection: selection)
                        return SelectedEvents(events: [CatalogStatistics(selected.events, binning: binning,
                                                                         completeness: completeness, settings: settings)],
                                              summary: selected.summary, duplicates: selected.duplicates)
                    }, fromCatalogue: { catalogue, selection in
                        let selected = try await catalogue.select(selection)
                        return SelectedEvents(events: [CatalogStatistics(selected.events, binning: binning,
                                                                         completeness: completeness, settings: settings)],
                                              summary: selected.summary)
                    })
                }
                guard case .loaded(let loaded) = outcome else { return }
                let statistics = loaded.selection.events[0]
                if let warning = statistics.mixedMagnitudeTypesWarning { log.warning("\(warning)") }
                if let path = ksDistancesOut { try writeDistances(statistics, to: path) }
                let data: Data
                switch format {
                case .text:
                    // The figures are of mainshocks: the first line says by which method.
                    let declustered = loader.declustering.map { "declustered  mainshocks by \($0.method.name)\n" } ?? ""
                    data = Data((declustered + statistics.text).utf8)
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

        /// Writes the KS search's simulated distances as JSON ({"mcs": [...], "distances": [[...]]}),
        /// so a test can hand them to SeismoStats's `estimate_mc_ks(ks_ds_list=…)`.
        private func writeDistances(_ statistics: CatalogStatistics, to path: String) throws {
            struct Distances: Encodable { var mcs: [Double]; var bValues: [Double]; var distances: [[Double]] }
            guard case .success(let fit) = statistics.gutenbergRichter, let search = fit.search else {
                throw ValidationError("--ks-distances-out needs --mc-method ks and an Mc found")
            }
            let data = try JSONEncoder().encode(Distances(mcs: search.tested, bValues: search.bValues,
                                                          distances: search.simulatedDistances))
            try AtomicFileWriter.write(data, to: path)
        }
    }
}
