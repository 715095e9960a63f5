import Foundation
import QuakeKit

/// What to ask an FDSN event service for: the service, the selection's
/// filters (those it understands become parameters; every one is applied
/// locally again after), the selection's limit and the time window.
public struct FDSNQuery: Sendable, Hashable {
    /// How far back the window reaches when no `since` is given: 30 days.
    package static let defaultWindow: TimeInterval = 30 * 86_400

    /// The service.
    package var service: FDSNService
    /// The format asked; `nil`: the service's first (``FDSNService/formats``),
    /// with one fall back to `xml` if the service refuses it.
    package var format: FDSNFormat?
    /// The selection's filter.
    package var filter: EventFilter
    /// The selection's region (a map's box), asked as the box when no `bbox` is given.
    package var region: GeoBox?
    /// The selection's limit (the N most recent); `nil`: every event.
    package var limit: Int?
    /// The end of the window when the filter has no `until`.
    package var now: Date
    /// The most events asked per request; `nil`: the service's.
    package var pageSize: Int?
    /// Only events updated after this (FDSN `updatedafter`), where the service
    /// takes it (``FDSNService/filtersUpdatedAfter``): a mirror's `--sync`.
    package var updatedAfter: Date?
    /// When `since` was a duration (`7d`), how far back it reaches from
    /// ``now``: a server's window then moves with each fetch instead of
    /// growing from its start-up.
    package var sinceAge: TimeInterval?
    /// Ask for focal mechanisms and moment tensors too (QuakeML only), as the service
    /// says it takes that (``FDSNService/mechanisms``).
    package var includesMechanisms = false

    /// Creates a query.
    public init(service: FDSNService, format: FDSNFormat? = nil, filter: EventFilter = EventFilter(), region: GeoBox? = nil,
                limit: Int? = EventSelection.defaultLimit, now: Date = Date(), pageSize: Int? = nil) {
        self.service = service
        self.format = format
        self.filter = filter
        self.region = region
        self.limit = limit
        self.now = now
        self.pageSize = pageSize
    }

    /// The cap on one response.
    package var cap: Int { max(1, pageSize ?? service.pageSize) }

    /// The window: `since` (default: ``defaultWindow`` before ``now``) to `until`
    /// (default ``now``), widened to whole seconds (the local filter trims the
    /// edges again): tidy URLs, and the same URL within one second.
    package var window: FDSNWindow {
        let end = filter.until ?? now
        let start = sinceAge.map { now.addingTimeInterval(-$0) } ?? filter.since ?? end.addingTimeInterval(-Self.defaultWindow)
        return FDSNWindow(start: Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down)),
                          end: Date(timeIntervalSince1970: end.timeIntervalSince1970.rounded(.up)))
    }

    /// The box sent: `bbox`, else the region.
    var box: GeoBox? { filter.bbox ?? region }

    /// Whether the service filters everything the selection does, so its `limit`
    /// can stand for the selection's (the one-request default).
    package var isWhollyPushed: Bool {
        filter.cql == nil && filter.excludedTypes.isEmpty
            && (filter.types.isEmpty || service.filtersEventType)
            && filter.magnitudeTypes.count <= 1 && filter.catalogs.count <= 1 && filter.contributors.count <= 1
            && (filter.updatedAfter == nil || service.filtersUpdatedAfter)
            && !(filter.bbox != nil && region != nil)
    }

    /// The longitude ranges asked: one, or two for a box across 180° when the
    /// service takes no longitude beyond it.
    var longitudeParts: [(west: Double, east: Double)?] {
        guard let box else { return [nil] }
        if box.west <= box.east { return [(box.west, box.east)] }
        if service.acceptsWrappedLongitudes { return [(box.west, box.east + 360)] }
        return [(box.west, 180), (-180, box.east)]
    }

    /// The filter parameters, in a fixed order: times, box, depth, magnitude, type.
    func filterParameters(window: FDSNWindow, longitudes: (west: Double, east: Double)?) -> [(String, String)] {
        var items: [(String, String)] = [("starttime", Self.time(window.start)), ("endtime", Self.time(window.end))]
        if let box, let longitudes {
            items += [("minlatitude", Self.number(box.south)), ("maxlatitude", Self.number(box.north)),
                      ("minlongitude", Self.number(longitudes.west)), ("maxlongitude", Self.number(longitudes.east))]
        }
        if let value = filter.minimumDepth { items.append(("mindepth", Self.number(value))) }
        if let value = filter.maximumDepth { items.append(("maxdepth", Self.number(value))) }
        if let value = filter.minimumMagnitude { items.append(("minmagnitude", Self.number(value))) }
        if let value = filter.maximumMagnitude { items.append(("maxmagnitude", Self.number(value))) }
        if service.filtersEventType, !filter.types.isEmpty {
            items.append(("eventtype", filter.types.sorted().joined(separator: ",")))
        }
        if let circle = filter.circle {
            items += [("latitude", Self.number(circle.latitude)), ("longitude", Self.number(circle.longitude))]
            if circle.minimumRadius > 0 { items.append(("minradius", Self.number(circle.minimumRadius))) }
            items.append(("maxradius", Self.number(circle.maximumRadius)))
        }
        // One value each, as FDSN takes them; several are left to the local filter.
        for (name, values) in [("magnitudetype", filter.magnitudeTypes), ("catalog", filter.catalogs),
                               ("contributor", filter.contributors)] where values.count == 1 {
            items.append((name, values.first!))
        }
        // A mirror's mark and the filter's own bound: the later one.
        if let updatedAfter = [updatedAfter, filter.updatedAfter].compactMap({ $0 }).max(), service.filtersUpdatedAfter {
            items.append(("updatedafter", Self.time(updatedAfter)))
        }
        return items
    }

    /// The `query` URL for a window and longitude range, asking at most `limit` events, from the
    /// `offset`-th (1-based, FDSN's `offset`; not sent when 1).
    func queryURL(window: FDSNWindow, longitudes: (west: Double, east: Double)?, limit: Int, format: FDSNFormat,
                  offset: Int = 1) -> String {
        Self.url(service.queryURL, filterParameters(window: window, longitudes: longitudes)
                 + [("orderby", "time"), ("limit", String(limit))] + (offset > 1 ? [("offset", String(offset))] : [])
                 + [("format", format.rawValue)] + mechanismParameters)
    }

    /// `includefocalmechanism=true` (or the service's own name for it) when mechanisms are asked for.
    var mechanismParameters: [(String, String)] {
        guard includesMechanisms, case .parameter(let name) = service.mechanisms else { return [] }
        return [(name, "true")]
    }

    /// The `count` URL for a window and longitude range.
    func countURL(window: FDSNWindow, longitudes: (west: Double, east: Double)?) -> String {
        Self.url(service.countURL, filterParameters(window: window, longitudes: longitudes))
    }

    /// The whole query as one URL, with `since` and `until` spelled as given
    /// (`30d` stays `30d`): the cache key, the same from one run to the next.
    package func cacheKey(since: String?, until: String?, format: FDSNFormat) -> String {
        var items = filterParameters(window: window, longitudes: longitudeParts.first ?? nil).filter {
            $0.0 != "starttime" && $0.0 != "endtime" && $0.0 != "updatedafter"
        }
        // The filter's own bound stays in the key (a mirror's mark does not: it moves every run).
        if let updatedAfter = filter.updatedAfter { items.append(("updated-after", Self.time(updatedAfter))) }
        items.insert(("since", since ?? "30d"), at: 0)
        items.insert(("until", until ?? "now"), at: 1)
        if longitudeParts.count > 1, let box { items.append(("bbox", "\(box.west),\(box.south),\(box.east),\(box.north)")) }
        items += [("limit", limit.map(String.init) ?? "all"), ("format", format.rawValue)] + mechanismParameters
        return Self.url(service.queryURL, items)
    }

    static func url(_ base: String, _ items: [(String, String)]) -> String {
        var components = URLComponents(string: base) ?? URLComponents()
        components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
        return components.string ?? base
    }

    /// A time as FDSN services read it: UTC without a zone letter, with
    /// milliseconds only when there are some (`2024-05-01T12:00:00`).
    static func time(_ date: Date) -> String {
        var text = CivilTime.iso8601(date)
        if text.hasSuffix("Z") { text.removeLast() }
        if text.hasSuffix(".000") { text.removeLast(4) }
        return text
    }

    /// A number without a needless `.0`.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}

/// A closed time window, both ends included, kept in whole milliseconds so
/// that slices leave no gaps.
package struct FDSNWindow: Sendable, Hashable {
    /// The first millisecond.
    package let startMilliseconds: Int64
    /// The last millisecond.
    package let endMilliseconds: Int64

    /// A window from `start` to `end`, rounded to milliseconds.
    package init(start: Date, end: Date) {
        startMilliseconds = Int64((start.timeIntervalSince1970 * 1000).rounded(.down))
        endMilliseconds = max(startMilliseconds, Int64((end.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    init(startMilliseconds: Int64, endMilliseconds: Int64) {
        self.startMilliseconds = startMilliseconds
        self.endMilliseconds = endMilliseconds
    }

    /// The start.
    package var start: Date { Date(timeIntervalSince1970: Double(startMilliseconds) / 1000) }
    /// The end.
    package var end: Date { Date(timeIntervalSince1970: Double(endMilliseconds) / 1000) }

    /// Whether splitting may still help: a window shorter than a second is not split.
    package var isSplittable: Bool { endMilliseconds - startMilliseconds >= 1000 }

    /// `parts` slices covering the window, earliest first, each ending on the
    /// millisecond the next begins (fewer when the window is too short for
    /// that many). Services that keep microseconds hold events between two
    /// milliseconds: slices that only touched would lose them; an event on
    /// the shared millisecond comes twice and is kept once, by its id.
    package func split(into parts: Int) -> [FDSNWindow] {
        let length = endMilliseconds - startMilliseconds
        let count = Int64(max(1, min(parts, Int(min(max(length, 1), Int64(Int.max))))))
        return (0..<count).map { index in
            FDSNWindow(startMilliseconds: startMilliseconds + length * index / count,
                       endMilliseconds: startMilliseconds + length * (index + 1) / count)
        }
    }
}
