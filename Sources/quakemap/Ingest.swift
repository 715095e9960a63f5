import ArgumentParser
import Foundation
import Logging
import QuakeCatalogue
import QuakeCommand
import QuakeKit

extension Quakemap {
    struct Ingest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a feed's events to a catalogue (SQLite or PostgreSQL + PostGIS).",
            discussion: """
                One row an event id: a newer version (by `updated`) replaces the stored one, an equal \
                or older one changes nothing. One transaction a run: a failed or killed ingest leaves \
                the catalogue as it was. The catalogue is then an input of every command (--catalogue).

                Examples:
                  quakemap ingest all_month.csv --catalogue quakes.sqlite
                  quakemap ingest --url https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_day.csv \\
                      --catalogue quakes.sqlite --keep 365d
                  quakemap ingest --fdsn usgs --since 2000-01-01 --bbox -125,32,-114,42 --sync \\
                      --catalogue postgresql://quakemap_writer@db.example.org/quakes
                  quakemap render --catalogue quakes.sqlite --since 365d -o year.png
                """
        )

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var fetchArguments: FetchArguments
        @OptionGroup(title: "Filters") var filterOptions: FilterOptions

        @Option(help: ArgumentHelp("Remove events older than this (365d, 52w, 24h…) in the same transaction.", valueName: "age"))
        var keep: String?

        @Flag(help: "With --fdsn: ask only for events updated since the newest this catalogue holds for the same query (FDSN updatedafter); the first run fetches the whole window.")
        var sync = false

        func validate() throws {
            guard inputOptions.catalogue != nil else {
                throw ValidationError("give the catalogue to write: --catalogue FILE or --catalogue postgresql://…")
            }
            if let keep, TimeBound.age(keep) == nil {
                throw ValidationError("--keep: '\(keep)' is not an age such as 365d, 52w or 24h")
            }
            if sync && inputOptions.fdsn == nil {
                throw ValidationError("--sync needs --fdsn (it asks the service for what changed)")
            }
        }

        func run() async throws {
            let start = ContinuousClock.now
            let log = Reporting.logger(inputOptions)
            try await reportingErrors(log) {
                let location = try CatalogueLocation(inputOptions.catalogue ?? "")
                var input = inputOptions
                input.catalogue = nil
                input.fdsnSync = sync
                var fetch = fetchArguments
                // An answer since the last sync is a different answer each time: no conditional request.
                if sync { fetch.noCache = true }
                let selection = EventSelection(limit: nil, filter: try filterOptions.filter())
                let now = try filterOptions.pinnedNow() ?? Date()
                var loader = FeedLoader(input: input, fetch: fetch, selection: selection, log: log,
                                        now: try filterOptions.pinnedNow(), filters: filterOptions)
                var plan = IngestPlan()
                if let keep { plan.keepSince = now.addingTimeInterval(-(TimeBound.age(keep) ?? 0)) }
                if let fdsn = try input.fdsnFeed(selection: selection, filters: filterOptions) {
                    plan.creditedFirst = [FeedLoader.credit(fdsn.query)]
                    if sync {
                        plan.syncQuery = fdsn.cacheKey
                        loader.updatedAfter = try await Self.syncMark(fdsn.cacheKey, in: location)
                        plan.syncFloor = loader.updatedAfter
                        if let after = loader.updatedAfter { log.debug("--sync: events updated after \(CivilTime.iso8601(after))") }
                    }
                }
                // The catalogue is opened once there is a feed that opens (a fetch or a file that fails
                // leaves no new catalogue behind), and streamed into as the feed is read: one that fails
                // part way changes nothing (a new catalogue stays empty).
                guard case .loaded(let loaded) = try await loader.load(reading: { [plan] source, feed, selection in
                    try source.checkOpens()
                    let report = try await Catalogue.using(location, writing: true) {
                        try await $0.ingest(source, feed: feed, selection: selection, plan: plan)
                    }
                    return SelectedEvents(events: [IngestInput(report)], summary: report.summary, duplicates: report.duplicates)
                }, fromCatalogue: { _, _ in throw ValidationError("ingest reads a feed, not a catalogue") }) else { return }
                let report = loaded.selection.events[0].report
                let counts = report.counts
                if plan.syncQuery != nil, report.newestUpdated == nil, report.events > 0 {
                    log.warning("--sync: the service's answer carries no update times (--fdsn-format text?); the next run asks for the whole window again")
                }
                var done = "\(counts.new) new, \(counts.updated) updated, \(counts.unchanged) unchanged"
                if report.outsideFilters > 0 { done += ", \(report.outsideFilters) outside the filters" }
                if plan.keepSince != nil { done += ", \(counts.pruned) pruned" }
                Reporting.finish(loaded, loader: loader, outcome: "ingested", done: "\(done) → \(location)",
                                 selected: counts.new + counts.updated, start: start, log: log,
                                 extra: ["catalogue": .string(location.description), "new": .stringConvertible(counts.new),
                                         "updated": .stringConvertible(counts.updated),
                                         "unchanged": .stringConvertible(counts.unchanged),
                                         "pruned": .stringConvertible(counts.pruned)])
            }
        }

        /// The newest `updated` a `--sync` of `query` stored; none when the catalogue is not there yet.
        private static func syncMark(_ query: String, in location: CatalogueLocation) async throws -> Date? {
            do {
                return try await Catalogue.using(location, writing: false) { try await $0.syncMark(query) }
            } catch CatalogueError.notFound, CatalogueError.notACatalogue {
                return nil
            }
        }
    }
}

/// What an ingest read and changed, handed through the loader.
final class IngestInput: Sendable, Hashable {
    let report: IngestReport

    init(_ report: IngestReport) { self.report = report }

    static func == (lhs: IngestInput, rhs: IngestInput) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
