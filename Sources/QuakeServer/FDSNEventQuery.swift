#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuakeKit

/// A request to the FDSN event service (`/fdsnws/event/1/query` and `count`), checked: every
/// parameter of FDSN Web Services 1.2 that a catalogue without picks can answer, their short
/// names too, read into the one ``EventFilter`` the command line, CQL2 and the items use.
struct FDSNEventQuery: Sendable {
    /// The order of the answer (FDSN `orderby`).
    enum Order: String, Sendable, CaseIterable {
        case time, timeAscending = "time-asc", magnitude, magnitudeAscending = "magnitude-asc"
    }

    /// A format of the answer (FDSN `format`).
    enum Format: String, Sendable, CaseIterable {
        case xml, text, geojson

        var contentType: String {
            switch self {
            case .xml: "application/xml"
            case .text: "text/plain; charset=utf-8"
            case .geojson: "application/geo+json"
            }
        }
    }

    /// Which events.
    var filter = EventFilter()
    /// `eventid`: this event alone (the other filters are not applied, as at the USGS).
    var eventID: String?
    /// The most events answered; `nil`: all of them (up to the service's cap).
    var limit: Int?
    /// Matching events skipped before the answer (FDSN's `offset` counts from 1).
    var skipped = 0
    var order = Order.time
    var format = Format.xml
    /// The status of an answer with no events: 204 (the default) or 404.
    var noData = 204

    /// The parameters, by their long names (the short ones are read as these), and what they take.
    static let parameters: [(name: String, type: String, short: String?)] = [
        ("starttime", "xs:dateTime", "start"), ("endtime", "xs:dateTime", "end"),
        ("minlatitude", "xs:double", "minlat"), ("maxlatitude", "xs:double", "maxlat"),
        ("minlongitude", "xs:double", "minlon"), ("maxlongitude", "xs:double", "maxlon"),
        ("latitude", "xs:double", "lat"), ("longitude", "xs:double", "lon"),
        ("minradius", "xs:double", nil), ("maxradius", "xs:double", nil),
        ("mindepth", "xs:double", nil), ("maxdepth", "xs:double", nil),
        ("minmagnitude", "xs:double", "minmag"), ("maxmagnitude", "xs:double", "maxmag"),
        ("magnitudetype", "xs:string", "magtype"), ("eventtype", "xs:string", nil),
        ("includeallorigins", "xs:boolean", nil), ("includeallmagnitudes", "xs:boolean", nil),
        ("includearrivals", "xs:boolean", nil), ("includefocalmechanism", "xs:boolean", nil),
        ("eventid", "xs:string", nil), ("limit", "xs:int", nil), ("offset", "xs:int", nil),
        ("orderby", "xs:string", nil), ("catalog", "xs:string", nil), ("contributor", "xs:string", nil),
        ("updatedafter", "xs:dateTime", nil), ("format", "xs:string", nil), ("nodata", "xs:int", nil),
    ]

    private static let longNames: [String: String] = {
        var names: [String: String] = [:]
        for parameter in parameters {
            names[parameter.name] = parameter.name
            if let short = parameter.short { names[short] = parameter.name }
        }
        return names
    }()

    /// Reads `given` (names without case, as FDSN services do).
    ///
    /// - Throws: ``FDSNFailure`` (400) naming the parameter and what was wrong.
    init(_ given: [(name: String, value: String)]) throws(FDSNFailure) {
        var values: [String: String] = [:]
        for (name, value) in given {
            guard let long = Self.longNames[name.lowercased()] else {
                throw .badRequest("Unsupported parameter '\(name)'. This service takes \(Self.parameters.map(\.name).joined(separator: ", ")).")
            }
            guard values.updateValue(value.trimmingCharacters(in: .whitespaces), forKey: long) == nil else {
                throw .badRequest("Parameter '\(long)' is given more than once.")
            }
        }
        func number(_ name: String, _ range: ClosedRange<Double>) throws(FDSNFailure) -> Double? {
            guard let text = values[name] else { return nil }
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw .badRequest("Parameter '\(name)': '\(text)' is not a number in \(Self.describe(range.lowerBound))…\(Self.describe(range.upperBound)).")
            }
            return value
        }
        func whole(_ name: String, from lowest: Int) throws(FDSNFailure) -> Int? {
            guard let text = values[name] else { return nil }
            guard let value = Int(text), value >= lowest else {
                throw .badRequest("Parameter '\(name)': '\(text)' is not a whole number of at least \(lowest).")
            }
            return value
        }
        func time(_ name: String) throws(FDSNFailure) -> Date? {
            guard let text = values[name] else { return nil }
            guard let date = TimeBound.span(text)?.lowerBound else {
                throw .badRequest("Parameter '\(name)': '\(text)' is not a time (YYYY-MM-DDThh:mm:ss[.ssssss], UTC, or a date).")
            }
            return date
        }
        func list(_ name: String) -> Set<String> {
            Set((values[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
        for name in ["includeallorigins", "includeallmagnitudes", "includearrivals", "includefocalmechanism"] {
            if let text = values[name], !["true", "false"].contains(text.lowercased()) {
                throw .badRequest("Parameter '\(name)': '\(text)' is not true or false.")
            }
        }

        filter.since = try time("starttime")
        filter.until = try time("endtime")
        if let since = filter.since, let until = filter.until, since > until {
            throw .badRequest("The start time \(CivilTime.iso8601(since)) is after the end time \(CivilTime.iso8601(until)).")
        }
        filter.updatedAfter = try time("updatedafter")

        let south = try number("minlatitude", -90...90), north = try number("maxlatitude", -90...90)
        let west = try number("minlongitude", -360...360), east = try number("maxlongitude", -360...360)
        if south != nil || north != nil || west != nil || east != nil {
            let box = (south: south ?? -90, north: north ?? 90, west: west ?? -180, east: east ?? 180)
            guard box.south <= box.north else { throw .badRequest("minlatitude \(box.south) is north of maxlatitude \(box.north).") }
            guard box.west <= box.east, box.east - box.west <= 360 else {
                throw .badRequest("minlongitude \(box.west) to maxlongitude \(box.east) is not a range of longitudes (west first, at most 360°).")
            }
            // Beyond ±180 (as the USGS takes them): the same box, across the antimeridian.
            func wrapped(_ longitude: Double) -> Double { longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude }
            filter.bbox = box.east - box.west >= 360
                ? GeoBox(uncheckedWest: -180, south: box.south, east: 180, north: box.north)
                : GeoBox(uncheckedWest: wrapped(box.west), south: box.south, east: wrapped(box.east), north: box.north)
        }
        let latitude = try number("latitude", -90...90), longitude = try number("longitude", -180...180)
        let minimumRadius = try number("minradius", 0...180), maximumRadius = try number("maxradius", 0...180)
        if latitude != nil || longitude != nil || minimumRadius != nil || maximumRadius != nil {
            let circle = GeoCircle(latitude: latitude ?? 0, longitude: longitude ?? 0, minimumRadius: minimumRadius ?? 0,
                                   maximumRadius: maximumRadius ?? 180)
            if let problem = circle.problem { throw .badRequest("The circle: \(problem).") }
            filter.circle = circle
        }
        filter.minimumDepth = try number("mindepth", -20...7000)
        filter.maximumDepth = try number("maxdepth", -20...7000)
        if let low = filter.minimumDepth, let high = filter.maximumDepth, low > high {
            throw .badRequest("mindepth \(Self.describe(low)) is deeper than maxdepth \(Self.describe(high)).")
        }
        filter.minimumMagnitude = try number("minmagnitude", -12...12)
        filter.maximumMagnitude = try number("maxmagnitude", -12...12)
        if let low = filter.minimumMagnitude, let high = filter.maximumMagnitude, low > high {
            throw .badRequest("minmagnitude \(Self.describe(low)) is above maxmagnitude \(Self.describe(high)).")
        }
        filter.magnitudeTypes = list("magnitudetype")
        filter.catalogs = list("catalog")
        filter.contributors = list("contributor")
        var types = Set<String>()
        for pattern in list("eventtype") {
            // Wildcards (FDSN 1.2) stand for QuakeML's words.
            guard pattern.contains("*") || pattern.contains("?") else {
                types.insert(pattern)
                continue
            }
            types.formUnion(EventType.quakeMLTypes.filter { Self.glob(pattern.lowercased(), matches: $0) })
            if types.isEmpty { types.insert("\u{0}no such type") }
        }
        filter.types = types
        eventID = values["eventid"]
        if eventID?.isEmpty == true { throw .badRequest("Parameter 'eventid' is empty.") }

        limit = try whole("limit", from: 1)
        skipped = try whole("offset", from: 1).map { $0 - 1 } ?? 0
        if let text = values["orderby"] {
            guard let order = Order(rawValue: text.lowercased()) else {
                throw .badRequest("Parameter 'orderby': '\(text)' is not one of \(Order.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            self.order = order
        }
        if let text = values["format"] {
            let word = text.lowercased() == "quakeml" ? "xml" : text.lowercased()
            guard let format = Format(rawValue: word) else {
                throw .badRequest("Parameter 'format': '\(text)' is not one of xml, text, geojson.")
            }
            self.format = format
        }
        if let text = values["nodata"] {
            guard let code = Int(text), code == 204 || code == 404 else {
                throw .badRequest("Parameter 'nodata': '\(text)' is not 204 or 404.")
            }
            noData = code
        }
    }

    /// Whether `name` matches a pattern of `*` (any run) and `?` (one character): the C
    /// library's `fnmatch`, without escapes (a type has no `\\`).
    static func glob(_ pattern: String, matches name: String) -> Bool {
        fnmatch(pattern, name, FNM_NOESCAPE) == 0
    }

    private static func describe(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// A refused FDSN request: its status and the detail the plain-text error body carries.
struct FDSNFailure: Error, Sendable, Equatable {
    var status: Int
    var detail: String

    static func badRequest(_ detail: String) -> FDSNFailure { FDSNFailure(status: 400, detail: detail) }
}
