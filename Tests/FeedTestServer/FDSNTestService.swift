import Foundation

/// One event of ``FDSNTestService``'s synthetic catalogue.
public struct SyntheticEvent: Sendable, Hashable {
    /// The event id.
    public var id: String
    /// The origin time.
    public var time: Date
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// Kilometres.
    public var depth: Double
    /// The magnitude (`ml`).
    public var magnitude: Double
    /// The event type (`earthquake`, `quarry blast`…).
    public var type: String
    /// When this version was made; of two versions of an id, the later one counts.
    public var updated: Date

    /// Creates an event; `updated` defaults to `time`.
    public init(id: String, time: Date, latitude: Double, longitude: Double, depth: Double, magnitude: Double,
                type: String = "earthquake", updated: Date? = nil) {
        self.id = id
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.depth = depth
        self.magnitude = magnitude
        self.type = type
        self.updated = updated ?? time
    }

    /// `count` events spread evenly over `start`…`end` (the latest first),
    /// with positions, depths, magnitudes and types that cycle so every filter
    /// keeps some and drops some.
    public static func catalogue(count: Int, start: Date, end: Date) -> [SyntheticEvent] {
        let span = end.timeIntervalSince(start)
        let types = ["earthquake", "earthquake", "earthquake", "quarry blast", "explosion"]
        return (0..<count).map { index in
            let time = end.addingTimeInterval(-span * Double(index) / Double(max(1, count)))
            return SyntheticEvent(
                id: "sy\(index)", time: time,
                latitude: Double((index * 37) % 170) - 85, longitude: Double((index * 53) % 360) - 180 + 0.5,
                depth: Double((index * 11) % 600), magnitude: 2.0 + Double((index * 7) % 50) / 10,
                type: types[index % types.count])
        }
    }
}

/// An FDSN event service on 127.0.0.1 over a synthetic catalogue: `query`
/// and `count` with the standard filters, a cap answered like USGS (HTTP 400
/// above it) or like others (cut at the cap), 204 or 404 for no data, and
/// faults served before any answer. Requests are recorded by the server.
public final class FDSNTestService: @unchecked Sendable {
    // @unchecked: every mutable property is touched only under `lock`.
    /// How the service answers a query matching more events than its cap.
    public enum OverCap: Sendable {
        /// HTTP 400, "… exceeds search limit of CAP" (USGS).
        case refuse
        /// The first CAP events in order, as if that were all (many others).
        case truncate
    }

    /// The server; its `requests` are the requests the service got.
    public let server: LoopbackServer
    private let lock = NSLock()
    private var _catalogue: [SyntheticEvent] = []
    private var _cap = 500
    private var _overCap = OverCap.refuse
    private var _hasCount = true
    private var _formats: Set<String> = ["csv", "text", "xml", "geojson"]
    private var _acceptsMechanisms = true
    private var _acceptsOffset = true
    private var _nodata = 204
    private var _faults: [Reply] = []
    private var _delay: Double = 0
    private var inFlight = 0
    private var _peakInFlight = 0

    /// The path of the service, ending in `/`.
    public static let path = "/fdsnws/event/1/"

    /// Starts a service on a new loopback server.
    public init(catalogue: [SyntheticEvent] = []) throws {
        server = try LoopbackServer()
        _catalogue = catalogue
        server.handle(Self.path + "query") { [unowned self] request in self.answer(request, counting: false) }
        server.handle(Self.path + "count") { [unowned self] request in self.answer(request, counting: true) }
    }

    /// The base URL to give `--fdsn`.
    public var baseURL: String { server.baseURL + Self.path }

    private func locked<T>(_ body: () -> T) -> T { lock.withLock(body) }

    /// The events served.
    public var catalogue: [SyntheticEvent] {
        get { locked { _catalogue } }
        set { locked { _catalogue = newValue } }
    }
    /// The most events one answer holds. Default 500.
    public var cap: Int {
        get { locked { _cap } }
        set { locked { _cap = newValue } }
    }
    /// What happens above the cap. Default: refuse.
    public var overCap: OverCap {
        get { locked { _overCap } }
        set { locked { _overCap = newValue } }
    }
    /// Whether `count` exists (else 404). Default true.
    public var hasCount: Bool {
        get { locked { _hasCount } }
        set { locked { _hasCount = newValue } }
    }
    /// Whether FDSN's optional `offset` is taken (else a 400, as for an unknown parameter). Default taken.
    public var acceptsOffset: Bool {
        get { locked { _acceptsOffset } }
        set { locked { _acceptsOffset = newValue } }
    }
    /// Whether `includefocalmechanism` is taken (SeisComP) or refused with a 400 as unknown. Default taken.
    public var acceptsMechanisms: Bool {
        get { locked { _acceptsMechanisms } }
        set { locked { _acceptsMechanisms = newValue } }
    }

    /// The formats offered (others: 400 "unsupported format"). Default csv, text, xml, geojson.
    public var formats: Set<String> {
        get { locked { _formats } }
        set { locked { _formats = newValue } }
    }
    /// The status for no data: 204 (the default) or 404.
    public var nodata: Int {
        get { locked { _nodata } }
        set { locked { _nodata = newValue } }
    }
    /// Replies sent, one each, to the next requests before any real answer.
    public var faults: [Reply] {
        get { locked { _faults } }
        set { locked { _faults = newValue } }
    }

    /// Seconds each answer takes (at most 5), so that requests overlap. Default 0.
    public var delay: Double {
        get { locked { _delay } }
        set { locked { _delay = min(5, max(0, newValue)) } }
    }
    /// The most requests that were being answered at once.
    public var peakInFlight: Int { locked { _peakInFlight } }

    /// The query parameters of every recorded request to `method` (`query` or `count`).
    public func parameters(of method: String) -> [[String: String]] {
        server.requests.filter { RequestParser.routePath($0.path) == Self.path + method }.map { Self.query($0.path) }
    }

    static func query(_ target: String) -> [String: String] {
        var result: [String: String] = [:]
        for item in URLComponents(string: target)?.queryItems ?? [] { result[item.name] = item.value ?? "" }
        return result
    }

    private func answer(_ request: RecordedRequest, counting: Bool) -> Reply {
        let delay = locked { () -> Double in
            inFlight += 1
            _peakInFlight = max(_peakInFlight, inFlight)
            return _delay
        }
        defer { locked { inFlight -= 1 } }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        let state = locked { () -> (fault: Reply?, events: [SyntheticEvent], cap: Int, overCap: OverCap, hasCount: Bool,
                                    formats: Set<String>, nodata: Int) in
            let fault = _faults.isEmpty ? nil : _faults.removeFirst()
            return (fault, _catalogue, _cap, _overCap, _hasCount, _formats, _nodata)
        }
        if let fault = state.fault { return fault }
        if counting && !state.hasCount { return Self.error(404, "Not Found", "No such method: count", request: request.path) }
        let parameters = Self.query(request.path)
        var matching: [SyntheticEvent]
        do { matching = try Self.filter(state.events, parameters) } catch {
            return Self.error(400, "Bad Request", "\(error)", request: request.path)
        }
        matching.sort { $0.time > $1.time }
        if let offset = parameters["offset"] {
            guard locked({ _acceptsOffset }) else {
                return Self.error(400, "Bad Request", "Unknown parameter: offset", request: request.path)
            }
            guard let first = Int(offset), first >= 1 else {
                return Self.error(400, "Bad Request", "offset: '\(offset)' is not a positive integer", request: request.path)
            }
            matching = Array(matching.dropFirst(first - 1))
        }
        if counting { return .response(status: 200, headers: [("Content-Type", "text/plain")], body: "\(matching.count)\n") }
        let format = parameters["format"] ?? "xml"
        guard state.formats.contains(format) else {
            return Self.error(400, "Bad Request", "Unsupported format '\(format)': use one of \(state.formats.sorted().joined(separator: ", "))", request: request.path)
        }
        // Like SeisComP: mechanisms in QuakeML when asked; like USGS, an unknown parameter is a 400.
        let mechanisms = parameters["includefocalmechanism"] == "true"
        if parameters["includefocalmechanism"] != nil && !locked({ _acceptsMechanisms }) {
            return Self.error(400, "Bad Request", "Unknown parameter: includefocalmechanism", request: request.path)
        }
        let limit = parameters["limit"].flatMap(Int.init)
        if matching.count > state.cap && state.overCap == .refuse && (limit ?? Int.max) > state.cap {
            return Self.error(400, "Bad Request",
                              "\(matching.count) matching events exceeds search limit of \(state.cap). Modify the search to match fewer events.",
                              request: request.path)
        }
        matching = Array(matching.prefix(min(limit ?? Int.max, state.cap)))
        if matching.isEmpty {
            return state.nodata == 404 ? Self.error(404, "Not Found", "No data matches the request", request: request.path) : .response(status: 204)
        }
        return .response(status: 200, headers: [("Content-Type", format == "xml" ? "application/xml" : format == "geojson" ? "application/json" : "text/plain")],
                         body: Data(Self.body(matching, format: format, mechanisms: mechanisms).utf8))
    }

    struct BadParameter: Error, CustomStringConvertible {
        let description: String
    }

    static func filter(_ events: [SyntheticEvent], _ parameters: [String: String]) throws -> [SyntheticEvent] {
        func number(_ name: String) throws -> Double? {
            guard let text = parameters[name] else { return nil }
            guard let value = Double(text) else { throw BadParameter(description: "\(name): '\(text)' is not a number") }
            return value
        }
        func time(_ name: String) throws -> Date? {
            guard let text = parameters[name] else { return nil }
            guard let value = Self.parseTime(text) else { throw BadParameter(description: "\(name): '\(text)' is not a time") }
            return value
        }
        let start = try time("starttime"), end = try time("endtime"), updatedAfter = try time("updatedafter")
        let minLat = try number("minlatitude"), maxLat = try number("maxlatitude")
        let minLon = try number("minlongitude"), maxLon = try number("maxlongitude")
        let minDepth = try number("mindepth"), maxDepth = try number("maxdepth")
        let minMag = try number("minmagnitude"), maxMag = try number("maxmagnitude")
        let types = parameters["eventtype"].map { Set($0.split(separator: ",").map(String.init)) }
        // Refused whatever the window, as services do: splitting cannot help.
        if let minMag, let maxMag, minMag > maxMag {
            throw BadParameter(description: "Bad minmagnitude: minmagnitude exceeds maxmagnitude")
        }
        return events.filter { event in
            if let start, event.time < start { return false }
            if let end, event.time > end { return false }
            if let updatedAfter, event.updated <= updatedAfter { return false }
            if let minLat, event.latitude < minLat { return false }
            if let maxLat, event.latitude > maxLat { return false }
            let west = minLon ?? -180, east = maxLon ?? 180
            if !(west...east).contains(event.longitude) && !(west...east).contains(event.longitude + 360) { return false }
            if let minDepth, event.depth < minDepth { return false }
            if let maxDepth, event.depth > maxDepth { return false }
            if let minMag, event.magnitude < minMag { return false }
            if let maxMag, event.magnitude > maxMag { return false }
            if let types, !types.contains(event.type) { return false }
            return true
        }
    }

    /// A time as FDSN services read it, with or without the zone letter.
    public static func parseTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter.date(from: text.hasSuffix("Z") ? text : text + "Z")
    }

    /// A time as the feeds write it: `2026-11-21T10:00:00.000Z`.
    public static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// The focal mechanism the service gives an event when asked: a thrust whose strike is the event's
    /// position in the catalogue's order (its id's number), so a test can tell them apart.
    public static func mechanismStrike(of event: SyntheticEvent) -> Int {
        Int(event.id.filter(\.isNumber).suffix(6)).map { $0 % 360 } ?? 0
    }

    static func body(_ events: [SyntheticEvent], format: String, mechanisms: Bool = false) -> String {
        switch format {
        case "text":
            return "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType\n"
                + events.map { event in
                    "\(event.id)|\(timestamp(event.time).dropLast())|\(event.latitude)|\(event.longitude)|\(event.depth)|SY|SY|SY|\(event.id)|ml|\(event.magnitude)|SY|Synthetic region|\(event.type)\n"
                }.joined()
        case "geojson":
            let features = events.map { event in
                """
                {"type":"Feature","id":"\(event.id)","properties":{"mag":\(event.magnitude),"magType":"ml","place":"Synthetic region, \(event.id)",\
                "time":\(Int64((event.time.timeIntervalSince1970 * 1000).rounded())),"updated":\(Int64((event.updated.timeIntervalSince1970 * 1000).rounded())),\
                "type":"\(event.type)","net":"sy"},"geometry":{"type":"Point","coordinates":[\(event.longitude),\(event.latitude),\(event.depth)]}}
                """
            }
            return "{\"type\":\"FeatureCollection\",\"metadata\":{\"generated\":1795132800000,\"title\":\"Synthetic FDSN\"},\"features\":[\n"
                + features.joined(separator: ",\n") + "\n]}\n"
        case "xml":
            let events = events.map { event in
                """
                <event publicID="smi:sy/event/\(event.id)"><type>\(event.type)</type>\
                <description><text>Synthetic region</text><type>region name</type></description>\
                <preferredOriginID>smi:sy/origin/\(event.id)</preferredOriginID>\
                <preferredMagnitudeID>smi:sy/magnitude/\(event.id)</preferredMagnitudeID>\
                <origin publicID="smi:sy/origin/\(event.id)"><time><value>\(timestamp(event.time))</value></time>\
                <latitude><value>\(event.latitude)</value></latitude><longitude><value>\(event.longitude)</value></longitude>\
                <depth><value>\(event.depth * 1000)</value></depth></origin>\
                <magnitude publicID="smi:sy/magnitude/\(event.id)"><mag><value>\(event.magnitude)</value></mag><type>ml</type></magnitude>\
                \(mechanisms ? "<focalMechanism publicID=\"smi:sy/fm/\(event.id)\"><nodalPlanes><nodalPlane1><strike><value>\(mechanismStrike(of: event))</value></strike><dip><value>30</value></dip><rake><value>90</value></rake></nodalPlane1></nodalPlanes></focalMechanism>" : "")\
                <creationInfo><creationTime>\(timestamp(event.updated))</creationTime></creationInfo></event>

                """
            }.joined()
            return """
                <?xml version="1.0" encoding="UTF-8"?>
                <q:quakeml xmlns="http://quakeml.org/xmlns/bed/1.2" xmlns:q="http://quakeml.org/xmlns/quakeml/1.2">
                <eventParameters publicID="smi:sy/catalogue">
                \(events)</eventParameters>
                </q:quakeml>

                """
        default:
            return "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type\n"
                + events.map { event in
                    "\(timestamp(event.time)),\(event.latitude),\(event.longitude),\(event.depth),\(event.magnitude),ml,,,,,sy,\(event.id),\(timestamp(event.updated)),\"Synthetic region, \(event.id)\",\(event.type)\n"
                }.joined()
        }
    }

    /// An FDSN error document with `status` (503 and 429 say when to come back).
    public static func errorReply(_ status: Int, retryAfter: Int? = nil) -> Reply {
        var reply = error(status, reasonPhrase(status), "Try again later")
        if let retryAfter, case let .response(status, headers, body) = reply {
            reply = .response(status: status, headers: headers + [("Retry-After", String(retryAfter))], body: body)
        }
        return reply
    }

    /// An FDSN error document, laid out as the specification has it: the
    /// request is echoed whole, every parameter (`format=` too) included.
    static func error(_ status: Int, _ title: String, _ detail: String, request: String = "") -> Reply {
        .response(status: status, headers: [("Content-Type", "text/plain")],
                  body: "Error \(status): \(title)\n\n\(detail)\n\nUsage details are available from \(path)\n\n"
                      + "Request:\n\(request)\n\nRequest Submitted:\n2026-11-26T00:00:00\n\nService version:\n1.0.0-test\n")
    }
}
