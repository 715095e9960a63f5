import ArgumentParser
import Foundation
import Logging
import QuakeCommand
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

extension MapProjection: ExpressibleByArgument {}

extension Quakemap {
    struct Render: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw the selected events on a map (PNG, PDF or SVG).",
            discussion: """
                Examples:
                  quakemap render Data/synthetic_all_day.csv -o Output/quakes.png
                  cat all_day.csv | quakemap render -o - > map.png
                  quakemap render all_day.csv --region 120,-60,-60,60 --color depth -o pacific.pdf
                  quakemap render --url https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_day.csv \\
                      -o /var/www/quakes.png --if-changed --stale-ok
                """
        )

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var fetchArguments: FetchArguments
        @OptionGroup var selectionOptions: SelectionOptions
        @OptionGroup(title: "Filters") var filterOptions: FilterOptions
        @OptionGroup(title: "Circles") var symbolOptions: SymbolOptions

        @Option(name: .shortAndLong, help: ArgumentHelp(
            "Where to write the PNG ('-' for standard output). Folders are created as needed.",
            valueName: "path"))
        var output = "Output/quakes.png"

        @Flag(help: "With --url: do nothing (exit 0) when the feed is the one last rendered to this output.")
        var ifChanged = false

        @Option(help: ArgumentHelp("Output format: png, pdf or svg (default: from the output's extension; png for '-' or no extension).",
                                   valueName: "format"))
        var format: ImageFormat?

        @Option(help: "Image width in pixels.")
        var width = 2048

        @Option(help: "Image height in pixels (default: from the map's aspect ratio; half the width for the world).")
        var height: Int?

        @Option(help: ArgumentHelp("Crop to a box W,S,E,N in degrees; W > E crosses the antimeridian (120,-60,-60,60 is the Pacific). Only events inside are selected.",
                                   valueName: "W,S,E,N"))
        var region: String?

        @Option(help: ArgumentHelp("Centre a world map on this meridian (e.g. 150 for the Pacific).", valueName: "degrees"))
        var centerLon: Double = 0

        @Option(help: ArgumentHelp(
            "The world map's projection: plate-carree (the default; also for --region), equal-earth (equal-area) or robinson.",
            valueName: "name"))
        var projection: MapProjection = .plateCarree

        @Flag(help: "Draw no legend, title or footer.")
        var noLegend = false

        @Option(help: "The title (default: 'N earthquakes, <first> – <last> UTC'; 'No earthquakes' and the feed's title when none).")
        var title: String?

        @Option(help: ArgumentHelp("Draw meridians and parallels every this many degrees.", valueName: "degrees"))
        var graticule: Double?

        @Option(help: "Multiply the pixel size of everything (2 for HiDPI).")
        var scale: Double = 1

        @Option(help: ArgumentHelp("Label the N largest events with magnitude, place and time (0: none; at most \(MapOptions.maximumLabelCount)).",
                                   valueName: "N"))
        var labels = 3

        @Option(help: ArgumentHelp(
            "'land' (built-in Natural Earth land, more detailed for regions and large images), 'none' (transparent background), or a GeoJSON file of polygons.",
            valueName: "land|none|path"))
        var basemap = "land"

        @Option(help: ArgumentHelp(
            "Plate boundaries over the land, subduction zones with teeth on the overriding side: 'bird2003' (Peter Bird's PB2002, built in) or 'none'. '--basemap none' draws none either way.",
            valueName: "bird2003|none"))
        var plates: PlateChoice = .bird2003

        /// What `--plates` takes.
        enum PlateChoice: String, ExpressibleByArgument, CaseIterable {
            case bird2003, none

            var boundaries: PlateBoundaries? { self == .bird2003 ? .bird2003 : nil }
        }

        func validate() throws {
            guard (0...MapOptions.maximumLabelCount).contains(labels) else {
                throw ValidationError("--labels must be 0…\(MapOptions.maximumLabelCount)")
            }
            let box = try regionBox()
            // The library's check, worded with the options' names.
            do {
                try MapOptions(width: width, height: height, region: box, centerLongitude: centerLon,
                               mapProjection: projection, graticuleSpacing: graticule, scale: scale).validate()
            } catch {
                switch error {
                case .sideOutOfRange:
                    throw ValidationError("--width and --height must be 1…\(MapOptions.maximumSide) pixels")
                case .scaleOutOfRange: throw ValidationError("--scale must be above 0 and at most 8")
                case .tooLarge: throw ValidationError(error.message)
                case .centerLongitudeOutOfRange: throw ValidationError("--center-lon must be -180…180")
                case .graticuleOutOfRange: throw ValidationError("--graticule must be 1…90 degrees")
                case .projectionNeedsWorld:
                    throw ValidationError("--projection \(projection.rawValue) draws the whole world: it cannot be used with --region")
                }
            }
            if ifChanged && ((inputOptions.url == nil && inputOptions.fdsn == nil) || output == "-") {
                throw ValidationError("--if-changed needs --url or --fdsn, and an output file")
            }
            _ = try outputFormat()
        }

        private func regionBox() throws -> GeoBox? {
            guard let region else { return nil }
            do {
                return try GeoBox(parsing: region)
            } catch let error as GeoBoxError {
                throw ValidationError("--region: \(error.message)")
            }
        }

        private func outputFormat() throws -> ImageFormat {
            try OutputFormat.resolve(output: output, format: format)
        }

        func run() async throws {
            let start = ContinuousClock.now
            let log = Reporting.logger(inputOptions)
            try await reportingErrors(log) {
                let box = try regionBox()
                let map = MapOptions(
                    width: width,
                    height: height,
                    region: box,
                    centerLongitude: centerLon,
                    mapProjection: projection,
                    style: symbolOptions.style,
                    coloring: symbolOptions.color.coloring,
                    basemap: try loadBasemap(),
                    showsLegend: !noLegend,
                    title: title,
                    graticuleSpacing: graticule,
                    scale: scale,
                    plateBoundaries: plates.boundaries,
                    labelCount: labels
                )
                var selection = try selectionOptions.selection(filteredBy: filterOptions)
                selection.region = box
                let loader = FeedLoader(input: inputOptions, fetch: fetchArguments, selection: selection, log: log,
                                        now: try filterOptions.pinnedNow(), filters: filterOptions)
                var loaded: LoadedFeed<MapEvent>
                switch try await loader.load(ifChangedOutput: ifChanged ? output : nil, as: MapEvent.self) {
                case .unchanged(let url):
                    log.info("\(url): unchanged since the last render to \(output): nothing to do",
                             metadata: ["outcome": "unchanged", "url": .string(url), "output": .string(output)])
                    return
                case .loaded(let feed):
                    loaded = feed
                }
                // The scene builder takes the events over, so they are gone (56 MB for
                // a million) before the image is drawn.
                let events = loaded.selection.events
                loaded.selection.events = []
                let drawn = events.count
                let scene = SceneBuilder(options: map).scene(for: consume events, feedGenerated: loaded.generated,
                                                             feedTitle: loaded.selection.summary.title,
                                                             places: loaded.selection.places)
                let bytes = try MapRenderer().data(for: scene, format: try outputFormat())
                if output == "-" {
                    try AtomicFileWriter.writeAll(bytes, to: STDOUT_FILENO, path: "<stdout>")
                } else {
                    try AtomicFileWriter.write(bytes, to: output)
                }
                let destination = output == "-" ? "<stdout>" : output
                Reporting.finish(loaded, loader: loader, renderedOutput: output == "-" ? nil : output, outcome: "rendered",
                                 done: "drew \(drawn) → \(destination) (\(map.pixelWidth)×\(map.pixelHeight))",
                                 selected: drawn, start: start, log: log,
                                 extra: ["output": .string(destination), "width": .stringConvertible(map.pixelWidth),
                                         "height": .stringConvertible(map.pixelHeight)])
            }
        }

        private func loadBasemap() throws -> BasemapChoice {
            switch basemap {
            case "land": return .naturalEarth
            case "none": return .none
            default:
                guard let data = FileManager.default.contents(atPath: basemap) else {
                    throw FeedError.cannotOpen(path: basemap, errno: FileManager.default.fileExists(atPath: basemap) ? EACCES : ENOENT)
                }
                return .custom(try Basemap(geoJSON: data, name: basemap))
            }
        }
    }
}
