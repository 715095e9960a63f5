import Foundation
import NIOCore
import QuakeKit

/// The web map as files for any static HTTP host: the page, its scripts (MapLibre GL JS and the
/// PMTiles reader), `web/config.json` naming the archives, and the land and plate boundaries as
/// `basemap.pmtiles`. The events' archive is `quakemap tiles … --encoding mvt --container pmtiles`,
/// put beside the page (docs/deploy.md). The page reads both by range requests: no server runs.
package enum StaticSite {
    /// The events' archive the page opens, beside it.
    package static let archive = "quakes.pmtiles"
    /// The land and plate boundaries' archive, beside the page.
    package static let basemapArchive = "basemap.pmtiles"
    /// The basemap's deepest zoom in the archive (5,461 tiles); the page scales it up beyond.
    package static let basemapMaximumZoom = 6

    /// Writes the site's files into `folder` (made when missing), each replacing its previous
    /// copy whole; an archive of events already there is left as it is. Returns the files written.
    ///
    /// - Throws: ``WriteError`` when a file cannot be written; a `SiteError` when the web map's
    ///   own files are not beside the executable.
    package static func write(to folder: String, symbols: SymbolStyle) throws -> [String] {
        let web = WebAssets.load()
        var written: [String] = []
        try FileManager.default.createDirectory(atPath: folder + "/web/maplibre", withIntermediateDirectories: true)
        for (path, _) in WebAssets.list {
            guard let asset = web.assets[path] else {
                throw SiteError(message: web.missing[path] ?? "the web map's file \(path) is missing")
            }
            let name = path == WebAssets.page ? "index.html" : String(path.dropFirst())
            try Data(asset.body.readableBytesView).write(to: URL(fileURLWithPath: folder + "/" + name), options: .atomic)
            written.append(name)
        }
        let config = WebConfigDocument(symbols: symbols, attribution: "", archive: archive, basemapArchive: basemapArchive)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(config).write(to: URL(fileURLWithPath: folder + "/web/config.json"), options: .atomic)
        written.append("web/config.json")
        try writeBasemap(to: folder + "/" + basemapArchive)
        written.append(basemapArchive)
        return written
    }

    /// The land and plate boundaries, z 0…``basemapMaximumZoom``, as one PMTiles archive.
    private static func writeBasemap(to path: String) throws {
        let writer = try PMTilesWriter(path: path, encoding: .mvt)
        let basemap = BasemapVectorTiles.shared
        for zoom in 0...basemapMaximumZoom {
            for x in 0..<(1 << zoom) {
                for y in 0..<(1 << zoom) {
                    let tile = try TileID(zoom: zoom, x: x, y: y)
                    try writer.write(VectorTileEncoder.basemapTile(tile, from: basemap), for: tile)
                }
            }
        }
        var metadata = TileSetMetadata(name: "quakemap basemap", description: "Natural Earth land and Bird's plate boundaries",
                                       zooms: 0...basemapMaximumZoom, tileSize: 512, encoding: .mvt,
                                       attribution: "\(Credits.naturalEarth) · \(Credits.plates)")
        metadata.isBasemap = true
        try writer.commit(metadata)
    }
}

/// The static site could not be written.
package struct SiteError: QuakeKitError {
    package let message: String
}
