import ArgumentParser
import Foundation
import QuakeCommand
import QuakeKit

#if canImport(Glibc)
import Glibc
#endif

extension MapProjection: ExpressibleByArgument {}

/// The options that say how a map looks, shared by the commands that draw one
/// (`render`, `animate`).
struct MapArguments: ParsableArguments {
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
        "'land' (built-in Natural Earth land, more detailed for regions and large images), 'relief' (built-in NOAA ETOPO1 shaded relief of land and sea floor, muted, with Natural Earth coastlines), 'none' (transparent background), or a GeoJSON file of polygons. A file named 'land', 'relief' or 'none' is given as ./NAME.",
        valueName: "land|relief|none|path"))
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
        let box = try regionBox()
        // The library's check, worded with the options' names.
        do {
            try MapOptions(width: width, height: height, region: box, centerLongitude: centerLon,
                           mapProjection: projection, graticuleSpacing: graticule, scale: scale, labelCount: labels).validate()
        } catch {
            throw Self.validationError(error, projection: projection)
        }
    }

    /// A refusal of the library's map check, under the options' names: the limits
    /// and their wording are the library's.
    static func validationError(_ error: MapOptionsError, projection: MapProjection) -> ValidationError {
        let options = switch error {
        case .sideOutOfRange: "--width, --height"
        case .scaleOutOfRange: "--scale"
        case .tooLarge: "--width, --height, --scale"
        case .centerLongitudeOutOfRange: "--center-lon"
        case .graticuleOutOfRange: "--graticule"
        case .labelCountOutOfRange: "--labels"
        case .projectionNeedsWorld: "--projection, --region"
        case .symbolScaleOutOfRange: "--symbol-scale"
        case .minimumDiameterOutOfRange: "--min-diameter"
        case .beachballScaleOutOfRange: "--beachball-scale"
        }
        return ValidationError("\(options): \(error.message)")
    }

    /// `--region` as a box; `nil` for the world.
    func regionBox() throws -> GeoBox? {
        guard let region else { return nil }
        do {
            return try GeoBox(parsing: region)
        } catch let error as GeoBoxError {
            throw ValidationError("--region: \(error.message)")
        }
    }

    /// The map these options describe, its circles as `symbols` say (the basemap file is read here).
    func options(symbols: SymbolOptions) throws -> MapOptions {
        try options(style: symbols.style, coloring: symbols.color)
    }

    /// The map these options describe, its events drawn in `style` and `coloring`.
    func options(style: MagnitudeStyle = MagnitudeStyle(), coloring: SymbolColoring = .magnitude) throws -> MapOptions {
        MapOptions(
            width: width,
            height: height,
            region: try regionBox(),
            centerLongitude: centerLon,
            mapProjection: projection,
            style: style,
            coloring: coloring,
            basemap: try loadBasemap(),
            showsLegend: !noLegend,
            title: title,
            graticuleSpacing: graticule,
            scale: scale,
            plateBoundaries: plates.boundaries,
            labelCount: labels
        )
    }

    private func loadBasemap() throws -> BasemapChoice {
        switch BasemapChoice(named: basemap) {
        case let builtIn?: return builtIn
        case nil:
            guard let data = FileManager.default.contents(atPath: basemap) else {
                throw FeedError.cannotOpen(path: basemap, errno: FileManager.default.fileExists(atPath: basemap) ? EACCES : ENOENT)
            }
            return .custom(try Basemap(geoJSON: data, name: basemap))
        }
    }
}
