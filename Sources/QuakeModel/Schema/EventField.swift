/// Every field an event can carry, once: its kind and unit, and its name in each format that
/// has it. Readers, writers, the catalogue's columns, CQL2's queryables and the server's
/// documents all follow this list, so a new field is one case here and one entry in `spec`.
///
/// The canonical ``name`` is the USGS GeoJSON property where one exists (`mag`, `gap`,
/// `alert`), else the USGS CSV column (`horizontalError`), else a name in the same style.
/// A meaning has one field, whatever each format calls it: FDSN text's `Contributor` is
/// `net`, QuakeML's azimuthal gap is `gap`, FDSN text's `Author` is `locationSource`.
public enum EventField: UInt8, CaseIterable, Sendable, Hashable, Codable, Comparable {
    // The USGS CSV's 22 columns, in its order.
    /// Origin time (UTC).
    case time
    /// Latitude of the epicentre.
    case latitude
    /// Longitude of the epicentre.
    case longitude
    /// Depth below sea level.
    case depth
    /// Preferred magnitude.
    case mag
    /// Magnitude type (ml, mb, mww…).
    case magType
    /// Stations used to locate the event.
    case nst
    /// Largest azimuthal gap between stations.
    case gap
    /// Distance to the nearest station.
    case dmin
    /// Root-mean-square travel-time residual.
    case rms
    /// Contributing network.
    case net
    /// Event id.
    case id
    /// When the event was last updated (UTC).
    case updated
    /// Named place.
    case place
    /// Event type (earthquake, quarry blast…).
    case type
    /// Horizontal location uncertainty.
    case horizontalError
    /// Depth uncertainty.
    case depthError
    /// Magnitude uncertainty.
    case magError
    /// Stations used for the magnitude.
    case magNst
    /// Review status (automatic, reviewed…).
    case status
    /// Network that located the event.
    case locationSource
    /// Network that gave the magnitude.
    case magSource
    // The USGS GeoJSON summary's other properties.
    /// Time zone offset at the epicentre (retired by USGS).
    case tz
    /// Web page of the event.
    case url
    /// Detail document of the event.
    case detail
    /// Felt reports (Did You Feel It?).
    case felt
    /// Largest community intensity (Did You Feel It?).
    case cdi
    /// Largest instrumental intensity (ShakeMap).
    case mmi
    /// PAGER alert level (green, yellow, orange, red).
    case alert
    /// 1 where a tsunami message was issued, else 0.
    case tsunami
    /// Significance (0…1000+).
    case sig
    /// Event code at the network.
    case code
    /// Every id of the event, comma-separated.
    case ids
    /// Every network with an id, comma-separated.
    case sources
    /// Product types of the event, comma-separated.
    case types
    /// Title (magnitude and place).
    case title
    // FDSN text's columns that have no USGS name.
    /// Catalogue the event comes from.
    case catalog
    /// Event id at the contributor.
    case contributorId
    // QuakeML 1.2's origin and magnitude quantities that have no USGS name.
    /// Latitude uncertainty.
    case latitudeError
    /// Longitude uncertainty.
    case longitudeError
    /// Origin time uncertainty.
    case timeError
    /// Phases used to locate the event.
    case usedPhaseCount
    /// Phases associated with the event.
    case associatedPhaseCount
    /// Stations associated with the event.
    case associatedStationCount
    /// Author of the location.
    case author
    // quakemap's own, written by `quakemap decluster`: never in a feed nor a catalogue.
    /// The cluster declustering put the event in.
    case clusterId
    /// 1 where declustering kept the event as its cluster's mainshock, else 0.
    case mainshock

    /// What a field holds.
    package enum Kind: String, Sendable, Hashable {
        /// Text, kept as given (trimmed).
        case text
        /// A real number.
        case number
        /// A whole number.
        case integer
        /// An instant (UTC).
        case time
    }

    /// A field's names and description.
    package struct Spec: Sendable, Hashable {
        /// The canonical name: CQL2's queryable, the OGC items' property, `--columns`' word.
        package let name: String
        /// What the field holds.
        package let kind: Kind
        /// The unit of a number (`km`, `deg`, `s`), as the USGS CSV and GeoJSON give it.
        package let unit: String?
        /// One line for documentation and `/queryables`.
        package let title: String
        /// The USGS CSV column, when that format has the field.
        package let csvColumn: String?
        /// The USGS GeoJSON summary property (or `geometry` for a coordinate), when that layout has it.
        package let geoJSONProperty: String?
        /// The FDSN event text column, when that format has it.
        package let fdsnTextColumn: String?
        /// Where QuakeML 1.2 keeps it (a path below `event`), with its unit when it differs.
        package let quakeML: String?
        /// The catalogue's column.
        package let column: String
        /// Whether the catalogue keeps the field: not for what a command computes from a
        /// selection (`clusterId`, `mainshock`), which would need a column nothing fills.
        package let catalogued: Bool

        /// The column's SQL type in SQLite.
        package var sqliteType: String {
            switch kind {
            case .text: "TEXT"
            case .number: "REAL"
            case .integer, .time: "INTEGER"
            }
        }

        /// The column's SQL type in PostgreSQL.
        package var postgresType: String {
            switch kind {
            case .text: "text"
            case .number: "double precision"
            case .integer, .time: "bigint"
            }
        }
    }

    /// The canonical name: CQL2's queryable, the OGC items' property, `--columns`' word.
    public var name: String { spec.name }

    /// This field's names, kind and unit (made once: readers and writers ask for every value).
    package var spec: Spec { Self.specs[Int(rawValue)] }

    private static let specs: [Spec] = allCases.map(\.makeSpec)

    /// This field's kind: ``spec``'s, without copying the spec's texts (readers and writers ask
    /// it for every value).
    package var kind: Kind { Self.kinds[Int(rawValue)] }

    private static let kinds: [Kind] = specs.map(\.kind)

    private var makeSpec: Spec {
        func field(_ name: String, _ kind: Kind, _ unit: String? = nil, _ title: String, csv: String? = nil,
                   geoJSON: String? = nil, fdsn: String? = nil, quakeML: String? = nil, column: String? = nil,
                   catalogued: Bool = true) -> Spec {
            Spec(name: name, kind: kind, unit: unit, title: title, csvColumn: csv, geoJSONProperty: geoJSON,
                 fdsnTextColumn: fdsn, quakeML: quakeML, column: column ?? Self.snakeCase(name), catalogued: catalogued)
        }
        switch self {
        case .time:
            return field("time", .time, nil, "Origin time (UTC)", csv: "time", geoJSON: "time", fdsn: "Time",
                         quakeML: "origin/time/value", column: "time_ms")
        case .latitude:
            return field("latitude", .number, "deg", "Latitude of the epicentre", csv: "latitude", geoJSON: "geometry",
                         fdsn: "Latitude", quakeML: "origin/latitude/value")
        case .longitude:
            return field("longitude", .number, "deg", "Longitude of the epicentre", csv: "longitude", geoJSON: "geometry",
                         fdsn: "Longitude", quakeML: "origin/longitude/value")
        case .depth:
            return field("depth", .number, "km", "Depth below sea level", csv: "depth", geoJSON: "geometry",
                         fdsn: "Depth/km", quakeML: "origin/depth/value (m)")
        case .mag:
            return field("mag", .number, nil, "Preferred magnitude", csv: "mag", geoJSON: "mag", fdsn: "Magnitude",
                         quakeML: "magnitude/mag/value", column: "magnitude")
        case .magType:
            return field("magType", .text, nil, "Magnitude type (ml, mb, mww…)", csv: "magType", geoJSON: "magType",
                         fdsn: "MagType", quakeML: "magnitude/type", column: "magnitude_type")
        case .nst:
            return field("nst", .integer, nil, "Stations used to locate the event", csv: "nst", geoJSON: "nst",
                         quakeML: "origin/quality/usedStationCount")
        case .gap:
            return field("gap", .number, "deg", "Largest azimuthal gap between stations", csv: "gap", geoJSON: "gap",
                         quakeML: "origin/quality/azimuthalGap")
        case .dmin:
            return field("dmin", .number, "deg", "Distance to the nearest station", csv: "dmin", geoJSON: "dmin",
                         quakeML: "origin/quality/minimumDistance")
        case .rms:
            return field("rms", .number, "s", "Root-mean-square travel-time residual", csv: "rms", geoJSON: "rms",
                         quakeML: "origin/quality/standardError")
        case .net:
            return field("net", .text, nil, "Contributing network", csv: "net", geoJSON: "net", fdsn: "Contributor",
                         quakeML: "creationInfo/agencyID", column: "network")
        case .id:
            return field("id", .text, nil, "Event id", csv: "id", geoJSON: "id", fdsn: "EventID",
                         quakeML: "@publicID (last path segment)")
        case .updated:
            return field("updated", .time, nil, "When the event was last updated (UTC)", csv: "updated",
                         geoJSON: "updated", quakeML: "creationInfo/creationTime", column: "updated_ms")
        case .place:
            return field("place", .text, nil, "Named place", csv: "place", geoJSON: "place", fdsn: "EventLocationName",
                         quakeML: "description[type=region name]/text")
        case .type:
            return field("type", .text, nil, "Event type (earthquake, quarry blast…)", csv: "type", geoJSON: "type",
                         fdsn: "EventType", quakeML: "type", column: "event_type")
        case .horizontalError:
            return field("horizontalError", .number, "km", "Horizontal location uncertainty", csv: "horizontalError",
                         quakeML: "origin/originUncertainty/horizontalUncertainty (m)")
        case .depthError:
            return field("depthError", .number, "km", "Depth uncertainty", csv: "depthError",
                         quakeML: "origin/depth/uncertainty (m)")
        case .magError:
            return field("magError", .number, nil, "Magnitude uncertainty", csv: "magError",
                         quakeML: "magnitude/mag/uncertainty")
        case .magNst:
            return field("magNst", .integer, nil, "Stations used for the magnitude", csv: "magNst",
                         quakeML: "magnitude/stationCount")
        case .status:
            return field("status", .text, nil, "Review status (automatic, reviewed…)", csv: "status", geoJSON: "status",
                         quakeML: "origin/evaluationMode and evaluationStatus")
        case .locationSource:
            return field("locationSource", .text, nil, "Network that located the event", csv: "locationSource",
                         fdsn: "Author", quakeML: "origin/creationInfo/agencyID")
        case .magSource:
            return field("magSource", .text, nil, "Network that gave the magnitude", csv: "magSource",
                         fdsn: "MagAuthor", quakeML: "magnitude/creationInfo/agencyID")
        case .tz:
            return field("tz", .integer, "min", "Time zone offset at the epicentre (retired by USGS)", geoJSON: "tz")
        case .url:
            return field("url", .text, nil, "Web page of the event", geoJSON: "url")
        case .detail:
            return field("detail", .text, nil, "Detail document of the event", geoJSON: "detail")
        case .felt:
            return field("felt", .integer, nil, "Felt reports (Did You Feel It?)", geoJSON: "felt")
        case .cdi:
            return field("cdi", .number, nil, "Largest community intensity (Did You Feel It?)", geoJSON: "cdi")
        case .mmi:
            return field("mmi", .number, nil, "Largest instrumental intensity (ShakeMap)", geoJSON: "mmi")
        case .alert:
            return field("alert", .text, nil, "PAGER alert level (green, yellow, orange, red)", geoJSON: "alert")
        case .tsunami:
            return field("tsunami", .integer, nil, "1 where a tsunami message was issued, else 0", geoJSON: "tsunami")
        case .sig:
            return field("sig", .integer, nil, "Significance (0…1000+)", geoJSON: "sig")
        case .code:
            return field("code", .text, nil, "Event code at the network", geoJSON: "code")
        case .ids:
            return field("ids", .text, nil, "Every id of the event, comma-separated", geoJSON: "ids")
        case .sources:
            return field("sources", .text, nil, "Every network with an id, comma-separated", geoJSON: "sources")
        case .types:
            return field("types", .text, nil, "Product types of the event, comma-separated", geoJSON: "types")
        case .title:
            return field("title", .text, nil, "Title (magnitude and place)", geoJSON: "title")
        case .catalog:
            return field("catalog", .text, nil, "Catalogue the event comes from", fdsn: "Catalog")
        case .contributorId:
            return field("contributorId", .text, nil, "Event id at the contributor", fdsn: "ContributorID")
        case .latitudeError:
            return field("latitudeError", .number, "deg", "Latitude uncertainty", quakeML: "origin/latitude/uncertainty")
        case .longitudeError:
            return field("longitudeError", .number, "deg", "Longitude uncertainty", quakeML: "origin/longitude/uncertainty")
        case .timeError:
            return field("timeError", .number, "s", "Origin time uncertainty", quakeML: "origin/time/uncertainty")
        case .usedPhaseCount:
            return field("usedPhaseCount", .integer, nil, "Phases used to locate the event",
                         quakeML: "origin/quality/usedPhaseCount")
        case .associatedPhaseCount:
            return field("associatedPhaseCount", .integer, nil, "Phases associated with the event",
                         quakeML: "origin/quality/associatedPhaseCount")
        case .associatedStationCount:
            return field("associatedStationCount", .integer, nil, "Stations associated with the event",
                         quakeML: "origin/quality/associatedStationCount")
        case .author:
            return field("author", .text, nil, "Author of the location", quakeML: "origin/creationInfo/author")
        case .clusterId:
            return field("clusterId", .integer, nil, "Cluster of the event (quakemap decluster)", catalogued: false)
        case .mainshock:
            return field("mainshock", .integer, nil, "1 where the event is its cluster's mainshock, else 0 (quakemap decluster)",
                         catalogued: false)
        }
    }

    /// How many fields the schema has: a table by field number needs this many slots
    /// (`allCases` makes an array each time it is asked).
    package static let count = allCases.count

    /// The fields every event has as a stored property of ``SeismicEvent``; the others are its ``SeismicEvent/details``.
    @inlinable package var isCore: Bool {
        switch self {
        case .time, .latitude, .longitude, .depth, .mag, .magType, .net, .id, .updated, .place, .type, .status: true
        default: false
        }
    }

    /// The fields kept in ``EventDetails``, in schema order.
    package static let detailFields: [EventField] = allCases.filter { !$0.isCore }

    /// The USGS CSV's 22 columns, in USGS's order.
    package static let usgsCSVColumns: [EventField] = allCases.filter { $0.spec.csvColumn != nil }

    /// The field of a canonical name (case-sensitive, as CQL2 and `--columns` take them).
    public init?(name: String) {
        guard let field = Self.byName[name] else { return nil }
        self = field
    }

    private static let byName: [String: EventField] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.spec.name, $0) })

    /// Schema order: the order of the cases, the USGS CSV's columns first.
    public static func < (lhs: EventField, rhs: EventField) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `horizontalError` → `horizontal_error`.
    private static func snakeCase(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase {
                out += "_" + character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }
}
