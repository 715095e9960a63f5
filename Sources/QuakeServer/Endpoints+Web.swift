import Foundation
import Hummingbird
import QuakeKit

/// The web map's files, and whether `/` answers with the page or the landing document.
extension Endpoints {
    /// A file of the web map's fixed list, with its tag; `304` when the client has it.
    func webFile(_ path: String, _ request: Request) throws -> Response {
        guard let asset = web.assets[path] else {
            throw Problem(.notFound, web.missing[path] ?? "no such resource: \(path)")
        }
        var headers = HTTPFields()
        headers[.eTag] = asset.tag
        // Revalidated each time (a 304 costs nothing): a new server version is seen at once.
        headers[.cacheControl] = "no-cache"
        headers[.xContentTypeOptions] = "nosniff"
        if asset.contentType.hasPrefix("text/html") {
            // Only the server's own scripts, styles and data; MapLibre starts its workers from blob: URLs
            // (worker-src), and its controls' icons are data: URLs in its stylesheet.
            headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
                + "worker-src blob:; child-src blob:; frame-ancestors 'none'"
        }
        if let wanted = request.headers[.ifNoneMatch], Self.matches(wanted, asset.tag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
    }

    /// Whether `/` should answer the web map: `f=html`, or no `f` and an
    /// `Accept` that ranks HTML above JSON.
    static func wantsHTML(_ request: Request) throws(Problem) -> Bool {
        switch try FormQuery.parameters(of: request).last(where: { $0.name == "f" })?.value {
        case "html"?: return true
        case "json"?: return false
        case let other?: throw Problem.badParameter("f", "'\(other)' is not served here; f may be html, json")
        case nil: return AcceptHeader(request.headers[.accept]).prefers("text/html", over: "application/json")
        }
    }
}
