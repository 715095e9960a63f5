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

    /// Creates metadata.
    public init(name: String, description: String, zooms: ClosedRange<Int>, tileSize: Int) {
        self.name = name
        self.description = description
        self.zooms = zooms
        self.tileSize = tileSize
    }

    /// The area covered: the whole Web Mercator world, W,S,E,N.
    package var bounds: [Double] {
        [-180, -WebMercator.maximumLatitude, 180, WebMercator.maximumLatitude]
    }

    /// TileJSON 3.0.0 for a folder of `{z}/{x}/{y}.png` tiles, with the tile URL relative to the file.
    package func tileJSON() -> Data {
        let object: [String: Any] = [
            "tilejson": "3.0.0",
            "name": name,
            "description": description,
            "version": "1.0.0",
            "scheme": "xyz",
            "tiles": ["{z}/{x}/{y}.png"],
            "minzoom": zooms.lowerBound,
            "maxzoom": zooms.upperBound,
            "bounds": bounds,
            "center": [0, 0, zooms.lowerBound],
            "tileSize": tileSize,
        ]
        // Sorted keys: the same pyramid gives the same bytes.
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
    }
}
