import Foundation
import QuakeCatalogue
import QuakeKit

/// The query of an items, tile or map request, checked: which events it asks
/// for (`bbox`, `datetime`, `filter`) and which page (`limit`, `offset`).
struct FeatureQuery: Sendable {
    /// A page holds 1,000 events unless asked otherwise: the standard's 10 is
    /// an example, and a month of events in pages of 10 is 2,000 requests.
    /// 1,000 is also what GDAL (from 3.8) and QGIS's connection dialog ask for
    /// by default. Larger limits are lowered to the maximum, not refused; the
    /// OpenAPI document declares both.
    static let defaultLimit = 1000
    static let maximumLimit = 10_000

    /// Which events match.
    var filter = EventFilter()
    /// The page size.
    var limit: Int
    /// Matching events skipped before the page.
    var offset = 0
    /// Where the page begins: after the event of a `next` link's cursor (a catalogue's pages).
    var cursor: CatalogueCursor?
    /// The parameters as given, for the `next` link and cache keys (in request order).
    var parameters: [(name: String, value: String)]

    /// Reads `parameters`, refusing any not in `allowed` and any bad value.
    ///
    /// - Throws: ``Problem`` (400) naming the parameter.
    /// - Parameter formats: the values `f` may take here.
    init(_ parameters: [(name: String, value: String)], allowed: Set<String>, formats: Set<String> = ["json", "geojson"],
         defaultLimit: Int = defaultLimit, maximumLimit: Int = maximumLimit) throws(Problem) {
        self.parameters = parameters
        self.limit = defaultLimit
        var seen = Set<String>()
        var language = "cql2-text"
        var filterText: String?
        for (name, value) in parameters {
            guard allowed.contains(name) else {
                throw Problem.badParameter(name, "unknown parameter; this endpoint takes \(allowed.sorted().joined(separator: ", "))")
            }
            guard seen.insert(name).inserted else { throw Problem.badParameter(name, "given more than once") }
            switch name {
            case "bbox": filter.bbox = try Self.box(value)
            case "bbox-crs", "filter-crs":
                guard Self.isCRS84(value) else {
                    throw Problem.badParameter(name, "only CRS84 (http://www.opengis.net/def/crs/OGC/1.3/CRS84) is served")
                }
            case "datetime": (filter.since, filter.until) = try Self.interval(value)
            case "limit":
                // Digits beyond Int's range are a very large limit, lowered like any other.
                let digits = !value.isEmpty && value.allSatisfy { $0.isASCII && $0.isNumber }
                guard let number = Int(value) ?? (digits ? Int.max : nil), number >= 1 else {
                    throw Problem.badParameter(name, "'\(value)' is not a whole number of at least 1")
                }
                limit = min(number, maximumLimit)
            case "offset":
                guard let number = Int(value), number >= 0 else {
                    throw Problem.badParameter(name, "'\(value)' is not a whole number of at least 0")
                }
                offset = number
            case "cursor":
                guard let cursor = CatalogueCursor(token: value) else {
                    throw Problem.badParameter(name, "'\(value)' is not a cursor of this server: follow a next link as it is")
                }
                self.cursor = cursor
            case "filter": filterText = value
            case "filter-lang": language = value
            case "f":
                guard formats.contains(value) else {
                    throw Problem.badParameter(name, "'\(value)' is not served here; f may be \(formats.sorted().joined(separator: ", "))")
                }
            default: break
            }
        }
        guard language == "cql2-text" else {
            throw Problem.badParameter("filter-lang", "'\(language)' is not supported; use cql2-text")
        }
        if let filterText {
            // Every QuakeKit error describes itself by its message.
            do { filter.cql = try CQLFilter(filterText) } catch {
                throw Problem.badParameter("filter", "\(error)")
            }
        }
    }

    /// `W,S,E,N` in CRS84, read as `--bbox` reads it; W > E crosses the antimeridian.
    private static func box(_ text: String) throws(Problem) -> GeoBox {
        if text.split(separator: ",", omittingEmptySubsequences: false).count == 6 {
            throw Problem.badParameter("bbox", "six numbers (with heights) are not served; give W,S,E,N")
        }
        do { return try GeoBox(parsing: text) } catch {
            throw Problem.badParameter("bbox", "\(error)")
        }
    }

    private static func isCRS84(_ text: String) -> Bool {
        ["http://www.opengis.net/def/crs/OGC/1.3/CRS84", "[OGC:CRS84]", "OGC:CRS84"].contains(text)
    }

    /// An RFC 3339 instant or date, or an interval `start/end` with `..` or nothing for an open end.
    private static func interval(_ text: String) throws(Problem) -> (Date?, Date?) {
        let ends = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(ends.count) else { throw Problem.badParameter("datetime", "'\(text)' has more than one '/'") }
        if ends.count == 1 {
            let day = try moment(ends[0], text: text)
            // A date is the whole day; an instant is that instant.
            return (day.start, day.end)
        }
        let start = ends[0] == ".." || ends[0].isEmpty ? nil : try moment(ends[0], text: text).start
        let end = ends[1] == ".." || ends[1].isEmpty ? nil : try moment(ends[1], text: text).end
        if start == nil && end == nil { throw Problem.badParameter("datetime", "'\(text)' leaves both ends open") }
        if let start, let end, start > end { throw Problem.badParameter("datetime", "'\(text)' starts after it ends") }
        return (start, end)
    }

    /// The first and last millisecond an instant or a date covers (``TimeBound/span(_:)``, as on the command line).
    private static func moment(_ text: String, text whole: String) throws(Problem) -> (start: Date, end: Date) {
        guard let span = TimeBound.span(text) else {
            throw Problem.badParameter("datetime", "'\(whole)' is not an RFC 3339 time, date or interval (e.g. 2024-05-01T00:00:00Z/..)")
        }
        return (span.lowerBound, span.upperBound)
    }

    /// The parameters again, with `offset` and `cursor` replaced: the link to another page.
    func query(offset: Int, cursor: CatalogueCursor? = nil) -> String {
        var items = parameters.filter { $0.name != "offset" && $0.name != "cursor" }
        if let cursor { items.append(("cursor", cursor.token)) }
        if offset > 0 { items.append(("offset", String(offset))) }
        return items.map { "\(Self.escape($0.name))=\(Self.escape($0.value))" }.joined(separator: "&")
    }

    /// Percent-encodes all but RFC 3986's unreserved characters (ASCII letters, digits, `-._~`).
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
