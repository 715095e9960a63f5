import ArgumentParser

@main
struct Quakemap: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quakemap",
        abstract: "Turn the USGS earthquake feed into a map.",
        discussion: """
            Reads a USGS comma-separated feed (today's 22 columns, the older 15, or the \
            pre-2013 layouts) from a file or standard input, keeps the most recent events, \
            and draws them on a plate carrée world map.

            EXIT STATUS
              0   success
              64  usage error (a bad option or value)
              65  bad data (an empty or malformed feed; a rejected row with --strict)
              66  input not found or not readable
              70  internal error (the drawing library failed)
              73  cannot create the output file or its folder
              74  I/O error while reading or writing
            """,
        version: "0.1.0",
        subcommands: [Render.self, List.self],
        defaultSubcommand: Render.self
    )
}
