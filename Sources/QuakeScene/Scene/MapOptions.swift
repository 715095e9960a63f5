import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeGeo

/// The land under the events.
public enum BasemapChoice: Sendable, Hashable {
    /// Natural Earth land built into the library: 1:110m, or the simplified
    /// 1:10m where the map shows 10 pixels or more per degree (a region, a large image).
    case naturalEarth
    /// NOAA's ETOPO1 shaded relief of land and sea floor (built in, muted under the
    /// events), with Natural Earth's coastlines over it.
    case relief
    /// The caller's own polygons.
    case custom(Basemap)
    /// No land and no background: events on a transparent image.
    case none

    /// The built-in choices by the names the command line and the server take: `land`, `relief`, `none`.
    package static let named: [(name: String, choice: BasemapChoice)] = [("land", .naturalEarth), ("relief", .relief), ("none", .none)]

    /// The built-in choice called `name`, if any.
    package init?(named name: String) {
        guard let found = Self.named.first(where: { $0.name == name }) else { return nil }
        self = found.choice
    }
}

/// Everything that decides how a map looks, with the command line's defaults.
public struct MapOptions: Sendable, Hashable {
    /// Image width in pixels at scale 1. Default 2048.
    package var width: Int
    /// Image height in pixels at scale 1. Default: the box's aspect ratio (half the width for the world),
    /// or the globe's for Equal Earth and Robinson.
    package var height: Int
    /// The box shown; `nil` is the whole world.
    package var region: GeoBox?
    /// For a world map: the meridian at the centre (default 0). Ignored with a region.
    package var centerLongitude: Double
    /// How the globe is laid out (default plate carrée). Equal Earth and Robinson
    /// draw the whole world only: ``validate()`` refuses them with a region.
    package var mapProjection: MapProjection
    /// Circle sizes and what their colour tells: the initializer's `style` and `coloring`.
    package var symbols: SymbolStyle
    /// The land under the events.
    package var basemap: BasemapChoice
    /// Ocean, land, coastline and overlay colours.
    package var palette: MapPalette
    /// Draw the legend, the title and the footer. Default `true`.
    package var showsLegend: Bool
    /// The title; `nil` makes one: `N earthquakes, <first> – <last> UTC`.
    package var title: String?
    /// Who the data is from, credited in the footer (`Data: USGS`): the feed's own
    /// ``FeedSummary/sources`` unless set (the one-call jobs fill it from the feed).
    public var dataSources: [String] = []
    /// Degrees between graticule lines; `nil` draws none.
    package var graticuleSpacing: Double?
    /// Multiplies the pixel size of everything (2 for HiDPI). Default 1.
    package var scale: Double
    /// The plate boundaries drawn over the land, subduction zones with teeth on the
    /// overriding side; default ``PlateBoundaries/bird2003``, `nil` draws none. A map
    /// without a basemap (``BasemapChoice/none``) draws none whatever this is.
    package var plateBoundaries: PlateBoundaries?
    /// How many of the largest events carry a label (magnitude, place, time); 0 for none.
    /// Default 3. A map without a basemap (``BasemapChoice/none``), a bare overlay of
    /// the events, carries none whatever this is; ``showsLegend`` does not change it.
    package var labelCount: Int
    /// A cross-section's profile to draw over the events: the line A→B, its
    /// band's edges and the letters A and B. `nil` (the default) draws none.
    package var profile: CrossSectionProfile?

    /// Creates options. Without `height`, the height follows the box's aspect ratio.
    public init(
        width: Int = 2048,
        height: Int? = nil,
        region: GeoBox? = nil,
        centerLongitude: Double = 0,
        mapProjection: MapProjection = .plateCarree,
        style: MagnitudeStyle = MagnitudeStyle(),
        coloring: SymbolColoring = .magnitude,
        basemap: BasemapChoice = .naturalEarth,
        palette: MapPalette = .standard,
        showsLegend: Bool = true,
        title: String? = nil,
        graticuleSpacing: Double? = nil,
        scale: Double = 1,
        plateBoundaries: PlateBoundaries? = .bird2003,
        labelCount: Int = 3
    ) {
        let box = region ?? .world
        self.width = width
        // A box thinner than a pixel per degree could ask for more pixels than exist;
        // the height is capped here, and a caller's limits (the CLI's 32767) refuse it.
        let natural = region == nil && mapProjection != .plateCarree ? (Double(width) / mapProjection.aspectRatio).rounded()
            : (Double(width) * box.latitudeSpan / box.longitudeSpan).rounded()
        self.height = height ?? (natural.isFinite && natural < 1e9 ? max(1, Int(natural)) : 1_000_000_000)
        self.region = region
        self.centerLongitude = centerLongitude
        self.mapProjection = mapProjection
        self.symbols = SymbolStyle(sizes: style, coloring: coloring)
        self.basemap = basemap
        self.palette = palette
        self.showsLegend = showsLegend
        self.title = title
        self.graticuleSpacing = graticuleSpacing
        self.scale = scale
        self.plateBoundaries = plateBoundaries
        self.labelCount = labelCount
    }

    /// The most pixels a map may have, scale applied: 100 million (about 400 MB
    /// of pixels while it is drawn).
    package static let maximumPixels = 100_000_000
    /// The most labels a map takes (`labelCount`; more are not drawn): past a
    /// few dozen they hide the map they name.
    package static let maximumLabelCount = 50
    /// The longest side in pixels, scale applied: Cairo's limit for an image.
    public static let maximumSide = 32_767
    /// The largest scale (pixels per map unit) of a map or chart: 8, print resolution for a
    /// map of a few inches; larger scales draw a small map's symbols and text blurrily large.
    package static let maximumScale = 8.0
    /// The longitudes a map may be centred on.
    package static let centerLongitudeRange = -180.0...180.0
    /// Graticule spacings in degrees: finer is unreadable, coarser draws nothing.
    package static let graticuleRange = 1.0...90.0

    /// Checks that the map can be drawn: its sides, its pixel count and its
    /// scale, the centre longitude, the graticule spacing, and that a
    /// projection other than plate carrée has no region. ``MapRenderer``
    /// refuses a scene over the same limits; calling this first refuses the
    /// options before any feed is read.
    ///
    /// - Throws: ``MapOptionsError``.
    public func validate() throws(MapOptionsError) {
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            throw .sideOutOfRange(width: width, height: height)
        }
        guard scale.isFinite, scale > 0, scale <= Self.maximumScale else { throw .scaleOutOfRange(scale) }
        guard Self.fits(width: Double(width) * scale, height: Double(height) * scale) else {
            throw .tooLarge(width: width, height: height, scale: scale)
        }
        guard centerLongitude.isFinite, Self.centerLongitudeRange.contains(centerLongitude) else {
            throw .centerLongitudeOutOfRange(centerLongitude)
        }
        if let graticuleSpacing, !(graticuleSpacing.isFinite && Self.graticuleRange.contains(graticuleSpacing)) {
            throw .graticuleOutOfRange(graticuleSpacing)
        }
        if let region, mapProjection != .plateCarree { throw .projectionNeedsWorld(mapProjection, region: region) }
        guard (0...Self.maximumLabelCount).contains(labelCount) else { throw .labelCountOutOfRange(labelCount) }
        try symbols.sizes.validate()
        if let scale = symbols.beachballs?.scale, !(scale.isFinite && scale > 0 && scale <= BeachballStyle.maximumScale) {
            throw .beachballScaleOutOfRange(scale)
        }
    }

    /// Whether an image of these pixel sides is within ``maximumSide`` and 100,000,000 pixels.
    package static func fits(width: Double, height: Double) -> Bool {
        // Each side first, so the product of absurd sizes cannot overflow.
        width >= 1 && height >= 1 && width <= Double(maximumSide) && height <= Double(maximumSide)
            && width * height <= Double(maximumPixels)
    }

    /// The image width in pixels, scale applied.
    package var pixelWidth: Int { max(1, Int((Double(width) * scale).rounded())) }
    /// The image height in pixels, scale applied.
    package var pixelHeight: Int { max(1, Int((Double(height) * scale).rounded())) }

    /// The plate carrée projection of this map's box onto its pixels: what a
    /// plate carrée map (``MapProjection/plateCarree``, the default) draws
    /// with. An Equal Earth or Robinson map is not drawn with it.
    package var projection: PlateCarree {
        if let region {
            return PlateCarree(region: region, width: Double(pixelWidth), height: Double(pixelHeight))
        }
        return PlateCarree(centerLongitude: centerLongitude, width: Double(pixelWidth), height: Double(pixelHeight))
    }
}

/// The colours of the map under and over the events.
public struct MapPalette: Sendable, Hashable {
    /// The sea, and the background where there is a basemap.
    package var ocean: RGBA
    /// Land.
    package var land: RGBA
    /// The coastline stroke.
    package var coastline: RGBA
    /// Graticule lines.
    package var graticule: RGBA
    /// Panels behind the legend and labels.
    package var panel: RGBA
    /// Text.
    package var text: RGBA
    /// Plate boundary lines and their subduction teeth.
    package var plateBoundary: RGBA
    /// The sea floor and land of a relief basemap.
    package var relief: ReliefPalette = .standard

    /// Creates a palette.
    public init(ocean: RGBA, land: RGBA, coastline: RGBA, graticule: RGBA, panel: RGBA, text: RGBA,
                plateBoundary: RGBA = MapPalette.standardPlateBoundary) {
        self.ocean = ocean
        self.land = land
        self.coastline = coastline
        self.graticule = graticule
        self.panel = panel
        self.text = text
        self.plateBoundary = plateBoundary
    }

    /// A muted brick red, opaque (where two lines meet, or a tooth sits on its line,
    /// nothing gets darker): quiet beside the coastline, told apart from the
    /// yellow-to-red circles by being thin and dull.
    public static let standardPlateBoundary = RGBA(hex: 0xA0665A)

    /// A dark, desaturated blue sea and grey land: the yellow-to-red circles
    /// stand out on both, and land stays legible under translucent fills.
    public static let standard = MapPalette(
        ocean: RGBA(hex: 0x1E2A38), land: RGBA(hex: 0x4B5563), coastline: RGBA(hex: 0x6B7685),
        graticule: RGBA(red: 1, green: 1, blue: 1, alpha: 0.10),
        panel: RGBA(hex: 0x111820, alpha: 0.78), text: RGBA(hex: 0xE8ECF0))
}

/// Why ``MapOptions/validate()`` refused options.
public enum MapOptionsError: QuakeKitError, Equatable {
    /// Width or height outside 1…``MapOptions/maximumSide``.
    case sideOutOfRange(width: Int, height: Int)
    /// A scale that is not above 0 and at most 8.
    case scaleOutOfRange(Double)
    /// Over 100,000,000 pixels or ``MapOptions/maximumSide`` once scaled.
    case tooLarge(width: Int, height: Int, scale: Double)
    /// A centre longitude outside −180…180.
    case centerLongitudeOutOfRange(Double)
    /// A graticule spacing outside 1…90°.
    case graticuleOutOfRange(Double)
    /// More labels than 50, or fewer than none.
    case labelCountOutOfRange(Int)
    /// A region with a projection that draws only the whole world.
    case projectionNeedsWorld(MapProjection, region: GeoBox)
    /// A circle scale not above 0 and at most 100.
    case symbolScaleOutOfRange(Double)
    /// A minimum circle diameter outside 0…1000 pixels.
    case minimumDiameterOutOfRange(Double)
    /// A beachball scale not above 0 and at most 100.
    case beachballScaleOutOfRange(Double)

    /// The message, with the values.
    public var message: String {
        switch self {
        case let .sideOutOfRange(width, height):
            return "a \(width)×\(height) map: width and height must be 1…\(MapOptions.maximumSide) pixels"
        case let .scaleOutOfRange(scale):
            return "scale \(scale): must be above 0 and at most \(Int(MapOptions.maximumScale))"
        case let .tooLarge(width, height, scale):
            return "\(width)×\(height) at scale \(scale) is more than \(MapOptions.maximumPixels / 1_000_000) megapixels or \(MapOptions.maximumSide) pixels a side"
        case let .centerLongitudeOutOfRange(longitude):
            return "centre longitude \(longitude): must be \(Int(MapOptions.centerLongitudeRange.lowerBound))…\(Int(MapOptions.centerLongitudeRange.upperBound))"
        case let .graticuleOutOfRange(spacing):
            return "graticule every \(spacing)°: must be \(Int(MapOptions.graticuleRange.lowerBound))…\(Int(MapOptions.graticuleRange.upperBound)) degrees"
        case let .labelCountOutOfRange(count):
            return "\(count) labels: must be 0…\(MapOptions.maximumLabelCount)"
        case let .projectionNeedsWorld(projection, region):
            return "the \(projection.rawValue) projection draws the whole world: it cannot crop to the region \(region.west),\(region.south),\(region.east),\(region.north); use plate-carree for a region"
        case let .symbolScaleOutOfRange(scale):
            return "symbol scale \(scale): must be above 0 and at most \(Int(MagnitudeStyle.maximumSymbolScale))"
        case let .minimumDiameterOutOfRange(diameter):
            return "minimum diameter \(diameter): must be \(Int(MagnitudeStyle.minimumDiameterRange.lowerBound))…\(Int(MagnitudeStyle.minimumDiameterRange.upperBound)) pixels"
        case let .beachballScaleOutOfRange(scale):
            return "beachball scale \(scale): must be above 0 and at most \(Int(MagnitudeStyle.maximumSymbolScale))"
        }
    }
}
