import Foundation
import Hummingbird
import QuakeCatalogue
import QuakeKit

/// The FDSN event web service, version 1.2 (`/fdsnws/event/1/`): `query`, `count`, `version`,
/// `application.wadl`, `catalogs` and `contributors`, over the same events and the same filter as
/// the items. Errors are answered as the specification words them: a status and a plain-text body.
extension Endpoints {
    /// The path every FDSN resource lies under.
    static let fdsnPath = "/fdsnws/event/1"
    /// The specification's version this service implements (`version`).
    static let fdsnVersion = "1.2.0"
    /// Events encoded into one chunk of a streamed answer.
    static let fdsnChunk = 512

    func registerFDSN<Context: RequestContext>(_ route: (RouterPath, @escaping @Sendable (Request, Context) async throws -> Response) -> Void) {
        route(RouterPath(Self.fdsnPath + "/query")) { request, _ in await fdsn(request) { try await fdsnQuery(request) } }
        route(RouterPath(Self.fdsnPath + "/count")) { request, _ in await fdsn(request) { try await fdsnCount(request) } }
        route(RouterPath(Self.fdsnPath + "/version")) { _, _ in response(Array((Self.fdsnVersion + "\n").utf8), type: "text/plain") }
        route(RouterPath(Self.fdsnPath + "/application.wadl")) { request, _ in
            response(Array(FDSNDocuments.wadl(base: base(request) + Self.fdsnPath).utf8), type: "application/xml")
        }
        route(RouterPath(Self.fdsnPath + "/catalogs")) { request, _ in
            await fdsn(request) { try await fdsnNames(request, element: "Catalog") { event in
                if case .text(let catalog)? = event.details[.catalog] { catalog } else { nil }
            } }
        }
        route(RouterPath(Self.fdsnPath + "/contributors")) { request, _ in
            await fdsn(request) { try await fdsnNames(request, element: "Contributor") { $0.network } }
        }
    }

    /// Runs `answer`, turning a refusal into the specification's error answer.
    private func fdsn(_ request: Request, _ answer: () async throws -> Response) async -> Response {
        let failure: FDSNFailure
        do { return try await answer() } catch let refused as FDSNFailure {
            failure = refused
        } catch let problem as Problem {
            failure = FDSNFailure(status: Int(problem.status.code), detail: problem.detail)
        } catch {
            failure = FDSNFailure(status: 500, detail: "\(error)")
        }
        let body = FDSNDocuments.error(failure, url: base(request) + request.uri.string,
                                       documentation: base(request) + Self.fdsnPath + "/application.wadl", version: Self.fdsnVersion)
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: HTTPResponse.Status(code: failure.status), headers: headers,
                        body: .init(byteBuffer: ByteBuffer(bytes: Array(body.utf8))))
    }

    private func fdsnQuery(_ request: Request) async throws -> Response {
        let query = try FDSNEventQuery(FormQuery.parameters(of: request))
        let served = await store.served()
        if let tagged = notModified(request, served) { return tagged }
        let events = try await fdsnEvents(query, served)
        guard !events.isEmpty else { return Self.noData(query) }
        let format = query.format, base = base(request), url = base + request.uri.string
        var headers = HTTPFields()
        headers[.contentType] = format.contentType
        let body = ResponseBody { writer in
            var out: [UInt8] = []
            out.reserveCapacity(Self.fdsnChunk * 1024)
            let encoder = FDSNEncoder(format: format, base: base)
            encoder.appendOpening(to: &out)
            var written = 0
            for try await chunk in events.chunks() {
                for event in chunk {
                    encoder.append(event, index: written, to: &out)
                    written += 1
                }
                try await writer.write(ByteBuffer(bytes: out))
                out.removeAll(keepingCapacity: true)
            }
            encoder.appendClosing(count: written, url: url, to: &out)
            try await writer.write(ByteBuffer(bytes: out))
            try await writer.finish(nil)
        }
        return tagged(Response(status: .ok, headers: headers, body: body), request, served)
    }

    private func fdsnCount(_ request: Request) async throws -> Response {
        let query = try FDSNEventQuery(FormQuery.parameters(of: request))
        let served = await store.served()
        if let tagged = notModified(request, served) { return tagged }
        let matched: Int
        if let id = query.eventID {
            matched = try await served.event(id: id) == nil ? 0 : 1
        } else {
            matched = try await served.count(query.filter, budget: Int.max - 1) ?? 0
        }
        let answered = max(0, min(query.limit ?? .max, matched - query.skipped))
        // As the USGS answers it: plain text, or its JSON with the service's cap.
        if query.format == .geojson {
            let json = #"{"count":\#(answered),"maxAllowed":\#(options.fdsnMaximumEvents)}"#
            return tagged(response(Array(json.utf8), type: "application/json"), request, served)
        }
        return tagged(response(Array("\(answered)\n".utf8), type: "text/plain"), request, served)
    }

    /// The distinct names `name` gives the events served (their catalogues, their contributors),
    /// as FDSN's small XML lists.
    private func fdsnNames(_ request: Request, element: String, _ name: @escaping (SeismicEvent) -> String?) async throws -> Response {
        guard try FormQuery.parameters(of: request).isEmpty else { throw FDSNFailure.badRequest("This resource takes no parameters.") }
        let served = await store.served()
        if let tagged = notModified(request, served) { return tagged }
        var names = Set<String>()
        try await served.forEachMatch(EventFilter()) { event in
            if let found = name(event), !found.isEmpty { names.insert(found) }
        }
        return tagged(response(Array(FDSNDocuments.names(names.sorted(), element: element).utf8), type: "application/xml"),
                      request, served)
    }

    /// The events of an answer, in its order: refused past the cap with the specification's 413,
    /// never cut short.
    private func fdsnEvents(_ query: FDSNEventQuery, _ served: ServedEvents) async throws -> FDSNEvents {
        if let id = query.eventID {
            // One event at most: an offset past it, like a missing id, is no data.
            guard query.skipped == 0, let event = try await served.event(id: id) else { return .list([]) }
            return .list([event])
        }
        // Past the last event nothing is read (and no count below can overflow).
        guard query.skipped < served.count else { return .list([]) }
        let cap = options.fdsnMaximumEvents
        let limit = query.limit ?? .max
        // How many the answer holds, known before a byte is sent: counted (at most what the cap allows) unless the limit is within the cap.
        var answered: Int?
        if limit > cap {
            let (budget, overflow) = query.skipped.addingReportingOverflow(cap)
            guard let matched = try await served.count(query.filter, budget: overflow ? Int.max - 1 : budget) else {
                throw Self.tooMany(cap)
            }
            answered = max(0, min(limit, matched - query.skipped))
            if answered! > cap { throw Self.tooMany(cap) }
        }
        if answered == 0 { return .list([]) }
        let take = answered ?? limit
        switch query.order {
        case .time:
            return try await served.newestFirst(query.filter, skipping: query.skipped, limit: take, page: Self.fdsnChunk * 4)
        case .timeAscending, .magnitude, .magnitudeAscending:
            // Every match is needed to order them; the cap bounds how many are kept.
            var kept: [SeismicEvent] = []
            let keep = query.skipped + take
            let before = Self.precedes(query.order)
            try await served.forEachMatch(query.filter) { event in
                kept.append(event)
                if kept.count >= 2 * keep + 1024 {
                    kept.sort(by: before)
                    kept.removeLast(kept.count - keep)
                }
            }
            kept.sort(by: before)
            return .list(Array(kept.dropFirst(query.skipped).prefix(take)))
        }
    }

    /// The order of `orderby`: ties newest first, as the default order has them.
    private static func precedes(_ order: FDSNEventQuery.Order) -> @Sendable (SeismicEvent, SeismicEvent) -> Bool {
        switch order {
        // The id last, so that every source gives the same order (the sort is not stable).
        case .time: { ($0.time, $1.id) > ($1.time, $0.id) }
        case .timeAscending: { ($0.time, $0.id) < ($1.time, $1.id) }
        case .magnitude: { ($0.magnitude ?? -.infinity, $0.time, $1.id) > ($1.magnitude ?? -.infinity, $1.time, $0.id) }
        case .magnitudeAscending: { ($0.magnitude ?? .infinity, $1.time, $0.id) < ($1.magnitude ?? .infinity, $0.time, $1.id) }
        }
    }

    private static func tooMany(_ cap: Int) -> FDSNFailure {
        // Worded as the USGS words it ("exceeds search limit of N"), which clients read the cap from.
        FDSNFailure(status: 413, detail: "Too many events: the request exceeds the search limit of \(cap) events one answer holds. "
                    + "Ask for less (a shorter time window, a smaller region, a higher minimum magnitude) or in parts with limit and offset.")
    }

    /// No events: `204`, or `404` when asked (`nodata=404`).
    private static func noData(_ query: FDSNEventQuery) -> Response {
        guard query.noData == 404 else { return Response(status: .noContent) }
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: .notFound, headers: headers,
                        body: .init(byteBuffer: ByteBuffer(bytes: Array("Error 404: Not Found\n\nNo events match the request.\n".utf8))))
    }
}

/// The events of an FDSN answer: a list already in order, or pages of the newest first read
/// as the answer is written.
enum FDSNEvents: Sendable {
    case list([SeismicEvent])
    case pages(isEmpty: Bool, next: @Sendable () async throws -> [SeismicEvent]?)

    var isEmpty: Bool {
        switch self {
        case .list(let events): events.isEmpty
        case .pages(let isEmpty, _): isEmpty
        }
    }

    /// The events a chunk at a time.
    func chunks() -> AsyncThrowingStream<ArraySlice<SeismicEvent>, Error> {
        switch self {
        case .list(let events):
            return AsyncThrowingStream { continuation in
                for start in stride(from: 0, to: events.count, by: Endpoints.fdsnChunk) {
                    continuation.yield(events[start..<min(start + Endpoints.fdsnChunk, events.count)])
                }
                continuation.finish()
            }
        case .pages(_, let next):
            return AsyncThrowingStream(unfolding: { try await next().map { ArraySlice($0) } })
        }
    }
}
