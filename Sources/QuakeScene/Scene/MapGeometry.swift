import QuakeModel
import QuakeParse
import QuakeGeo

/// How a map's geography becomes pixels, for whichever projection the map
/// uses: one point for a circle or a label, and geographic lines cut where
/// the map ends so that no line jumps across the image.
package enum MapGeometry: Sendable, Hashable {
    /// Plate carrée: a world map that wraps, or a box.
    case plateCarree(PlateCarree)
    /// Equal Earth or Robinson: the whole globe, ending at its seam (the
    /// antimeridian of its centre).
    case globe(GlobeProjection)

    /// The finest step, in degrees, of a line drawn on a globe: meridians and
    /// the seam curve, and a degree keeps them smooth at any size we draw.
    package static let step = 1.0

    /// The pixel position of a geographic point (a circle's centre, a label's anchor).
    package func point(latitude: Double, longitude: Double) -> PixelPoint {
        switch self {
        case .plateCarree(let projection): return projection.project(latitude: latitude, longitude: longitude)
        case .globe(let globe): return globe.project(latitude: latitude, longitude: longitude)
        }
    }

    /// A geographic polyline as pixel polylines: each step is taken the short
    /// way round, and where it crosses the map's seam (the edge of a wrapping
    /// world map, a globe's antimeridian) the line ends on one side and goes
    /// on from the other. On a globe, steps longer than a degree are divided
    /// so that they follow the projection's curves. In a plate carrée box a
    /// line is drawn where it lies, a turn east or west too when the box
    /// crosses 180°; the image edge clips it.
    package func pixelLines(_ line: [GeoPoint]) -> [[PixelPoint]] {
        guard let first = line.first else { return [] }
        switch self {
        case .plateCarree(let projection) where !projection.wraps:
            // A box: the line's longitudes made continuous (each step the short
            // way), then drawn once more a turn east or west wherever the box's
            // longitudes need it (a box across 180°); the image edge clips the rest.
            var longitudes = [first.longitude]
            for point in line.dropFirst() {
                let last = longitudes[longitudes.count - 1]
                longitudes.append(last + MapProjection.offset(longitude: point.longitude, from: last))
            }
            let low = longitudes.min()!, high = longitudes.max()!
            let west = projection.west, east = projection.west + projection.longitudeSpan
            return (-2...2).map { Double($0) * 360 }.filter { high + $0 >= west && low + $0 <= east }.map { shift in
                zip(line, longitudes).map { projection.projectUnwrapped(latitude: $0.latitude, longitude: $1 + shift) }
            }
        case .plateCarree(let projection):
            let center = projection.west + 180
            return Self.cutAtSeam(line, center: center, densify: false).map { run in
                run.map { projection.projectUnwrapped(latitude: $0.latitude, longitude: center + $0.offset) }
            }
        case .globe(let globe):
            return Self.cutAtSeam(line, center: globe.centerLongitude, densify: true).map { run in
                run.map { globe.point(latitude: $0.latitude, offset: $0.offset) }
            }
        }
    }

    /// The line in offsets from `center` (−180…180), split where a step crosses
    /// the seam, with the crossing point closing one run and opening the next.
    package static func cutAtSeam(_ line: [GeoPoint], center: Double, densify: Bool) -> [[(latitude: Double, offset: Double)]] {
        guard let first = line.first else { return [] }
        var runs: [[(latitude: Double, offset: Double)]] = []
        var run = [(latitude: first.latitude, offset: MapProjection.offset(longitude: first.longitude, from: center))]
        for point in line.dropFirst() {
            let start = run[run.count - 1]
            let delta = MapProjection.offset(longitude: point.longitude, from: start.offset + center)
            // Capped: a latitude far out of range (a caller's bad line) must not ask for endless pieces.
            let span = min(max(abs(delta), abs(point.latitude - start.latitude)) / step, 1_000)
            let pieces = densify && span.isFinite ? max(1, Int(span.rounded(.up))) : 1
            // Once the step has crossed the seam, its offsets are a turn back.
            var shift = 0.0
            for piece in 1...pieces {
                let fraction = Double(piece) / Double(pieces)
                let offset = start.offset + delta * fraction - shift
                let latitude = start.latitude + (point.latitude - start.latitude) * fraction
                let previous = run[run.count - 1]
                if offset > 180 || offset < -180 {
                    // Where the step meets the seam, by its share of the step's longitude.
                    let edge = offset > 180 ? 180.0 : -180.0
                    let share = (edge - previous.offset) / (offset - previous.offset)
                    let crossing = previous.latitude + (latitude - previous.latitude) * share
                    run.append((crossing, edge))
                    runs.append(run)
                    run = [(crossing, -edge), (latitude, offset - 2 * edge)]
                    shift += 2 * edge
                } else {
                    run.append((latitude, offset))
                }
            }
        }
        runs.append(run)
        return runs.filter { $0.count > 1 }
    }
}

extension MapOptions {
    /// This map's projection onto its pixels.
    package var geometry: MapGeometry {
        guard region == nil, mapProjection != .plateCarree else { return .plateCarree(projection) }
        return .globe(GlobeProjection(kind: mapProjection, centerLongitude: centerLongitude,
                                      width: Double(pixelWidth), height: Double(pixelHeight)))
    }
}
