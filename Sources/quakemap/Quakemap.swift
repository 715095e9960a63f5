import ArgumentParser
import QuakeKit

@main
struct Quakemap: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quakemap",
        abstract: "Turn earthquake catalogues into maps, lists, charts, reports and tiles.",
        discussion: """
            Reads a USGS feed (comma-separated of every era, or GeoJSON), QuakeML 1.2, FDSN \
            event text or GCMT NDK, told apart by content, and GMT meca text when told \
            (--input-format), from a file, standard input, an http(s) URL, an FDSN event \
            service (--fdsn) or a catalogue (--catalogue); keeps the most recent events (300 \
            by default), and draws them on a plate carrée world map, or lists, charts, \
            reports, animates or tiles them. See `man quakemap.render` and the other pages.

            EXIT STATUS
              0   success (a feed with a header and no rows is an empty catalogue:
                  an empty map, list or pyramid), or --if-changed found nothing new
              64  usage error (a bad option or value, a URL that is not http or https)
              65  bad data (no bytes or blank lines only, not a feed, a malformed feed;
                  a rejected row with --strict; a body larger than --max-bytes)
              65  also: a catalogue of a newer schema, or a database that is not a catalogue
              66  input (or the --catalogue to read) not found or not readable
              69  the server refused (HTTP 4xx other than 429; too many redirects), or the
                  catalogue's database cannot be reached or refused the login
              70  internal error (the drawing library failed; the database refused a statement)
              73  cannot create the output file or its folder; (tiles) the output is a
                  file or a folder of other files, never replaced
              74  I/O error while reading or writing
              75  temporary failure: network error, timeout, cut-short body, HTTP 429
                  or 5xx, after the retries; a catalogue another ingest held too long
              77  the catalogue's role may not do this (a reader's role given to ingest)
            On any failure the previous output file is left as it was.
            """,
        version: QuakeMap.version,
        subcommands: [Render.self, List.self, Stats.self, Decluster.self, BMap.self, Tiles.self, Chart.self, Report.self, Animate.self,
                      Ingest.self],
        defaultSubcommand: Render.self
    )
}
