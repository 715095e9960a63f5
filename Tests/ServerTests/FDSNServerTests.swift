import FeedTestServer
import Foundation
import QuakeFetch
import QuakeKit
import QuakeServer
import Testing

/// `quakemap-server --fdsn`: the query's events are served, and fetched again
/// on refresh like a URL feed's; a failed refresh keeps the last good ones.
@Suite("The server over an FDSN query", .timeLimit(.minutes(10)))
struct FDSNServerTests {
    @Test func aQueryIsServedPagedAndRefreshed() async throws {
        let end = Date().addingTimeInterval(-120)
        var events = SyntheticEvent.catalogue(count: 700, start: end.addingTimeInterval(-5 * 86_400), end: end)
        let service = try FDSNTestService(catalogue: events)
        defer { service.server.stop() }
        service.hasCount = false
        service.overCap = .truncate
        var query = FDSNQuery(service: try FDSNService.named(service.baseURL), format: .text,
                              filter: EventFilter(since: end.addingTimeInterval(-6 * 86_400)), limit: nil, pageSize: 500)
        query.sinceAge = 6 * 86_400 + 120  // `--since 6d`: the window moves with each refresh
        let store = FeedStore(origins: [.fdsn(query, cacheKey: "fdsn-test")],
                                   fetch: FetchOptions(timeout: 1_800, retries: 0))  // no failure from a busy test run
        try await store.load()
        #expect(await Set(store.catalogue.events.map(\.id)) == Set(events.map(\.id)))
        let first = service.parameters(of: "query")
        let firstEnd = try #require(first.compactMap { $0["endtime"].flatMap(FDSNTestService.parseTime) }.max())
        let firstStart = try #require(first.compactMap { $0["starttime"].flatMap(FDSNTestService.parseTime) }.min())

        // After the first window's end (rounded up to the second), an event it could not hold.
        try await Task.sleep(for: .milliseconds(1_500))
        let late = Date().addingTimeInterval(-0.2)
        #expect(late > firstEnd)
        events.insert(SyntheticEvent(id: "new1", time: late, latitude: 1, longitude: 2, depth: 3, magnitude: 5), at: 0)
        service.catalogue = events
        #expect(await store.refresh())
        #expect(await store.catalogue.events.count == 701)
        let again = service.parameters(of: "query").dropFirst(first.count)
        #expect(try #require(again.compactMap { $0["endtime"].flatMap(FDSNTestService.parseTime) }.max()) > firstEnd)
        #expect(try #require(again.compactMap { $0["starttime"].flatMap(FDSNTestService.parseTime) }.min()) > firstStart)

        service.faults = [FDSNTestService.errorReply(503)]
        #expect(await !store.refresh())
        #expect(await store.catalogue.events.count == 701)
        #expect(await store.failedRefreshes == 1)
    }
}
