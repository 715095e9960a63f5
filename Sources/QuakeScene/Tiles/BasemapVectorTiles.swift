import QuakeGeo
import QuakeModel

/// The built-in land and Bird's plate boundaries cut into vector tiles, so that a web map needs
/// nothing from outside: land as polygons (exterior rings clockwise on screen, holes the other
/// way, as MVT 2.1 says) and boundaries as lines, in tile units, clipped a buffer beyond the tile.
package struct BasemapVectorTiles: Sendable {
    /// The deepest zoom cut: the detailed land is simplified to 0.05°, about a pixel of a
    /// 512-pixel tile here; clients draw deeper zooms from these.
    package static let maximumZoom = 8
    /// Tile units along a side.
    package static let extent = 4096
    /// Units drawn beyond each edge, so that strokes and fills meet without a seam.
    package static let buffer = 64

    /// A land polygon: its rings in Web Mercator fractions of the world, and its box there.
    private struct Shape: Sendable {
        var rings: [[(x: Double, y: Double)]]
        var box: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    }

    /// A plate boundary: its line in world fractions, its box, and what it is.
    private struct Line: Sendable {
        var points: [(x: Double, y: Double)]
        var box: (minX: Double, minY: Double, maxX: Double, maxY: Double)
        var boundary: PlateBoundary
    }

    /// The layers as TileJSON's `vector_layers` lists them.
    package static var layerDescriptions: [[String: Any]] { [
        ["id": "land", "description": "Natural Earth land", "fields": [String: String]()],
        ["id": "plates", "description": "Plate boundaries (Bird 2003, PB2002)",
         "fields": ["name": "String", "subduction": "Boolean", "overriding": "String"]],
    ] }

    /// Made on first use: projecting the detailed land takes a moment and some memory.
    package static let shared = BasemapVectorTiles()

    private let coarse: [Shape]
    private let detailed: [Shape]
    private let plates: [Line]

    /// The built-in land at both details, and PB2002.
    package init() {
        coarse = Self.shapes(Basemap.naturalEarth110m)
        detailed = Self.shapes(Basemap.naturalEarthDetailed)
        plates = PlateBoundaries.bird2003.boundaries.map { boundary in
            let points = boundary.points.map(Self.world)
            return Line(points: points, box: Self.box(points), boundary: boundary)
        }
    }

    /// Fractions of the world, longitudes unwrapped (Natural Earth's land is cut at ±180°).
    private static func world(_ point: GeoPoint) -> (x: Double, y: Double) {
        let pixel = WebMercator(zoom: 0, tileSize: 1).projectUnwrapped(latitude: point.latitude, longitude: point.longitude)
        return (pixel.x, pixel.y)
    }

    private static func box(_ points: [(x: Double, y: Double)]) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        points.reduce((Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)) { box, point in
            (min(box.0, point.x), min(box.1, point.y), max(box.2, point.x), max(box.3, point.y))
        }
    }

    private static func shapes(_ basemap: Basemap) -> [Shape] {
        basemap.land.compactMap { polygon in
            let rings = polygon.rings.map { $0.map(world) }
            guard let outline = rings.first, outline.count >= 3 else { return nil }
            return Shape(rings: rings, box: box(outline))
        }
    }

    /// The land of `tile`: each polygon's rings, exterior first, in tile units.
    package func land(for tile: TileID) -> [[[(Int32, Int32)]]] {
        precondition(tile.zoom <= Self.maximumZoom, "zooms 0…\(Self.maximumZoom)")
        let (scale, left, top, limits) = Self.frame(tile)
        // The detail a 512-pixel map of this zoom would use.
        let shapes = Basemap.needsDetail(pixelsPerDegree: 512 * Double(1 << tile.zoom) / 360) ? detailed : coarse
        var polygons: [[[(Int32, Int32)]]] = []
        for shape in shapes where Self.reaches(shape.box, limits) {
            var rings: [[(Int32, Int32)]] = []
            for (index, ring) in shape.rings.enumerated() {
                let local = ring.map { (($0.x - left) * scale, ($0.y - top) * scale) }
                var clipped = Self.quantized(Self.clip(local, to: limits))
                guard clipped.count >= 3 else {
                    if index == 0 { break }
                    continue
                }
                // Exterior rings clockwise on screen (positive area with y down), holes the other way.
                if (Self.area(clipped) > 0) != (index == 0) { clipped.reverse() }
                rings.append(clipped)
            }
            if !rings.isEmpty { polygons.append(rings) }
        }
        return polygons
    }

    /// The plate boundaries that reach `tile`: each boundary's runs inside, in tile units.
    package func plates(for tile: TileID) -> [(boundary: PlateBoundary, runs: [[(Int32, Int32)]])] {
        precondition(tile.zoom <= Self.maximumZoom, "zooms 0…\(Self.maximumZoom)")
        let (scale, left, top, limits) = Self.frame(tile)
        var found: [(boundary: PlateBoundary, runs: [[(Int32, Int32)]])] = []
        for line in plates where Self.reaches(line.box, limits) {
            let local = line.points.map { (($0.x - left) * scale, ($0.y - top) * scale) }
            let runs = Self.clipLine(local, to: limits).map(Self.quantized).filter { $0.count >= 2 }
            if !runs.isEmpty { found.append((line.boundary, runs)) }
        }
        return found
    }

    /// Tile units a world fraction is worth, the tile's corner in world fractions, and the
    /// buffered square in tile units (also as world fractions, to test boxes).
    private static func frame(_ tile: TileID) -> (Double, Double, Double, (Double, Double, Double, Double, world: (Double, Double, Double, Double))) {
        let side = Double(1 << tile.zoom)
        let scale = side * Double(extent)
        let left = Double(tile.x) / side, top = Double(tile.y) / side
        let low = -Double(buffer), high = Double(extent + buffer)
        return (scale, left, top, (low, low, high, high, world: (left + low / scale, top + low / scale, left + high / scale, top + high / scale)))
    }

    private static func reaches(_ box: (minX: Double, minY: Double, maxX: Double, maxY: Double),
                                _ limits: (Double, Double, Double, Double, world: (Double, Double, Double, Double))) -> Bool {
        box.minX <= limits.world.2 && box.maxX >= limits.world.0 && box.minY <= limits.world.3 && box.maxY >= limits.world.1
    }

    /// A ring clipped to the square (Sutherland–Hodgman, one edge at a time).
    private static func clip(_ ring: [(Double, Double)], to limits: (Double, Double, Double, Double, world: (Double, Double, Double, Double))) -> [(Double, Double)] {
        var points = ring
        if let first = points.first, let last = points.last, first == last { points.removeLast() }
        // Each edge in turn: 0 left, 1 right, 2 top, 3 bottom.
        func inside(_ point: (Double, Double), _ edge: Int) -> Bool {
            switch edge {
            case 0: return point.0 >= limits.0
            case 1: return point.0 <= limits.2
            case 2: return point.1 >= limits.1
            default: return point.1 <= limits.3
            }
        }
        func crossing(_ a: (Double, Double), _ b: (Double, Double), _ edge: Int) -> (Double, Double) {
            switch edge {
            case 0, 1:
                let x = edge == 0 ? limits.0 : limits.2
                return (x, a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0))
            default:
                let y = edge == 2 ? limits.1 : limits.3
                return (a.0 + (b.0 - a.0) * (y - a.1) / (b.1 - a.1), y)
            }
        }
        for edge in 0..<4 {
            guard let last = points.last else { break }
            var output: [(Double, Double)] = []
            var previous = last
            for point in points {
                switch (inside(point, edge), inside(previous, edge)) {
                case (true, true): output.append(point)
                case (true, false): output.append(crossing(previous, point, edge)); output.append(point)
                case (false, true): output.append(crossing(previous, point, edge))
                case (false, false): break
                }
                previous = point
            }
            points = output
        }
        return points
    }

    /// A line cut into the runs inside the square (each segment clipped by Liang–Barsky).
    private static func clipLine(_ line: [(Double, Double)], to limits: (Double, Double, Double, Double, world: (Double, Double, Double, Double))) -> [[(Double, Double)]] {
        var runs: [[(Double, Double)]] = []
        var current: [(Double, Double)] = []
        for index in 0..<max(0, line.count - 1) {
            let a = line[index], b = line[index + 1]
            var t0 = 0.0, t1 = 1.0
            let dx = b.0 - a.0, dy = b.1 - a.1
            var visible = true
            for (p, q) in [(-dx, a.0 - limits.0), (dx, limits.2 - a.0), (-dy, a.1 - limits.1), (dy, limits.3 - a.1)] {
                if p == 0 {
                    if q < 0 { visible = false }
                } else {
                    let t = q / p
                    if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
                }
            }
            guard visible, t0 <= t1 else {
                if current.count >= 2 { runs.append(current) }
                current = []
                continue
            }
            let start = (a.0 + t0 * dx, a.1 + t0 * dy), end = (a.0 + t1 * dx, a.1 + t1 * dy)
            if current.isEmpty { current.append(start) }
            current.append(end)
            if t1 < 1 {
                runs.append(current)
                current = []
            }
        }
        if current.count >= 2 { runs.append(current) }
        return runs
    }

    /// Rounded to tile units, repeats dropped.
    private static func quantized(_ points: [(Double, Double)]) -> [(Int32, Int32)] {
        var result: [(Int32, Int32)] = []
        result.reserveCapacity(points.count)
        for point in points {
            let rounded = (Int32(point.0.rounded()), Int32(point.1.rounded()))
            if let last = result.last, last == rounded { continue }
            result.append(rounded)
        }
        if result.count > 1, let first = result.first, let last = result.last, first == last { result.removeLast() }
        return result
    }

    /// Twice the signed area (the surveyor's formula): positive for a ring clockwise on screen.
    private static func area(_ ring: [(Int32, Int32)]) -> Int64 {
        var sum: Int64 = 0
        for index in ring.indices {
            let a = ring[index], b = ring[(index + 1) % ring.count]
            sum += Int64(a.0) * Int64(b.1) - Int64(b.0) * Int64(a.1)
        }
        return sum
    }
}
