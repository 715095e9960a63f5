import ArgumentParser
import Foundation
import Logging
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

extension Quakemap {
    struct Render: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw the selected events on a world map (PNG).",
            discussion: """
                Examples:
                  quakemap render Data/synthetic_all_day.csv -o Output/quakes.png
                  cat all_day.csv | quakemap render -o - > map.png
                  quakemap render --url https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_day.csv \\
                      -o /var/www/quakes.png --if-changed --stale-ok
                """
        )

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var fetchArguments: FetchArguments
        @OptionGroup var selectionOptions: SelectionOptions

        @Option(name: .shortAndLong, help: ArgumentHelp(
            "Where to write the PNG ('-' for standard output). Folders are created as needed.",
            valueName: "path"))
        var output = "Output/quakes.png"

        @Flag(help: "With --url: do nothing (exit 0) when the feed is the one last rendered to this output.")
        var ifChanged = false

        @Option(help: "Image width in pixels.")
        var width = 2048

        @Option(help: "Image height in pixels (default: half the width).")
        var height: Int?

        @Option(help: "Multiply every circle's diameter (0.75·m² px) by this factor.")
        var symbolScale = 1.0

        @Option(help: "Smallest circle diameter in pixels; 0 gives the plain 0.75·m² formula.")
        var minDiameter = 2.0

        @Option(help: ArgumentHelp(
            "'land' (built-in Natural Earth land), 'none' (transparent background), or a GeoJSON file of polygons.",
            valueName: "land|none|path"))
        var basemap = "land"

        func validate() throws {
            let height = self.height ?? max(1, width / 2)
            guard (1...32_767).contains(width), (1...32_767).contains(height) else {
                throw ValidationError("--width and --height must be 1…32767 pixels")
            }
            guard width * height <= 100_000_000 else {
                throw ValidationError("\(width)×\(height) is more than 100 megapixels")
            }
            guard symbolScale.isFinite, symbolScale > 0 else {
                throw ValidationError("--symbol-scale must be a positive number")
            }
            guard minDiameter.isFinite, minDiameter >= 0 else {
                throw ValidationError("--min-diameter must be 0 or more")
            }
            if ifChanged && (inputOptions.url == nil || output == "-") {
                throw ValidationError("--if-changed needs --url and an output file")
            }
        }

        func run() async throws {
            let start = ContinuousClock.now
            let log = Reporting.logger(inputOptions)
            try await reportingErrors(log) {
                let map = MapOptions(
                    width: width,
                    height: height,
                    style: MagnitudeStyle(symbolScale: symbolScale, minimumDiameter: minDiameter),
                    basemap: try loadBasemap()
                )
                let loader = FeedLoader(input: inputOptions, fetch: fetchArguments,
                                        selection: selectionOptions.selection, log: log)
                let loaded: LoadedFeed
                switch try await loader.load(ifChangedOutput: ifChanged ? output : nil) {
                case .unchanged(let url):
                    log.info("\(url): unchanged since the last render to \(output): nothing to do",
                             metadata: ["outcome": "unchanged", "url": .string(url), "output": .string(output)])
                    return
                case .loaded(let feed):
                    loaded = feed
                }
                let png = try QuakeMap.pngData(for: loaded.selection.events, options: map)
                if output == "-" {
                    try AtomicFileWriter.writeAll(png, to: STDOUT_FILENO, path: "<stdout>")
                } else {
                    try AtomicFileWriter.write(png, to: output)
                }
                loader.remember(loaded, renderedOutput: output == "-" ? nil : output)
                Reporting.logRejections(loaded.selection.summary, to: log)
                let destination = output == "-" ? "<stdout>" : output
                let milliseconds = Reporting.milliseconds(ContinuousClock.now - start)
                var metadata = Reporting.metadata(loaded)
                metadata["outcome"] = "rendered"
                metadata["output"] = .string(destination)
                metadata["width"] = .stringConvertible(map.width)
                metadata["height"] = .stringConvertible(map.height)
                metadata["milliseconds"] = .stringConvertible(milliseconds)
                let drew = "drew \(loaded.selection.events.count) → \(destination) (\(map.width)×\(map.height))"
                log.info("\(Reporting.describe(loaded)); \(drew) in \(milliseconds) ms", metadata: metadata)
            }
        }

        private func loadBasemap() throws -> Basemap? {
            switch basemap {
            case "land": return .naturalEarth110m
            case "none": return nil
            default:
                guard let data = FileManager.default.contents(atPath: basemap) else {
                    throw FeedError.cannotOpen(path: basemap, errno: FileManager.default.fileExists(atPath: basemap) ? EACCES : ENOENT)
                }
                return try Basemap(geoJSON: data, name: basemap)
            }
        }
    }
}
