import QuakeModel
import QuakeParse
import QuakeGeo

/// A globe map (Equal Earth, Robinson): the ocean inside the outline, land cut
/// at the seam, a curved graticule and the outline.
extension SceneBuilder {
    /// The ocean (the globe's outline filled) and the land over it, with its coastlines.
    ///
    /// Each land polygon is cut at the seam in longitude and latitude, before
    /// projecting: it is clipped to the centre ± 180° as it is and a turn east
    /// and west, so land across the seam appears at both edges, each part
    /// ending on the outline.
    package func globeLayers(_ globe: GlobeProjection) -> (polygons: [ScenePolygon], coastlines: [SceneLine]) {
        guard let basemap else { return ([], []) }
        let ocean = ScenePolygon(rings: [globe.outline], fill: options.palette.ocean)
        let west = globe.centerLongitude - 180, east = globe.centerLongitude + 180
        var landRings: [[PixelPoint]] = []
        var coastlines: [SceneLine] = []
        let coastWidth = 0.6 * options.scale
        for polygon in basemap.land {
            guard let outline = polygon.rings.first, !outline.isEmpty else { continue }
            let longitudes = outline.map(\.longitude)
            let lowest = longitudes.min()!, highest = longitudes.max()!
            for turn in -1...1 {
                let shift = Double(turn) * 360
                guard highest + shift > west, lowest + shift < east else { continue }
                for ring in polygon.rings {
                    let shifted = ring.map { GeoPoint(longitude: $0.longitude + shift, latitude: $0.latitude) }
                    let clipped = Self.clip(shifted, west: west, east: east)
                    guard clipped.count >= 4 else { continue }
                    let runs = Self.globeCoastalRuns(clipped, west: west, east: east, shift: shift)
                    let dense = Self.densified(clipped)
                    landRings.append(dense.points.map {
                        globe.point(latitude: $0.latitude, offset: $0.longitude - globe.centerLongitude)
                    })
                    for run in runs {
                        let pixels = dense.points[dense.starts[run.lowerBound]...dense.starts[run.upperBound]].map {
                            globe.point(latitude: $0.latitude, offset: $0.longitude - globe.centerLongitude)
                        }
                        coastlines.append(SceneLine(points: pixels, stroke: options.palette.coastline, width: coastWidth))
                    }
                }
            }
        }
        // One path for all land, as on plate carrée: pieces that meet leave no seam.
        return ([ocean] + (landRings.isEmpty || options.basemap == .relief ? [] : [ScenePolygon(rings: landRings, fill: options.palette.land)]), coastlines)
    }

    /// The globe's edge, stroked like a coastline but a little heavier.
    package func globeOutline(_ globe: GlobeProjection) -> SceneLine {
        SceneLine(points: globe.outline, stroke: options.palette.coastline, width: 1.0 * options.scale)
    }

    /// Meridians every `graticuleSpacing` degrees from the centre, curved
    /// (a point every degree), and straight parallels between the poles; the
    /// seam and the pole lines are the outline.
    package func globeGraticule(_ globe: GlobeProjection) -> [SceneLine] {
        guard let spacing = options.graticuleSpacing, spacing > 0, spacing.isFinite else { return [] }
        let stroke = options.palette.graticule, width = 0.8 * options.scale
        var lines: [SceneLine] = []
        // Meridians at multiples of the spacing, as on plate carrée, not counted from the centre.
        let west = globe.centerLongitude - 180
        var longitude = (west / spacing).rounded(.up) * spacing
        while longitude <= west + 360 + 1e-9 {
            let offset = longitude - globe.centerLongitude
            if abs(offset) < 180 - 1e-9 {
                let points = stride(from: 90.0, through: -90, by: -MapGeometry.step).map {
                    globe.point(latitude: $0, offset: offset)
                }
                lines.append(SceneLine(points: points, stroke: stroke, width: width))
            }
            longitude += spacing
        }
        var latitude = (-90 / spacing).rounded(.up) * spacing
        while latitude < 90 - 1e-9 {
            if latitude > -90 + 1e-9 {
                let points = [globe.point(latitude: latitude, offset: -180), globe.point(latitude: latitude, offset: 180)]
                lines.append(SceneLine(points: points, stroke: stroke, width: width))
            }
            latitude += spacing
        }
        return lines
    }

    /// A ring clipped to the longitudes `west`…`east` (Sutherland–Hodgman
    /// against the two meridians), closed. Where land leaves and comes back
    /// across the seam, the clipped ring runs along the seam between: those
    /// edges lie on the outline, where they neither show nor cover anything.
    package static func clip(_ ring: [GeoPoint], west: Double, east: Double) -> [GeoPoint] {
        var points = ring
        if points.count > 1, points.first == points.last { points.removeLast() }
        points = clip(points, to: west, keepEast: true)
        points = clip(points, to: east, keepEast: false)
        if let first = points.first { points.append(first) }
        return points
    }

    /// One pass of Sutherland–Hodgman: the part of an open ring on one side of a meridian.
    private static func clip(_ ring: [GeoPoint], to meridian: Double, keepEast: Bool) -> [GeoPoint] {
        guard !ring.isEmpty else { return [] }
        func inside(_ point: GeoPoint) -> Bool { keepEast ? point.longitude >= meridian : point.longitude <= meridian }
        var output: [GeoPoint] = []
        output.reserveCapacity(ring.count + 4)
        var previous = ring[ring.count - 1]
        for point in ring {
            let pointInside = inside(point), previousInside = inside(previous)
            if pointInside != previousInside {
                let share = (meridian - previous.longitude) / (point.longitude - previous.longitude)
                output.append(GeoPoint(longitude: meridian,
                                       latitude: previous.latitude + (point.latitude - previous.latitude) * share))
            }
            if pointInside { output.append(point) }
            previous = point
        }
        return output
    }

    /// The stretches of a clipped ring (as vertex ranges) that are real coast:
    /// not the seam (a clip edge), nor Natural Earth's own cut at ±180°
    /// (now a turn away by `shift`) or its closing of Antarctica along −90°.
    package static func globeCoastalRuns(_ ring: [GeoPoint], west: Double, east: Double, shift: Double) -> [ClosedRange<Int>] {
        func onSeam(_ point: GeoPoint) -> Bool { point.longitude == west || point.longitude == east }
        var runs: [ClosedRange<Int>] = []
        var start: Int?
        for index in 0..<max(0, ring.count - 1) {
            let a = ring[index], b = ring[index + 1]
            let artificial = (onSeam(a) && onSeam(b) && a.longitude == b.longitude)
                || (abs(a.longitude - shift) == 180 && abs(b.longitude - shift) == 180)
                || (a.latitude == -90 && b.latitude == -90)
            if artificial {
                if let first = start { runs.append(first...index) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let first = start, ring.count > 1 { runs.append(first...(ring.count - 1)) }
        return runs
    }

    /// The ring with a point at least every ``MapGeometry/step`` degrees, so
    /// that edges along meridians (the seam above all) follow the projection's
    /// curve; `starts[i]` is where the ring's vertex `i` is in `points`.
    package static func densified(_ ring: [GeoPoint]) -> (points: [GeoPoint], starts: [Int]) {
        guard let first = ring.first else { return ([], []) }
        var points = [first], starts = [0]
        for (a, b) in zip(ring, ring.dropFirst()) {
            // Capped, as in MapGeometry: a wild latitude in a caller's basemap must not ask for endless pieces.
            let span = min(max(abs(b.longitude - a.longitude), abs(b.latitude - a.latitude)) / MapGeometry.step, 1_000)
            let pieces = span.isFinite ? Int(span.rounded(.up)) : 1
            if pieces > 1 {
                for piece in 1..<pieces {
                    let fraction = Double(piece) / Double(pieces)
                    points.append(GeoPoint(longitude: a.longitude + (b.longitude - a.longitude) * fraction,
                                           latitude: a.latitude + (b.latitude - a.latitude) * fraction))
                }
            }
            starts.append(points.count)
            points.append(b)
        }
        return (points, starts)
    }
}
