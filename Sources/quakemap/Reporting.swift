import ArgumentParser
import Foundation
import QuakeKit

/// Messages on standard error, and the one place errors become exit codes.
enum Reporting {
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data(("quakemap: " + text + "\n").utf8))
    }

    static func printLine(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// The rejected rows kept in the summary, then a count of the rest.
    static func printRejections(_ summary: FeedSummary) {
        for rejection in summary.rejections { printLine("warning: " + rejection.message) }
        let unshown = summary.rejected - summary.rejections.count
        if unshown > 0 { printLine("warning: … and \(unshown) more rejected rows") }
    }

    /// `read 19816 rows: 19813 events, 3 without magnitude, 0 rejected`.
    static func describe(_ summary: FeedSummary) -> String {
        "read \(summary.rows) rows: \(summary.events) events, "
            + "\(summary.withoutMagnitude) without magnitude, \(summary.rejected) rejected"
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// Prints the error and returns the sysexits code for it.
    static func exitCode(for error: Error) -> ExitCode {
        let code: Int32
        switch error {
        case let error as FeedError:
            switch error {
            case .cannotOpen: code = 66
            case .readFailed: code = 74
            default: code = 65
            }
        case is BasemapError:
            code = 65
        case let error as WriteError:
            switch error {
            case .cannotCreateFolder, .cannotCreate: code = 73
            case .writeFailed: code = 74
            }
        case let error as RenderError:
            switch error {
            case .invalidSize: code = 64
            case .cairo, .notPNG: code = 70
            }
        default:
            code = 70
        }
        printError(String(describing: error))
        return ExitCode(code)
    }
}

extension ParsableCommand {
    /// Runs `body`, turning library errors into a message and an exit code.
    func reportingErrors(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            throw Reporting.exitCode(for: error)
        }
    }
}
