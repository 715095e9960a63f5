import Foundation
import HTTPTypes
import Hummingbird
import QuakeKit

/// The features: pages of items, one item, the collection.
extension Endpoints {
    func items(_ request: Request) async throws -> Response {
        let parameters = try FormQuery.parameters(of: request)
        let query = try FeatureQuery(parameters, allowed: Self.itemParameters, formats: Self.itemFormats)
        let format = parameters.first { $0.name == "f" }?.value ?? "json"
        if format == Self.networkLinkFormat { return try networkLink(request, query) }
        if parameters.contains(where: { $0.name == "refresh" }) {
            throw Problem.badParameter("refresh", "only with f=\(Self.networkLinkFormat)")
        }
        let served = await store.served()
        if let tagged = notModified(request, served) { return tagged }
        let (page, matched, next) = try await served.page(query.filter, after: query.cursor, offset: query.offset, limit: query.limit)
        let base = base(request)
        let path = "\(base)/collections/\(FeatureDocuments.collectionID)/items"
        if format == "kml" || format == "kmz" {
            return tagged(try kmlPage(page, path: path, query: query, next: next, kmz: format == "kmz"), request, served)
        }
        var links = [Link(href: Self.url(path, query.query(offset: query.offset, cursor: query.cursor)), rel: "self",
                          type: "application/geo+json"),
                     Link(href: "\(base)/collections/\(FeatureDocuments.collectionID)", rel: "collection", type: "application/json")]
        switch next {
        case .offset(let offset)?:
            links.append(Link(href: Self.url(path, query.query(offset: offset)), rel: "next", type: "application/geo+json",
                              title: "The next page"))
        case .cursor(let cursor)?:
            links.append(Link(href: Self.url(path, query.query(offset: 0, cursor: cursor)), rel: "next", type: "application/geo+json",
                              title: "The next page"))
        case nil: break
        }
        // Back by offset only: a page after a cursor knows where it begins, not where the one before it did.
        if query.offset > 0 && query.cursor == nil {
            links.append(Link(href: Self.url(path, query.query(offset: max(0, query.offset - query.limit))), rel: "prev",
                              type: "application/geo+json", title: "The previous page"))
        }
        let body = FeatureBytes.collection(matched: matched, timeStamp: CivilTime.iso8601(Date()), links: links,
                                           events: page, base: base)
        return tagged(response(body, type: "application/geo+json"), request, served)
    }

    /// What `f` may be on items: GeoJSON, KML, KMZ, or a KML network link to the KML.
    static let itemFormats: Set<String> = ["json", "geojson", "kml", "kmz", networkLinkFormat]
    static let networkLinkFormat = "kml-network-link"
    /// Seconds between a network link's refreshes: every 5 minutes unless asked, at most every minute.
    static let defaultRefresh = 300
    static let refreshRange = 60...86_400

    /// A page as KML (or KMZ) through the one KML writer. Its links (self, next, prev) go in an
    /// HTTP `Link` header (RFC 8288); the next page also in the document, whose one `atom:link` it is.
    private func kmlPage(_ page: [SeismicEvent], path: String, query: FeatureQuery, next: ServedEvents.NextPage?,
                         kmz: Bool) throws -> Response {
        var links = [(rel: "self", href: Self.url(path, query.query(offset: query.offset, cursor: query.cursor)))]
        switch next {
        case .offset(let offset)?: links.append((rel: "next", href: Self.url(path, query.query(offset: offset))))
        case .cursor(let cursor)?: links.append((rel: "next", href: Self.url(path, query.query(offset: 0, cursor: cursor))))
        case nil: break
        }
        if query.offset > 0 && query.cursor == nil {
            links.append((rel: "prev", href: Self.url(path, query.query(offset: max(0, query.offset - query.limit)))))
        }
        let kml = KMLEncoder(title: "quakemap: \(FeatureDocuments.collectionID)", nextPage: links.first { $0.rel == "next" }?.href)
            .document(page)
        var answer: Response
        if kmz {
            answer = response(try KMZArchive.pack(kml, modified: page.first?.time ?? Date()), type: KMLEncoder.kmzContentType)
            answer.headers[.contentDisposition] = "attachment; filename=\"\(FeatureDocuments.collectionID).kmz\""
        } else {
            answer = response(kml, type: KMLEncoder.contentType)
        }
        answer.headers[HTTPField.Name("Link")!] = links.map { "<\($0.href)>; rel=\"\($0.rel)\"" }.joined(separator: ", ")
        return answer
    }

    /// A KML `NetworkLink` to these items as KML, with the same filter: Google Earth loads it again
    /// every `refresh` seconds. The filter is checked now, so a bad one is a `400` here, not later.
    private func networkLink(_ request: Request, _ query: FeatureQuery) throws -> Response {
        let refresh = try Self.number(query.parameters, "refresh", default: Self.defaultRefresh, range: Self.refreshRange)
        var kmlQuery = query
        kmlQuery.parameters = query.parameters.filter { $0.name != "f" && $0.name != "refresh" } + [(name: "f", value: "kml")]
        let href = Self.url("\(base(request))/collections/\(FeatureDocuments.collectionID)/items",
                            kmlQuery.query(offset: query.offset, cursor: query.cursor))
        var answer = response(KMLEncoder.networkLink(name: "quakemap: \(FeatureDocuments.collectionID)", href: href,
                                                     refreshSeconds: refresh),
                              type: KMLEncoder.contentType)
        answer.headers[.contentDisposition] = "inline; filename=\"\(FeatureDocuments.collectionID).kml\""
        return answer
    }

    func collection(_ context: some RequestContext) throws {
        let name = context.parameters.get("collection") ?? ""
        guard name == FeatureDocuments.collectionID else {
            throw Problem(.notFound, "no collection '\(name)'; the one collection is '\(FeatureDocuments.collectionID)'")
        }
    }
}
