import Foundation
import QuakeKit

/// Why a feed could not be fetched. Each case says whether trying again later may help.
public enum FetchError: QuakeKitError, Equatable {
    /// The URL is not an absolute http or https URL.
    case invalidURL(String)
    /// The server answered with an HTTP error status.
    case httpStatus(url: String, status: Int, attempts: Int)
    /// No answer in time.
    case timedOut(url: String, seconds: Double, attempts: Int)
    /// The connection failed (refused, reset, name not resolved…).
    case connectionFailed(url: String, reason: String, attempts: Int)
    /// The body ended before the length the server announced.
    case truncated(url: String, reason: String, attempts: Int)
    /// The body is larger than the limit.
    case tooLarge(url: String, limit: Int)
    /// More redirects than allowed.
    case tooManyRedirects(url: String, limit: Int)

    /// Whether a later run may succeed: network trouble, timeouts, 429 and 5xx.
    package var isTemporary: Bool {
        switch self {
        case .timedOut, .connectionFailed, .truncated: return true
        case let .httpStatus(_, status, _): return status == 429 || status >= 500
        case .invalidURL, .tooLarge, .tooManyRedirects: return false
        }
    }

    /// The message.
    public var message: String {
        switch self {
        case let .invalidURL(url):
            return "\(url): not an http or https URL"
        case let .httpStatus(url, status, attempts):
            return "\(url): HTTP \(status)\(Self.after(attempts))"
        case let .timedOut(url, seconds, attempts):
            return "\(url): no complete answer within \(Self.seconds(seconds)) s\(Self.after(attempts))"
        case let .connectionFailed(url, reason, attempts):
            return "\(url): connection failed: \(reason)\(Self.after(attempts))"
        case let .truncated(url, reason, attempts):
            return "\(url): the body was cut short (\(reason))\(Self.after(attempts))"
        case let .tooLarge(url, limit):
            return "\(url): the body is larger than --max-bytes \(limit)"
        case let .tooManyRedirects(url, limit):
            return "\(url): more than \(limit) redirects"
        }
    }

    private static func after(_ attempts: Int) -> String {
        attempts > 1 ? " (after \(attempts) attempts)" : ""
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
