import ArgumentParser
import Foundation
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

extension Quakemap {
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw the selected events on a world map (PNG).",
            discussion: """
                Examples:
                  quakemap render Data/synthetic_all_day.csv -o Output/quakes.png
                  cat all_day.csv | quakemap render -o - > map.png
                """
        )

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var selectionOptions: SelectionOptions

        @Option(name: .shortAndLong, help: ArgumentHelp(
            "Where to write the PNG ('-' for standard output). Folders are created as needed.",
            valueName: "path"))
        var output = "Output/quakes.png"

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
        }

        func run() throws {
            let start = ContinuousClock.now
            try reportingErrors {
                let map = MapOptions(
                    width: width,
                    height: height,
                    style: MagnitudeStyle(symbolScale: symbolScale, minimumDiameter: minDiameter),
                    basemap: try loadBasemap()
                )
                let selected = try QuakeMap.select(
                    from: try inputOptions.source(),
                    feed: inputOptions.feedOptions,
                    selection: selectionOptions.selection)
                let png = try QuakeMap.pngData(for: selected.events, options: map)
                if output == "-" {
                    try AtomicFileWriter.writeAll(png, to: STDOUT_FILENO, path: "<stdout>")
                } else {
                    try AtomicFileWriter.write(png, to: output)
                }
                guard !inputOptions.quiet else { return }
                Reporting.printRejections(selected.summary)
                let destination = output == "-" ? "<stdout>" : output
                Reporting.printLine(Reporting.describe(selected.summary)
                    + "; drew \(selected.events.count) → \(destination) (\(map.width)×\(map.height))"
                    + " in \(Reporting.milliseconds(ContinuousClock.now - start)) ms")
            }
        }

        private func loadBasemap() throws -> Basemap? {
            switch basemap {
            case "land": return .naturalEarth110m
            case "none": return nil
            default:
                let data: Data
                do {
                    data = try Data(contentsOf: URL(fileURLWithPath: basemap))
                } catch {
                    throw FeedError.cannotOpen(path: basemap, errno: ENOENT)
                }
                return try Basemap(geoJSON: data, name: basemap)
            }
        }
    }
}
