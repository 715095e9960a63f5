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

@Suite("One circle per event on maps and tiles", .timeLimit(.minutes(10)))
struct CircleResolverTests {
    /// Events over ten days (every age band), at all depths and magnitudes.
    static func events(_ count: Int) -> [SeismicEvent] {
        var state: UInt64 = 2024
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { index in
            SeismicEvent(id: "c\(index)", time: Date(timeIntervalSince1970: 1_800_000_000 - next() * 10 * 86_400),
                         latitude: next() * 160 - 80, longitude: next() * 360 - 180,
                         depth: next() * 700, magnitude: next() * next() * 9)
        }
    }

    /// A world map as many pixels wide as the zoom-2 world and the tiles of
    /// zoom 2 draw every event as the same circle (diameter and fill) and
    /// stack the circles a tile shares with the map in the map's order: for
    /// each colouring, at scale 1 (256-pixel tiles) and 2 (512-pixel tiles).
    @Test(arguments: [SymbolColoring.magnitude, .depth, .age(reference: nil)], [256, 512])
    func mapsAndTilesDrawTheSameCircles(coloring: SymbolColoring, tileSize: Int) throws {
        let events = Self.events(1_500)
        let sizes = MagnitudeStyle(symbolScale: 2, minimumDiameter: 1)
        let scale = Double(tileSize) / 256
        let map = SceneBuilder(options: MapOptions(width: 1024, style: sizes, coloring: coloring, basemap: .none,
                                                   showsLegend: false, scale: scale)).scene(for: events)
        // A circle crossing the map's edge is drawn twice: the first is the event's place in the stack.
        var onMap: [String: (position: Int, circle: SceneCircle)] = [:]
        for (position, circle) in map.circles.enumerated() where onMap[circle.eventID] == nil {
            onMap[circle.eventID] = (position, circle)
        }
        #expect(onMap.count == events.count)

        let options = try TileOptions(tileSize: tileSize, tileLimit: nil, style: sizes, coloring: coloring)
        let layer = TileLayer(events: events.compactMap(MapEvent.init), zoom: 2, options: options)
        #expect(layer.keptEvents == events.count)
        var onTiles: Set<String> = []
        for tile in layer.tiles {
            let positions = try layer.scene(for: tile).circles.map { circle in
                let drawn = try #require(onMap[circle.eventID])
                #expect(circle.diameter == drawn.circle.diameter && circle.fill == drawn.circle.fill, "\(circle.eventID) on \(tile)")
                onTiles.insert(circle.eventID)
                return drawn.position
            }
            #expect(positions == positions.sorted(), "tile \(tile) stacks its circles as the map does")
        }
        #expect(onTiles.count == events.count)
        // Each colouring tells something here: more than one fill.
        #expect(Set(onMap.values.map(\.circle.fill)).count > 3)
    }

    @Test func resolvesSizesAtScaleAndTheAgeReferenceOnce() {
        let events = Self.events(50).compactMap(MapEvent.init)
        let symbols = SymbolStyle(sizes: MagnitudeStyle(symbolScale: 1.5, minimumDiameter: 4), coloring: .age(reference: nil))
        let resolver = CircleResolver(symbols: symbols, scale: 2, events: events, feedGenerated: nil)
        #expect(resolver.reference == events.map(\.time).max())
        #expect(resolver.diameter(magnitude: 6) == 0.75 * 36 * 1.5 * 2)
        #expect(resolver.diameter(magnitude: 0.5) == 8, "the minimum diameter is scaled too")
        let given = Date(timeIntervalSince1970: 1_900_000_000)
        #expect(CircleResolver(symbols: symbols, scale: 1, events: events, feedGenerated: given).reference == given)
        let newest = events.max { $0.time < $1.time }!
        #expect(resolver.fill(newest) == SymbolColoring.ageBands[0].fill)
        #expect(resolver.circle(newest, at: PixelPoint(x: 3, y: 4))
                == SceneCircle(center: PixelPoint(x: 3, y: 4), diameter: resolver.diameter(newest),
                               fill: SymbolColoring.ageBands[0].fill, eventID: newest.id))
    }
}
