import FeedTestServer
import Foundation
import QuakeKit
import Testing
@testable import QuakeFetch

/// The FDSN event client: the parameters each filter becomes, slicing the
/// window, merging bodies, and paging against a loopback service whose cap is
/// far below the catalogue.
@Suite("FDSN event client", .timeLimit(.minutes(10)))
struct FDSNClientTests {
    static let end = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40Z
    static let start = end.addingTimeInterval(-10 * 86_400)

    static func service(_ url: String) throws -> FDSNService { try FDSNService.named(url) }

    /// The ids of the events in `body`, as the pipeline reads them (every one, duplicates merged).
    static func ids(_ body: Data) throws -> [String] {
        try QuakeMap.select(from: .bytes(body, name: "fdsn"), selection: EventSelection(limit: nil)).events.map(\.id)
    }

    // MARK: - Services and parameters

    @Test func shortNamesAndBaseURLs() throws {
        #expect(try FDSNService.named("usgs").queryURL == "https://earthquake.usgs.gov/fdsnws/event/1/query")
        #expect(try FDSNService.named("EMSC").queryURL == "https://www.seismicportal.eu/fdsnws/event/1/query")
        let bare = try FDSNService.named("http://127.0.0.1:8080/fdsnws/event/1")
        #expect(bare.queryURL == "http://127.0.0.1:8080/fdsnws/event/1/query")
        #expect(bare.hasCount == nil && bare.formats == [.text, .xml])
        #expect(try FDSNService.named("http://h/fdsnws/event/1/query").countURL == "http://h/fdsnws/event/1/count")
        #expect(throws: FDSNError.self) { try FDSNService.named("nowhere") }
        #expect(throws: FDSNError.self) { try FDSNService.named("ftp://h/fdsnws/event/1/") }
    }

    @Test func eachFilterBecomesItsParameter() throws {
        var filter = EventFilter(bbox: try GeoBox(west: -10, south: 35, east: 30, north: 60),
                                 since: Self.start, until: Self.end,
                                 minimumMagnitude: 4.5, maximumMagnitude: 7, minimumDepth: 0, maximumDepth: 70.5)
        filter.types = ["earthquake", "quarry"]
        let usgs = FDSNQuery(service: try FDSNService.named("usgs"), filter: filter)
        let url = usgs.queryURL(window: usgs.window, longitudes: usgs.longitudeParts[0], limit: 300, format: .csv)
        let items = URLComponents(string: url)!.queryItems!.map { "\($0.name)=\($0.value!)" }
        #expect(items == ["starttime=2026-11-08T11:06:40", "endtime=2026-11-18T11:06:40",
                          "minlatitude=35", "maxlatitude=60", "minlongitude=-10", "maxlongitude=30",
                          "mindepth=0", "maxdepth=70.5", "minmagnitude=4.5", "maxmagnitude=7",
                          "eventtype=earthquake,quarry blast", "orderby=time", "limit=300", "format=csv"])
        // A service that does not filter types: no eventtype, and the type is local only.
        let other = FDSNQuery(service: try Self.service("http://h/fdsnws/event/1/"), filter: filter)
        #expect(!other.queryURL(window: other.window, longitudes: other.longitudeParts[0], limit: 1, format: .text)
            .contains("eventtype"))
        #expect(usgs.isWhollyPushed && !other.isWhollyPushed)
        var local = EventFilter()
        local.cql = try CQLFilter("place LIKE '%x%'")
        #expect(!FDSNQuery(service: try FDSNService.named("usgs"), filter: local).isWhollyPushed)
    }

    @Test func aBoxAcross180IsWrappedOrTwoRequests() throws {
        let filter = EventFilter(bbox: try GeoBox(west: 170, south: -50, east: -170, north: -10))
        let usgs = FDSNQuery(service: try FDSNService.named("usgs"), filter: filter)
        #expect(usgs.longitudeParts.map { "\($0!.west),\($0!.east)" } == ["170.0,190.0"])
        let other = FDSNQuery(service: try Self.service("http://h/e/"), filter: filter)
        #expect(other.longitudeParts.map { "\($0!.west),\($0!.east)" } == ["170.0,180.0", "-180.0,-170.0"])
    }

    @Test func theDefaultWindowIsThirtyDaysToNow() {
        let query = FDSNQuery(service: FDSNService.known["usgs"]!, now: Self.end)
        #expect(query.window.end == Self.end)
        #expect(query.window.start == Self.end.addingTimeInterval(-30 * 86_400))
    }

    @Test func slicesCoverTheWindowWithoutGaps() {
        let window = FDSNWindow(start: Self.start, end: Self.end)
        for parts in [1, 2, 3, 7, 64] {
            let slices = window.split(into: parts)
            #expect(slices.count == parts)
            #expect(slices.first!.startMilliseconds == window.startMilliseconds)
            #expect(slices.last!.endMilliseconds == window.endMilliseconds)
            for (left, right) in zip(slices, slices.dropFirst()) {
                // Touching on one millisecond: an event between two milliseconds (services keep
                // microseconds) falls in one slice or both, never in neither.
                #expect(right.startMilliseconds == left.endMilliseconds)
            }
        }
        let instant = FDSNWindow(start: Self.end, end: Self.end.addingTimeInterval(0.5))
        #expect(!instant.isSplittable)
    }

    @Test func bodiesMergeWithOneHeader() throws {
        let header = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type\n"
        let one = header + "2026-11-01T00:00:00.000Z,1,2,3,4.5,ml,,,,,sy,a1,2026-11-01T00:00:00.000Z,\"two\nlines\",earthquake\n"
        let two = header + "2026-11-02T00:00:00.000Z,1,2,3,4.5,ml,,,,,sy,a2,2026-11-02T00:00:00.000Z,p,earthquake"
        #expect(FDSNBody.eventCount(Data(one.utf8)) == 1)
        let merged = FDSNBody.merge([Data(one.utf8), Data(), Data(two.utf8)], format: .csv)
        #expect(try Set(Self.ids(merged)) == ["a1", "a2"])
        #expect(String(decoding: merged, as: UTF8.self).components(separatedBy: "time,latitude").count == 2)
        #expect(try Self.ids(FDSNBody.merge([Data(), Data()], format: .text)).isEmpty)

        let textHeader = "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|"
            + "MagAuthor|EventLocationName|EventType\n"
        let textRow = { (id: String) in "\(id)|2026-11-01T00:00:00|1|2|3|||||ml|4.5||Somewhere|earthquake\n" }
        let text = textHeader + textRow("x1") + "\n"
        #expect(FDSNBody.eventCount(Data(text.utf8)) == 1)
        let texts = String(decoding: FDSNBody.merge([Data(text.utf8), Data((textHeader + textRow("x2")).utf8)], format: .text),
                           as: UTF8.self)
        #expect(texts == textHeader + textRow("x1") + "\n" + textRow("x2"))

        // QuakeML as services write it: a default namespace, or a prefix on every element.
        let origin = "<origin publicID=\"smi:o\"><time><value>2026-11-01T00:00:00Z</value></time>"
            + "<latitude><value>1</value></latitude><longitude><value>2</value></longitude></origin>"
            + "<magnitude publicID=\"smi:m\"><mag><value>4.5</value></mag></magnitude>"
        let xml = { (id: String) in
            "<q:quakeml xmlns:q=\"http://quakeml.org/xmlns/quakeml/1.2\" xmlns=\"http://quakeml.org/xmlns/bed/1.2\">"
                + "<eventParameters publicID=\"smi:p\"><event publicID=\"smi:\(id)\">\(origin)<type>earthquake</type></event>"
                + "</eventParameters></q:quakeml>"
        }
        let quakeML = FDSNBody.merge([Data(xml("e1").utf8), Data(xml("e2").utf8)], format: .xml)
        #expect(FDSNBody.eventCount(quakeML) == 2)
        #expect(try Self.ids(quakeML).sorted() == ["smi:e1", "smi:e2"])

        // Elements with a prefix are events too; one answer passes through untouched.
        let bedOrigin = origin.replacingOccurrences(of: "<", with: "<bed:").replacingOccurrences(of: "<bed:/", with: "</bed:")
        let prefixed = { (id: String) in
            "<q:quakeml xmlns:q=\"http://quakeml.org/xmlns/quakeml/1.2\" xmlns:bed=\"http://quakeml.org/xmlns/bed/1.2\">"
                + "<bed:eventParameters publicID=\"smi:p\"><bed:event publicID=\"smi:\(id)\">\(bedOrigin)"
                + "<bed:type>earthquake</bed:type></bed:event><bed:eventTypeX/></bed:eventParameters></q:quakeml>"
        }
        #expect(FDSNBody.eventCount(Data(prefixed("p1").utf8)) == 1)
        #expect(FDSNBody.merge([Data(prefixed("p1").utf8), Data()], format: .xml) == Data(prefixed("p1").utf8))
        let both = FDSNBody.merge([Data(prefixed("p1").utf8), Data(prefixed("p2").utf8)], format: .xml)
        #expect(FDSNBody.eventCount(both) == 2)
        #expect(try Self.ids(both).sorted() == ["smi:p1", "smi:p2"])

        // A page the reader cannot take is not dropped from a merge: it is what the read reports.
        let broken = Data("not a catalogue".utf8)
        #expect(FDSNBody.eventCount(broken) == nil)
        #expect(FDSNBody.merge([Data(one.utf8), broken], format: .csv) == broken)
        // A hostile count cannot trap the slice arithmetic.
        #expect(FDSNClient.parts(Int.max, cap: 1) == 64)
    }

    // MARK: - Paging against the loopback service

    static func catalogue(_ count: Int = 1_300) -> [SyntheticEvent] {
        SyntheticEvent.catalogue(count: count, start: start.addingTimeInterval(60), end: end.addingTimeInterval(-60))
    }

    static func query(_ service: FDSNTestService, limit: Int? = nil, pageSize: Int? = nil,
                      format: FDSNFormat? = .csv, filter: EventFilter = EventFilter()) throws -> FDSNQuery {
        var filter = filter
        filter.since = filter.since ?? start
        filter.until = filter.until ?? end
        return FDSNQuery(service: try FDSNService.named(service.baseURL), format: format, filter: filter, limit: limit,
                         now: end, pageSize: pageSize)
    }

    // Short waits between tries, but a patient time limit (see `LoopbackServer.patientSeconds`).
    static let fast = FetchOptions(timeout: LoopbackServer.patientSeconds, retries: 2, initialBackoff: 0.05, maximumBackoff: 0.2)

    @Test func aServiceThatRefusesAboveItsCapIsPagedByCount() async throws {
        let service = try FDSNTestService(catalogue: Self.catalogue())
        defer { service.server.stop() }
        // The client believes the cap is 2000; the 400 above 500 teaches it otherwise.
        let result = try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, pageSize: 2_000))
        let ids = try Self.ids(result.body)
        #expect(ids.count == 1_300 && Set(ids) == Set(Self.catalogue().map(\.id)))
        #expect(result.slices >= 3)
        // The 400 named the cap: every later query asks for at most 500.
        let queries = service.parameters(of: "query")
        #expect(queries.first?["limit"] == "2000")
        #expect(queries.dropFirst().allSatisfy { $0["limit"] == "500" && $0["orderby"] == "time" })
        #expect(queries.count == 1 + result.slices)
        #expect(!service.parameters(of: "count").isEmpty)
        #expect(FDSNClient.namedCap("21000 matching events exceeds search limit of 20000. Modify the search") == 20_000)
        #expect(FDSNClient.namedCap("Too many events") == nil)
    }

    @Test func aTruncatingServiceWithoutCountIsPagedByFullPages() async throws {
        let service = try FDSNTestService(catalogue: Self.catalogue())
        defer { service.server.stop() }
        service.overCap = .truncate
        service.hasCount = false
        let result = try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, pageSize: 500))
        let ids = try Self.ids(result.body)
        #expect(ids.count == 1_300 && Set(ids).count == 1_300)
        #expect(service.parameters(of: "count").count == 1)  // asked once, then never again
        let queries = service.parameters(of: "query")
        #expect(queries.count == result.requests - 1)
        // Parallel, but at most three at once is not observable here; the slices are adjacent. The pages
        // (not the one-event checks past a short page's end) ask the cap.
        #expect(queries.filter { $0["offset"] == nil }.allSatisfy { $0["limit"] == "500" })
    }

    /// A service that stops its pages at 500 rows without a word, asked for pages of 10,000 (a base
    /// URL's default): with its count, or without one (a page checked by `offset`), every event comes,
    /// and the client says what it found.
    @Test(arguments: [true, false])
    func aServiceThatCapsItsPagesSilentlyCannotFallShort(hasCount: Bool) async throws {
        let service = try FDSNTestService(catalogue: Self.catalogue())
        defer { service.server.stop() }
        service.overCap = .truncate
        service.hasCount = hasCount
        let notices = Notices()
        let result = try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, pageSize: nil)) { report in
            if case .notice(let text) = report { notices.append(text) }
        }
        let ids = try Self.ids(result.body)
        #expect(ids.count == 1_300 && Set(ids) == Set(Self.catalogue().map(\.id)), "\(ids.count) of 1300")
        #expect(notices.all.count == 1 && notices.all[0].contains("answered 500 of the 10000 events asked"), "\(notices.all)")
        // Once found, the cap is asked: later pages ask 500.
        let pages = service.parameters(of: "query").filter { $0["offset"] == nil }
        #expect(pages.first?["limit"] == "10000" && pages.dropFirst().allSatisfy { $0["limit"] == "500" })
    }

    /// The 300 most recent from a service that stops at 200 silently: paged under 200, all 300 come.
    @Test func theMostRecentFromASilentlyCappedServiceAreAllThere() async throws {
        let service = try FDSNTestService(catalogue: Self.catalogue())
        defer { service.server.stop() }
        service.overCap = .truncate
        service.cap = 200
        let result = try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, limit: 300))
        let selected = try QuakeMap.select(from: .bytes(result.body, name: "fdsn"), selection: EventSelection(limit: 300))
        let newest = Self.catalogue().sorted { $0.time > $1.time }.prefix(300).map(\.id)
        #expect(selected.events.map(\.id) == newest)
    }

    /// Without count and without `offset`, a short page cannot be checked: taken as it comes, with a
    /// warning naming the option that tells the client the cap.
    @Test func aShortPageThatCannotBeCheckedIsSaidSo() async throws {
        let service = try FDSNTestService(catalogue: Self.catalogue())
        defer { service.server.stop() }
        service.overCap = .truncate
        service.hasCount = false
        service.acceptsOffset = false
        let notices = Notices()
        let result = try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, pageSize: nil)) { report in
            if case .notice(let text) = report { notices.append(text) }
        }
        #expect(try Self.ids(result.body).count == 500)
        #expect(notices.all.count == 1 && notices.all[0].contains("cannot be checked") && notices.all[0].contains("--fdsn-page-size 500"),
                "\(notices.all)")
    }

    @Test func atMostThreeRequestsAtOnce() async throws {
        let service = try FDSNTestService(catalogue: Self.catalogue(3_000))
        defer { service.server.stop() }
        service.delay = 0.2
        // Count says 3000 with a cap of 500: about eight slices, counted and fetched three at a time.
        let result = try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, pageSize: 500))
        #expect(try Set(Self.ids(result.body)).count == 3_000)
        #expect(result.slices >= 6)
        #expect(service.peakInFlight == 3)
    }

    @Test func duplicatesKeepTheLatestUpdate() async throws {
        var events = Self.catalogue(600)
        var older = events[10]
        older.updated = older.updated.addingTimeInterval(-3600)
        older.magnitude = 9.9
        older.time = older.time.addingTimeInterval(-4 * 86_400)  // the same id, in another slice
        events.append(older)
        let service = try FDSNTestService(catalogue: events)
        defer { service.server.stop() }
        let result = try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, pageSize: 500))
        let selected = try QuakeMap.select(from: .bytes(result.body, name: "fdsn"), selection: EventSelection(limit: nil))
        // Slices touch on one millisecond, so an event there comes twice too: at least the one made here.
        #expect(selected.events.count == 600 && selected.duplicates >= 1)
        #expect(selected.events.first { $0.id == events[10].id }?.magnitude == events[10].magnitude)
    }

    @Test func theMostRecentNTakeOneRequest() async throws {
        let service = try FDSNTestService(catalogue: Self.catalogue())
        defer { service.server.stop() }
        let result = try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, limit: 300))
        #expect(result.requests == 1)
        let ids = try Self.ids(result.body)
        #expect(ids == Array(Self.catalogue().prefix(300).map(\.id)))
        let parameters = try #require(service.parameters(of: "query").first)
        #expect(parameters["limit"] == "300" && parameters["orderby"] == "time" && service.parameters(of: "count").isEmpty)
    }

    @Test func aRefusalOfAParameterIsNeitherAFormatRefusalNorTooMany() async throws {
        let service = try FDSNTestService(catalogue: Self.catalogue())
        defer { service.server.stop() }
        var filter = EventFilter()
        filter.minimumMagnitude = 5
        filter.maximumMagnitude = 4
        for limit in [300, nil] as [Int?] {
            // The error document echoes the request, 'format=text' included: not a format refusal,
            // and 'exceeds' without a limit is not "too many": no fallback, no splitting.
            let error = await #expect(throws: FDSNError.self) {
                try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, limit: limit, format: nil, filter: filter))
            }
            guard case let .refused(_, status, reason)? = error else {
                Issue.record("not a refusal: \(String(describing: error))")
                continue
            }
            #expect(status == 400 && reason.contains("minmagnitude exceeds maxmagnitude") && !reason.contains("Request"))
        }
        let queries = service.parameters(of: "query")
        #expect(queries.count == 2 && queries.allSatisfy { $0["format"] == "text" })
    }

    @Test func theMostRecentNPastALowerCapArePaged() async throws {
        let service = try FDSNTestService(catalogue: Self.catalogue())
        defer { service.server.stop() }
        // N = 1000 asked at once; the service refuses above 500 and says so: the window is paged instead.
        let result = try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, limit: 1_000))
        let selected = try QuakeMap.select(from: .bytes(result.body, name: "fdsn"), selection: EventSelection(limit: 1_000))
        #expect(selected.events.map(\.id) == Array(Self.catalogue().prefix(1_000).map(\.id)))
        #expect(service.parameters(of: "query").first?["limit"] == "1000")
        #expect(service.parameters(of: "query").dropFirst().allSatisfy { $0["limit"] == "500" })
    }

    @Test func noDataIsAnEmptyCatalogue() async throws {
        for nodata in [204, 404] {
            let service = try FDSNTestService(catalogue: [])
            defer { service.server.stop() }
            service.nodata = nodata
            service.hasCount = false
            let result = try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service))
            #expect(try Self.ids(result.body).isEmpty, "nodata \(nodata)")
        }
    }

    @Test func aWrongPathIsAnError() async throws {
        let service = try FDSNTestService(catalogue: [])
        defer { service.server.stop() }
        let query = FDSNQuery(service: try FDSNService.named(service.server.baseURL + "/elsewhere/"), format: .csv, limit: 10)
        await #expect(throws: FDSNError.self) { try await FDSNClient(fetch: Self.fast).events(for: query) }
    }

    @Test func aRefusedQuerySaysWhy() async throws {
        let service = try FDSNTestService(catalogue: Self.catalogue(10))
        defer { service.server.stop() }
        let known = FDSNService(name: "test", baseURL: service.baseURL, formats: [.csv], hasCount: true, pageSize: 500,
                                filtersEventType: true, acceptsWrappedLongitudes: true)
        let query = FDSNQuery(service: known, filter: EventFilter(since: Self.start, until: Self.end), limit: nil)
        service.faults = [.response(status: 400, body: "Error 400: Bad Request\n\nUnknown parameter 'x'\n")]
        do {
            _ = try await FDSNClient(fetch: Self.fast).events(for: query)
            Issue.record("no error")
        } catch let error as FDSNError {
            #expect(error.message.hasSuffix("/count?starttime=2026-11-08T11:06:40&endtime=2026-11-18T11:06:40: HTTP 400: Unknown parameter 'x'"),
                    "\(error.message)")
        }
        // The same service answering: counted once, fetched once.
        let result = try await FDSNClient(fetch: Self.fast).events(for: query)
        #expect(try Self.ids(result.body).count == 10 && result.requests == 2)
    }

    @Test func tooManyEventsInOneInstantIsAClearError() async throws {
        let instant = Self.end.addingTimeInterval(-100)
        let crowd = (0..<20).map { SyntheticEvent(id: "c\($0)", time: instant, latitude: 0, longitude: 0, depth: 1, magnitude: 3) }
        let service = try FDSNTestService(catalogue: crowd)
        defer { service.server.stop() }
        service.cap = 5
        do {
            _ = try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, pageSize: 5))
            Issue.record("no error")
        } catch let error as FDSNError {
            guard case .tooDense(_, _, let size) = error else { Issue.record("\(error)"); return }
            #expect(size == 5)
            #expect(error.message.contains("more than 5 events within one second"))
        }
    }

    @Test func faultsAreRetriedLikeAnyFetch() async throws {
        let service = try FDSNTestService(catalogue: Self.catalogue(50))
        defer { service.server.stop() }
        // A body cut short is retried too: FDSNCLITests checks it through the executable. In this
        // process, URLSession kept waiting for the rest of such a body until the deadline on a
        // loaded machine (2 min in a full run, 10 under ThreadSanitizer), so it is not asked here.
        service.faults = [FDSNTestService.errorReply(503, retryAfter: 1), FDSNTestService.errorReply(502)]
        let result = try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, limit: 20))
        #expect(try Self.ids(result.body).count == 20)
        #expect(service.server.requests.count == 3)

        service.faults = [.stall(seconds: 5)]
        var slow = Self.fast
        slow.timeout = 1
        await #expect(throws: FetchError.self) { try await FDSNClient(fetch: slow).events(for: try Self.query(service, limit: 20)) }
    }

    @Test func aRefusedFormatFallsBackToQuakeMLOnce() async throws {
        let service = try FDSNTestService(catalogue: Self.catalogue(30))
        defer { service.server.stop() }
        service.formats = ["xml"]
        let result = try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, limit: 10, format: nil))
        #expect(result.format == .xml)
        #expect(service.parameters(of: "query").map { $0["format"] } == ["text", "xml"])
        #expect(FDSNBody.eventCount(result.body) == 10)
        // A format asked for explicitly is not replaced.
        await #expect(throws: FDSNError.self) {
            try await FDSNClient(fetch: Self.fast).events(for: try Self.query(service, limit: 10, format: .csv))
        }
    }
}

/// The notices a fetch reported, collected from its (concurrent) report callback.
final class Notices: @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [String] = []

    func append(_ text: String) { lock.withLock { texts.append(text) } }
    var all: [String] { lock.withLock { texts } }
}
