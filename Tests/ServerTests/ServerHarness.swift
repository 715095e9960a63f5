import Foundation
import Hummingbird
import Logging
import QuakeKit
import QuakeServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `QuakeServer` application running on 127.0.0.1 on a free port for one
/// test, and a small client for it.
struct RunningServer {
    let port: Int
    let store: FeedStore
    private let task: Task<Void, any Error>

    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Starts a server over `origins`; stop it with ``stop()``.
    static func start(_ origins: [FeedOrigin], options: ServerOptions = ServerOptions()) async throws -> RunningServer {
        let store = FeedStore(origins: origins)
        try await store.load()
        var options = options
        options.host = "127.0.0.1"
        options.port = 0
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = QuakeServer.application(store: store, options: options, logger: logger) { continuation.yield($0) }
        let task = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return RunningServer(port: port, store: store, task: task)
    }

    func stop() {
        task.cancel()
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// GETs (or `method`s) `path` (with its query) and returns the whole reply.
    func get(_ path: String, method: String = "GET", headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (body, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            fields[String(describing: name).lowercased()] = String(describing: value)
        }
        return Reply(status: http.statusCode, headers: fields, body: body)
    }
}

/// Synthetic feeds for these tests (made up here, not USGS data).
enum ServerFixtures {
    static let header = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,horizontalError,depthError,magError,magNst,status,locationSource,magSource"

    struct Row {
        var id: String
        var time: String
        var latitude: Double
        var longitude: Double
        var magnitude: String
        var place = "Somewhere"
        var type = "earthquake"
        var updated = "2026-11-21T12:00:00.000Z"
    }

    static func csv(_ rows: [Row]) -> String {
        ([header] + rows.map { row in
            "\(row.time),\(row.latitude),\(row.longitude),10,\(row.magnitude),ml,,,,,xx,\(row.id),\(row.updated),\"\(row.place)\",\(row.type),,,,,reviewed,xx,xx"
        }).joined(separator: "\n") + "\n"
    }

    /// 60 events, one a minute from 2026-11-21T00:00Z (id q00 oldest, q59 newest),
    /// marching east from 170° E across the antimeridian, magnitudes 1.0…6.9.
    static let sixty: [Row] = (0..<60).map { index in
        var longitude = 170 + Double(index)
        if longitude > 180 { longitude -= 360 }
        return Row(id: String(format: "q%02d", index), time: String(format: "2026-11-21T00:%02d:00.000Z", index),
                   latitude: Double(index) - 30, longitude: longitude,
                   magnitude: String(format: "%.1f", 1 + Double(index) / 10 * 1),
                   place: index % 2 == 0 ? "Near Alpha, Somewhere" : "Beyond Beta")
    }

    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-server-\(UUID().uuidString).csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
