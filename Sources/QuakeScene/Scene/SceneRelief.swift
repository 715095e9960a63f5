import Foundation
import QuakeParse
import QuakeQuery
import QuakeGeo

/// The shaded relief under a map (`--basemap relief`): which longitude and latitude
/// each pixel shows, and the colours of sea floor and land. The renderer samples the
/// built-in ETOPO1 raster along each row.
package struct SceneRelief: Sendable, Hashable {
    /// How the map's pixels lie on the globe.
    package enum Mapping: Sendable, Hashable {
        /// A plate carrée world map or box.
        case plateCarree(PlateCarree)
        /// An Equal Earth or Robinson world map.
        case globe(GlobeProjection)
    }

    /// One row of pixels: every projection drawn here keeps a row on one parallel, with
    /// longitude linear in x, so a row is a latitude and a line.
    package struct Row: Sendable, Hashable {
        /// The latitude of the row's pixel centres.
        package var latitude: Double
        /// The longitude of the centre of pixel 0 (not taken modulo 360).
        package var longitudeAtZero: Double
        /// Degrees of longitude from one pixel to the next.
        package var degreesPerPixel: Double
        /// The pixels that lie on the globe (all of them, except on an Equal Earth or Robinson map).
        package var columns: Range<Int>
    }

    /// Where the pixels lie.
    package var mapping: Mapping
    /// Image width in pixels.
    package var width: Int
    /// Image height in pixels.
    package var height: Int
    /// The colours.
    package var palette: ReliefPalette

    /// Creates a relief layer.
    package init(mapping: Mapping, width: Int, height: Int, palette: ReliefPalette) {
        self.mapping = mapping
        self.width = width
        self.height = height
        self.palette = palette
    }

    /// Row `y` of the image, or `nil` where it lies off the globe.
    package func row(_ y: Int) -> Row? {
        let centreY = Double(y) + 0.5
        switch mapping {
        case .plateCarree(let projection):
            let start = projection.geographic(x: 0.5, y: centreY)
            return Row(latitude: start.latitude, longitudeAtZero: start.longitude,
                       degreesPerPixel: projection.longitudeSpan / projection.width, columns: 0..<width)
        case .globe(let globe):
            guard let parallel = globe.parallel(atY: centreY), parallel.pixelsPerDegree > 0 else { return nil }
            // The parallel ends 180° either side of the centre; a pixel is on it when its centre is.
            let half = 180 * parallel.pixelsPerDegree, middle = globe.width / 2
            let first = max(0, Int((middle - half - 0.5).rounded(.up)))
            let end = min(width, Int((middle + half - 0.5).rounded(.down)) + 1)
            guard first < end else { return nil }
            return Row(latitude: parallel.latitude, longitudeAtZero: globe.centerLongitude + (0.5 - middle) / parallel.pixelsPerDegree,
                       degreesPerPixel: 1 / parallel.pixelsPerDegree, columns: first..<end)
        }
    }
}

/// The colours of the relief: two ramps, each from the raster's darkest level to its
/// lightest. Muted and dark, like the flat map's sea and land, so that the yellow-to-red
/// events stay the brightest things on the map while trenches, ridges and mountains show.
package struct ReliefPalette: Sendable, Hashable {
    /// The deepest sea floor (a trench).
    package var deepSea: RGBA
    /// The shallowest sea (a continental shelf).
    package var shallowSea: RGBA
    /// The darkest land (a shaded lowland).
    package var lowLand: RGBA
    /// The lightest land (lit mountains and ice caps).
    package var highLand: RGBA

    /// How the land ramp bends: most land lies in the upper half of the raster's levels (lit
    /// slopes, deserts, ice), and a straight ramp would make it too light for yellow circles.
    package var landGamma: Double
    /// How the sea ramp bends: below 1 it spreads the deep levels apart, so that a trench
    /// stands out from the abyssal plain beside it.
    package var seaGamma: Double

    /// Beside ``MapPalette/standard``: its sea colour lies in the middle of the sea ramp
    /// (the abyssal plains), its land colour in the middle of the land ramp.
    package static let standard = ReliefPalette(deepSea: RGBA(hex: 0x0A0F16), shallowSea: RGBA(hex: 0x3C5168),
                                                lowLand: RGBA(hex: 0x2F3337), highLand: RGBA(hex: 0x8E8B85), landGamma: 2.2,
                                                seaGamma: 0.7)

    /// The raster's values, as drawn: 0…63 sea from deepest to shallowest, 128…191 land
    /// from darkest to lightest (see scripts/make_relief.py). Other values are never written.
    package static let levels = 64
    /// The value of the darkest land.
    package static let landBase = 128

    /// The colour of each of the 256 raster values, opaque.
    package var colours: [RGBA] {
        (0..<256).map { value in
            let isLand = value >= Self.landBase
            let linear = Double(min(Self.levels - 1, isLand ? value - Self.landBase : value)) / Double(Self.levels - 1)
            let level = pow(linear, isLand ? landGamma : seaGamma)
            let (from, to) = isLand ? (lowLand, highLand) : (deepSea, shallowSea)
            return RGBA(red: from.red + (to.red - from.red) * level, green: from.green + (to.green - from.green) * level,
                        blue: from.blue + (to.blue - from.blue) * level)
        }
    }
}
