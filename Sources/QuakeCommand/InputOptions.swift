import ArgumentParser
import Foundation
import QuakeCatalogue
import QuakeFetch
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

extension LogFormat: ExpressibleByArgument {}
extension FDSNFormat: ExpressibleByArgument {}

/// The input and how it is judged; shared by every subcommand.
package struct InputOptions: ParsableArguments {
    package init() {}

    @Argument(help: ArgumentHelp(
        "A feed file, or '-' for standard input (the default when input is piped).",
        valueName: "input"))
    package var input: String?

    @Option(help: ArgumentHelp("Fetch the feed from this http(s) URL instead.", valueName: "url"))
    package var url: String?

    @Option(help: ArgumentHelp(
        "Query this FDSN event web service instead: a short name (usgs, emsc, geofon, isc) or a base URL such as https://earthquake.usgs.gov/fdsnws/event/1/. The window is --since (default: 30 days back) to --until (default: now).",
        valueName: "service"))
    package var fdsn: String?

    @Option(help: ArgumentHelp(
        "Read the events from this catalogue instead of a feed: a SQLite file or postgresql://[user@]host[:port]/db (password from PGPASSWORD or ~/.pgpass). With ingest: the catalogue to write.",
        valueName: "catalogue"))
    package var catalogue: String?

    @Option(help: ArgumentHelp("With --fdsn: the most events asked per request (default: the service's cap, 20000 for usgs, else 10000).",
                               valueName: "n"))
    package var fdsnPageSize: Int?

    @Option(help: ArgumentHelp("With --fdsn: the format asked: text, csv, xml or geojson (default: the service's preferred; see docs/fdsn.md).",
                               valueName: "format"))
    package var fdsnFormat: FDSNFormat?

    /// Set by `ingest --sync`: the FDSN format asked (when none is given) is one that carries
    /// update times, so that the next run asks only for what changed.
    package var fdsnSync = false

    @Option(help: ArgumentHelp(
        "How to read the input: 'auto' (the default: told by its content: USGS CSV, GeoJSON, QuakeML, FDSN text, GCMT NDK), or GMT meca text, which has nothing to be told by: 'meca-a' (lon lat depth strike dip rake mag), 'meca-c' (lon lat depth strike1 dip1 rake1 strike2 dip2 rake2 mantissa exponent) or 'meca-m' (lon lat depth mrr mtt mff mrt mrf mtf exponent), as GMT's -Sa, -Sc and -Sm.",
        valueName: "format"))
    package var inputFormat = "auto"

    @Option(help: ArgumentHelp(
        "With --input-format meca-*: the origin time of rows whose title gives none (GMT meca text has no time column), e.g. 2011-03-11T05:46:24Z.",
        valueName: "time"))
    package var mecaTime: String?

    @Flag(help: "With --fdsn: ask for focal mechanisms and moment tensors too (QuakeML; GEOFON and other SeisComP services; see docs/fdsn.md).")
    package var fdsnMechanisms = false

    @Flag(help: "Stop at the first bad row (exit 65) instead of skipping it.")
    package var strict = false

    @Flag(name: [.short, .long], help: "Print no summary line and no warnings; errors still print.")
    package var quiet = false

    @Option(help: "How lines on standard error look: text, or json (one object per line).")
    package var logFormat: LogFormat = .text

    @Flag(help: "Also log debug lines (each request URL of --fdsn).")
    package var verbose = false

    package func validate() throws {
        if url != nil && input != nil {
            throw ValidationError("give either an input file or --url, not both")
        }
        if fdsn != nil && (url != nil || input != nil) {
            throw ValidationError("--fdsn queries a service: give no input file and no --url with it")
        }
        if let catalogue {
            do { _ = try CatalogueLocation(catalogue) } catch { throw ValidationError("--catalogue: \(error)") }
        }
        if inputFormat != "auto" {
            guard mecaConvention != nil else {
                throw ValidationError("--input-format must be auto, meca-a, meca-c or meca-m, not '\(inputFormat)'")
            }
            if fdsn != nil || catalogue != nil {
                throw ValidationError("--input-format reads a file, standard input or --url: not --fdsn or --catalogue")
            }
        }
        if let mecaTime {
            guard mecaConvention != nil else { throw ValidationError("--meca-time needs --input-format meca-a, meca-c or meca-m") }
            guard TimeParser.parse(dateOrInstant: mecaTime) != nil else {
                throw ValidationError("--meca-time: '\(mecaTime)' is not an ISO 8601 time (2011-03-11T05:46:24Z) or date")
            }
        }
        if fdsn == nil && (fdsnPageSize != nil || fdsnFormat != nil) {
            throw ValidationError("--fdsn-page-size and --fdsn-format need --fdsn")
        }
        if fdsnMechanisms {
            guard let fdsn else { throw ValidationError("--fdsn-mechanisms needs --fdsn") }
            if let fdsnFormat, fdsnFormat != .xml {
                throw ValidationError("--fdsn-mechanisms asks for QuakeML, the one FDSN format that carries them: not --fdsn-format \(fdsnFormat.rawValue)")
            }
            if case .unavailable(let reason) = (try? FDSNService.named(fdsn))?.mechanisms {
                throw ValidationError("--fdsn-mechanisms: \(reason)")
            }
        }
        if let size = fdsnPageSize, size < 1 || size > 1_000_000 {
            throw ValidationError("--fdsn-page-size must be 1…1000000")
        }
        if let fdsn {
            do { _ = try FDSNService.named(fdsn) } catch { throw ValidationError(error.message) }
        }
    }

    /// The FDSN query for `--fdsn` with the key its answer is cached under
    /// (`--since`/`--until` as typed), or `nil` without it.
    package func fdsnFeed(selection: EventSelection, filters: FilterOptions?) throws -> (query: FDSNQuery, cacheKey: String)? {
        guard let fdsn else { return nil }
        let service = try FDSNService.named(fdsn)
        // A sync needs update times: the service's first format that carries them, unless one was asked for.
        let syncFormat = fdsnSync && fdsnFormat == nil ? service.formats.first(where: \.carriesUpdateTimes) ?? .xml : nil
        var query = FDSNQuery(service: service, format: fdsnMechanisms ? .xml : fdsnFormat ?? syncFormat,
                              filter: selection.filter, region: selection.region, limit: selection.limit,
                              now: try filters?.pinnedNow() ?? Date(), pageSize: fdsnPageSize)
        query.sinceAge = filters?.since.flatMap(TimeBound.age)
        query.includesMechanisms = fdsnMechanisms
        let format = query.format ?? query.service.formats.first ?? .xml
        return (query, query.cacheKey(since: filters?.since, until: filters?.until, format: format))
    }


    /// `--catalogue` as the input: refused with a feed beside it.
    package func checkCatalogueIsTheOnlyInput() throws {
        if catalogue != nil && (input != nil || url != nil || fdsn != nil) {
            throw ValidationError("--catalogue is the input: give no input file, --url or --fdsn with it (to add a feed to a catalogue: quakemap ingest)")
        }
    }

    /// The local source; `nil` when the feed comes from `--url` or `--fdsn`.
    package func localSource() throws -> FeedSource? {
        if url != nil || fdsn != nil { return nil }
        switch input {
        case "-":
            return .standardInput
        case let path?:
            return .file(path)
        case nil:
            guard isatty(STDIN_FILENO) == 0 else {
                throw ValidationError("no input: give a feed file, --url or --fdsn, or pipe one in (e.g. 'cat all_day.csv | quakemap render -o map.png')")
            }
            return .standardInput
        }
    }

    package var feedOptions: FeedOptions {
        FeedOptions(strict: strict, mecaConvention: mecaConvention, mecaTime: mecaTime.flatMap(TimeParser.parse(dateOrInstant:)))
    }

    /// The GMT meca convention `--input-format` names, if it names one.
    private var mecaConvention: MecaConvention? {
        inputFormat.hasPrefix("meca-") ? MecaConvention(rawValue: String(inputFormat.dropFirst(5))) : nil
    }
}

/// How `--url` is fetched; shared by every subcommand.
package struct FetchArguments: ParsableArguments {
    package init() {}

    @Option(help: ArgumentHelp("Seconds for the whole fetch, retries included (with --fdsn: for each request).", valueName: "seconds"))
    package var timeout: Double = 30

    @Option(help: ArgumentHelp("Retries after a network error, timeout, cut-short body, HTTP 429 or 5xx.", valueName: "n"))
    package var retries: Int = 3

    @Option(help: ArgumentHelp("Refuse a body larger than this many bytes.", valueName: "bytes"))
    package var maxBytes: Int = 64_000_000

    @Option(help: ArgumentHelp("Keep the last good feed and its validators here (default: $XDG_CACHE_HOME/quakemap or ~/.cache/quakemap).",
                               valueName: "dir"))
    package var cacheDir: String?

    @Flag(help: "Neither read nor write the cache: no conditional requests.")
    package var noCache = false

    @Flag(help: "When the fetch (or the fetched feed) fails and a cached feed exists, use it, warn, and exit 0.")
    package var staleOk = false

    package func validate() throws {
        guard timeout.isFinite, timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
        guard retries >= 0, retries <= 20 else { throw ValidationError("--retries must be 0…20") }
        guard maxBytes > 0 else { throw ValidationError("--max-bytes must be positive") }
    }

    package var options: FetchOptions { FetchOptions(timeout: timeout, retries: retries, maximumBytes: maxBytes) }
    package var cache: FeedCache? { noCache ? nil : FeedCache(directory: cacheDir ?? FeedCache.defaultDirectory) }
}

/// Which events are kept; shared by every subcommand.
package struct SelectionOptions: ParsableArguments {
    package init() {}

    @Option(help: ArgumentHelp("Keep the N most recent events with a magnitude; 0 keeps all.", valueName: "N"))
    package var limit: Int = EventSelection.defaultLimit

    package func validate() throws {
        try Self.check(limit: limit)
    }

    /// The selection with the filters applied before the limit.
    package func selection(filteredBy filters: FilterOptions) throws -> EventSelection {
        try Self.selection(limit: limit, filteredBy: filters)
    }

    /// `--limit` as every command reads it, whatever its default: 0 (all) or more.
    package static func check(limit: Int) throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 (all) or more, not \(limit)") }
    }

    /// The `limit` most recent events (0: all) among those `filters` pass.
    package static func selection(limit: Int, filteredBy filters: FilterOptions) throws -> EventSelection {
        EventSelection(limit: limit == 0 ? nil : limit, filter: try filters.filter())
    }
}
