import Foundation
import QuakeKit

/// Why an FDSN event query could not be answered (network failures stay
/// ``FetchError``s).
public enum FDSNError: QuakeKitError, Equatable {
    /// SERVICE is neither a known short name nor an http(s) base URL.
    case unknownService(String, known: [String])
    /// More events than one response may hold share one instant: splitting the
    /// time window further cannot help.
    case tooDense(url: String, at: Date, pageSize: Int)
    /// The service refused the query (HTTP 4xx) and said why.
    case refused(url: String, status: Int, reason: String)
    /// The `count` method answered something that is not a number.
    case badCount(url: String, answer: String)
    /// The query took more requests than ``FDSNClient/maximumRequests``: a
    /// service that keeps refusing, or a query too large to page politely.
    case tooManyRequests(url: String, requests: Int)

    /// The message.
    public var message: String {
        switch self {
        case let .unknownService(text, known):
            return "--fdsn: '\(text)' is neither a known service (\(known.joined(separator: ", "))) nor an http(s) base URL such as https://earthquake.usgs.gov/fdsnws/event/1/"
        case let .tooDense(url, at, pageSize):
            return "\(url): more than \(pageSize) events within one second at \(CivilTime.iso8601(at)); narrow the filters or raise --fdsn-page-size"
        case let .refused(url, status, reason):
            return "\(url): HTTP \(status): \(reason)"
        case let .badCount(url, answer):
            return "\(url): the count is not a number: '\(answer)'"
        case let .tooManyRequests(url, requests):
            return "\(url): gave up after \(requests) requests; narrow the window or the filters"
        }
    }

    /// The detail of an FDSN error document: the lines after `Error 400: Bad
    /// Request` and before the echoed `Request:` (which repeats every
    /// parameter, `format=` included, so it must not be read as the reason),
    /// joined, cut short and without control characters.
    static func reason(from body: Data) -> String {
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        var lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        let title = lines.first
        if let first = lines.first, first.lowercased().hasPrefix("error ") { lines.removeFirst() }
        let sections = ["request:", "request submitted:", "service version:", "usage details are available"]
        if let end = lines.firstIndex(where: { line in sections.contains { line.lowercased().hasPrefix($0) } }) {
            lines.removeSubrange(end...)
        }
        return FeedRejection.shown(lines.isEmpty ? (title ?? "no reason given") : lines.joined(separator: "; "), limit: 200)
    }
}
