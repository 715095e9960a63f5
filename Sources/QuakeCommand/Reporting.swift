import ArgumentParser
import Foundation
import Logging
import QuakeCatalogue
import QuakeFetch
import QuakeKit

/// The run's lines on standard error, and the one place errors become exit codes.
package enum Reporting {
    /// Sets up logging for this run and returns the logger. `--quiet` keeps only errors.
    ///
    /// - Parameter cleansUpOnSignals: exit at once on SIGTERM, SIGINT and SIGHUP,
    ///   removing files being written (see ``Termination``); a server that
    ///   shuts down gracefully on its own passes `false`.
    package static func logger(_ options: InputOptions, cleansUpOnSignals: Bool = true) -> Logger {
        if cleansUpOnSignals { Termination.install() }
        let format = options.logFormat
        LoggingSystem.bootstrap { _ in StderrLogHandler(format: format) }
        var logger = Logger(label: "quakemap")
        logger.logLevel = options.quiet ? .error : options.verbose ? .debug : .info
        return logger
    }

    /// The rejected rows kept in the summary, then a count of the rest.
    package static func logRejections(_ summary: FeedSummary, to log: Logger) {
        for rejection in summary.rejections { log.warning("\(rejection.message)") }
        let unshown = summary.rejected - summary.rejections.count
        if unshown > 0 { log.warning("… and \(unshown) more rejected rows") }
    }

    /// `read 19816 rows: 19813 events, 3 without magnitude, 0 rejected`, or for
    /// a URL `fetched 9123 rows from URL in 0.8 s (304, from cache): …`.
    package static func describe<Event>(_ loaded: LoadedFeed<Event>) -> String {
        let summary = loaded.selection.summary
        var text: String
        if let fdsn = loaded.fdsn, loaded.staleFrom == nil {
            text = "fetched \(summary.rows) rows from \(fdsn.requests == 1 ? fdsn.firstURL : fdsn.queryURL) in \(Formatted.fixed(fdsn.seconds, 1)) s"
                + " (\(fdsn.format.rawValue), \(fdsn.requests) \(fdsn.requests == 1 ? "request" : "requests"), \(fdsn.slices) \(fdsn.slices == 1 ? "slice" : "slices"))"
        } else if let fetched = loaded.fetched, loaded.staleFrom == nil {
            var how = "\(fetched.status)"
            if fetched.fromCache { how += ", from cache" }
            if fetched.attempts > 1 { how += ", \(fetched.attempts) attempts" }
            text = "fetched \(summary.rows) rows from \(fetched.url) in \(Formatted.fixed(fetched.seconds, 1)) s (\(how))"
        } else if let catalogue = loaded.catalogue {
            return "read \(summary.rows) events from the catalogue \(catalogue)"
        } else if let stale = loaded.staleFrom {
            text = "read \(summary.rows) rows from the cached feed of \(CivilTime.iso8601(stale))"
        } else {
            text = "read \(summary.rows) rows"
        }
        if let generated = loaded.generated { text += " (feed generated \(CivilTime.iso8601(generated)))" }
        let duplicates = loaded.selection.duplicates > 0 ? ", \(loaded.selection.duplicates) duplicate ids (latest kept)" : ""
        return text + ": \(summary.events) events, \(summary.withoutMagnitude) without magnitude, \(summary.rejected) rejected"
            + duplicates
    }

    /// The end of every run that read a feed: keep the feed for the next
    /// conditional request, report the rejected rows, and log one line with
    /// what was done (`done`, e.g. "listed 300") and the run's facts.
    package static func finish<Event>(
        _ loaded: LoadedFeed<Event>, loader: FeedLoader, renderedOutput: String? = nil,
        outcome: String, done: String, selected: Int, start: ContinuousClock.Instant, log: Logger,
        extra: Logger.Metadata = [:]
    ) {
        loader.remember(loaded, renderedOutput: renderedOutput)
        logRejections(loaded.selection.summary, to: log)
        let elapsed = milliseconds(ContinuousClock.now - start)
        var metadata = metadata(loaded)
        metadata["outcome"] = .string(outcome)
        metadata["selected"] = .stringConvertible(selected)
        metadata["milliseconds"] = .stringConvertible(elapsed)
        metadata.merge(extra) { $1 }
        log.info("\(describe(loaded)); \(done) in \(elapsed) ms", metadata: metadata)
    }

    /// The facts of the feed, for `--log-format json`.
    package static func metadata<Event>(_ loaded: LoadedFeed<Event>) -> Logger.Metadata {
        let summary = loaded.selection.summary
        var metadata: Logger.Metadata = [
            "rows": .stringConvertible(summary.rows),
            "events": .stringConvertible(summary.events),
            "withoutMagnitude": .stringConvertible(summary.withoutMagnitude),
            "rejected": .stringConvertible(summary.rejected),
            "duplicates": .stringConvertible(loaded.selection.duplicates),
        ]
        if let fetched = loaded.fetched {
            metadata["url"] = .string(fetched.url)
            metadata["status"] = .stringConvertible(fetched.status)
            metadata["fromCache"] = .stringConvertible(fetched.fromCache)
            metadata["attempts"] = .stringConvertible(fetched.attempts)
            metadata["fetchSeconds"] = .stringConvertible(fetched.seconds)
        }
        if let fdsn = loaded.fdsn {
            metadata["requests"] = .stringConvertible(fdsn.requests)
            metadata["slices"] = .stringConvertible(fdsn.slices)
            metadata["format"] = .string(fdsn.format.rawValue)
        }
        if let stale = loaded.staleFrom { metadata["staleFrom"] = .string(CivilTime.iso8601(stale)) }
        if let generated = loaded.generated { metadata["generated"] = .string(CivilTime.iso8601(generated)) }
        return metadata
    }

    package static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// The sysexits code for an error.
    package static func code(for error: Error) -> Int32 {
        switch error {
        case let error as FeedError:
            switch error {
            case .cannotOpen: return 66
            case .readFailed: return 74
            default: return 65
            }
        case is BasemapError:
            return 65
        case is EventColumnsError:
            return 64
        // What reaches here are options the data made impossible (a grid too fine for the events' extent).
        case is StatisticsError:
            return 64
        case let error as WriteError:
            switch error {
            case .cannotCreateFolder, .cannotCreate, .refusingToReplace: return 73
            case .writeFailed: return 74
            // An internal failure (zlib out of memory), not the file system's.
            case .encodingFailed: return 70
            }
        // EX_UNAVAILABLE: a program it needs (ffmpeg) is missing or failed.
        case let error as VideoError:
            if case .unsupportedExtension = error { return 64 }
            return 69
        case let error as RenderError:
            switch error {
            case .invalidSize: return 64
            case .cairo, .notPNG: return 70
            }
        case let error as CatalogueError:
            switch error {
            case .invalidLocation: return 64
            case .notFound: return 66
            case .newerSchema, .notACatalogue: return 65
            case .unavailable: return 69
            case .permissionDenied: return 77
            case .busy: return 75
            case .database: return 70
            case .ioFailed: return 74
            }
        case let error as FDSNError:
            if case .unknownService = error { return 64 }
            return 69
        case let error as FetchError:
            switch error {
            case .invalidURL: return 64
            case .tooLarge: return 65
            default: return error.isTemporary ? 75 : 69
            }
        default:
            return 70
        }
    }
}

extension ParsableCommand {
    /// Runs `body`, turning library errors into one logged message and an exit code.
    package func reportingErrors(_ log: Logger, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            let code = Reporting.code(for: error)
            log.error("\(String(describing: error))", metadata: ["exitCode": .stringConvertible(Int(code)), "outcome": "failed"])
            throw ExitCode(code)
        }
    }
}
