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
    struct Decluster: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the selected events with their cluster and whether each is its cluster's mainshock.",
            discussion: """
                Every matching event is declustered (no limit unless --limit is given: declustering \
                needs the whole sequence), then listed most recent first with two more columns: \
                clusterId (numbered from 1; a background event is a cluster of its own) and mainshock \
                (1 or 0). Methods: gk, gk-uhrhammer and gk-gruenthal (Gardner–Knopoff windows, as \
                SeismoStats 1.0.1's GardnerKnopoffType1), nearest-neighbour (Zaliapin & Ben-Zion 2013). \
                See docs/declustering.md. The list is written, never stored in a catalogue.
                """
        )

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var fetchArguments: FetchArguments
        @OptionGroup(title: "Filters") var filterOptions: FilterOptions

        @Option(help: ArgumentHelp("Keep only the N most recent matching events after declustering; 0 (the default) keeps all.",
                                   valueName: "N"))
        var limit: Int = 0

        @Option(help: ArgumentHelp("The declustering method: \(DeclusterMethodName.help).", valueName: "method"))
        var method: DeclusterMethodName = .gk

        @OptionGroup(title: "Declustering") var parameters: DeclusterParameters

        @Flag(help: "List only the mainshocks: the declustered catalogue.")
        var mainshocksOnly = false

        @Option(help: "Output format: csv, geojson, json, quakeml, table, text (FDSN event text) or mechanisms.")
        var format: EventListFormat = .csv

        @Option(help: ArgumentHelp("The fields of csv, json and mechanisms lists: 'usgs', 'all', or names such as time,mag,clusterId.",
                                   valueName: "fields"))
        var columns: String = "usgs,clusterId,mainshock"

        func validate() throws {
            try SelectionOptions.check(limit: limit)
            _ = try parameters.method(method)
            do { _ = try EventColumns(parsing: columns) } catch let error as EventColumnsError {
                throw ValidationError("--columns: \(error.message)")
            }
        }

        func run() async throws {
            let start = ContinuousClock.now
            let log = Reporting.logger(inputOptions)
            try await reportingErrors(log) {
                let columns = try EventColumns(parsing: columns)
                var loader = try FeedLoader(input: inputOptions, fetch: fetchArguments, limit: limit, filters: filterOptions,
                                            log: log)
                let method = try parameters.method(method)
                loader.declustering = SelectionDeclustering(method: method, mainshocksOnly: mainshocksOnly)
                guard case .loaded(let loaded) = try await loader.load() else { return }
                let clusters = loaded.clusters ?? []
                let events = zip(loaded.selection.events, clusters).map { $0.annotated(with: $1) }
                let data = try EventListEncoder().encode(events, as: format, columns: columns)
                try AtomicFileWriter.writeAll(data, to: STDOUT_FILENO, path: "<stdout>")
                let mainshocks = clusters.filter(\.isMainshock).count
                Reporting.finish(loaded, loader: loader, outcome: "declustered",
                                 done: "declustered by \(method.name): \(mainshocks) mainshocks of \(events.count) listed",
                                 selected: events.count, start: start, log: log,
                                 extra: ["mainshocks": .stringConvertible(mainshocks)])
            }
        }
    }
}
