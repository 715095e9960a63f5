import Foundation
import Hummingbird
import QuakeKit

/// The files of the web map, read once at start from a fixed list of this target's resources:
/// the page, its script and style, the PMTiles reader, and MapLibre GL JS (fetched by
/// scripts/fetch_maplibre.sh, committed with its licence). A request path is looked up in the
/// list, never joined to a folder, so no request reaches the file system.
struct WebAssets: Sendable {
    /// One file, ready to send.
    struct Asset: Sendable {
        let body: ByteBuffer
        let contentType: String
        /// A strong tag of the bytes, for `If-None-Match`.
        let tag: String
    }

    /// The page's key: it is served at `/` (its links are relative to it, as on a static site).
    static let page = "index.html"

    /// URL path → file name in `Web/`. The page's own key is not a path: `/` serves it.
    static let list: [(path: String, file: String)] = [
        (page, "index.html"),
        ("/web/quakemap.js", "quakemap.js"),
        ("/web/quakemap.css", "quakemap.css"),
        ("/web/pmtiles.js", "pmtiles.js"),
        ("/web/maplibre/maplibre-gl.js", "maplibre/maplibre-gl.js"),
        ("/web/maplibre/maplibre-gl.css", "maplibre/maplibre-gl.css"),
        ("/web/maplibre/LICENSE.txt", "maplibre/LICENSE.txt"),
    ]

    /// The files read, by URL path.
    let assets: [String: Asset]
    /// Files of the list that could not be read, with why, for the start-up log and the 404s.
    let missing: [String: String]

    /// Reads every file of the list; a missing one is recorded, not fatal: the
    /// API and tiles work without the web map.
    static func load() -> WebAssets {
        var assets: [String: Asset] = [:], missing: [String: String] = [:]
        let folder = bundledFolder()
        for (path, file) in list {
            guard let folder, let data = FileManager.default.contents(atPath: folder + "/" + file) else {
                missing[path] = "the web map's own files (\(bundledName)) are not beside the executable"
                continue
            }
            var digest = FNV1a()
            data.withUnsafeBytes { digest.mix(bytes: $0) }
            assets[path] = Asset(body: ByteBuffer(bytes: data), contentType: contentType(of: file), tag: "\"\(digest.hex)\"")
        }
        return WebAssets(assets: assets, missing: missing)
    }

    /// The resource folder SwiftPM copies beside the executable (and the test bundle).
    static let bundledName = "quakemap_QuakeServer.resources"

    /// Found without `Bundle.module`, which stops the process when the
    /// folder is missing: a server copied without it still serves its API.
    private static func bundledFolder() -> String? {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(executable.deletingLastPathComponent())
        }
        // Test runners: the bundle is beside the test bundle's folder.
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        for folder in candidates {
            let web = folder.appendingPathComponent(bundledName).appendingPathComponent("Web").path
            if FileManager.default.fileExists(atPath: web + "/index.html") { return web }
        }
        return nil
    }

    private static func contentType(of file: String) -> String {
        switch file.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "png": "image/png"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
