import Foundation

/// How a feed is read.
public struct FeedOptions: Sendable, Hashable {
    /// Stop at the first rejected row with ``FeedError/rejectedRow(_:)`` instead
    /// of skipping it. Default `false`.
    package var strict: Bool
    /// How many rejections ``FeedSummary/rejections`` keeps. Default 20.
    package var maximumReportedRejections: Int
    /// "Now", for rejecting events more than a day in the future; `nil` is the current time.
    package var now: Date?
    /// Read the input as GMT `meca` text in this convention rather than telling the format
    /// by the content (such text has nothing to be told by). `nil`, the default, tells.
    package var mecaConvention: MecaConvention?
    /// The origin time of GMT `meca` rows whose title gives none (the format has no time column).
    package var mecaTime: Date?

    /// Creates options; the defaults skip bad rows and keep 20 of them for the report, and
    /// tell the format by the content. `mecaConvention` reads GMT `meca` text instead, its
    /// rows at `mecaTime` where their title gives no time.
    public init(strict: Bool = false, maximumReportedRejections: Int = 20, now: Date? = nil,
                mecaConvention: MecaConvention? = nil, mecaTime: Date? = nil) {
        self.strict = strict
        self.maximumReportedRejections = maximumReportedRejections
        self.now = now
        self.mecaConvention = mecaConvention
        self.mecaTime = mecaTime
    }
}
