import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

@Suite("Projection and scene", .timeLimit(.minutes(10)))
struct SceneTests {
    let projection = PlateCarree(width: 2048, height: 1024)

    @Test(arguments: [
        (90.0, -180.0, 0.0, 0.0), (-90, 180, 2048, 1024), (0, 0, 1024, 512),
        (45, -90, 512, 256), (-45, 90, 1536, 768),
    ])
    func cornersAndCentre(_ latitude: Double, _ longitude: Double, _ x: Double, _ y: Double) {
        #expect(projection.project(latitude: latitude, longitude: longitude) == PixelPoint(x: x, y: y))
    }

    /// Longitudes far outside ±180 wrap in one step (a loop would take
    /// forever on 1e300); an infinite one gives a position nobody draws.
    @Test func hugeAndInfiniteLongitudesDoNotHang() {
        #expect(projection.project(latitude: 0, longitude: 360 * 1e12 + 90).x == 1536)
        #expect(projection.project(latitude: 0, longitude: 540).x == 2048)
        #expect(projection.project(latitude: 0, longitude: -540).x == 0)
        let far = projection.project(latitude: 0, longitude: 1e300).x
        #expect(far >= 0 && far <= 2048)
        #expect(projection.project(latitude: 0, longitude: .infinity).x.isNaN)
    }

    @Test func circlesCrossingTheAntimeridianAppearOnBothSides() {
        let builder = SceneBuilder(options: MapOptions(width: 360, height: 180, basemap: .none, showsLegend: false))
        let east = Fixtures.event("east", latitude: 0, longitude: 179, magnitude: 4) // 12 px wide
        let west = Fixtures.event("west", latitude: 0, longitude: -179.5, magnitude: 4)
        let middle = Fixtures.event("middle", latitude: 0, longitude: 0, magnitude: 4)
        let scene = builder.scene(for: [east, west, middle])
        let xs = Dictionary(grouping: scene.circles, by: \.eventID).mapValues { $0.map(\.center.x).sorted() }
        #expect(xs["east"] == [-1, 359])
        #expect(xs["west"] == [0.5, 360.5])
        #expect(xs["middle"] == [180])
        #expect(scene.background == nil)
        #expect(scene.polygons.isEmpty)
    }

    /// A scene built only to be drawn keeps no event ids, and is otherwise the same scene: the
    /// same circles in the same order (copies across the antimeridian, in parts on both cores,
    /// appended after), the same overlay, the same pixels.
    @Test func aSceneOnlyDrawnIsTheSameWithoutIDs() throws {
        let events: [SeismicEvent] = (0..<60_000).map { (index: Int) -> SeismicEvent in
            let latitude = Double(index % 170) - 85, longitude = Double(index % 359) - 179.5
            return Fixtures.event("e\(index)", latitude: latitude, longitude: longitude, magnitude: Double(index % 70) / 10)
        }
        let options = MapOptions(width: 720, height: 360)
        let kept = SceneBuilder(options: options).scene(for: events), drawn = SceneBuilder(drawing: options).scene(for: events)
        #expect(kept.circles.count == drawn.circles.count && kept.circles.count > events.count, "copies across 180° included")
        #expect(Set(kept.circles.map { (circle: SceneCircle) in circle.eventID }).count == events.count)
        #expect(drawn.circles.allSatisfy { $0.eventID.isEmpty })
        let geometry = { (circle: SceneCircle) in [circle.center.x, circle.center.y, circle.diameter] }
        #expect(kept.circles.map(geometry) == drawn.circles.map(geometry))
        #expect(kept.circles.map(\.fill) == drawn.circles.map(\.fill) && kept.circles.map(\.shape) == drawn.circles.map(\.shape))
        var overlay = kept.overlay
        overlay.eventCircles = overlay.eventCircles.map { circle in
            var circle = circle
            circle.eventID = ""
            return circle
        }
        #expect(overlay == drawn.overlay && !overlay.eventCircles.isEmpty, "the circles under the panels too")
        var layer = drawn.circles
        layer.append(SceneCircle(center: PixelPoint(x: 1, y: 2), diameter: 3, fill: RGBA(hex: 0xFF0000), eventID: "late"))
        #expect(layer.last?.eventID == "" && layer.last?.center == PixelPoint(x: 1, y: 2), "a layer without ids stays without")
        #expect(try MapRenderer().image(for: kept) == MapRenderer().image(for: drawn), "the same pixels")
    }

    @Test func largestFirstThenMostRecent() {
        let events = [
            Fixtures.event("small", time: "2026-11-21T05:00:00.000Z", magnitude: 2),
            Fixtures.event("big", time: "2026-11-21T01:00:00.000Z", magnitude: 6),
            Fixtures.event("older", time: "2026-11-21T02:00:00.000Z", magnitude: 4),
            Fixtures.event("newer", time: "2026-11-21T04:00:00.000Z", magnitude: 4),
            Fixtures.event("tiny", time: "2026-11-21T06:00:00.000Z", magnitude: -1),
        ]
        let scene = SceneBuilder(options: MapOptions(basemap: .none)).scene(for: events)
        #expect(scene.circles.map(\.eventID) == ["big", "newer", "older", "small", "tiny"])
        #expect(scene.circles.map(\.diameter) == [27, 12, 12, 3, 2])
    }

    @Test func heightDefaultsToHalfTheWidthAndLandIsProjected() {
        let options = MapOptions(width: 800)
        #expect(options.height == 400)
        let scene = SceneBuilder(options: options).scene(for: [SeismicEvent]())
        #expect(scene.background == MapPalette.standard.ocean)
        #expect(scene.polygons.count == 1, "all land in one path")
        #expect(scene.polygons[0].rings.count == 128, "127 outlines and the Caspian")
        let points = scene.polygons.flatMap { $0.rings.flatMap { $0 } }
        #expect(points.allSatisfy { (0...800).contains($0.x) && (0...400).contains($0.y) })
    }
}
