/// Everything that decides how a map looks, with the command line's defaults.
public struct MapOptions: Sendable, Hashable {
    /// Image width in pixels. Default 2048.
    public var width: Int
    /// Image height in pixels. Default half the width.
    public var height: Int
    /// Circle sizes and colours.
    public var style: MagnitudeStyle
    /// The land under the events; `nil` draws the events on a transparent background.
    public var basemap: Basemap?
    /// Ocean and land colours.
    public var palette: MapPalette

    /// Creates options; the height defaults to half the width.
    public init(
        width: Int = 2048,
        height: Int? = nil,
        style: MagnitudeStyle = MagnitudeStyle(),
        basemap: Basemap? = .naturalEarth110m,
        palette: MapPalette = .standard
    ) {
        self.width = width
        self.height = height ?? max(1, width / 2)
        self.style = style
        self.basemap = basemap
        self.palette = palette
    }
}

/// The colours of the map under the events.
public struct MapPalette: Sendable, Hashable {
    /// The sea, and the background where there is a basemap.
    public var ocean: RGBA
    /// Land.
    public var land: RGBA

    /// Creates a palette.
    public init(ocean: RGBA, land: RGBA) {
        self.ocean = ocean
        self.land = land
    }

    /// A dark, desaturated blue sea and grey land: yellow and red circles stand
    /// out on both, and land stays legible under translucent fills.
    public static let standard = MapPalette(ocean: RGBA(hex: 0x1E2A38), land: RGBA(hex: 0x4B5563))
}
