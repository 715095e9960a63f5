/// What a tile holds: a picture, or the features a client draws itself.
public enum TileEncoding: String, Sendable, Hashable, CaseIterable {
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

    /// Every property, its type (`String`, `Number`, `Boolean`) and what it is.
    package static let fields: [(name: String, type: String, description: String)] = [
        ("id", "String", "event id"),
        ("mag", "Number", "magnitude"),
        ("magType", "String", "magnitude type"),
        ("time", "Number", "origin time, milliseconds since 1970 (UTC)"),
        ("updated", "Number", "last update, milliseconds since 1970 (UTC)"),
        ("depth", "Number", "depth, km"),
        ("place", "String", "named place"),
        ("type", "String", "event type"),
        ("status", "String", "review status"),
        ("net", "String", "contributing network"),
        ("alert", "String", "PAGER alert level"),
        ("tsunami", "Number", "1 when a tsunami message was issued"),
        ("url", "String", "web page of the event"),
        ("strike", "Number", "strike of the preferred nodal plane, degrees"),
        ("dip", "Number", "dip of the preferred nodal plane, degrees"),
        ("rake", "Number", "rake of the preferred nodal plane, degrees"),
        ("cluster", "Boolean", "true for a cluster of events"),
        ("point_count", "Number", "events in the cluster"),
        ("point_count_abbreviated", "String", "the count for a label (12.3k)"),
        ("max_mag", "Number", "largest magnitude in the cluster"),
        ("latest_time", "Number", "latest origin time in the cluster, milliseconds since 1970"),
        ("expansion_zoom", "Number", "the zoom at which the cluster's events are first shown apart"),
    ]

    /// TileJSON's `vector_layers` entry for zooms `zooms`.
    package static func description(zooms: ClosedRange<Int>) -> [String: Any] {
        ["id": name, "description": "Earthquakes: one point an event, clusters where a tile would hold too many",
         "minzoom": zooms.lowerBound, "maxzoom": zooms.upperBound,
         "fields": Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0.type) })]
    }
}
