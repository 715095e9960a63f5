import Foundation
import Hummingbird
import QuakeKit

/// The files of the web map, read once at start from a fixed list: the page
/// and its script and style (this target's resources), and Leaflet from
/// where Debian's `libjs-leaflet` puts it. A request path is looked up in
/// the list, never joined to a folder, so no request reaches the file system.
struct WebAssets: Sendable {
    /// One file, ready to send.
    struct Asset: Sendable {
        let body: ByteBuffer
        let contentType: String
        /// A strong tag of the bytes, for `If-None-Match`.
        let tag: String
    }

    /// Where Debian's `libjs-leaflet` installs Leaflet.
    static let leafletFolder = "/usr/share/javascript/leaflet"
    /// The page's own URL.
    static let page = "/web/index.html"

    /// URL path → where the file comes from: (`bundled`, name in `Web/`) or (`leaflet`, path under ``leafletFolder``).
    static let list: [(path: String, origin: Origin, file: String)] = [
        (page, .bundled, "index.html"),
        ("/web/quakemap.js", .bundled, "quakemap.js"),
        ("/web/quakemap.css", .bundled, "quakemap.css"),
        ("/web/leaflet/leaflet.js", .leaflet, "leaflet.js"),
        ("/web/leaflet/leaflet.css", .leaflet, "leaflet.css"),
        ("/web/leaflet/images/layers.png", .leaflet, "images/layers.png"),
        ("/web/leaflet/images/layers-2x.png", .leaflet, "images/layers-2x.png"),
        ("/web/leaflet/images/marker-icon.png", .leaflet, "images/marker-icon.png"),
        ("/web/leaflet/images/marker-icon-2x.png", .leaflet, "images/marker-icon-2x.png"),
        ("/web/leaflet/images/marker-shadow.png", .leaflet, "images/marker-shadow.png"),
    ]

    enum Origin: Sendable { case bundled, leaflet }

    /// The files read, by URL path.
    let assets: [String: Asset]
    /// Files of the list that could not be read, with why, for the start-up log and the 404s.
    let missing: [String: String]

    /// Reads every file of the list; a missing one is recorded, not fatal: the
    /// API and tiles work without the web map.
    static func load(leafletFolder: String = leafletFolder) -> WebAssets {
        var assets: [String: Asset] = [:], missing: [String: String] = [:]
        let bundle = bundledFolder()
        for (path, origin, file) in list {
            let folder: String?
            switch origin {
            case .bundled: folder = bundle
            case .leaflet: folder = leafletFolder
            }
            guard let folder, let data = FileManager.default.contents(atPath: folder + "/" + file) else {
                missing[path] = origin == .leaflet
                    ? "\(leafletFolder)/\(file) is missing: install Debian's libjs-leaflet (make deps does)"
                    : "the web map's own files (\(bundledName)) are not beside the executable"
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
        default: "application/octet-stream"
        }
    }
}
