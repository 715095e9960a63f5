import Foundation
import Hummingbird
import QuakeKit

/// The features: pages of items, one item, the collection.
extension Endpoints {
    func items(_ request: Request) async throws -> Response {
        let query = try FeatureQuery(FormQuery.parameters(of: request), allowed: Self.itemParameters)
        let served = await store.served()
        if let tagged = notModified(request, served) { return tagged }
        let (page, matched, next) = try await served.page(query.filter, after: query.cursor, offset: query.offset, limit: query.limit)
        let base = base(request)
        let path = "\(base)/collections/\(FeatureDocuments.collectionID)/items"
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

    func collection(_ context: some RequestContext) throws {
        let name = context.parameters.get("collection") ?? ""
        guard name == FeatureDocuments.collectionID else {
            throw Problem(.notFound, "no collection '\(name)'; the one collection is '\(FeatureDocuments.collectionID)'")
        }
    }
}
