import Hummingbird
import NIOCore

/// `/metrics`: the server's metrics in Prometheus' text format (``ServerMetrics``).
extension Endpoints {
    func registerMetrics<Context: RequestContext>(_ route: (RouterPath, @escaping @Sendable (Request, Context) async throws -> Response) -> Void) {
        guard let metrics else { return }
        route("/metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = ServerMetrics.contentType
            // Each scrape reads the state now: no cache in front may answer for the server.
            headers[.cacheControl] = "no-store"
            let body = await metrics.exposition(store: store, gate: gate)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
    }
}
