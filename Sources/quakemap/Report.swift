import ArgumentParser
import Foundation
import Logging
import QuakeCommand
import QuakeKit

extension Quakemap {
    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a seismicity report: a PDF of maps, the largest events and the charts.",
            discussion: """
                Page 1: title, period, counts by type, a world map, the largest events and the \
                events per hour, day or week. Page 2: the region the events occupy (or --region) \
                by depth, magnitude against time, and the frequency–magnitude distribution with \
                Mc and b. Page 3, with --profile: the cross-section, its map and the depths in \
                its band. Every matching event is used unless --limit is given.

                EXAMPLES
                  quakemap report all_month.csv -o report.pdf
                  quakemap report --fdsn usgs --since 30d --min-mag 2.5 --paper letter -o month.pdf
                  quakemap report all_month.csv --profile 140,36,146,40 --half-width 75 -o japan.pdf
                """
        )

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var fetchArguments: FetchArguments
        @OptionGroup(title: "Filters") var filterOptions: FilterOptions

        @Option(name: .shortAndLong, help: ArgumentHelp("The PDF to write (replaced atomically).", valueName: "file"))
        var output: String

        @Option(help: ArgumentHelp("Keep only the N most recent matching events; 0 (the default) keeps all.", valueName: "N"))
        var limit: Int = 0

        @Option(help: "Paper size: a4 or letter.")
        var paper: PaperSize = .a4

        @Option(help: "The heading of the first page (default: 'Seismicity report').")
        var title: String?

        @Option(help: ArgumentHelp("Page 2's map: a box W,S,E,N in degrees (default: the box the events occupy).", valueName: "W,S,E,N"))
        var region: String?

        @Option(help: ArgumentHelp("Rows in the table of the largest events (\(ReportOptions.largestEventsRange.lowerBound)…\(ReportOptions.largestEventsRange.upperBound)).", valueName: "N"))
        var largest: Int = 10

        @Flag(help: "Leave out the page of b-value and Mc maps (drawn for a region up to 30° across with enough events).")
        var noBvalueMap = false

        @OptionGroup(title: "Cross-section") var profileOptions: ProfileOptions
        @OptionGroup(title: "Magnitude statistics") var magnitudeStatistics: MagnitudeStatisticsOptions
        @OptionGroup(title: "Declustering") var declusterOptions: DeclusterOptions

        func validate() throws {
            try SelectionOptions.check(limit: limit)
            _ = try regionBox()
            do {
                try ReportOptions(largestEvents: largest).validate()
            } catch {
                switch error {
                case .largestEvents: throw ValidationError("--largest: \(error.message)")
                }
            }
        }

        private func regionBox() throws -> GeoBox? {
            guard let region else { return nil }
            do {
                return try GeoBox(parsing: region)
            } catch let error as GeoBoxError {
                throw ValidationError("--region: \(error.message)")
            }
        }

        /// What the report names as its source: the file's name, the URL or the FDSN service.
        private var source: String? {
            if let fdsn = inputOptions.fdsn { return "FDSN event service: \(fdsn)" }
            if let url = inputOptions.url { return url }
            guard let input = inputOptions.input, input != "-" else { return nil }
            return URL(fileURLWithPath: input).lastPathComponent
        }

        func run() async throws {
            let start = ContinuousClock.now
            let log = Reporting.logger(inputOptions)
            try await reportingErrors(log) {
                let declustering = try declusterOptions.declustering()
                // A declustered report says so where it names its source: its counts are of mainshocks.
                let named = [source, declustering.map { "mainshocks declustered by " + $0.method.name }].compactMap { $0 }
                let options = ReportOptions(
                    paper: paper, title: title, source: named.isEmpty ? nil : named.joined(separator: " · "), region: try regionBox(),
                    profile: try profileOptions.crossSection(), binning: try magnitudeStatistics.binning(),
                    completeness: magnitudeStatistics.completeness, largestEvents: largest,
                    bValueGrid: noBvalueMap ? nil : BValueGridOptions()
                )
                var loader = try FeedLoader(input: inputOptions, fetch: fetchArguments, limit: limit, filters: filterOptions, log: log)
                loader.declustering = declustering
                guard case .loaded(let loaded) = try await loader.load() else { return }
                let pages = SeismicityReport.pages(for: loaded.selection, options: options)
                let pdf = try MapRenderer().pdfData(for: pages, title: options.title ?? ReportLayout.defaultTitle)
                try AtomicFileWriter.write(pdf, to: output)
                let count = loaded.selection.events.count
                Reporting.finish(loaded, loader: loader, outcome: "reported",
                                 done: "reported \(count) → \(output) (\(pages.count) pages, \(paper.rawValue))",
                                 selected: count, start: start, log: log,
                                 extra: ["output": .string(output), "pages": .stringConvertible(pages.count)])
            }
        }
    }
}

extension PaperSize: ExpressibleByArgument {}
