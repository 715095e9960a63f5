import ArgumentParser
import Foundation
import QuakeKit

/// The catalogue filters; shared by every subcommand, applied before `--limit`.
package struct FilterOptions: ParsableArguments {
    package init() {}

    @Option(help: ArgumentHelp("Only events in the box W,S,E,N (edges included; W > E crosses the antimeridian).",
                               valueName: "W,S,E,N"))
    package var bbox: String?

    @Option(help: ArgumentHelp("Only events at or after: 2024-05-01, 2024-05-01T12:00Z, or a duration back from now (90m, 24h, 7d, 2w).",
                               valueName: "time"))
    package var since: String?

    @Option(help: ArgumentHelp("Only events at or before (same forms as --since).", valueName: "time"))
    package var until: String?

    @Option(help: ArgumentHelp("What 'now' is for relative times (ISO 8601), for reproducible runs.", valueName: "time"))
    package var now: String?

    @Option(help: ArgumentHelp("Only events of at least this magnitude.", valueName: "m"))
    package var minMag: Double?

    @Option(help: ArgumentHelp("Only events of at most this magnitude.", valueName: "m"))
    package var maxMag: Double?

    @Option(help: ArgumentHelp("Only events at least this deep, in km (negative: above sea level).", valueName: "km"))
    package var minDepth: Double?

    @Option(help: ArgumentHelp("Only events at most this deep, in km.", valueName: "km"))
    package var maxDepth: Double?

    @Option(name: .customLong("type"), help: ArgumentHelp(
        "Only this event type (repeatable): earthquake, quarry blast, explosion, ice quake… (quarry and quarry_blast count as quarry blast).",
        valueName: "type"))
    package var types: [String] = []

    @Option(name: .customLong("exclude-type"), help: ArgumentHelp("Never this event type (repeatable).", valueName: "type"))
    package var excludedTypes: [String] = []

    @Option(name: .customLong("where"), help: ArgumentHelp(
        "An OGC CQL2 text filter over every field of the event schema by its name (mag, depth, time, type, magType, net, status, place, id, latitude, longitude, gap, rms, horizontalError, alert, tsunami, felt…; docs/formats.md lists them) and geometry; e.g. \"mag >= 4.5 AND gap < 180 AND place LIKE '%Alaska%'\".",
        valueName: "cql2"))
    package var cql: String?

    @Option(help: ArgumentHelp(
        "Only events within RADIUS degrees of arc of a point (LAT,LON,RADIUS), or in a ring (LAT,LON,MIN,MAX); as FDSN's latitude, longitude, minradius, maxradius.",
        valueName: "lat,lon,radius"))
    package var circle: String?

    @Option(name: .customLong("mag-type"), help: ArgumentHelp("Only events with this magnitude type, any case (repeatable): mw, mww, mb, ml…",
                                                              valueName: "type"))
    package var magnitudeTypes: [String] = []

    @Option(name: .customLong("catalog"), help: ArgumentHelp("Only events of this catalogue (the catalog field; repeatable).", valueName: "name"))
    package var catalogs: [String] = []

    @Option(name: .customLong("contributor"), help: ArgumentHelp("Only events of this contributor (the network, net; repeatable).",
                                                                 valueName: "net"))
    package var contributors: [String] = []

    @Option(help: ArgumentHelp("Only events updated at or after this time (same forms as --since).", valueName: "time"))
    package var updatedAfter: String?

    package func validate() throws {
        _ = try filter()
    }

    /// `--now`, if given.
    package func pinnedNow() throws -> Date? {
        guard let now else { return nil }
        guard let parsed = TimeBound.instant(now) else {
            throw ValidationError("--now: '\(now)' is not an ISO 8601 time (e.g. 2024-05-01T00:00:00Z)")
        }
        return parsed
    }

    /// The filter these options describe.
    package func filter() throws -> EventFilter {
        let reference = try pinnedNow() ?? Date()
        var filter = EventFilter()
        if let bbox {
            do { filter.bbox = try GeoBox(parsing: bbox) } catch let error as GeoBoxError {
                throw ValidationError("--bbox: \(error.message)")
            }
        }
        for (name, text, keyPath, end) in [("--since", since, \EventFilter.since, TimeBound.End.lower),
                                            ("--until", until, \EventFilter.until, TimeBound.End.upper),
                                            ("--updated-after", updatedAfter, \EventFilter.updatedAfter, TimeBound.End.lower)] {
            guard let text else { continue }
            do { filter[keyPath: keyPath] = try TimeBound.parse(text, now: reference, as: end) } catch let error as TimeBoundError {
                throw ValidationError("\(name): \(error.message)")
            }
        }
        if let since = filter.since, let until = filter.until, since > until {
            throw ValidationError("--since is after --until: nothing could match")
        }
        for (name, value) in [("--min-mag", minMag), ("--max-mag", maxMag), ("--min-depth", minDepth), ("--max-depth", maxDepth)] {
            if let value, !value.isFinite { throw ValidationError("\(name) must be a finite number") }
        }
        if let low = minMag, let high = maxMag, low > high { throw ValidationError("--min-mag is above --max-mag") }
        if let low = minDepth, let high = maxDepth, low > high { throw ValidationError("--min-depth is deeper than --max-depth") }
        filter.minimumMagnitude = minMag
        filter.maximumMagnitude = maxMag
        filter.minimumDepth = minDepth
        filter.maximumDepth = maxDepth
        filter.types = Set(types)
        filter.excludedTypes = Set(excludedTypes)
        filter.magnitudeTypes = Set(magnitudeTypes)
        filter.catalogs = Set(catalogs)
        filter.contributors = Set(contributors)
        if let circle {
            let numbers = circle.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard [3, 4].contains(numbers.count), numbers.allSatisfy({ $0?.isFinite == true }) else {
                throw ValidationError("--circle: '\(circle)' is not LAT,LON,RADIUS or LAT,LON,MIN,MAX (degrees)")
            }
            let values = numbers.compactMap { $0 }
            let ring = GeoCircle(latitude: values[0], longitude: values[1], minimumRadius: values.count == 4 ? values[2] : 0,
                                 maximumRadius: values[values.count - 1])
            if let problem = ring.problem { throw ValidationError("--circle: \(problem)") }
            filter.circle = ring
        }
        if let cql {
            do { filter.cql = try CQLFilter(cql) } catch let error as CQLError {
                throw ValidationError("--where: \(error.message)")
            }
        }
        return filter
    }
}
