import Foundation
import QuakeGeo

/// What a tile set says about itself: TileJSON beside a tile folder, the
/// `metadata` table of an MBTiles file.
public struct TileSetMetadata: Sendable, Hashable {
    /// A short name.
    package var name: String
    /// One line on what the tiles show.
    package var description: String
    /// The zoom levels written.
    package var zooms: ClosedRange<Int>
    /// Pixels along a tile's side.
    package var tileSize: Int
    /// What the tiles hold.
    package var encoding: TileEncoding
    /// Who the data is from, as the map's footer words it.
    package var attribution: String?
    /// Vector tiles of the land and plate boundaries (``BasemapVectorTiles``), not of events.
    package var isBasemap = false

    /// Creates metadata for PNG tiles.
    public init(name: String, description: String, zooms: ClosedRange<Int>, tileSize: Int) {
        self.init(name: name, description: description, zooms: zooms, tileSize: tileSize, encoding: .png)
    }

    /// Creates metadata for tiles of `encoding`, crediting `attribution`.
    package init(name: String, description: String, zooms: ClosedRange<Int>, tileSize: Int, encoding: TileEncoding,
                 attribution: String? = nil) {
        self.name = name
        self.description = description
        self.zooms = zooms
        self.tileSize = tileSize
        self.encoding = encoding
        self.attribution = attribution
    }

    /// The area covered: the whole Web Mercator world, W,S,E,N.
    package var bounds: [Double] {
        [-180, -WebMercator.maximumLatitude, 180, WebMercator.maximumLatitude]
    }

    /// TileJSON 3.0.0 for tiles at `tiles` (by default a folder's `{z}/{x}/{y}.png` or `.pbf`,
    /// relative to the file); vector tiles list their layer in `vector_layers`.
    package func tileJSON(tiles: String? = nil) -> Data {
        var object: [String: Any] = [
            "tilejson": "3.0.0",
            "name": name,
            "description": description,
            "version": "1.0.0",
            "scheme": "xyz",
            "tiles": [tiles ?? "{z}/{x}/{y}.\(encoding.fileExtension)"],
            "minzoom": zooms.lowerBound,
            "maxzoom": zooms.upperBound,
            "bounds": bounds,
            "center": [0, 0, zooms.lowerBound],
        ]
        if encoding == .png { object["tileSize"] = tileSize } else { object["vector_layers"] = [QuakeVectorLayer.description(zooms: zooms)] }
        if let attribution { object["attribution"] = attribution }
        return Self.json(object)
    }

    /// The `json` metadata of vector tiles in MBTiles 1.3 and PMTiles: their `vector_layers`.
    package var vectorLayersJSON: Data { Self.json(["vector_layers": [QuakeVectorLayer.description(zooms: zooms)]], pretty: false) }

    /// Sorted keys: the same pyramid gives the same bytes.
    package static func json(_ object: [String: Any], pretty: Bool = true) -> Data {
        let options: JSONSerialization.WritingOptions = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return (try? JSONSerialization.data(withJSONObject: object, options: options)) ?? Data()
    }
}
