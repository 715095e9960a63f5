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

@Suite("Drawing order", .timeLimit(.minutes(10)))
struct DrawingOrderTests {
    /// The order as one comparison sort states it: larger first (at Float
    /// precision), then newer, then earlier in the input.
    static func reference(diameters: [Double], times: [Double]) -> [UInt32] {
        (0..<UInt32(diameters.count)).sorted { lhs, rhs in
            let left = Float(diameters[Int(lhs)]), right = Float(diameters[Int(rhs)])
            if left != right { return left > right }
            if times[Int(lhs)] != times[Int(rhs)] { return times[Int(lhs)] > times[Int(rhs)] }
            return lhs < rhs
        }
    }

    /// Few sizes and times (many ties) and many; times newest first (a feed's
    /// order, where the time step is only a check) and shuffled; above and
    /// below the radix sort's threshold.
    @Test(arguments: [(20, 7, true), (20, 7, false), (5000, 50, true), (5000, 50, false),
                      (60_000, 400, true), (60_000, 1_000_000, false)])
    func matchesOneComparisonSort(count: Int, distinct: Int, newestFirst: Bool) {
        var state = UInt64(count * 31 + distinct)
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        // Sizes include 0, −0 and values that differ only beyond Float precision.
        let sizes = [0, -0.0, 2, 2 + 1e-12, 3.5, 190.0] + (0..<distinct).map { Double($0) * 0.37 }
        let diameters = (0..<count).map { _ in sizes[next(sizes.count)] }
        var times = (0..<count).map { _ in Double(next(distinct)) * 60 - 1e6 }
        if newestFirst { times.sort(by: >) }
        let order = DrawingOrder.indices(diameters: diameters, times: times)
        #expect(order == Self.reference(diameters: diameters, times: times))
    }

    @Test func emptyAndSingle() {
        #expect(DrawingOrder.indices(diameters: [], times: []).isEmpty)
        #expect(DrawingOrder.indices(diameters: [4], times: [1]) == [0])
    }
}

@Suite("Scene circles in parts", .timeLimit(.minutes(10)))
struct SceneCirclesInPartsTests {
    /// The scene's layer, made in parts on all cores, against circles made
    /// one by one and put in the order of one comparison sort, with their
    /// copies a turn east or west. Enough events for parts, many near ±180°
    /// and large enough to cross the edges; each colouring's fills.
    @Test(arguments: [SymbolColoring.magnitude, .depth, .age(reference: nil)])
    func equalsCirclesMadeOneByOne(coloring: SymbolColoring) {
        var state: UInt64 = 99
        func next(_ bound: Double) -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) * bound
        }
        let events = (0..<60_000).map { index -> MapEvent in
            let time = Date(timeIntervalSince1970: 1.7e9 - Double(index / 3) * 60)
            let longitude: Double = index % 4 == 0 ? 179 - next(2) : next(360) - 180
            let magnitude: Double = next(90).rounded() / 10 - 1
            let depth: Double? = index % 7 == 0 ? nil : next(700)
            return MapEvent(id: "t\(index)", time: time, latitude: next(170) - 85, longitude: longitude,
                            magnitude: magnitude, depth: depth)
        }
        for options in [MapOptions(width: 1200, coloring: coloring, basemap: .none, showsLegend: false),
                        MapOptions(width: 800, centerLongitude: 150, coloring: coloring, basemap: .none,
                                   showsLegend: false)] {
            let scene = SceneBuilder(options: options).scene(for: events)
            let projection = options.projection
            let circles = SceneCircle.oneByOne(events, symbols: options.symbols, scale: options.scale) {
                projection.project(latitude: $0.latitude, longitude: $0.longitude)
            }
            let order = DrawingOrderTests.reference(diameters: circles.map(\.diameter),
                                                    times: events.map(\.time.timeIntervalSinceReferenceDate))
            var expected: [SceneCircle] = []
            for index in order {
                let circle = circles[Int(index)]
                expected.append(circle)
                for (crosses, shift) in [(circle.center.x - circle.diameter / 2 < 0, projection.wrapWidth),
                                         (circle.center.x + circle.diameter / 2 > projection.width, -projection.wrapWidth)]
                where crosses {
                    var copy = circle
                    copy.center.x += shift
                    expected.append(copy)
                }
            }
            #expect(expected.count > events.count, "some circles cross an edge")
            #expect(scene.circles.count == expected.count)
            #expect(scene.circles.elementsEqual(expected))
        }
    }
}

extension SceneCircle {
    /// Each event's circle where `project` puts it, made one by one: the
    /// plain way the scene's and the tiles' faster paths are checked against.
    static func oneByOne(_ events: [MapEvent], symbols: SymbolStyle, scale: Double,
                         project: (MapEvent) -> PixelPoint) -> [SceneCircle] {
        let style = symbols.sizes, coloring = symbols.coloring
        let reference = coloring.referenceTime(for: events, feedGenerated: nil)
        return events.map { event in
            SceneCircle(center: project(event), diameter: style.diameter(magnitude: event.magnitude) * scale,
                        fill: coloring.fill(for: event, style: style, reference: reference), eventID: event.id)
        }
    }
}
