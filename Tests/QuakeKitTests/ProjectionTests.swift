import Foundation
import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

/// Equal Earth and Robinson: the formulas against published values, and world
/// maps in them cut cleanly at the seam.
@Suite("Equal Earth and Robinson", .timeLimit(.minutes(10)))
struct ProjectionTests {
    // MARK: The formulas

    /// PROJ's `+proj=eqearth +R=1` (the paper's authors' reference implementation was
    /// folded into PROJ 5.2): longitude, latitude → x, y, printed to 16 digits.
    @Test func equalEarthMatchesPROJ() {
        let cases: [(lon: Double, lat: Double, x: Double, y: Double)] = [
            (180, 0, 2.7066299836960748, 0),
            (0, 90, 0, 1.3173627591574133),
            (-52, -12, -0.7737398571326466, -0.2421657412072243),
            (120, 60, 1.3593733917143729, 1.0883008355053194),
        ]
        for (lon, lat, x, y) in cases {
            let projected = EqualEarth().project(latitude: lat, longitude: lon)
            #expect(abs(projected.x - x) < 1e-12 && abs(projected.y - y) < 1e-12, "\(lon), \(lat): \(projected)")
        }
        // PROJ's documentation example: `echo 122 47 | proj +proj=eqearth +R=1` → 1.55 0.89.
        let example = EqualEarth().project(latitude: 47, longitude: 122)
        #expect((example.x * 100).rounded() == 155 && (example.y * 100).rounded() == 89)
    }

    /// Equal area: on the unit sphere the map's Jacobian ∂x/∂λ · ∂y/∂φ equals cos φ
    /// everywhere (x is linear in λ and y does not depend on it).
    @Test func equalEarthKeepsAreas() {
        let h = 1e-6
        for latitude in stride(from: -85.0, through: 85, by: 5) {
            let phi = latitude * .pi / 180
            let dxdLambda = EqualEarth.project(latitude: latitude, offset: 90).x / (.pi / 2)
            let dydPhi = (EqualEarth.project(latitude: latitude + h, offset: 0).y
                - EqualEarth.project(latitude: latitude - h, offset: 0).y) / (2 * h * .pi / 180)
            #expect(abs(dxdLambda * dydPhi / cos(phi) - 1) < 1e-6, "at \(latitude)°")
        }
    }

    /// PROJ's test suite (`test/gie/builtins.gie`, `+proj=robin +a=6400000`) and
    /// Robinson's table itself at its rows.
    @Test func robinsonMatchesPROJAndTheTable() {
        let radius = 6_400_000.0
        func metres(_ lon: Double, _ lat: Double) -> (x: Double, y: Double) {
            let unit = Robinson().project(latitude: lat, longitude: lon)
            return (unit.x * radius, unit.y * radius)
        }
        // At a row the value is the table's, so PROJ's result to its 0.1 mm.
        #expect(abs(metres(0, 90).y - 8_654_720) < 1e-4)
        #expect(abs(metres(0, -90).y + 8_654_720) < 1e-4)
        // Between rows PROJ evaluates single-precision coefficients of the same
        // spline; we build it in double precision from the table. Measured: x within
        // a micrometre, y within 2 cm at 1° and 0.45 m at 89.5° (PROJ's floats).
        let between: [(lon: Double, lat: Double, x: Double, y: Double)] = [
            (2, 1, 189_588.423282508, 107_318.530350703),
            (-2, -1, -189_588.423282508, -107_318.530350703),
            (0, 89.5, 0, 8_639_799.718722090),
        ]
        for (lon, lat, x, y) in between {
            let projected = metres(lon, lat)
            #expect(abs(projected.x - x) < 0.001 && abs(projected.y - y) < 1, "\(lon), \(lat): \(projected.x - x) \(projected.y - y)")
        }
        // The published table (PLEN, PDFE) at 55° and 75°.
        for (latitude, plen, pdfe) in [(55.0, 0.8350, 0.6769), (75.0, 0.6732, 0.8936)] {
            let unit = Robinson().project(latitude: latitude, longitude: 180)
            #expect(abs(unit.x - 0.8487 * plen * .pi) < 1e-12 && abs(unit.y - 1.3523 * pdfe) < 1e-12, "\(unit.x - 0.8487 * plen * .pi) \(unit.y - 1.3523 * pdfe)")
        }
    }

    @Test func theCentralMeridianShiftsLongitudes() {
        let shifted = EqualEarth(centerLongitude: 150).project(latitude: 30, longitude: -90)
        let plain = EqualEarth().project(latitude: 30, longitude: 120)
        #expect(shifted == plain)
        let robinson = Robinson(centerLongitude: -90).project(latitude: -20, longitude: 100)
        #expect(robinson == Robinson().project(latitude: -20, longitude: -170))
    }

    @Test func aspectRatiosAndDefaultHeights() throws {
        #expect(abs(MapProjection.equalEarth.aspectRatio - 2.0546) < 1e-3)
        #expect(abs(MapProjection.robinson.aspectRatio - 1.9717) < 1e-3)
        #expect(MapOptions(width: 2048).height == 1024)
        #expect(MapOptions(width: 2048, mapProjection: .equalEarth).height == 997)
        #expect(MapOptions(width: 2048, mapProjection: .robinson).height == 1039)
        #expect(MapOptions(width: 2048, height: 700, mapProjection: .robinson).height == 700)
        let box = try GeoBox(west: 120, south: -60, east: -60, north: 60)
        #expect(throws: MapOptionsError.projectionNeedsWorld(.equalEarth, region: box)) {
            try MapOptions(width: 600, region: box, mapProjection: .equalEarth).validate()
        }
        try MapOptions(width: 600, region: box).validate()
    }

    // MARK: Maps cut at the seam

    static let globes: [(MapProjection, Double)] = [.equalEarth, .robinson].flatMap { projection in
        [0.0, 150, -90, 180].map { (projection, $0) }
    }

    /// Events on and beside every seam tried (±180°, −30°, 90°, 0°), from pole to pole.
    static let events: [SeismicEvent] = {
        var events: [SeismicEvent] = []
        for (index, longitude) in [-180.0, -179.9, 179.9, 180, -30.1, -29.9, 90.1, 89.9, -0.1, 0.1, 0].enumerated() {
            for latitude in [-89.9, -60, 0, 45, 89.9] {
                events.append(SeismicEvent(id: "seam\(index)-\(latitude)", time: Date(timeIntervalSince1970: 1_700_000_000),
                                           latitude: latitude, longitude: longitude, depth: 10, magnitude: 6))
            }
        }
        return events
    }()

    @Test(arguments: globes)
    func landIsCutAtTheSeamWithoutStreaks(projection: MapProjection, center: Double) throws {
        let options = MapOptions(width: 1200, centerLongitude: center, mapProjection: projection, graticuleSpacing: 30)
        guard case .globe(let globe) = options.geometry else { Issue.record("not a globe"); return }
        let scene = SceneBuilder(options: options).scene(for: Self.events)
        let outline = globe.outline
        // Ocean first, then all land in one shape.
        #expect(scene.polygons.count == 2 && scene.polygons[0].rings == [outline])
        #expect(scene.background == nil, "outside the globe is transparent")
        let land = scene.polygons[1].rings
        // No streak: with a point every degree, no edge of land, coast or graticule
        // is longer than a few degrees; a land edge jumping across the seam would be
        // most of the width.
        // Parallels are straight on these projections, drawn as one edge each.
        // The outline's pole lines are straight too.
        let curves = scene.lines.map(\.points).filter { line in line != outline && line.contains { $0.y != line[0].y } }
        let longest = (land + curves).flatMap { ring in
            zip(ring, ring.dropFirst()).map { hypot($0.x - $1.x, $0.y - $1.y) }
        }.max() ?? 0
        #expect(longest < 0.02 * globe.width, "longest edge \(longest) px")
        let outside = land.joined().filter { !Self.inside($0, outline, tolerance: 0.5) }
        #expect(outside.isEmpty, "\(outside.count) land points outside the outline, e.g. \(outside.prefix(3))")
        let strays = scene.circles.filter { !Self.inside($0.center, outline, tolerance: 0.5) }.map(\.center)
        #expect(strays.isEmpty, "circles outside the outline at \(strays.prefix(3))")
        #expect(scene.circles.count == Self.events.count, "no wrapped copies")
    }

    /// Cutting moves land but must not lose or double it: the projected land area is
    /// the same for every centre, and on Equal Earth it is the land's share of the
    /// sphere (Natural Earth's land with Antarctica: about 29%).
    @Test func landAreaDoesNotDependOnTheCentre() {
        for projection in [MapProjection.equalEarth, .robinson] {
            var areas: [Double] = []
            var globeArea = 0.0
            for center in [0.0, 150, -90, 180, 33.3] {
                let options = MapOptions(width: 1200, centerLongitude: center, mapProjection: projection, showsLegend: false)
                let scene = SceneBuilder(options: options).scene(for: [SeismicEvent]())
                areas.append(abs(scene.polygons[1].rings.map(Self.signedArea).reduce(0, +)))
                globeArea = abs(Self.signedArea(scene.polygons[0].rings[0]))
            }
            let spread = (areas.max()! - areas.min()!) / areas.max()!
            #expect(spread < 1e-3, "\(projection): land areas \(areas)")
            if projection == .equalEarth {
                let share = areas[0] / globeArea
                #expect(share > 0.28 && share < 0.30, "land share \(share)")
            }
        }
    }

    @Test func pixelLinesAreCutAtTheSeam() {
        let line = [GeoPoint(longitude: 170, latitude: 0), GeoPoint(longitude: -170, latitude: 10)]
        let globe = MapOptions(width: 1000, mapProjection: .equalEarth).geometry
        let runs = globe.pixelLines(line)
        #expect(runs.count == 2)
        if runs.count == 2 {
            // The crossing is half way, at 5°N, on the east edge and then the west one.
            let east = globe.point(latitude: 5, longitude: 180), west = globe.point(latitude: 5, longitude: -180)
            #expect(hypot(runs[0].last!.x - east.x, runs[0].last!.y - east.y) < 1e-9)
            #expect(hypot(runs[1].first!.x - west.x, runs[1].first!.y - west.y) < 1e-9 && west.x < 100)
        }
        // Centred on 180 the same line is whole, and a degree at a time.
        let pacific = MapOptions(width: 1000, centerLongitude: 180, mapProjection: .robinson).geometry.pixelLines(line)
        #expect(pacific.count == 1 && pacific[0].count == 21)
        // A meridian off the centre curves: its middle is not on the chord.
        let meridian = MapOptions(width: 1000, mapProjection: .robinson).geometry
            .pixelLines([GeoPoint(longitude: 150, latitude: 80), GeoPoint(longitude: 150, latitude: -80)])
        #expect(meridian.count == 1)
        let ends = (meridian[0].first!.x + meridian[0].last!.x) / 2, middle = meridian[0][meridian[0].count / 2].x
        #expect(middle - ends > 20)
        // Plate carrée: a world map cuts at its edges; a box draws the line whole.
        let world = MapOptions(width: 720).geometry.pixelLines(line)
        #expect(world.count == 2 && abs(world[0].last!.x - 720) < 1e-9 && abs(world[1].first!.x) < 1e-9)
        let box = MapOptions(width: 720, region: try! GeoBox(west: 120, south: -60, east: -60, north: 60)).geometry
        #expect(box.pixelLines(line).count == 1)
    }

    @Test(arguments: [MapProjection.equalEarth, .robinson])
    func withoutABasemapAGlobeIsTheEventsAlone(_ projection: MapProjection) {
        let events = [Fixtures.event("a", magnitude: 6), Fixtures.event("b", latitude: 30, longitude: 170, magnitude: 5)]
        let scene = SceneBuilder(options: MapOptions(width: 600, mapProjection: projection, basemap: .none, showsLegend: false))
            .scene(for: events)
        #expect(scene.background == nil && scene.polygons.isEmpty && scene.lines.isEmpty && scene.lineMarks.isEmpty)
        #expect(scene.overlay == SceneOverlay() && scene.circles.count == 2)
    }

    // MARK: Helpers

    static func signedArea(_ ring: [PixelPoint]) -> Double {
        zip(ring, ring.dropFirst() + ring.prefix(1)).reduce(0) { $0 + ($1.0.x * $1.1.y - $1.1.x * $1.0.y) } / 2
    }

    /// Inside the closed ring (even–odd), or within `tolerance` pixels of it.
    static func inside(_ point: PixelPoint, _ ring: [PixelPoint], tolerance: Double) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst()) {
            if (a.y > point.y) != (b.y > point.y), point.x < a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x) {
                inside.toggle()
            }
            let length2 = (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)
            let t = length2 == 0 ? 0 : max(0, min(1, ((point.x - a.x) * (b.x - a.x) + (point.y - a.y) * (b.y - a.y)) / length2))
            if hypot(point.x - a.x - t * (b.x - a.x), point.y - a.y - t * (b.y - a.y)) <= tolerance { return true }
        }
        return inside
    }
}
