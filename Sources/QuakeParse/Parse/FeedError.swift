import Foundation
import QuakeModel

/// Why a feed could not be read at all.
///
/// A bad *row* is a ``FeedRejection`` and is normally skipped; a `FeedError`
/// ends the read.
public enum FeedError: QuakeKitError, Equatable {
    /// The input could not be opened (missing, unreadable, a directory).
    case cannotOpen(path: String, errno: Int32)
    /// Reading failed part-way.
    case readFailed(path: String, errno: Int32)
    /// The input has no bytes, or only blank lines: not even a header.
    ///
    /// A header with no rows, or a `FeatureCollection` with no features, is
    /// not an error but an empty catalogue (USGS's `significant_day` on a
    /// quiet day): `FeedReader` reads it to a summary of no rows.
    case empty(source: String)
    /// Columns the feed needs are not in the header.
    case missingColumns(source: String, missing: [String], header: [String])
    /// A column the reader uses appears more than once in the header (1-based positions).
    case duplicateColumn(source: String, name: String, columns: [Int])
    /// A NUL byte: this is not a text feed.
    case binaryData(source: String, line: Int, column: Int)
    /// A quoted field opened on `line` is never closed.
    case unterminatedQuote(source: String, line: Int)
    /// A record longer than `limit` bytes.
    case recordTooLong(source: String, line: Int, limit: Int)
    /// The input is neither a comma-separated feed nor GeoJSON.
    case notCSV(source: String, reason: String)
    /// The input is JSON but not a GeoJSON `FeatureCollection` of events.
    case malformedGeoJSON(source: String, reason: String)
    /// The input is XML but not a well-formed QuakeML 1.2 document, or holds
    /// what the reader refuses (a DOCTYPE, entities); `line` and `column` are
    /// where libxml2 or the reader stopped (1-based).
    case malformedQuakeML(source: String, line: Int, column: Int, reason: String)
    /// In strict mode, the first rejected row.
    case rejectedRow(FeedRejection)

    /// The message, with the source and line where there is one.
    public var message: String {
        switch self {
        case let .cannotOpen(path, code):
            return "\(path): cannot open: \(String(cString: strerror(code)))"
        case let .readFailed(path, code):
            return "\(path): read failed: \(String(cString: strerror(code)))"
        case let .empty(source):
            return "\(source): the feed is empty"
        case let .missingColumns(source, missing, header):
            let names = missing.map { "'\($0)'" }.joined(separator: ", ")
            let found = header.prefix(12).map { FeedRejection.shown($0) }.joined(separator: ",")
            let more = header.count > 12 ? ",…" : ""
            return "\(source):1: required column \(names) not found in the header (\(found)\(more))"
        case let .duplicateColumn(source, name, columns):
            let positions = columns.map(String.init).joined(separator: " and ")
            return "\(source):1: column '\(name)' appears more than once in the header (columns \(positions))"
        case let .binaryData(source, line, column):
            return "\(source):\(line): column \(column): a NUL byte: this is binary data, not a CSV feed"
        case let .unterminatedQuote(source, line):
            return "\(source):\(line): a quoted field opened on this line is never closed"
        case let .recordTooLong(source, line, limit):
            return "\(source):\(line): a record longer than \(limit) bytes (an unclosed quote?)"
        case let .notCSV(source, reason):
            return "\(source): \(reason)"
        case let .malformedGeoJSON(source, reason):
            return "\(source): not a GeoJSON earthquake feed: \(reason)"
        case let .malformedQuakeML(source, line, column, reason):
            return "\(source):\(line):\(column): not a QuakeML 1.2 document: \(reason)"
        case let .rejectedRow(rejection):
            return rejection.message
        }
    }
}
