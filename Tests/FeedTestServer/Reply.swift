import Foundation

/// What `LoopbackServer` sends back for one request.
///
/// Headers are plain `(name, value)` tuples, e.g. `headers: [("ETag", "\"v1\"")]`.
/// Tuples of `Sendable` elements are themselves `Sendable` in Swift 6, so `Reply`
/// stays `Sendable` without a wrapper type.
///
/// Every reply closes the connection afterwards: the server handles exactly one
/// request per connection.
public enum Reply: Sendable {
    /// A normal response. Adds `Content-Length` (unless `headers` has one) and
    /// `Connection: close` (unless `headers` has a `Connection` header).
    case response(status: Int, headers: [(String, String)] = [], body: Data = Data())

    /// Declares `Content-Length: declaredLength` but sends only `body` (which should be
    /// shorter), then closes: a body cut short. Any `Content-Length` in `headers` is
    /// replaced by `declaredLength`.
    case truncated(status: Int, headers: [(String, String)] = [], body: Data, declaredLength: Int)

    /// Reads the request, sends nothing for `seconds` (clamped to 0...30), then closes.
    case stall(seconds: Double)

    /// Sends the status line and headers (with `Content-Length` of the full body unless
    /// `headers` has one) at once, then the body slowly: before each piece of `chunk`
    /// bytes it waits `interval` seconds. The whole body phase is bounded to 30 s; if
    /// that runs out, the connection is closed with the body incomplete.
    /// For timeout-while-downloading tests.
    case slowBody(status: Int, headers: [(String, String)] = [], body: Data, chunk: Int, interval: Double)

    /// Sends these exact bytes, then closes.
    case raw(Data)
}

// String-body conveniences so call sites can write `body: "hello"`.
extension Reply {
    /// `.response` with a UTF-8 string body.
    public static func response(status: Int, headers: [(String, String)] = [], body: String) -> Reply {
        .response(status: status, headers: headers, body: Data(body.utf8))
    }

    /// `.truncated` with a UTF-8 string body.
    public static func truncated(
        status: Int, headers: [(String, String)] = [], body: String, declaredLength: Int
    ) -> Reply {
        .truncated(status: status, headers: headers, body: Data(body.utf8), declaredLength: declaredLength)
    }

    /// `.slowBody` with a UTF-8 string body.
    public static func slowBody(
        status: Int, headers: [(String, String)] = [], body: String, chunk: Int, interval: Double
    ) -> Reply {
        .slowBody(status: status, headers: headers, body: Data(body.utf8), chunk: chunk, interval: interval)
    }

    /// `.raw` with the UTF-8 bytes of `text` (write `\r\n` explicitly).
    public static func raw(_ text: String) -> Reply {
        .raw(Data(text.utf8))
    }
}

/// One request as the server received it.
public struct RecordedRequest: Sendable {
    /// The request method, e.g. `GET`.
    public let method: String
    /// The request target as sent (may include a query string).
    public let path: String
    /// Header fields with lowercased names; repeated fields are joined with `", "`.
    public let headers: [String: String]

    /// Creates a recorded request (public so tests can build expected values).
    public init(method: String, path: String, headers: [String: String]) {
        self.method = method
        self.path = path
        self.headers = headers
    }
}

/// Reason phrase for the status codes the feed tests use; anything else gets "Status".
func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 200: return "OK"
    case 301: return "Moved Permanently"
    case 302: return "Found"
    case 304: return "Not Modified"
    case 400: return "Bad Request"
    case 404: return "Not Found"
    case 429: return "Too Many Requests"
    case 500: return "Internal Server Error"
    case 503: return "Service Unavailable"
    default: return "Status"
    }
}

/// Serialises a status line plus headers (and the blank line ending them).
/// `contentLength` is added unless `headers` already has a Content-Length,
/// or always replaces it when `forceLength` is set (used by `.truncated`).
func responseHead(
    status: Int, headers: [(String, String)], contentLength: Int, forceLength: Bool = false
) -> Data {
    func has(_ name: String) -> Bool {
        headers.contains { $0.0.caseInsensitiveCompare(name) == .orderedSame }
    }
    var lines = ["HTTP/1.1 \(status) \(reasonPhrase(status))"]
    var hasLength = false
    for (name, value) in headers {
        if name.caseInsensitiveCompare("Content-Length") == .orderedSame {
            if forceLength { continue }
            hasLength = true
        }
        lines.append("\(name): \(value)")
    }
    if !hasLength { lines.append("Content-Length: \(contentLength)") }
    if !has("Connection") { lines.append("Connection: close") }
    return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
}
