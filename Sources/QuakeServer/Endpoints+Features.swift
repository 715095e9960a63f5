import Foundation
import Hummingbird
import QuakeKit

/// The features: pages of items, one item, the collection.
extension Endpoints {
    func items(_ request: Request) async throws -> Response {
        let query = try FeatureQuery(FormQuery.parameters(of: request), allowed: Self.itemParameters)
        let served = await store.served()
        if let tagged = notModified(request, served) { return tagged }
        let (page, matched, more) = try await served.page(query.filter, offset: query.offset, limit: query.limit)
        let base = base(request)
        let path = "\(base)/collections/\(FeatureDocuments.collectionID)/items"
        var links = [Link(href: Self.url(path, query.query(offset: query.offset)), rel: "self", type: "application/geo+json"),
                     Link(href: "\(base)/collections/\(FeatureDocuments.collectionID)", rel: "collection", type: "application/json")]
        if more {
            links.append(Link(href: Self.url(path, query.query(offset: query.offset + page.count)), rel: "next",
                              type: "application/geo+json", title: "The next page"))
        }
        if query.offset > 0 {
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
