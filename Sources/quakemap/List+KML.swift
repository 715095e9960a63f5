import ArgumentParser
import Foundation
import Logging
import QuakeCommand
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

extension KMLFolders: ExpressibleByArgument {}

/// `list --format`: one of the library's list formats, or KML and KMZ, which ``KMLEncoder``
/// writes (the server's `items?f=kml` too).
enum ListFormat: Equatable, ExpressibleByArgument {
    /// A format of ``EventListFormat``.
    case list(EventListFormat)
    /// KML 2.2.
    case kml
    /// KML zipped as `doc.kml`.
    case kmz

    init?(argument: String) {
        switch argument {
        case "kml": self = .kml
        case "kmz": self = .kmz
        default:
            guard let format = EventListFormat(rawValue: argument) else { return nil }
            self = .list(format)
        }
    }

    static var allValueStrings: [String] { EventListFormat.allCases.map(\.rawValue) + ["kml", "kmz"] }

    var defaultValueDescription: String {
        switch self {
        case .list(let format): format.rawValue
        case .kml: "kml"
        case .kmz: "kmz"
        }
    }
}

extension Quakemap.List {
    /// `--kml-folders` only with KML; KMZ, a zip, not onto a terminal.
    func validateKML() throws {
        if kmlFolders != nil, case .list = format {
            throw ValidationError("--kml-folders applies to --format kml and kmz")
        }
        if format == .kmz, isatty(STDOUT_FILENO) != 0 {
            throw ValidationError("--format kmz writes a zip archive: redirect standard output to a file (> quakes.kmz)")
        }
    }

    /// Writes the selection as KML to standard output, a placemark at a time, or as KMZ whole.
    func listKML(_ loader: FeedLoader, start: ContinuousClock.Instant, log: Logger) async throws {
        guard case .loaded(let loaded) = try await loader.load() else { return }
        let events = loaded.selection.events
        let encoder = KMLEncoder(folders: kmlFolders ?? .magnitude)
        if format == .kmz {
            // The newest event's time as the entry's: the same selection packs to the same bytes.
            let archive = try KMZArchive.pack(encoder.document(events),
                                              modified: events.lazy.map(\.time).max() ?? Date(timeIntervalSince1970: 0))
            try AtomicFileWriter.writeAll(archive, to: STDOUT_FILENO, path: "<stdout>")
        } else {
            try encoder.write(events) { try AtomicFileWriter.writeAll($0, to: STDOUT_FILENO, path: "<stdout>") }
        }
        Reporting.finish(loaded, loader: loader, outcome: "listed", done: "listed \(events.count)", selected: events.count,
                         start: start, log: log)
    }
}
