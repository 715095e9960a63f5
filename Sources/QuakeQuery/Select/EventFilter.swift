// Select/ — which events count: filters, the region, the N most recent, repeated ids.
// Builds the RowAdmission that Parse admits a map's rows with.

import Foundation
import QuakeModel
import QuakeParse

/// Which events count, before the most-recent-N limit: a box, a time window,
/// magnitude and depth ranges, types, and a CQL2 expression, all of which must
/// hold. Bounds are inclusive; an event without the value a bound needs (no
/// magnitude, no depth) does not pass it.
public struct EventFilter: Sendable, Hashable {
    /// Only events inside this box (W > E crosses the antimeridian).
    package var bbox: GeoBox?
    /// Only events at or after this time.
    package var since: Date?
    /// Only events at or before this time.
    package var until: Date?
    /// Only events of this magnitude or more.
    package var minimumMagnitude: Double?
    /// Only events of this magnitude or less.
    package var maximumMagnitude: Double?
    /// Only events this deep or deeper, in km (negative: above sea level).
    package var minimumDepth: Double?
    /// Only events this deep or shallower, in km.
    package var maximumDepth: Double?
    /// Only these types (see ``EventType/normalized(_:)``); empty keeps every type.
    package var types: Set<String> {
        didSet { types = Set(types.map(EventType.normalized)) }
    }
    /// Never these types.
    package var excludedTypes: Set<String> {
        didSet { excludedTypes = Set(excludedTypes.map(EventType.normalized)) }
    }
    /// A CQL2 expression that must be true.
    package var cql: CQLFilter?
    /// Only events within this ring around a point (FDSN's `latitude`, `longitude`, `minradius`, `maxradius`).
    package var circle: GeoCircle?
    /// Only events whose magnitude type is one of these (compared without case: `mw` is `Mw`).
    package var magnitudeTypes: Set<String> = [] {
        didSet { magnitudeTypes = Set(magnitudeTypes.map { $0.lowercased() }) }
    }
    /// Only events from these catalogues (the `catalog` field, compared without case).
    package var catalogs: Set<String> = [] {
        didSet { catalogs = Set(catalogs.map { $0.lowercased() }) }
    }
    /// Only events from these contributors (the network, `net`, compared without case).
    package var contributors: Set<String> = [] {
        didSet { contributors = Set(contributors.map { $0.lowercased() }) }
    }
    /// Only events updated at or after this time (an event that never says when it was updated does not pass).
    package var updatedAfter: Date?

    /// Creates a filter; by default everything passes. Type names are normalized.
    public init(bbox: GeoBox? = nil, since: Date? = nil, until: Date? = nil,
                minimumMagnitude: Double? = nil, maximumMagnitude: Double? = nil,
                minimumDepth: Double? = nil, maximumDepth: Double? = nil,
                types: Set<String> = [], excludedTypes: Set<String> = [], cql: CQLFilter? = nil) {
        self.bbox = bbox
        self.since = since
        self.until = until
        self.minimumMagnitude = minimumMagnitude
        self.maximumMagnitude = maximumMagnitude
        self.minimumDepth = minimumDepth
        self.maximumDepth = maximumDepth
        self.types = Set(types.map(EventType.normalized))
        self.excludedTypes = Set(excludedTypes.map(EventType.normalized))
        self.cql = cql
    }

    /// Whether the filter reads an event's text: its type, or text a CQL filter names.
    package var readsDescriptions: Bool {
        !types.isEmpty || !excludedTypes.isEmpty || cql?.expression.readsDescriptions == true
            || !magnitudeTypes.isEmpty || !catalogs.isEmpty || !contributors.isEmpty || updatedAfter != nil
    }

    /// Whether `event` passes every part of the filter.
    package func matches(_ event: SeismicEvent) -> Bool {
        NumericAdmission(self).admits(event) && matchesTypesAndExpression(event)
    }

    /// The parts that are not ``NumericAdmission``'s: the circle, types, sources, the update time
    /// and the CQL expression.
    package func matchesTypesAndExpression(_ event: SeismicEvent) -> Bool {
        if let circle, !circle.contains(latitude: event.latitude, longitude: event.longitude) { return false }
        if !magnitudeTypes.isEmpty && !magnitudeTypes.contains(event.magnitudeType?.lowercased() ?? "") { return false }
        if !contributors.isEmpty && !contributors.contains(event.network?.lowercased() ?? "") { return false }
        if !catalogs.isEmpty {
            guard case .text(let catalog)? = event.details[.catalog], catalogs.contains(catalog.lowercased()) else { return false }
        }
        if let updatedAfter {
            guard let updated = event.updated, updated >= updatedAfter else { return false }
        }
        if !types.isEmpty || !excludedTypes.isEmpty {
            let type = EventType.normalized(event.eventType)
            if !types.isEmpty && !types.contains(type) { return false }
            if excludedTypes.contains(type) { return false }
        }
        if let cql, !cql.matches(event) { return false }
        return true
    }

    /// Whether the filter reads nothing but an event's position, time,
    /// magnitude and depth: then ``NumericAdmission`` decides it alone.
    package var isNumeric: Bool {
        types.isEmpty && excludedTypes.isEmpty && cql == nil && circle == nil && magnitudeTypes.isEmpty
            && catalogs.isEmpty && contributors.isEmpty && updatedAfter == nil
    }
}

extension NumericAdmission {
    /// The numeric parts of `filter`, and `region`.
    package init(_ filter: EventFilter, region: GeoBox? = nil) {
        self.init(region: region, bbox: filter.bbox, since: filter.since, until: filter.until,
                  minimumMagnitude: filter.minimumMagnitude, maximumMagnitude: filter.maximumMagnitude,
                  minimumDepth: filter.minimumDepth, maximumDepth: filter.maximumDepth)
    }
}

/// Reads the times `--since` and `--until` (and the server's `datetime`)
/// take: ISO 8601 instants (`2024-05-01T12:00Z`), dates (`2024-05-01`), or
/// durations back from `now`: `90m`, `24h`, `7d`, `2w`, `30s`.
///
/// A date is the whole UTC day on every path: as a lower bound its first
/// instant, as an upper bound its last millisecond (the feeds' resolution),
/// so `--since 2020-06-05 --until 2020-06-05` is that day.
package enum TimeBound {
    /// Which end of a range a time bounds; a date stands for its day's first
    /// instant as a lower bound and its last millisecond as an upper one.
    package enum End: Sendable {
        /// A lower bound (`--since`, an interval's start).
        case lower
        /// An upper bound (`--until`, an interval's end).
        case upper
    }

    /// An ISO 8601 instant (`2024-05-01T12:00:00Z`), or `nil`; no dates, no durations.
    package static func instant(_ text: String) -> Date? {
        TimeParser.parse(ArraySlice(text.trimmingCharacters(in: .whitespaces).utf8))
    }

    /// The seconds a duration (`90m`, `24h`, `7d`) reaches back, or `nil`
    /// when `text` is not a duration.
    package static func age(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let unit = trimmed.last, let amount = Double(trimmed.dropLast()), amount.isFinite, amount >= 0,
              let seconds: Double = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800][String(unit)] else { return nil }
        return amount * seconds
    }

    /// The first and last millisecond `text` covers: a date (`YYYY-MM-DD`)
    /// its UTC day, an instant itself; `nil` for anything else (durations included).
    package static func span(_ text: String) -> ClosedRange<Date>? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let isDay = trimmed.utf8.count == 10 && trimmed.utf8.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard let start = TimeParser.parse(dateOrInstant: trimmed) else { return nil }
        guard isDay else { return start...start }
        return day(start)
    }

    /// The first and last millisecond of the UTC day that starts at `start`: what a date alone
    /// means wherever a time is bounded (the command line, `datetime`, a CQL2 `DATE`).
    package static func day(_ start: Date) -> ClosedRange<Date> {
        // Made as a feed's time is (milliseconds / 1000), so an event at 23:59:59.999 compares equal to it.
        let last = ((start.timeIntervalSince1970 * 1000).rounded() + 86_399_999) / 1000
        return start...Date(timeIntervalSince1970: last)
    }

    /// The instant `text` names as the `end` of a range (``End``).
    package static func parse(_ text: String, now: Date, as end: End = .lower) throws -> Date {
        if let age = age(text) { return now.addingTimeInterval(-age) }
        if let span = span(text) { return end == .lower ? span.lowerBound : span.upperBound }
        throw TimeBoundError(message: "'\(text)' is not a time: use 2024-05-01, 2024-05-01T12:00Z, or a duration back from now such as 90m, 24h, 7d")
    }
}

/// Why a time bound could not be read.
package struct TimeBoundError: QuakeKitError, Equatable {
    /// The message.
    package let message: String
}
