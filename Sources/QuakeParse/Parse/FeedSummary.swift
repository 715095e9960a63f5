import Foundation

/// What reading a feed found, counted row by row.
public struct FeedSummary: Sendable, Hashable {
    /// Data rows read (the header and blank lines not counted).
    public var rows = 0
    /// Rows that became events with a magnitude: the ones that can be drawn.
    public var events = 0
    /// Valid rows with an empty magnitude: kept out of the selection.
    public var withoutMagnitude = 0
    /// Rows rejected (see ``rejections``).
    public var rejected = 0
    /// The first rejections, up to `maximumReportedRejections`;
    /// ``rejected`` counts them all.
    public var rejections: [FeedRejection] = []
    /// When the feed says it was generated (GeoJSON `metadata.generated`), if it says.
    public var generated: Date?
    /// What the feed calls itself (GeoJSON `metadata.title`, e.g. "USGS
    /// Significant Earthquakes, Past Day"), if it says: blanks and control
    /// characters each made one space, cut to `maximumTitleLength` characters.
    public var title: String?
    /// Who the data is from, as the feed says (the USGS for its feeds, the Global CMT Project for
    /// NDK, a QuakeML document's agency, an FDSN service): what a map's footer credits
    /// (`Data: USGS`). Distinct, in the order first named.
    public var sources: [String] = []

    /// The longest ``title`` kept: a title is drawn on a map, so a feed cannot
    /// make the overlay's fitting measure megabytes of text.
    package static let maximumTitleLength = 160

    /// Creates a summary; all counts default to zero.
    package init(rows: Int = 0, events: Int = 0, withoutMagnitude: Int = 0, rejected: Int = 0,
                rejections: [FeedRejection] = []) {
        self.rows = rows
        self.events = events
        self.withoutMagnitude = withoutMagnitude
        self.rejected = rejected
        self.rejections = rejections
    }

    /// Adds `source` to ``sources`` unless it is there already (or empty).
    package mutating func credit(_ source: String?) {
        guard let source, !source.isEmpty, !sources.contains(source) else { return }
        sources.append(source)
    }

    /// Counts a rejection and keeps its evidence, or, in strict mode, throws it.
    package mutating func record(_ rejection: FeedRejection, options: FeedOptions) throws {
        if options.strict { throw FeedError.rejectedRow(rejection) }
        rejected += 1
        if rejections.count < options.maximumReportedRejections { rejections.append(rejection) }
    }
}
