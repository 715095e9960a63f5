import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import QuakeCatalogue
import QuakeKit

/// How the service draws and how much it takes on.
package struct ServerOptions: Sendable {
    /// The address to bind: loopback unless told otherwise.
    package var host: String
    /// The port; 0 picks a free one (see the `onRunning` callback).
    package var port: Int
    /// Tiles and maps: circle sizes and what their colour tells (the
    /// initializer's `style` and `coloring`).
    package var symbols: SymbolStyle
    /// Tiles: the per-tile feature limit (largest magnitudes kept); `nil` keeps all.
    package var tileLimit: Int?
    /// Renders running at once (default: one per core).
    package var concurrentRenders: Int
    /// Renders waiting at most; beyond, requests get `503` at once.
    package var queuedRenders: Int
    /// A request waits this long for its render, then gets `503`.
    package var renderTimeout: Duration
    /// Bytes of rendered tiles and maps kept for repeated requests.
    package var cacheBytes: Int
    /// A connection with no request in progress is closed after this long:
    /// one whose request head has not arrived (a stalled or slow client) and an
    /// idle keep-alive connection alike.
    package var idleTimeout: Duration
    /// Connections open at most; beyond, new ones wait in the listen queue
    /// until one closes (see ``ServerLimits/connectionCap(descriptors:)``).
    package var maximumConnections: Int
    /// How often the change stream's clients get a heartbeat.
    package var heartbeat: Duration
    /// The most events one FDSN answer holds; a request for more is refused (413), never cut short.
    package var fdsnMaximumEvents: Int
    /// Whether `/metrics` answers (Prometheus' text format); when off, it is an unknown path.
    package var metrics: Bool

    /// Options with the defaults.
    package init(host: String = "127.0.0.1", port: Int = 8080, style: MagnitudeStyle = MagnitudeStyle(),
                coloring: SymbolColoring = .magnitude, tileLimit: Int? = TileOptions.defaultTileLimit,
                concurrentRenders: Int = max(1, ProcessInfo.processInfo.activeProcessorCount),
                queuedRenders: Int = 64, renderTimeout: Duration = .seconds(10), cacheBytes: Int = 64 << 20,
                idleTimeout: Duration = .seconds(10), maximumConnections: Int = ServerLimits.connectionCap(),
                heartbeat: Duration = .seconds(25), fdsnMaximumEvents: Int = 20_000, metrics: Bool = true) {
        self.host = host
        self.port = port
        self.symbols = SymbolStyle(sizes: style, coloring: coloring)
        self.tileLimit = tileLimit
        self.concurrentRenders = concurrentRenders
        self.queuedRenders = queuedRenders
        self.renderTimeout = renderTimeout
        self.cacheBytes = cacheBytes
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
        self.heartbeat = heartbeat
        self.fdsnMaximumEvents = fdsnMaximumEvents
        self.metrics = metrics
    }
}

/// The HTTP service: OGC API – Features (Part 1 core, Part 3 CQL2 text
/// filters) over the catalogue, XYZ tiles and plate carrée maps drawn on
/// demand, `/healthz`, and one access-log line per request.
package enum QuakeServer {
    /// The application, ready to run (`runService()` handles SIGTERM and SIGINT).
    ///
    /// - Parameters:
    ///   - logger: gets the access log (info) and problems; the framework's own
    ///     lines only from warnings up.
    ///   - onRunning: called with the bound port once the server listens.
    package static func application(
        store: any EventStore, options: ServerOptions, logger: Logger,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        router.add(middleware: AccessLog(logger: logger))
        // Outside the problem answers, so that it sees each request's final status, errors' too.
        let metrics = options.metrics ? ServerMetrics() : nil
        if let metrics { router.add(middleware: RequestMetrics(metrics: metrics)) }
        // Outside the problem answers, so that errors carry the CORS headers too. The data is
        // open to all and read-only: any page may use it, without credentials.
        router.add(middleware: CORSMiddleware(allowOrigin: .all, allowHeaders: [.accept, .ifNoneMatch, .contentType],
                                              allowMethods: [.get, .head, .options], maxAge: .hours(24)))
        router.add(middleware: ProblemAnswers(logger: logger))
        router.add(middleware: ReadOnly())
        let web = WebAssets.load()
        // One line per cause, not per file.
        for reason in Set(web.missing.values).sorted() {
            logger.warning("the web map at / will not load: \(reason)")
        }
        let endpoints = Endpoints(store: store, options: options, web: web, metrics: metrics)
        endpoints.register(on: router)
        var frameworkLogger = logger
        frameworkLogger.logLevel = max(logger.logLevel, .warning)
        let idle = options.idleTimeout.components
        return Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: .nanoseconds(idle.seconds * 1_000_000_000 + idle.attoseconds / 1_000_000_000))),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "quakemap",
                                 availableConnectionsDelegate: ConnectionCap(options.maximumConnections, logger: logger)),
            services: [ChangeHeartbeat(stream: store.changes, interval: options.heartbeat)],
            onServerRunning: { channel in
                // A catalogue's vector tile index is read once the server listens, rather than by the first tile.
                if case .database(let catalogue, let state) = await store.served() { _ = endpoints.catalogueTiles.index(catalogue, at: state) }
                await onRunning(channel.localAddress?.port ?? options.port)
            },
            logger: frameworkLogger
        )
    }
}

/// One line per request on the log: method, path and query, status, bytes, milliseconds.
struct AccessLog<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        // ProblemAnswers turns every error into a response, so one is always there to log.
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let target = request.uri.string, status = Int(response.status.code)
        logger.info("\(request.method) \(target) \(status) \(response.body.contentLength.map(String.init) ?? "-") B \(String(format: "%.1f", milliseconds)) ms",
                    metadata: ["method": "\(request.method)", "target": .string(target), "status": "\(status)",
                               "milliseconds": .stringConvertible(milliseconds)])
        return response
    }
}

/// Every error becomes an `application/problem+json` answer: the endpoints'
/// own ``Problem``s, the framework's errors (an unknown path is 404), and
/// anything else (500, logged), so every status the service sends has the same body format.
struct ProblemAnswers<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let problem: Problem
        do {
            return try await next(request, context)
        } catch let thrown as Problem {
            problem = thrown
        } catch let error as CatalogueError {
            // The database restarting, a standby catching up: another replica, or a moment later, may answer.
            logger.warning("\(request.method) \(request.uri.string): \(error)")
            problem = Problem(.serviceUnavailable, "the catalogue cannot be read just now", retryAfter: 5)
        } catch let error as HTTPError where error.status == .notFound {
            problem = Problem(.notFound, "no such resource: \(request.uri.path)")
        } catch let error as HTTPError {
            problem = Problem(error.status, error.body ?? error.status.reasonPhrase)
        } catch {
            logger.error("\(request.method) \(request.uri.string): \(error)")
            problem = Problem(.internalServerError, "the request failed inside the server")
        }
        return try problem.response(from: request, context: context)
    }
}

/// Every resource is read-only: methods other than `GET` and `HEAD` get `405` with `Allow`.
struct ReadOnly<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        switch request.method {
        case .get, .head:
            return try await next(request, context)
        default:
            throw Problem(.methodNotAllowed, "\(request.method) is not served: every resource here is read-only (GET, HEAD)",
                          allow: "GET, HEAD")
        }
    }
}
