import Foundation
import QuakeKit

/// Why a catalogue could not be opened, read or written. Messages name the
/// catalogue (never with its password) and what the database said.
package enum CatalogueError: QuakeKitError, Equatable {
    /// `--catalogue` is neither a file path nor a `postgresql://` URL that can be read.
    case invalidLocation(String, reason: String)
    /// A catalogue to read does not exist.
    case notFound(String)
    /// The database cannot be reached or refused the connection.
    case unavailable(String, reason: String)
    /// The catalogue was made by a newer quakemap: its schema is `found`, this one knows up to `known`.
    case newerSchema(String, found: String, known: String)
    /// The file or database is not a quakemap catalogue.
    case notACatalogue(String, reason: String)
    /// The role may not do this (a reader's role asked to write).
    case permissionDenied(String, reason: String)
    /// Another writer held the catalogue for longer than the wait.
    case busy(String, reason: String)
    /// What the database answered to a statement it refused.
    case database(String, reason: String)
    /// The file could not be read or written (a full disk, say).
    case ioFailed(String, reason: String)

    package var message: String {
        switch self {
        case let .invalidLocation(location, reason): return "catalogue '\(location)': \(reason)"
        case .notFound(let location): return "catalogue '\(location)' does not exist (make it with 'quakemap ingest … --catalogue \(location)')"
        case let .unavailable(location, reason): return "catalogue \(location): cannot connect: \(reason)"
        case let .newerSchema(location, found, known):
            return "catalogue \(location) has schema \(found), newer than this quakemap knows (\(known)): upgrade quakemap"
        case let .notACatalogue(location, reason): return "\(location) is not a quakemap catalogue: \(reason)"
        case let .permissionDenied(location, reason): return "catalogue \(location): permission denied: \(reason)"
        case let .busy(location, reason): return "catalogue \(location) is busy: \(reason)"
        case let .database(location, reason): return "catalogue \(location): \(reason)"
        case let .ioFailed(location, reason): return "catalogue \(location): I/O error: \(reason)"
        }
    }
}
