import Foundation
import QuakeKit

/// Fetches an ``FDSNQuery`` however many requests it takes, each under the
/// rules of ``FeedFetcher`` (time limit, retries with backoff and
/// `Retry-After`, `maximumBytes` per response), and hands back one body.
///
/// The N most recent events of a query the service filters wholly take one
/// request (`orderby=time&limit=N`). Otherwise the window is paged: `count`
/// where the service has it says how many slices are needed; without it a
/// full page (`limit` = the cap) or a "too many" 400 splits the slice.
/// Slices are fetched at most ``maximumConcurrentRequests`` at once.
///
/// A page shorter than asked is checked when anything says more may exist: its
/// slice's count is larger, or no page that long has yet been shown complete. One
/// event is asked from past its end (`offset`); if the service has more, it caps its
/// pages silently at that length, which becomes the page size, and the slice is split
/// and fetched again. A service that takes no `offset` is trusted on its count, and
/// without one its short pages are taken as they come, with a warning.
public struct FDSNClient: Sendable {
    /// Limits and retry policy of each request.
    package var fetch: FetchOptions
    /// Requests in flight at once: services are shared, be polite. Default 3.
    package var maximumConcurrentRequests: Int

    /// Creates a client.
    public init(fetch: FetchOptions = FetchOptions(), maximumConcurrentRequests: Int = 3) {
        self.fetch = fetch
        self.maximumConcurrentRequests = max(1, maximumConcurrentRequests)
    }

    /// What happens while fetching, for the caller's log and progress line.
    public enum Report: Sendable {
        /// A request is sent to this URL.
        case request(String)
        /// `done` of the `known` slices are fetched (more may be found).
        case progress(done: Int, known: Int)
        /// Something the user should know about the service's answers (a silent cap found, pages
        /// that cannot be checked), worded as a warning.
        case notice(String)
    }

    /// The events of a query as one body, with how it was got.
    public struct Result: Sendable, Hashable {
        /// Every slice's events in one body of ``format`` (an empty catalogue: a CSV header).
        public var body: Data
        /// The format of the body.
        public var format: FDSNFormat
        /// The service's `query` URL.
        package var queryURL: String
        /// The first request's URL (the only one for a single request).
        package var firstURL: String
        /// Requests sent, counts and retries included.
        public var requests: Int
        /// Slices whose events make the body.
        package var slices: Int
        /// Wall time, in seconds.
        package var seconds: Double

        /// The body as a fetched feed under `key` (the whole query's cache key),
        /// so that the cache and `--stale-ok` treat it as a `--url` feed; FDSN
        /// services send no validators.
        package func fetchedFeed(key: String) -> FetchedFeed {
            FetchedFeed(body: body, url: key, status: 200, fromCache: false, entityTag: nil, lastModified: nil,
                        lastModifiedDate: nil, attempts: requests, seconds: seconds)
        }
    }

    /// Fetches `query`.
    ///
    /// - Throws: ``FetchError`` when a request fails for good, ``FDSNError``
    ///   when the service refuses the query or one instant holds more events
    ///   than a response may.
    public func events(for query: FDSNQuery, report: @escaping @Sendable (Report) -> Void = { _ in }) async throws -> Result {
        let start = ContinuousClock.now
        let chosen = query.format ?? query.service.formats.first ?? .xml
        var result: Result
        do {
            result = try await events(for: query, format: chosen, report: report)
        } catch let refusal as FormatRefused {
            // Only a format quakemap chose is replaced, by QuakeML, which every service offers.
            guard query.format == nil, chosen != .xml else { throw refusal.error }
            do {
                result = try await events(for: query, format: .xml, report: report)
            } catch let again as FormatRefused {
                throw again.error
            }
            result.requests += 1
        }
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        result.seconds = Double(seconds) + Double(attoseconds) / 1e18
        return result
    }

    /// The service refused the format: 400 or 413 with "format" in the reason.
    struct FormatRefused: Error {
        let url: String
        let status: Int
        let reason: String

        var error: FDSNError { .refused(url: url, status: status, reason: reason) }
    }

    /// The most requests one query may take: a service that keeps refusing
    /// must not be asked for ever. A year of 20,000 events at a cap of 500
    /// takes about 110.
    package static let maximumRequests = 5_000

    /// One part of the work: a time window within one longitude range.
    private struct Slice: Sendable {
        var window: FDSNWindow
        var longitudes: (west: Double, east: Double)?
        /// The count the service gave, when it did.
        var counted: Int?
    }

    private enum Outcome: Sendable {
        /// `proven`: the length of a short page shown complete by its count or by `offset`.
        case body(Slice, Data, requests: Int, url: String, proven: Int? = nil)
        /// A page of `returned` events, fewer than asked, while more exist: the service's silent cap.
        case short(Slice, returned: Int, requests: Int, url: String)
        /// A short page that could not be checked (the service takes no `offset` and has no count).
        case unchecked(Slice, Data, requests: Int, url: String, returned: Int)
        /// `cap`: a lower cap the service named ("exceeds search limit of 500").
        case split([Slice], requests: Int, url: String, cap: Int?)
        case noCount(Slice, requests: Int, url: String)
    }

    private func events(for query: FDSNQuery, format: FDSNFormat, report: @escaping @Sendable (Report) -> Void) async throws -> Result {
        let parts = query.longitudeParts
        var cap = query.cap
        var requests = 0
        var firstURL = ""
        if let limit = query.limit, limit <= query.cap, query.isWhollyPushed {
            // The N most recent: the service orders and cuts; one request per longitude range.
            var bodies: [Data] = []
            var refusedCap: Int?
            for longitudes in parts {
                let url = query.queryURL(window: query.window, longitudes: longitudes, limit: limit, format: format)
                if firstURL.isEmpty { firstURL = url }
                report(.request(url))
                requests += 1
                switch try await answer(url) {
                case .events(let body):
                    // Fewer than asked may be all there is, or a page the service cut silently.
                    if let returned = FDSNBody.eventCount(body), returned > 0, returned < limit {
                        let probe = query.queryURL(window: query.window, longitudes: longitudes, limit: 1, format: format,
                                                   offset: returned + 1)
                        report(.request(probe))
                        requests += 1
                        if try await hasMore(probe) == true {
                            report(.notice(Self.silentCapNotice(returned, asked: limit, url: url)))
                            refusedCap = returned
                            break
                        }
                    }
                    bodies.append(body)
                case .empty: break
                case .tooMany(let reason):
                    // A service whose cap is below N: page the window under the cap it names.
                    guard let named = Self.namedCap(reason), named < limit else {
                        throw FDSNError.refused(url: url, status: 400, reason: reason)
                    }
                    refusedCap = named
                }
                if refusedCap != nil { break }
            }
            guard let refusedCap else {
                return Result(body: FDSNBody.merge(bodies, format: format), format: format, queryURL: query.service.queryURL,
                              firstURL: firstURL, requests: requests, slices: parts.count, seconds: 0)
            }
            cap = refusedCap
        }

        var queue = parts.map { Slice(window: query.window, longitudes: $0) }.reversed() as [Slice]
        var useCount = query.service.hasCount != false
        var bodies: [(Slice, Data)] = []
        var known = queue.count
        // The longest short page shown complete: shorter ones need no check.
        var proven = 0
        var warnedUnchecked = false
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            var running = 0
            while true {
                while running < maximumConcurrentRequests, let slice = queue.popLast() {
                    let counting = useCount && slice.counted == nil
                    group.addTask { [cap, proven] in
                        try await self.process(slice, query: query, cap: cap, format: format, counting: counting,
                                               proven: proven, report: report)
                    }
                    running += 1
                }
                guard running > 0, let outcome = try await group.next() else { break }
                running -= 1
                if requests > Self.maximumRequests {
                    group.cancelAll()
                    throw FDSNError.tooManyRequests(url: query.service.queryURL, requests: requests)
                }
                switch outcome {
                case let .body(slice, body, sent, url, shown):
                    requests += sent
                    if firstURL.isEmpty { firstURL = url }
                    bodies.append((slice, body))
                    if let shown { proven = max(proven, shown) }
                case let .short(slice, returned, sent, url):
                    requests += sent
                    if firstURL.isEmpty { firstURL = url }
                    if returned < cap { report(.notice(Self.silentCapNotice(returned, asked: cap, url: url))) }
                    cap = min(cap, returned)
                    let slices = try split(slice, into: slice.counted.map { Self.parts($0, cap: returned) } ?? 2, cap: returned, url: url)
                    known += slices.count - 1
                    queue.insert(contentsOf: slices.reversed(), at: 0)
                case let .unchecked(slice, body, sent, url, returned):
                    requests += sent
                    if firstURL.isEmpty { firstURL = url }
                    bodies.append((slice, body))
                    if !warnedUnchecked {
                        warnedUnchecked = true
                        report(.notice("\(url): a page of \(returned) events, under the \(cap) asked, cannot be checked "
                                       + "(the service has neither count nor offset); if it caps its pages at \(returned), "
                                       + "give --fdsn-page-size \(returned)"))
                    }
                case let .split(slices, sent, url, named):
                    requests += sent
                    if let named { cap = min(cap, named) }
                    if firstURL.isEmpty { firstURL = url }
                    known += slices.count - 1
                    queue.insert(contentsOf: slices.reversed(), at: 0)
                case let .noCount(slice, sent, url):
                    requests += sent
                    if firstURL.isEmpty { firstURL = url }
                    useCount = false
                    queue.append(slice)
                }
                report(.progress(done: bodies.count, known: known))
            }
        }
        bodies.sort { $0.0.window.startMilliseconds < $1.0.window.startMilliseconds }
        return Result(body: FDSNBody.merge(bodies.map(\.1), format: format), format: format, queryURL: query.service.queryURL, firstURL: firstURL,
                      requests: requests, slices: bodies.count, seconds: 0)
    }

    /// Counts (when asked) and fetches one slice, or says how to split it.
    private func process(_ slice: Slice, query: FDSNQuery, cap: Int, format: FDSNFormat, counting: Bool, proven: Int,
                         report: @Sendable (Report) -> Void) async throws -> Outcome {
        var slice = slice
        var requests = 0
        if counting {
            let url = query.countURL(window: slice.window, longitudes: slice.longitudes)
            report(.request(url))
            requests += 1
            guard let count = try await count(url, required: query.service.hasCount == true) else {
                return .noCount(slice, requests: requests, url: url)
            }
            if count == 0 { return .body(slice, Data(), requests: requests, url: url) }
            if count > cap {
                return .split(try split(slice, into: Self.parts(count, cap: cap), cap: cap, url: url), requests: requests,
                              url: url, cap: nil)
            }
            slice.counted = count
        }
        let url = query.queryURL(window: slice.window, longitudes: slice.longitudes, limit: cap, format: format)
        report(.request(url))
        requests += 1
        switch try await answer(url) {
        case .empty:
            return .body(slice, Data(), requests: requests, url: url)
        case .tooMany(let reason):
            // USGS names its cap: later slices are cut to it, this one by its count when known.
            let named = Self.namedCap(reason).flatMap { $0 < cap ? $0 : nil }
            // Counted to fit and refused all the same, with no lower cap named: splitting
            // cannot help, the refusal is about something else.
            if named == nil, let counted = slice.counted, counted <= cap {
                throw FDSNError.refused(url: url, status: 400, reason: reason)
            }
            let parts = named.flatMap { named in slice.counted.map { Self.parts($0, cap: named) } } ?? 2
            return .split(try split(slice, into: parts, cap: named ?? cap, url: url), requests: requests, url: url, cap: named)
        case .events(let body):
            // A full page may be a cut one: the service stops at `limit` (also when
            // events were added since the count).
            guard let returned = FDSNBody.eventCount(body) else { return .body(slice, body, requests: requests, url: url) }
            if returned >= cap {
                return .split(try split(slice, into: 2, cap: cap, url: url), requests: requests, url: url, cap: nil)
            }
            // A short page: checked when its count says more, or when none this long was shown complete.
            let countSaysMore = slice.counted.map { returned < $0 } ?? false
            guard returned > 0, countSaysMore || (slice.counted == nil && returned > proven) else {
                return .body(slice, body, requests: requests, url: url, proven: slice.counted == nil ? nil : returned)
            }
            let probe = query.queryURL(window: slice.window, longitudes: slice.longitudes, limit: 1, format: format,
                                       offset: returned + 1)
            report(.request(probe))
            requests += 1
            switch try await hasMore(probe) {
            case true?: return .short(slice, returned: returned, requests: requests, url: url)
            // The count was off (an event deleted since, say): the page is whole.
            case false?: return .body(slice, body, requests: requests, url: url, proven: returned)
            case nil:
                if countSaysMore { return .short(slice, returned: returned, requests: requests, url: url) }
                return .unchecked(slice, body, requests: requests, url: url, returned: returned)
            }
        }
    }

    /// Whether the service has an event at the probe's `offset`; `nil` when it refuses `offset`.
    private func hasMore(_ probe: String) async throws -> Bool? {
        do {
            switch try await answer(probe) {
            case .events(let body): return (FDSNBody.eventCount(body) ?? 0) > 0
            case .empty: return false
            case .tooMany: return true
            }
        } catch FDSNError.refused {
            return nil
        }
    }

    /// The warning when a service turns out to cut its pages short without saying so.
    static func silentCapNotice(_ returned: Int, asked: Int, url: String) -> String {
        "\(url): the service answered \(returned) of the \(asked) events asked while it has more: "
            + "paging by \(returned) from here (--fdsn-page-size \(returned) asks so from the start)"
    }

    /// Enough slices for `count` events to fit under `cap` in each, with room
    /// for events added meanwhile; at most 64 at a time.
    static func parts(_ count: Int, cap: Int) -> Int {
        // Clamped as a Double: a hostile count near Int.max must not trap the conversion.
        Int(min(64, max(2, (Double(count) * 1.25 / Double(max(1, cap))).rounded(.up))))
    }

    /// Whether a refusal's detail says the query matches too many events
    /// ("… exceeds search limit of 20000", "too many events"), not that a
    /// parameter is wrong ("minmagnitude exceeds maxmagnitude").
    static func saysTooMany(_ lowered: String) -> Bool {
        lowered.contains("too many") || lowered.contains("too large")
            || (lowered.contains("exceed") && lowered.contains("limit"))
    }

    /// The cap a "too many" message names: "… exceeds search limit of 20000".
    static func namedCap(_ reason: String) -> Int? {
        guard let range = reason.range(of: "limit of ", options: .caseInsensitive) else { return nil }
        let digits = reason[range.upperBound...].prefix { $0.isNumber }
        return Int(digits).flatMap { $0 > 0 ? $0 : nil }
    }

    private func split(_ slice: Slice, into parts: Int, cap: Int, url: String) throws -> [Slice] {
        guard slice.window.isSplittable else {
            throw FDSNError.tooDense(url: url, at: slice.window.start, pageSize: cap)
        }
        return slice.window.split(into: parts).map { Slice(window: $0, longitudes: slice.longitudes) }
    }

    private enum Answer {
        case events(Data)
        case empty
        case tooMany(String)
    }

    /// A `query` request's answer: events, none (204, or 404 saying no data), or too many.
    private func answer(_ url: String) async throws -> Answer {
        let fetched = try await FeedFetcher(options: fetch).fetch(url, cached: nil, passing: [400, 404, 413])
        switch fetched.status {
        case 204: return .empty
        case 400, 404, 413:
            // Judged by the detail alone: the error document echoes the request, every parameter included.
            let reason = FDSNError.reason(from: fetched.body)
            let lowered = reason.lowercased()
            if fetched.status == 404 {
                guard lowered.contains("no data") || lowered.contains("nodata") || lowered.contains("no event") else {
                    throw FDSNError.refused(url: url, status: 404, reason: reason)
                }
                return .empty
            }
            if Self.saysTooMany(lowered) || fetched.status == 413 { return .tooMany(reason) }
            if lowered.contains("format") { throw FormatRefused(url: url, status: fetched.status, reason: reason) }
            throw FDSNError.refused(url: url, status: fetched.status, reason: reason)
        default:
            return fetched.body.isEmpty ? .empty : .events(fetched.body)
        }
    }

    /// The `count` answer; `nil` when the service has no such method (an HTTP
    /// 4xx or 501) and it was not `required`.
    private func count(_ url: String, required: Bool) async throws -> Int? {
        let fetched = try await FeedFetcher(options: fetch).fetch(url, cached: nil, passing: [400, 404, 405, 501])
        if fetched.status == 204 { return 0 }
        guard (200..<300).contains(fetched.status) else {
            guard required else { return nil }
            throw FDSNError.refused(url: url, status: fetched.status, reason: FDSNError.reason(from: fetched.body))
        }
        let text = String(decoding: fetched.body.prefix(256), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if let count = Int(text), count >= 0 { return count }
        guard required else { return nil }
        throw FDSNError.badCount(url: url, answer: String(text.prefix(40)))
    }
}
