import ArgumentParser
import Foundation
import Logging
import QuakeCatalogue
import QuakeCommand
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

extension EventListFormat: ExpressibleByArgument {}

extension Quakemap {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the selected events, most recent first.",
            discussion: """
                CSV columns: those of a USGS CSV, in its order (\(EventListEncoder.csvHeader)); times in ISO 8601 UTC. \
                --columns chooses others: field names separated by commas, 'usgs' for these, 'all' for every \
                field of the schema (docs/formats.md).
                """
        )

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var fetchArguments: FetchArguments
        @OptionGroup var selectionOptions: SelectionOptions
        @OptionGroup(title: "Filters") var filterOptions: FilterOptions

        @Option(help: "Output format: csv, geojson, json, quakeml, table, text (FDSN event text), mechanisms (CSV with focal-mechanism columns), kml or kmz (Google Earth).")
        var format: ListFormat = .list(.csv)

        @Option(help: ArgumentHelp("The folders of kml and kmz: magnitude (the default), day (UTC) or none.", valueName: "grouping"))
        var kmlFolders: KMLFolders?

        @Option(help: ArgumentHelp("The fields of csv, json and mechanisms lists: 'usgs' (the default), 'all', or names such as time,mag,gap.",
                                   valueName: "fields"))
        var columns: String = "usgs"

        func validate() throws {
            try validateKML()
            do { _ = try EventColumns(parsing: columns) } catch let error as EventColumnsError {
                throw ValidationError("--columns: \(error.message)")
            }
        }

        func run() async throws {
            let start = ContinuousClock.now
            let log = Reporting.logger(inputOptions)
            try await reportingErrors(log) {
                let selection = try selectionOptions.selection(filteredBy: filterOptions)
                let columns = try EventColumns(parsing: columns)
                let loader = FeedLoader(input: inputOptions, fetch: fetchArguments, selection: selection, log: log,
                                        now: try filterOptions.pinnedNow(), filters: filterOptions)
                guard case .list(let format) = format else { return try await listKML(loader, start: start, log: log) }
                // Without a limit the events would all be kept: they are spooled as lines instead.
                if selection.limit == nil, EventListSpool.spools(format) {
                    let format = format
                    guard case .loaded(let loaded) = try await loader.load(reading: { source, feed, selection in
                        try QuakeMap.list(from: source, feed: feed, selection: selection, format: format, columns: columns)
                    }, fromCatalogue: { catalogue, selection in
                        // Streamed page by page into the spool: a whole catalogue never sits in memory.
                        let spool = try await EventListSpool(format: format, columns: columns) { append in
                            try await catalogue.forEach(selection, append)
                        }
                        return SelectedEvents(events: [spool], summary: spool.summary)
                    }) else { return }
                    let spool = loaded.selection.events[0]
                    try spool.write { try AtomicFileWriter.writeAll($0, to: STDOUT_FILENO, path: "<stdout>") }
                    Reporting.finish(loaded, loader: loader, outcome: "listed", done: "listed \(spool.count)",
                                     selected: spool.count, start: start, log: log)
                    return
                }
                guard case .loaded(let loaded) = try await loader.load() else { return }
                let data = try EventListEncoder().encode(loaded.selection.events, as: format, columns: columns)
                try AtomicFileWriter.writeAll(data, to: STDOUT_FILENO, path: "<stdout>")
                let count = loaded.selection.events.count
                Reporting.finish(loaded, loader: loader, outcome: "listed", done: "listed \(count)", selected: count,
                                 start: start, log: log)
            }
        }
    }
}
