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

/// Where the title, legend and footer go, and that no event hides under them.
@Suite("Panel placement and hidden events", .timeLimit(.minutes(10)))
struct PanelPlacementTests {
    let placement = PanelPlacement(mapWidth: 1000, mapHeight: 500, margin: 12)
    let title = PanelPlacement.Panel(width: 300, height: 40, anchors: [.topLeft, .topRight, .topCenter, .bottomCenter])
    let legend = PanelPlacement.Panel(width: 120, height: 90, anchors: [.bottomLeft, .bottomRight, .topLeft, .topRight])
    let footer = PanelPlacement.Panel(width: 250, height: 20, anchors: [.bottomRight, .bottomLeft, .topRight, .topLeft])

    /// One circle of diameter 10 at each point.
    func layer(_ points: [(Double, Double)]) -> CircleLayer {
        CircleLayer(points.map { SceneCircle(center: PixelPoint(x: $0.0, y: $0.1), diameter: 10, fill: RGBA(hex: 0xFF0000), eventID: "e") })
    }

    func anchors(_ circles: CircleLayer) -> [PanelPlacement.Anchor] {
        placement.place([title, legend, footer]) { PanelPlacement.coverage(of: $0, in: circles) }
    }

    @Test func nothingCoveredKeepsTheUsualPlaces() {
        #expect(anchors(layer([(500, 250)])) == [.topLeft, .bottomLeft, .bottomRight])
        #expect(anchors(layer([])) == [.topLeft, .bottomLeft, .bottomRight])
    }

    @Test func panelsMoveOffCoveredCornersWithoutOverlapping() {
        // Events under the usual title and legend places.
        let circles = layer([(50, 30), (100, 30), (40, 450)])
        let chosen = anchors(circles)
        #expect(chosen[0] != .topLeft && chosen[1] != .bottomLeft)
        let rects = zip([title, legend, footer], chosen).map { placement.rect(width: $0.width, height: $0.height, at: $1) }
        #expect(PanelPlacement.coverage(of: rects, in: circles).reduce(0, +) == 0)
        for i in rects.indices { for j in rects.indices where i < j { #expect(!rects[i].overlaps(rects[j])) } }
        #expect(anchors(circles) == chosen, "deterministic")
    }

    @Test func aDiscTouchingTheCornerCounts() {
        let rect = PanelRect(x: 10, y: 10, width: 20, height: 20)
        #expect(rect.intersectsDisc(x: 33, y: 33, diameter: 10))
        #expect(!rect.intersectsDisc(x: 35, y: 35, diameter: 10))
        #expect(rect.intersectsDisc(x: 20, y: 20, diameter: 1))
    }

    /// The grid labels count with agrees with a pass over every circle: random circles of
    /// every size and shape, some centred off the map (copies across the antimeridian), and
    /// rectangles inside, across the edges and wholly outside it.
    @Test func theGridCountsAsAPassOverEveryCircle() {
        var random = SplitMix64(state: 20261129)
        let shapes: [SymbolShape] = [.circle, .circle, .circle, .diamond]
        let circles = CircleLayer((0..<3000).map { _ in
            SceneCircle(center: PixelPoint(x: Double.random(in: -60...1060, using: &random), y: Double.random(in: -30...530, using: &random)),
                        diameter: Double.random(in: 0.5...70, using: &random), fill: RGBA(hex: 0xFF0000), eventID: "e",
                        shape: shapes.randomElement(using: &random)!)
        })
        let grid = CircleGrid(circles, width: 1000, height: 500)
        var rects = (0..<300).map { _ in
            PanelRect(x: Double.random(in: -400...1100, using: &random), y: Double.random(in: -200...600, using: &random),
                      width: Double.random(in: 0...400, using: &random), height: Double.random(in: 0...60, using: &random))
        }
        rects += [PanelRect(x: 0, y: 0, width: 1000, height: 500), PanelRect(x: -500, y: -500, width: 10, height: 10),
                  PanelRect(x: 2000, y: 900, width: 10, height: 10)]
        let counts = PanelPlacement.coverage(of: rects, in: circles).map(Int.init)
        #expect(counts.contains { $0 > 100 } && counts.contains(0), "some rectangles touch many circles, some none")
        #expect(rects.map(grid.count(touching:)) == counts)
        #expect(CircleGrid(CircleLayer(), width: 1000, height: 500).count(touching: rects[0]) == 0)
    }

    // MARK: - Every event stays visible

    /// Events whose circle cannot be seen in `scene`'s image: at none of five
    /// points inside the circle (its centre, and a third of the radius
    /// either way) is the pixel within `tolerance` of the same map drawn
    /// without the overlay. A circle under an opaque-ish panel differs by
    /// about 110 in red; one drawn again over the panel by under 35. Points
    /// under the legend's sample circles are not asked: by design those are
    /// drawn over the events.
    static func hiddenEvents(_ scene: MapScene, tolerance: Int = 40) throws -> [SceneCircle] {
        var bare = scene
        bare.overlay = SceneOverlay()
        let with = try MapRenderer().image(for: scene), without = try MapRenderer().image(for: bare)
        return scene.circles.filter { circle in
            guard !circle.eventID.isEmpty else { return false }
            let offsets = [(0.0, 0.0), (1, 0), (-1, 0), (0, 1), (0, -1)].map { ($0.0 * circle.diameter / 6, $0.1 * circle.diameter / 6) }
            let inside = offsets.map { (Int((circle.center.x + $0.0).rounded(.down)), Int((circle.center.y + $0.1).rounded(.down))) }
                .filter { $0.0 >= 0 && $0.1 >= 0 && $0.0 < scene.width && $0.1 < scene.height }
                .filter { x, y in
                    !scene.overlay.circles.contains { sample in
                        let dx = Double(x) + 0.5 - sample.center.x, dy = Double(y) + 0.5 - sample.center.y
                        return (dx * dx + dy * dy).squareRoot() <= sample.diameter / 2 + 1
                    }
                }
            guard !inside.isEmpty else { return false }
            return !inside.contains { x, y in
                let a = with.pixel(x: x, y: y), b = without.pixel(x: x, y: y)
                return max(abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue))) <= tolerance
            }
        }
    }

    /// Events in all four corners and along every edge: wherever the panels go, they cover some.
    static let crowded: [SeismicEvent] = {
        var events: [SeismicEvent] = []
        var index = 0
        for latitude in stride(from: -85.0, through: 85, by: 5) {
            for longitude in stride(from: -178.0, through: 178, by: 6) where abs(latitude) > 60 || abs(longitude) > 140 {
                index += 1
                let magnitude = 3 + Double(index % 30) / 10
                events.append(Fixtures.event("c\(index)", time: "2026-11-21T10:00:00.000Z", latitude: latitude,
                                             longitude: longitude, magnitude: magnitude))
            }
        }
        return events
    }()

    @Test func crowdedCornersHideNoEvent() throws {
        for coloring in [SymbolColoring.magnitude, .depth] {
            let scene = SceneBuilder(options: MapOptions(width: 1000, coloring: coloring)).scene(for: Self.crowded)
            #expect(!scene.overlay.eventCircles.isEmpty, "the panels cover some events here")
            let hidden = try Self.hiddenEvents(scene)
            #expect(hidden.isEmpty, "\(hidden.map { "\(Int($0.center.x)),\(Int($0.center.y)) d\(Int($0.diameter))" })")
            // The check can fail: without the events drawn again, the panels hide some.
            var bare = scene
            bare.overlay.eventCircles = []
            #expect(try Self.hiddenEvents(bare).count > 5)
        }
    }

    @Test func vectorOutputDrawsTheEventsOverThePanelsToo() throws {
        let scene = SceneBuilder(options: MapOptions(width: 600)).scene(for: Self.crowded)
        let svg = String(decoding: try MapRenderer().data(for: scene, format: .svg), as: UTF8.self)
        #expect(!scene.overlay.eventCircles.isEmpty)
        // Each circle drawn again is one more path.
        let paths = svg.components(separatedBy: "<path").count
        var none = scene
        none.overlay.eventCircles = []
        let fewer = String(decoding: try MapRenderer().data(for: none, format: .svg), as: UTF8.self).components(separatedBy: "<path").count
        #expect(paths >= fewer + scene.overlay.eventCircles.count)
    }

    @Test(.enabled(if: RealFeeds.available, "../shared/data/usgs is not beside the repository: skipped"),
          arguments: [("4.5_week_2020-04.csv", MapOptions(centerLongitude: 150, coloring: .depth)),
                      // Before panels moved, the first hid three events (title, legend), the
                      // second two Aleutian events under the title.
                      ("4.5_week_2020-04.csv", MapOptions(width: 800, region: try! GeoBox(west: 120, south: -60, east: -60, north: 60))),
                      ("4.5_week_2020-04.csv", MapOptions(region: try! GeoBox(west: 120, south: -60, east: -60, north: 60))),
                      ("all_month_2020-06.csv", MapOptions(region: try! GeoBox(west: 120, south: -60, east: -60, north: 60))),
                      ("all_month_2020-06.csv", MapOptions(centerLongitude: 150, coloring: .depth)),
                      ("all_month_2022-03.csv", MapOptions()),
                      // Globes: the panels sit in the corners outside the outline when those hide least.
                      ("4.5_week_2020-04.csv", MapOptions(centerLongitude: 150, mapProjection: .equalEarth, coloring: .depth)),
                      ("all_month_2020-06.csv", MapOptions(width: 1200, mapProjection: .robinson))])
    func realMapsHideNoSelectedEvent(file: String, options: MapOptions) throws {
        let selected = try QuakeMap.select(from: .file(RealFeeds.folder + "/" + file),
                                           selection: EventSelection(region: options.region), as: MapEvent.self)
        let scene = SceneBuilder(options: options).scene(for: selected.events, places: selected.places)
        #expect(try Self.hiddenEvents(scene).isEmpty, "\(file)")
    }
}
