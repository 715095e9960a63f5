import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuakeKit
import ServiceLifecycle

/// The change stream: Server-Sent Events of each event created or revised (``ChangeStream``).
extension Endpoints {
    /// A client waits this long before reconnecting (the `retry:` field).
    static let reconnectMilliseconds = 3000
    static let changeParameters = QueryParameters.names(QueryParameters.changes)

    /// `text/event-stream` until the client or the server goes: first what a reconnecting client
    /// missed (`Last-Event-ID`), then each change as it is told. A filter narrows the events sent;
    /// reloads and heartbeats go to every client.
    func changes(_ request: Request) async throws -> Response {
        let query = try FeatureQuery(FormQuery.parameters(of: request), allowed: Self.changeParameters)
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        // nginx passes the stream on as it comes rather than buffering it (docs/deploy.md).
        headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
        guard request.method != .head else { return Response(status: .ok, headers: headers) }
        let stream = store.changes
        let (replay, frames) = stream.subscribe(lastEventID: request.headers[HTTPField.Name("Last-Event-ID")!], filter: query.filter)
        var first = ByteBuffer(string: "retry: \(Self.reconnectMilliseconds)\n\n")
        switch replay {
        case .frames(let missed):
            for frame in missed { first.writeImmutableBuffer(frame.bytes) }
        case .reload:
            first.writeImmutableBuffer(stream.reloadFrame(stream.latest).bytes)
        case .catalogue(let after, let through):
            if let missed = try? await store.replay(after: after, through: through, filter: query.filter) {
                for frame in missed { first.writeImmutableBuffer(frame.bytes) }
            } else {
                first.writeImmutableBuffer(stream.reloadFrame(through).bytes)
            }
        }
        return Response(status: .ok, headers: headers, body: ResponseBody { [first] writer in
            try await writer.write(first)
            // The server stopping ends the streams (else it would wait for them): clients reconnect to another replica.
            try await withGracefulShutdownHandler {
                for await bytes in frames { try await writer.write(bytes) }
            } onGracefulShutdown: {
                stream.finishAll()
            }
            try await writer.finish(nil)
        })
    }
}
