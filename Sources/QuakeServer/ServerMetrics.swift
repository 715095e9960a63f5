import Foundation
import HTTPTypes
import Hummingbird
import Prometheus
import QuakeCatalogue
import QuakeKit

/// What `/metrics` tells, in Prometheus' text format: requests by route and status and their
/// latency, the render gate, the catalogue (version, events, age), the database's connections
/// and the change stream's clients. Each server owns its registry (tests run many servers in one
/// process; the global `MetricsSystem` is never bootstrapped). Counters and histograms are
/// recorded as things happen; what is a state (the catalogue's age, the gate's queue) is read
/// when scraped, so it is never stale.
final class ServerMetrics: Sendable {
    /// The media type of Prometheus' text exposition format.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"
    /// Upper bounds of the request latency buckets, in seconds: a cached tile or a JSON page
    /// answers in milliseconds, a map of a large catalogue in seconds, and a render is refused
    /// after `--render-timeout` (10 s by default, at most the top bucket but one).
    static let latencyBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
    /// Upper bounds of the render queue's wait buckets, in seconds: most renders wait not at all.
    static let queueWaitBuckets: [Double] = [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
    /// The route label of a request that matched no route.
    static let unmatched = "unmatched"

    let registry = PrometheusCollectorRegistry()
    /// When this server started: the catalogue's age counts from it when no change time is known.
    private let started = Date()

    private struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    /// Each route's latency histogram and each (route, method, status)'s counter, made once:
    /// a lookup here costs less than the registry's, which validates names on every call.
    private let requests = Locked<(counters: [RequestKey: Counter], latencies: [String: ValueHistogram])>(([:], [:]))

    private let rendersRunning: Gauge, rendersQueued: Gauge, renderSlotsInUse: Gauge, renderSlots: Gauge
    private let renderRefusals: [RenderGate.RefusalReason: Counter]
    private let renderQueueWait: ValueHistogram
    private let catalogueEvents: Gauge, catalogueAge: Gauge, catalogueNewest: Gauge
    private let refreshFailures: Counter
    private let changeClients: Gauge
    /// The info gauge of the version served, replaced when the version changes, and the counts
    /// last read from the store (its counters go up by the difference).
    private let scraped = Locked<(info: (gauge: Gauge, labels: [String])?, failures: Int, reads: Int)>((nil, 0, 0))

    init() {
        func name(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "quakemap", metricName: name, unitName: unit, helpText: help)
        }
        rendersRunning = registry.makeGauge(descriptor: name("renders", "running", "Renders holding slots of the render gate (reading their events or drawing)"))
        rendersQueued = registry.makeGauge(descriptor: name("renders", "queued", "Renders waiting for slots of the render gate"))
        renderSlotsInUse = registry.makeGauge(descriptor: name("render_slots", "in_use", "Render gate slots held (a render of millions of events holds several)"))
        renderSlots = registry.makeGauge(descriptor: name("render", "slots", "Render gate slots in all (--concurrent-renders)"))
        var refusals: [RenderGate.RefusalReason: Counter] = [:]
        for reason in RenderGate.RefusalReason.allCases {
            refusals[reason] = registry.makeCounter(descriptor: name("render_refusals", "total", "Renders refused with 503: queue_full, queue_timeout, render_timeout"),
                                                    labels: [("reason", reason.rawValue)])
        }
        renderRefusals = refusals
        renderQueueWait = registry.makeValueHistogram(descriptor: name("render_queue_wait", "seconds", "Time a render waited for its slots"),
                                                      buckets: Self.queueWaitBuckets)
        catalogueEvents = registry.makeGauge(descriptor: name("catalogue", "events", "Events served (those with a magnitude)"))
        catalogueAge = registry.makeGauge(descriptor: name("catalogue_age", "seconds",
                                                           "Seconds since the served catalogue last changed (an ingest, or a refresh that brought a different feed)"))
        catalogueNewest = registry.makeGauge(descriptor: name("catalogue_newest_event", "timestamp_seconds",
                                                              "Time of the newest event served, in seconds since 1970 (0: no events)"))
        refreshFailures = registry.makeCounter(descriptor: name("catalogue_refresh_failures", "total",
                                                                "Refreshes of the feeds, or reads of the catalogue's state, that failed (the last good catalogue stays served)"))
        changeClients = registry.makeGauge(descriptor: name("change_stream", "clients", "Clients connected to the change stream (/collections/quakes/changes)"))
    }

    /// What the render gate reports into these metrics.
    var renderReporting: RenderGate.Reporting {
        RenderGate.Reporting(refused: { [renderRefusals] reason in renderRefusals[reason]?.increment() },
                             admitted: { [renderQueueWait] waited in renderQueueWait.record(Self.seconds(waited)) })
    }

    // MARK: Requests

    /// Counts one request and records its latency under its route's pattern (never its path:
    /// the labels stay few however many tiles are asked for).
    func recordRequest(route: String?, method: HTTPRequest.Method, status: Int, elapsed: Duration) {
        let route = route.flatMap { $0 == "NotFound" ? nil : $0 } ?? Self.unmatched
        let key = RequestKey(route: route, method: Self.methodLabel(method), status: status)
        let (counter, latency) = requests.withLock { requests in
            let counter = requests.counters[key] ?? {
                let made = registry.makeCounter(descriptor: MetricNameDescriptor(
                    namespace: "quakemap", subsystem: "http", metricName: "requests", unitName: "total",
                    helpText: "Requests answered, by route pattern (unmatched: no route), method and status"),
                    labels: [("route", key.route), ("method", key.method), ("status", String(key.status))])
                requests.counters[key] = made
                return made
            }()
            let latency = requests.latencies[route] ?? {
                let made = registry.makeValueHistogram(descriptor: MetricNameDescriptor(
                    namespace: "quakemap", subsystem: "http", metricName: "request_duration", unitName: "seconds",
                    helpText: "Time from a request's arrival to its response being ready, by route pattern"),
                    labels: [("route", route)], buckets: Self.latencyBuckets)
                requests.latencies[route] = made
                return made
            }()
            return (counter, latency)
        }
        counter.increment()
        latency.record(Self.seconds(elapsed))
    }

    /// A method as a label: the standard ones by name, any other as `other` (a client may send anything).
    static func methodLabel(_ method: HTTPRequest.Method) -> String {
        switch method {
        case .get, .head, .options, .post, .put, .delete, .patch, .connect, .trace: return method.rawValue
        default: return "other"
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    // MARK: Scraping

    /// The exposition: the states read now from `store` and `gate`, with everything counted so far.
    func exposition(store: any EventStore, gate: RenderGate, now: Date = Date()) async -> [UInt8] {
        let served = await store.served()
        let health = await store.health()
        let holding = gate.holding
        rendersRunning.set(Double(holding.renders))
        rendersQueued.set(Double(gate.waiting))
        renderSlotsInUse.set(Double(holding.slots))
        renderSlots.set(Double(gate.width))
        catalogueEvents.set(Double(served.count))
        catalogueAge.set(max(0, now.timeIntervalSince(served.changed ?? started)))
        catalogueNewest.set(served.interval.newest?.timeIntervalSince1970 ?? 0)
        changeClients.set(Double(store.changes.clients))
        var reads: CatalogueReads?
        if case .database(let catalogue, _) = served { reads = catalogue.reads }
        let readsTotal = reads?.total
        let (failures, readsBegun) = scraped.withLock { scraped -> (Int, Int) in
            // One series, of the version served now: the old one goes when the version changes.
            let values = [health.version, health.source]
            if scraped.info?.labels != values {
                if let old = scraped.info { registry.unregisterGauge(old.gauge) }
                let info = registry.makeGauge(descriptor: MetricNameDescriptor(
                    namespace: "quakemap", metricName: "catalogue", unitName: "info",
                    helpText: "The catalogue served: its version (as in ETags and /version) and source (feeds, sqlite, postgresql); always 1"),
                    labels: [("version", values[0]), ("source", values[1])])
                info.set(to: 1)
                scraped.info = (info, values)
            }
            let failures = max(0, health.failedRefreshes - scraped.failures)
            scraped.failures = health.failedRefreshes
            var begun = 0
            if let readsTotal {
                begun = max(0, readsTotal - scraped.reads)
                scraped.reads = readsTotal
            }
            return (failures, begun)
        }
        if failures > 0 { refreshFailures.increment(by: Int64(failures)) }
        if let reads {
            // Made on the first scrape of a catalogue: a server of feeds has no database to tell of.
            func name(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
                MetricNameDescriptor(namespace: "quakemap", subsystem: "database", metricName: name, unitName: unit, helpText: help)
            }
            registry.makeGauge(descriptor: name("connections", "in_use",
                                                "Catalogue queries in progress, each holding or waiting for one connection (a LISTEN for ingests holds one)"))
                .set(Double(reads.inProgress))
            registry.makeGauge(descriptor: name("connections", "max", "Connections the catalogue's pool may open (--database-connections; SQLite: its readers)"))
                .set(Double(reads.connections))
            let queries = registry.makeCounter(descriptor: name("queries", "total", "Catalogue queries begun"))
            if readsBegun > 0 { queries.increment(by: Int64(readsBegun)) }
        }
        return registry.emitToBuffer()
    }
}

/// Counts every request in ``ServerMetrics``, errors too: those thrown past the problem answers
/// by their status (500 for any but an HTTP error).
struct RequestMetrics<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.recordRequest(route: context.endpointPath, method: request.method, status: Int(response.status.code),
                                  elapsed: ContinuousClock.now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.recordRequest(route: context.endpointPath, method: request.method, status: Int(status),
                                  elapsed: ContinuousClock.now - start)
            throw error
        }
    }
}
