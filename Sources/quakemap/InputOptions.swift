import ArgumentParser
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

/// The input and how it is judged; shared by every subcommand.
struct InputOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "A feed file, or '-' for standard input (the default when input is piped).",
        valueName: "input"))
    var input: String?

    @Flag(help: "Stop at the first bad row (exit 65) instead of skipping it.")
    var strict = false

    @Flag(name: [.short, .long], help: "Print no summary line and no warnings; errors still print.")
    var quiet = false

    func source() throws -> FeedSource {
        switch input {
        case "-":
            return .standardInput
        case let path?:
            return .file(path)
        case nil:
            guard isatty(STDIN_FILENO) == 0 else {
                throw ValidationError("no input: give a feed file, or pipe one in (e.g. 'cat all_day.csv | quakemap render -o map.png')")
            }
            return .standardInput
        }
    }

    var feedOptions: FeedOptions { FeedOptions(strict: strict) }
}

/// Which events are kept; shared by every subcommand.
struct SelectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Keep the N most recent events with a magnitude; 0 keeps all.", valueName: "N"))
    var limit: Int = EventSelection.defaultLimit

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 (all) or more, not \(limit)") }
    }

    var selection: EventSelection { EventSelection(limit: limit == 0 ? nil : limit) }
}
