import Foundation

/// A format an FDSN event service can answer in (`format=`).
public enum FDSNFormat: String, Sendable, Hashable, CaseIterable {
    /// The FDSN text format (`#EventID|Time|Latitude|…`).
    case text
    /// The USGS CSV columns (the summary feeds' CSV).
    case csv
    /// QuakeML 1.2; every service offers it.
    case xml
    /// The USGS GeoJSON summary layout (USGS offers it; asked only with `--fdsn-format geojson`).
    case geojson

    /// Whether the format says when each event was last updated, which `ingest --sync` needs to
    /// ask next time only for what changed: FDSN text has no such column.
    public var carriesUpdateTimes: Bool { self != .text }
}

/// An FDSN event web service: where it is and what it is known to offer.
///
/// Capabilities of the short-named services come from their own documentation
/// (see docs/fdsn.md); an unknown base URL is assumed to offer `text` and `xml`,
/// a `count` method is tried once, and responses are assumed capped at
/// ``defaultPageSize``.
public struct FDSNService: Sendable, Hashable {
    /// The largest page asked of a service whose cap is not documented.
    package static let defaultPageSize = 10_000

    /// The short name (`usgs`), or `nil` for a base URL given as such.
    package var name: String?
    /// The base URL, ending in `/` (`https://earthquake.usgs.gov/fdsnws/event/1/`).
    package var baseURL: String
    /// Formats in order of preference; the first is asked, `xml` is the fallback.
    package var formats: [FDSNFormat]
    /// Whether the service has the `count` method; `nil`: unknown, try once.
    package var hasCount: Bool?
    /// The most events one response holds: above it the service refuses (USGS,
    /// HTTP 400) or truncates at its `limit`.
    package var pageSize: Int
    /// Whether `eventtype=` filters (FDSN 1.2, implemented by USGS).
    package var filtersEventType: Bool
    /// Whether longitudes beyond ±180 are accepted, so a box across 180° is one
    /// request (`minlongitude=170&maxlongitude=190`); otherwise two.
    package var acceptsWrappedLongitudes: Bool
    /// Whether `updatedafter` is honoured (an optional FDSN parameter): USGS and
    /// SeisComP (GEOFON) take it; for a service given by URL it is tried.
    package var filtersUpdatedAfter: Bool
    /// How the service is asked to put focal mechanisms and moment tensors in its QuakeML
    /// (`includefocalmechanism`, SeisComP's parameter, which GEOFON serves and a service
    /// given by URL is asked with), or why it cannot be (docs/fdsn.md says what each offers).
    package var mechanisms: MechanismSupport

    /// Whether and how a service's event lists carry focal mechanisms.
    package enum MechanismSupport: Sendable, Hashable {
        /// Sent as `name=true` with `format=xml`.
        case parameter(String)
        /// Not in its event lists: the reason, and where they are instead.
        case unavailable(String)
    }

    /// Creates a service description.
    package init(name: String?, baseURL: String, formats: [FDSNFormat], hasCount: Bool?, pageSize: Int,
                filtersEventType: Bool, acceptsWrappedLongitudes: Bool, filtersUpdatedAfter: Bool = true,
                mechanisms: MechanismSupport = .parameter("includefocalmechanism")) {
        self.mechanisms = mechanisms
        self.filtersUpdatedAfter = filtersUpdatedAfter
        self.name = name
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.formats = formats
        self.hasCount = hasCount
        self.pageSize = pageSize
        self.filtersEventType = filtersEventType
        self.acceptsWrappedLongitudes = acceptsWrappedLongitudes
    }

    /// The services known by a short name.
    package static let known: [String: FDSNService] = [
        // 20,000 events per query (HTTP 400 above, and `count` says `maxAllowed`).
        "usgs": FDSNService(name: "usgs", baseURL: "https://earthquake.usgs.gov/fdsnws/event/1/",
                            formats: [.csv, .text, .xml], hasCount: true, pageSize: 20_000,
                            filtersEventType: true, acceptsWrappedLongitudes: true,
                            mechanisms: .unavailable("the USGS service's event lists carry no focal mechanisms; each event's detail GeoJSON has them: quakemap reads it with --url 'https://earthquake.usgs.gov/fdsnws/event/1/query?eventid=ID&format=geojson'")),
        // xml, text and json; longitudes -360…360; no documented cap.
        "emsc": FDSNService(name: "emsc", baseURL: "https://www.seismicportal.eu/fdsnws/event/1/",
                            formats: [.text, .xml], hasCount: false, pageSize: defaultPageSize,
                            filtersEventType: false, acceptsWrappedLongitudes: true, filtersUpdatedAfter: false,
                            mechanisms: .unavailable("the EMSC's FDSN service documents no focal mechanisms in its event lists; the EMSC publishes moment tensors through a separate service")),
        // SeisComP fdsnws: QuakeML and text.
        "geofon": FDSNService(name: "geofon", baseURL: "https://geofon.gfz-potsdam.de/fdsnws/event/1/",
                              formats: [.text, .xml], hasCount: false, pageSize: defaultPageSize,
                              filtersEventType: false, acceptsWrappedLongitudes: false),
        // The ISC Bulletin: QuakeML (and ISF, which quakemap does not read).
        "isc": FDSNService(name: "isc", baseURL: "https://www.isc.ac.uk/fdsnws/event/1/",
                           formats: [.xml], hasCount: false, pageSize: defaultPageSize,
                           filtersEventType: false, acceptsWrappedLongitudes: false, filtersUpdatedAfter: false,
                           mechanisms: .unavailable("quakemap knows of no parameter that puts focal mechanisms in the ISC service's event lists; give its base URL to --fdsn to try SeisComP's includefocalmechanism anyway")),
    ]

    /// The service `text` names: a short name or an http(s) base URL (with or
    /// without the trailing `/`, or ending in `/query`).
    public static func named(_ text: String) throws(FDSNError) -> FDSNService {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let known = known[trimmed.lowercased()] { return known }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil, url.query == nil else {
            throw .unknownService(text, known: known.keys.sorted())
        }
        var base = trimmed
        for suffix in ["/query", "/query/"] where base.hasSuffix(suffix) { base.removeLast(suffix.count) }
        return FDSNService(name: nil, baseURL: base, formats: [.text, .xml], hasCount: nil,
                           pageSize: defaultPageSize, filtersEventType: false, acceptsWrappedLongitudes: false)
    }

    /// `base` + `query`.
    package var queryURL: String { baseURL + "query" }
    /// `base` + `count`.
    package var countURL: String { baseURL + "count" }
}
