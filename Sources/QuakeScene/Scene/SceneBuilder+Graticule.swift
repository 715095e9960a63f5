import QuakeGeo

extension SceneBuilder {
    /// Meridians and parallels every `graticuleSpacing` degrees across the visible box.
    package func graticule(_ projection: PlateCarree) -> [SceneLine] {
        guard let spacing = options.graticuleSpacing, spacing > 0, spacing.isFinite else { return [] }
        let stroke = options.palette.graticule, width = 0.8 * options.scale
        var lines: [SceneLine] = []
        let west = projection.west, east = projection.west + projection.longitudeSpan
        var longitude = (west / spacing).rounded(.up) * spacing
        while longitude <= east + 1e-9 {
            let top = projection.projectUnwrapped(latitude: projection.north, longitude: longitude)
            let bottom = projection.projectUnwrapped(latitude: projection.south, longitude: longitude)
            lines.append(SceneLine(points: [top, bottom], stroke: stroke, width: width))
            longitude += spacing
        }
        var latitude = (projection.south / spacing).rounded(.up) * spacing
        while latitude <= projection.north + 1e-9 {
            let left = projection.projectUnwrapped(latitude: latitude, longitude: west)
            let right = projection.projectUnwrapped(latitude: latitude, longitude: east)
            lines.append(SceneLine(points: [left, right], stroke: stroke, width: width))
            latitude += spacing
        }
        return lines
    }
}
