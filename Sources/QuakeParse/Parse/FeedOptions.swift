import Foundation
import QuakeModel

/// How a feed is read.
public struct FeedOptions: Sendable, Hashable {
    /// Stop at the first rejected row with ``FeedError/rejectedRow(_:)`` instead
    /// of skipping it. Default `false`.
    package var strict: Bool
    /// How many rejections ``FeedSummary/rejections`` keeps. Default 20.
    package var maximumReportedRejections: Int
    /// "Now", for rejecting events more than a day in the future; `nil` is the current time.
    package var now: Date?

    /// Creates options; the defaults skip bad rows and keep 20 of them for the report.
    public init(strict: Bool = false, maximumReportedRejections: Int = 20, now: Date? = nil) {
        self.strict = strict
        self.maximumReportedRejections = maximumReportedRejections
        self.now = now
    }
}
