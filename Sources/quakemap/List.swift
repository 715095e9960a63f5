import ArgumentParser
import Foundation
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

extension EventListFormat: ExpressibleByArgument {}

extension Quakemap {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the selected events, most recent first.",
            discussion: "CSV columns: \(EventListEncoder.csvHeader) (time in ISO 8601 UTC)."
        )

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var selectionOptions: SelectionOptions

        @Option(help: "Output format: csv or json.")
        var format: EventListFormat = .csv

        func run() throws {
            let start = ContinuousClock.now
            try reportingErrors {
                let selected = try QuakeMap.select(
                    from: try inputOptions.source(),
                    feed: inputOptions.feedOptions,
                    selection: selectionOptions.selection)
                let data = try EventListEncoder().encode(selected.events, as: format)
                try AtomicFileWriter.writeAll(data, to: STDOUT_FILENO, path: "<stdout>")
                guard !inputOptions.quiet else { return }
                Reporting.printRejections(selected.summary)
                Reporting.printLine(Reporting.describe(selected.summary)
                    + "; listed \(selected.events.count) in \(Reporting.milliseconds(ContinuousClock.now - start)) ms")
            }
        }
    }
}
