import Foundation
import QuakeKit

/// The last good body of a feed, with what the server said about it and what
/// was last rendered from it.
package struct CachedFeed: Sendable, Hashable, Codable {
    /// The feed's URL.
    package var url: String
    /// The body that last parsed and rendered.
    package var body: Data
    /// Its `ETag`, for `If-None-Match`.
    package var entityTag: String?
    /// Its `Last-Modified`, for `If-Modified-Since`.
    package var lastModified: String?
    /// When it was fetched.
    package var fetchedAt: Date
    /// The output path last rendered from this body, for `--if-changed`.
    package var renderedOutput: String?

    /// Creates an entry.
    package init(url: String, body: Data, entityTag: String?, lastModified: String?, fetchedAt: Date, renderedOutput: String?) {
        self.url = url
        self.body = body
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
        self.renderedOutput = renderedOutput
    }
}

/// One folder of cached feeds, a body file and a metadata file per URL, each
/// written atomically; an entry whose two files do not match is ignored.
package struct FeedCache: Sendable {
    /// The folder.
    package let directory: String

    /// Creates a cache in `directory` (created on first store).
    package init(directory: String) {
        self.directory = directory
    }

    /// `$XDG_CACHE_HOME/quakemap`, else `~/.cache/quakemap`.
    package static var defaultDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return base + "/quakemap" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.cache/quakemap"
    }

    private struct Metadata: Codable {
        var url: String
        var bodyDigest: String
        var entityTag: String?
        var lastModified: String?
        var fetchedAt: Date
        var renderedOutput: String?
    }

    private func paths(for url: String) -> (body: String, metadata: String) {
        let key = ContentDigest.of(Data(url.utf8))
        return (directory + "/" + key + ".body", directory + "/" + key + ".json")
    }

    /// The entry for `url`, or `nil` when there is none or it is damaged.
    package func entry(for url: String) -> CachedFeed? {
        let (bodyPath, metadataPath) = paths(for: url)
        guard let metadataData = FileManager.default.contents(atPath: metadataPath),
              let metadata = try? JSONDecoder().decode(Metadata.self, from: metadataData),
              metadata.url == url,
              let body = FileManager.default.contents(atPath: bodyPath),
              ContentDigest.of(body) == metadata.bodyDigest else { return nil }
        return CachedFeed(url: url, body: body, entityTag: metadata.entityTag, lastModified: metadata.lastModified,
                          fetchedAt: metadata.fetchedAt, renderedOutput: metadata.renderedOutput)
    }

    /// Stores `entry`, replacing the previous one.
    package func store(_ entry: CachedFeed) throws {
        let (bodyPath, metadataPath) = paths(for: entry.url)
        let metadata = Metadata(url: entry.url, bodyDigest: ContentDigest.of(entry.body), entityTag: entry.entityTag,
                                lastModified: entry.lastModified, fetchedAt: entry.fetchedAt,
                                renderedOutput: entry.renderedOutput)
        try AtomicFileWriter.write(entry.body, to: bodyPath)
        try AtomicFileWriter.write(try JSONEncoder().encode(metadata), to: metadataPath)
    }
}
