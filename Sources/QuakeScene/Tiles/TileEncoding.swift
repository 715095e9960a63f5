/// What a tile holds: a picture, or the features a client draws itself.
package enum TileEncoding: String, Sendable, Hashable, CaseIterable {
    /// A transparent PNG of circles, drawn here.
    case png
    /// A Mapbox Vector Tile 2.1: the events (or clusters of them) as points with their properties,
    /// styled by the client.
    case mvt

    /// The extension of a tile's file in a folder: `png`, or `pbf` as tile folders of vector tiles name them.
    package var fileExtension: String { self == .png ? "png" : "pbf" }

    /// The MIME type a server sends.
    package var mediaType: String { self == .png ? "image/png" : "application/vnd.mapbox-vector-tile" }
}

/// The events' layer of vector tiles: its name and the properties its features may carry, with
/// their types as TileJSON's `vector_layers` state them. The one list the encoder, TileJSON, the
/// MBTiles metadata and the server's tileset documents follow.
package enum QuakeVectorLayer {
    /// The layer's name.
    package static let name = "quakes"

    /// The properties a feature may carry; a property's key in a tile is its place here.
    package enum Key: UInt8, CaseIterable {
        case id, mag, magType, time, updated, depth, place, type, status, net, alert, tsunami, url, strike, dip, rake
        case cluster, pointCount, pointCountAbbreviated, maximumMagnitude, latestTime, expansionZoom

        /// The property's name, its type (`String`, `Number`, `Boolean`) and what it is.
        package var field: (name: String, type: String, description: String) {
            switch self {
            case .id: ("id", "String", "event id")
            case .mag: ("mag", "Number", "magnitude")
            case .magType: ("magType", "String", "magnitude type")
            case .time: ("time", "Number", "origin time, milliseconds since 1970 (UTC)")
            case .updated: ("updated", "Number", "last update, milliseconds since 1970 (UTC)")
            case .depth: ("depth", "Number", "depth, km")
            case .place: ("place", "String", "named place")
            case .type: ("type", "String", "event type")
            case .status: ("status", "String", "review status")
            case .net: ("net", "String", "contributing network")
            case .alert: ("alert", "String", "PAGER alert level")
            case .tsunami: ("tsunami", "Number", "1 when a tsunami message was issued")
            case .url: ("url", "String", "web page of the event")
            case .strike: ("strike", "Number", "strike of the preferred nodal plane, degrees")
            case .dip: ("dip", "Number", "dip of the preferred nodal plane, degrees")
            case .rake: ("rake", "Number", "rake of the preferred nodal plane, degrees")
            case .cluster: ("cluster", "Boolean", "true for a cluster of events")
            case .pointCount: ("point_count", "Number", "events in the cluster")
            case .pointCountAbbreviated: ("point_count_abbreviated", "String", "the count for a label (12.3k)")
            case .maximumMagnitude: ("max_mag", "Number", "largest magnitude in the cluster")
            case .latestTime: ("latest_time", "Number", "latest origin time in the cluster, milliseconds since 1970")
            case .expansionZoom: ("expansion_zoom", "Number", "the zoom at which the cluster's events are first shown apart")
            }
        }
    }

    /// Every property, in key order.
    package static let fields = Key.allCases.map(\.field)

    /// TileJSON's `vector_layers` entry for zooms `zooms`.
    package static func description(zooms: ClosedRange<Int>) -> [String: Any] {
        ["id": name, "description": "Earthquakes: one point an event, clusters where a tile would hold too many",
         "minzoom": zooms.lowerBound, "maxzoom": zooms.upperBound,
         "fields": Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0.type) })]
    }
}
