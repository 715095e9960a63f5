import FeedTestServer
import Foundation
import QuakeFetch
import QuakeKit
import QuakeServer
import Testing

/// `quakemap-server --fdsn`: the query's events are served, and fetched again
/// on refresh like a URL feed's; a failed refresh keeps the last good ones.
@Suite("The server over an FDSN query")
struct FDSNServerTests {
    @Test func aQueryIsServedPagedAndRefreshed() async throws {
        let end = Date().addingTimeInterval(-120)
        var events = SyntheticEvent.catalogue(count: 700, start: end.addingTimeInterval(-5 * 86_400), end: end)
        let service = try FDSNTestService(catalogue: events)
        defer { service.server.stop() }
        service.hasCount = false
        service.overCap = .truncate
        let query = FDSNQuery(service: try FDSNService.named(service.baseURL), format: .text,
                              filter: EventFilter(since: end.addingTimeInterval(-6 * 86_400)), limit: nil, pageSize: 500)
        let store = CatalogueStore(origins: [.fdsn(query, cacheKey: "fdsn-test")],
                                   fetch: FetchOptions(timeout: 10, retries: 0))
        try await store.load()
        #expect(await Set(store.catalogue.events.map(\.id)) == Set(events.map(\.id)))

        events.insert(SyntheticEvent(id: "new1", time: Date().addingTimeInterval(-30), latitude: 1, longitude: 2, depth: 3,
                                     magnitude: 5), at: 0)
        service.catalogue = events
        #expect(await store.refresh())
        #expect(await store.catalogue.events.count == 701)
        // The window ends at each refresh's now: the new event's time was after the first fetch.
        let windows = service.parameters(of: "query").compactMap { $0["endtime"] }
        #expect(Set(windows).count > 1)

        service.faults = [FDSNTestService.errorReply(503)]
        #expect(await !store.refresh())
        #expect(await store.catalogue.events.count == 701)
        #expect(await store.failedRefreshes == 1)
    }
}
