import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A failure setting up the listening socket.
public struct LoopbackServerError: Error, CustomStringConvertible {
    /// The system call that failed, e.g. `bind`.
    public let operation: String
    /// The `errno` it left.
    public let code: Int32

    /// The failing call with the system's message for `code`.
    public var description: String {
        "LoopbackServer: \(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
}

/// A tiny HTTP/1.1 server on 127.0.0.1 with byte-level control over its replies,
/// for fault-injection tests of the feed fetcher.
///
/// - Binds only `127.0.0.1` on an ephemeral port; never connects anywhere.
/// - One request per connection (`Connection: close`); each connection runs on its own
///   thread, so a stalled reply doesn't hold up other requests.
/// - Everything is bounded: stalls and slow bodies end after at most 30 s, `stop()`
///   (also called by `deinit`) ends every connection and thread promptly.
///
/// ```swift
/// let server = try LoopbackServer()
/// server.route("/feed.csv", [.response(status: 500),
///                            .response(status: 200, headers: [("ETag", "\"v1\"")], body: "hello")])
/// // fetch "\(server.baseURL)/feed.csv" ...
/// ```
///
/// Checked `Sendable`: its only stored properties are immutable, all mutable state lives in
/// the lock-protected `ServerCore`.
public final class LoopbackServer: Sendable {
    /// The ephemeral port the server listens on.
    public let port: Int

    private let core: ServerCore

    /// How long, in seconds, a client in the test process may wait on a server that is not
    /// meant to stall: the longest wait anywhere in the tests. A full run keeps the shared
    /// threads busy, so it is generous against the milliseconds a request takes, yet short
    /// enough that a hang fails in a minute rather than at CI's limit. Tests of a time limit set
    /// their own, short one; wall-clock bounds are asserted by the CLI tests, which time a
    /// separate process.
    public static let patientSeconds = 60.0

    /// `"http://127.0.0.1:\(port)"`, without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Binds 127.0.0.1 on an ephemeral port and starts accepting connections.
    /// - Throws: `LoopbackServerError` if the socket can't be set up.
    public init() throws {
        let (fd, port) = try Self.makeListener()
        self.port = port
        core = ServerCore(listenFD: fd)
        core.start()
    }

    deinit {
        core.stop()
    }

    /// Successive requests to `path` (exact match on the request target, without query
    /// string) get successive replies; the last reply repeats forever.
    /// Routing a path again replaces its replies and restarts the sequence;
    /// an empty `replies` removes the route (requests then get 404).
    public func route(_ path: String, _ replies: [Reply]) {
        core.route(path, replies)
    }

    /// Every request to `path` is answered by `handler` (called on the
    /// connection's thread, so it may compute its reply from the query);
    /// it takes precedence over ``route(_:_:)``. `nil` removes it.
    public func handle(_ path: String, _ handler: (@Sendable (RecordedRequest) -> Reply)?) {
        core.handle(path, handler)
    }

    /// All requests received so far, in order. Requests whose head couldn't be parsed
    /// (answered with 400) are not included.
    public var requests: [RecordedRequest] {
        core.recordedRequests
    }

    /// Closes the listening socket and all open connections, and waits (at most about
    /// 2 s, normally milliseconds) for the server's threads to end. Safe to call twice.
    public func stop() {
        core.stop()
    }

    /// Creates a non-blocking listening socket on 127.0.0.1:0 and returns it with its port.
    private static func makeListener() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LoopbackServerError(operation: "socket", code: errno) }
        func fail(_ operation: String) -> LoopbackServerError {
            let error = LoopbackServerError(operation: operation, code: errno)
            close(fd)
            return error
        }

        var one: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw fail("setsockopt(SO_REUSEADDR)")
        }

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0  // ephemeral
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian  // 127.0.0.1 only, never a wildcard
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw fail("bind") }
        guard listen(fd, 64) == 0 else { throw fail("listen") }

        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw fail("getsockname") }

        // Non-blocking so the accept loop, which polls with a timeout, never blocks in accept().
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw fail("fcntl(O_NONBLOCK)") }

        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// The server's shared state and worker threads.
///
/// `@unchecked Sendable` because it is shared by the accept thread, one thread per
/// connection and the test's own threads: every mutable property below is only touched
/// while holding `condition`, which the compiler can't verify. Threads capture this
/// object rather than `LoopbackServer`, so dropping the last `LoopbackServer` reference
/// still runs its `deinit` (and thus `stop()`).
final class ServerCore: @unchecked Sendable {
    private struct Route {
        var replies: [Reply]
        var next = 0
    }

    /// Upper bound for `.stall` and for the body phase of `.slowBody`.
    static let maxDelay: Double = 30
    /// How long a silent or never-reading client may block a recv/send before we give up.
    static let socketTimeoutSeconds = 10
    /// How long we wait for the client to close after our last byte (see `finish`).
    static let lingerSeconds: Double = 2

    private let listenFD: Int32
    /// Ends the accept thread and the connection threads; lets `stop()` wait for them.
    private let threads = DispatchGroup()

    /// Lock for everything below; also signalled on `stop()` to cut waits short.
    private let condition = NSCondition()
    private var stopped = false
    private var listenerOpen = true
    private var connections = Set<Int32>()
    private var routes: [String: Route] = [:]
    private var handlers: [String: @Sendable (RecordedRequest) -> Reply] = [:]
    private var recorded: [RecordedRequest] = []

    init(listenFD: Int32) {
        self.listenFD = listenFD
    }

    // MARK: - Public operations (via LoopbackServer)

    func start() {
        threads.enter()
        let thread = Thread { [self] in
            acceptLoop()
            threads.leave()
        }
        thread.name = "LoopbackServer.accept"
        thread.start()
    }

    func handle(_ path: String, _ handler: (@Sendable (RecordedRequest) -> Reply)?) {
        locked { handlers[path] = handler }
    }

    func route(_ path: String, _ replies: [Reply]) {
        locked {
            routes[path] = replies.isEmpty ? nil : Route(replies: replies)
        }
    }

    var recordedRequests: [RecordedRequest] {
        locked { recorded }
    }

    func stop() {
        locked {
            stopped = true
            // shutdown() (not close()) wakes threads blocked in recv/send/poll on these sockets
            // without freeing the descriptor numbers; each owner thread closes its own socket
            // under this lock, so a number can't be reused while we still refer to it.
            if listenerOpen { shutdown(listenFD, Int32(SHUT_RDWR)) }
            for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
            condition.broadcast()  // ends pending stalls / slow-body waits
        }
        // Bounded: the threads notice within one poll slice (50-100 ms).
        _ = threads.wait(timeout: .now() + 2)
    }

    // MARK: - Accepting

    private func acceptLoop() {
        defer {
            locked {
                close(listenFD)
                listenerOpen = false
            }
        }
        while !isStopped {
            // Poll with a timeout so the loop re-checks `stopped` even if no wake-up arrives.
            var pfd = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, 100)
            if ready < 0 && errno != EINTR { return }
            if ready <= 0 { continue }

            let client = accept(listenFD, nil, nil)
            if client < 0 {
                switch errno {
                case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO:
                    continue  // the peer vanished between poll and accept
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    usleep(10_000)  // resource pressure: back off instead of spinning
                    continue
                default:
                    return  // listener shut down (stop) or broken
                }
            }
            guard register(client) else {
                close(client)
                return
            }
            let thread = Thread { [self] in
                handle(client)
                threads.leave()
            }
            thread.name = "LoopbackServer.connection"
            thread.start()
        }
    }

    /// Records an accepted socket, unless the server is stopping.
    private func register(_ fd: Int32) -> Bool {
        locked {
            guard !stopped else { return false }
            connections.insert(fd)
            threads.enter()  // while the accept thread is still entered, so stop() waits for this one too
            return true
        }
    }

    // MARK: - One connection

    private func handle(_ fd: Int32) {
        defer {
            locked {
                connections.remove(fd)
                close(fd)
            }
        }
        // Bound every blocking recv/send, so a silent or non-reading client can't pin a thread.
        var timeout = timeval(tv_sec: ServerCore.socketTimeoutSeconds, tv_usec: 0)
        let size = socklen_t(MemoryLayout<timeval>.size)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, size)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, size)

        switch readHead(fd) {
        case .closed:
            return
        case .tooLarge:
            sendAll(fd, textResponse(400, "Request head larger than 64 KiB\n"))
        case .head(let bytes):
            guard let request = RequestParser.parse(bytes) else {
                sendAll(fd, textResponse(400, "Malformed request\n"))
                break
            }
            perform(reply(for: request), on: fd)
        }
        finish(fd)
    }

    private enum HeadResult {
        case head([UInt8])
        case tooLarge
        case closed
    }

    /// Reads until the blank line ending the request head, at most 64 KiB.
    private func readHead(_ fd: Int32) -> HeadResult {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return .closed }  // peer closed, timed out, or stop() shut us down
            let scanFrom = max(0, buffer.count - 3)  // the terminator may straddle two reads
            buffer.append(contentsOf: chunk[0..<count])
            if let end = RequestParser.headEnd(in: buffer, from: scanFrom) {
                return end <= RequestParser.maxHeadBytes ? .head(Array(buffer[0..<end])) : .tooLarge
            }
            if buffer.count > RequestParser.maxHeadBytes { return .tooLarge }
        }
    }

    /// Records the request and picks its reply (advancing the route's sequence).
    private func reply(for request: RecordedRequest) -> Reply {
        let path = RequestParser.routePath(request.path)
        let handler = locked { () -> (@Sendable (RecordedRequest) -> Reply)? in
            recorded.append(request)
            return handlers[path]
        }
        // Outside the lock: a handler may take its time (and its own locks).
        if let handler { return handler(request) }
        return locked {
            guard var route = routes[path] else {
                return .response(
                    status: 404, headers: [("Content-Type", "text/plain; charset=utf-8")],
                    body: Data("Not Found: \(path)\n".utf8))
            }
            let reply = route.replies[min(route.next, route.replies.count - 1)]
            route.next += 1
            routes[path] = route
            return reply
        }
    }

    private func perform(_ reply: Reply, on fd: Int32) {
        switch reply {
        case .response(let status, let headers, let body):
            var bytes = responseHead(status: status, headers: headers, contentLength: body.count)
            bytes.append(body)
            sendAll(fd, bytes)

        case .truncated(let status, let headers, let body, let declaredLength):
            var bytes = responseHead(
                status: status, headers: headers, contentLength: declaredLength, forceLength: true)
            bytes.append(body)
            sendAll(fd, bytes)

        case .stall(let seconds):
            _ = pause(until: Date().addingTimeInterval(Self.clampDelay(seconds)))

        case .slowBody(let status, let headers, let body, let chunk, let interval):
            guard sendAll(fd, responseHead(status: status, headers: headers, contentLength: body.count)) else {
                return
            }
            let pieceSize = max(1, chunk)
            let wait = Self.clampDelay(interval)
            let deadline = Date().addingTimeInterval(Self.maxDelay)
            var offset = 0
            while offset < body.count {
                let wake = Date().addingTimeInterval(wait)
                if wake > deadline {
                    // Out of time budget: hold until the bound, then close with the body incomplete.
                    _ = pause(until: deadline)
                    return
                }
                guard pause(until: wake) else { return }
                let end = min(body.count, offset + pieceSize)
                guard sendAll(fd, body.subdata(in: body.startIndex + offset ..< body.startIndex + end)) else {
                    return
                }
                offset = end
            }

        case .raw(let bytes):
            sendAll(fd, bytes)
        }
    }

    /// Ends a connection gracefully: half-close, then briefly drain what the client still
    /// sends until it closes. Closing with unread input makes the kernel send RST, and an
    /// RST can make the client drop response bytes it hasn't read yet.
    private func finish(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        let deadline = Date().addingTimeInterval(Self.lingerSeconds)
        var scratch = [UInt8](repeating: 0, count: 4096)
        while !isStopped && Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, 50)
            if ready < 0 && errno != EINTR { return }
            if ready <= 0 { continue }
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count == 0 { return }  // client closed: done
            if count < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK { return }
        }
    }

    // MARK: - Helpers

    private var isStopped: Bool { locked { stopped } }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    /// Sleeps until `deadline` unless `stop()` comes first; returns false if stopped.
    private func pause(until deadline: Date) -> Bool {
        locked {
            while !stopped && Date() < deadline {
                _ = condition.wait(until: deadline)
            }
            return !stopped
        }
    }

    /// Clamps a caller-supplied delay to 0...30 s (NaN counts as 0).
    private static func clampDelay(_ seconds: Double) -> Double {
        if seconds.isNaN { return 0 }
        return min(max(seconds, 0), maxDelay)
    }

    private func textResponse(_ status: Int, _ text: String) -> Data {
        var bytes = responseHead(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
            contentLength: text.utf8.count)
        bytes.append(Data(text.utf8))
        return bytes
    }

    /// Sends all of `data`; false if the peer went away or the send timed out.
    /// MSG_NOSIGNAL: a client that hung up must produce EPIPE, not kill the test process with SIGPIPE.
    @discardableResult
    private func sendAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 && errno == EINTR { continue }
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }
}
