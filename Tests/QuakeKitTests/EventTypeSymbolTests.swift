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

/// Events that are not earthquakes (quarry blasts, explosions, ice quakes…)
/// are told apart from the feed on, and drawn as a diamond of the circle's area.
@Suite("Other event types as diamonds", .timeLimit(.minutes(10)))
struct EventTypeSymbolTests {
    /// The flag fits in the padding after the Float depth; the focal mechanism is one pointer
    /// (an event without one, the vast majority, pays those 8 bytes and nothing more).
    @Test func mapEventKeepsItsStride() {
        #expect(MemoryLayout<MapEvent>.stride == 64)
        #expect(MemoryLayout<FocalMechanism?>.size == 8)
    }

    static let spellings = ["", "eq", "EQ", "Eq", "earthquake", "Earthquake", "EARTHQUAKE", " earthquake ", "_eq_",
                            "earth quake", "earthquakes", "e", "eqq", "quarry", "quarry_blast", "Quarry Blast",
                            "quarry  blast", "explosion", "ice quake", "landslide", "mining explosion", "other event",
                            "snow_avalanche", "érathquake", "EARTHQUA\u{212A}E", "ｅｑ", "eq\u{0301}"]

    /// The byte reading agrees with ``EventType/normalized(_:)`` for every spelling.
    @Test(arguments: spellings)
    func earthquakeTestAgreesWithNormalization(_ spelling: String) {
        let expected = EventType.normalized(spelling) == "earthquake"
        #expect(EventType.isEarthquake(spelling) == expected)
        var copy = spelling
        let fromBytes = copy.withUTF8 { EventType.isEarthquake(ascii: UnsafeRawBufferPointer($0)) }
        if spelling.utf8.allSatisfy({ $0 < 0x80 }) {
            #expect(fromBytes == expected)
        } else {
            #expect(fromBytes == nil, "non-ASCII is left to the string")
        }
    }

    /// Each type of the feed below, by id, and whether it is an earthquake.
    static let types: [(id: String, type: String, isEarthquake: Bool)] = [
        ("a1", "earthquake", true), ("a2", "", true), ("a3", "eq", true), ("a4", "quarry blast", false),
        ("a5", "quarry", false), ("a6", "quarry_blast", false), ("a7", "explosion", false), ("a8", "ice quake", false),
        ("a9", "Earthquake", true), ("a10", "mining explosion", false),
    ]

    static var csv: Data {
        let rows = types.enumerated().map { index, entry in
            Fixtures.row22(time: "2026-11-21T10:\(10 + index):00.000Z", latitude: "\(index)", longitude: "\(2 * index)",
                           mag: "3.\(index)", id: entry.id, type: entry.type)
        }
        return Data(([Fixtures.header22] + rows).joined(separator: "\n").utf8)
    }

    static let feed = FeedOptions(now: Date(timeIntervalSince1970: 1_800_000_000))

    static func flags(_ events: [MapEvent]) -> [String: Bool] {
        Dictionary(uniqueKeysWithValues: events.map { ($0.id, $0.isEarthquake) })
    }

    static let expected = Dictionary(uniqueKeysWithValues: types.map { ($0.id, $0.isEarthquake) })

    /// Every way a CSV feed becomes map events gives the same flags: rows
    /// straight to map events (`--limit 0`, numbers-only filters), rows
    /// through whole events (a type filter), and the most recent N, read
    /// without descriptions.
    @Test(arguments: ["numeric", "text filter", "limit", "whole events"])
    func csvPathsAgree(_ path: String) throws {
        let source = FeedSource.bytes(Self.csv, name: "types.csv")
        let events: [MapEvent]
        switch path {
        case "numeric":
            let selection = EventSelection(limit: nil, filter: EventFilter(minimumMagnitude: 1))
            events = try QuakeMap.select(from: source, feed: Self.feed, selection: selection, as: MapEvent.self).events
        case "text filter":
            var selection = EventSelection(limit: nil)
            selection.filter.excludedTypes = ["landslide"]
            events = try QuakeMap.select(from: source, feed: Self.feed, selection: selection, as: MapEvent.self).events
        case "limit":
            events = try QuakeMap.select(from: source, feed: Self.feed, selection: EventSelection(limit: 100),
                                         as: MapEvent.self).events
        default:
            events = try QuakeMap.select(from: source, feed: Self.feed, selection: EventSelection(limit: nil),
                                         as: SeismicEvent.self).events.compactMap(MapEvent.init)
        }
        #expect(events.count == Self.types.count)
        #expect(Self.flags(events) == Self.expected)
    }

    @Test func geoJSONTypes() throws {
        let text = GeoJSONFeedTests.feed([
            GeoJSONFeedTests.feature(id: "g1"),
            GeoJSONFeedTests.feature(id: "g2", type: #""quarry blast""#),
            GeoJSONFeedTests.feature(id: "g3", type: "null"),
            GeoJSONFeedTests.feature(id: "g4", type: #""explosion""#),
            GeoJSONFeedTests.feature(id: "g5", type: #""quarry_blast""#),
        ])
        let source = FeedSource.bytes(Data(text.utf8), name: "feed.geojson")
        let feed = FeedOptions(now: Date(timeIntervalSince1970: 1_763_800_000))
        let expected = ["g1": true, "g2": false, "g3": true, "g4": false, "g5": false]
        for limit in [nil, 100] {
            let map = try QuakeMap.select(from: source, feed: feed, selection: EventSelection(limit: limit), as: MapEvent.self)
            #expect(Self.flags(map.events) == expected, "limit \(String(describing: limit))")
        }
    }

    /// Equal except for the type: not the same map event.
    @Test func equalityIncludesTheType() {
        let quake = MapEvent(id: "x", time: Date(timeIntervalSince1970: 0), latitude: 1, longitude: 2, magnitude: 3)
        var blast = quake
        blast.isEarthquake = false
        #expect(quake != blast)
        #expect(Set([quake, blast]).count == 2)
    }

    static func event(_ id: String, latitude: Double = 0, longitude: Double = 0, magnitude: Double = 5,
                      type: String = "earthquake") -> SeismicEvent {
        SeismicEvent(id: id, time: Date(timeIntervalSince1970: 1_800_000_000), latitude: latitude, longitude: longitude,
                     magnitude: magnitude, eventType: type)
    }

    /// The scene gives other types diamonds, of the diameter and colour their magnitude gives; the
    /// copy of a symbol across the map's edge keeps its shape.
    @Test func sceneShapes() {
        let events = [Self.event("q", magnitude: 6), Self.event("b", latitude: 10, magnitude: 6, type: "quarry blast"),
                      Self.event("edge", latitude: -20, longitude: 179.9, magnitude: 7, type: "explosion")]
        let scene = SceneBuilder(options: MapOptions(width: 720, showsLegend: false)).scene(for: events)
        let byID = Dictionary(grouping: scene.circles, by: \.eventID)
        #expect(byID["q"]?.map(\.shape) == [.circle])
        #expect(byID["b"]?.map(\.shape) == [.diamond])
        #expect(byID["edge"]?.map(\.shape) == [.diamond, .diamond], "drawn at the right edge and again at the left")
        #expect(byID["q"]?.first?.diameter == byID["b"]?.first?.diameter)
        #expect(byID["q"]?.first?.fill == byID["b"]?.first?.fill)
        // The layer keeps the shapes through its columns, in order.
        #expect(CircleLayer(Array(scene.circles)) == scene.circles)
    }

    /// A diamond reaching past the map's edge only at its corner is copied
    /// to the other side, where a circle of that size would not be.
    @Test func diamondCornersAcrossTheEdgeAreCopied() {
        let options = MapOptions(width: 720, showsLegend: false)
        let diameter = options.symbols.diameter(magnitude: 8, scale: options.scale)
        let inset = diameter / 2 * 1.1
        let longitude = 180 - inset / 2   // 2 px per degree at 720 wide
        let scene = SceneBuilder(options: options).scene(for: [Self.event("c", longitude: longitude, magnitude: 8),
                                                               Self.event("d", longitude: longitude, magnitude: 8,
                                                                          type: "quarry blast")])
        #expect(scene.circles.filter { $0.eventID == "c" }.count == 1)
        #expect(scene.circles.filter { $0.eventID == "d" }.count == 2)
    }

    /// Alpha summed over a rendered symbol: its area in pixels.
    static func coveredArea(_ symbol: SceneCircle, drawing: MapRenderer.CircleDrawing) throws -> Double {
        let scene = MapScene(width: 200, height: 200, background: nil, polygons: [], circles: [symbol])
        let bytes = try MapRenderer().rasterize(scene, circles: drawing).rgbaBytes()
        return stride(from: 3, to: bytes.count, by: 4).reduce(0.0) { $0 + Double(bytes[$1]) / 255 }
    }

    /// A diamond covers the circle's area, drawn by Cairo or stamped, at
    /// sizes from a few pixels to large, at a sub-pixel position.
    @Test(arguments: [3.0, 7.5, 17.3, 60, 150])
    func diamondHasTheCirclesArea(_ diameter: Double) throws {
        let opaque = RGBA(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
        let center = PixelPoint(x: 100.37, y: 99.81)
        let circle = SceneCircle(center: center, diameter: diameter, fill: opaque, eventID: "")
        var diamond = circle
        diamond.shape = .diamond
        let exact = Double.pi * diameter * diameter / 4
        for drawing in [MapRenderer.CircleDrawing.cairoPaths, .stamped] {
            let diamondArea = try Self.coveredArea(diamond, drawing: drawing)
            let circleArea = try Self.coveredArea(circle, drawing: drawing)
            // Within 1 % or, for tiny symbols, a quarter of a pixel (8-bit coverage rounding).
            #expect(abs(diamondArea - exact) <= max(0.01 * exact, 0.25), "\(drawing) diamond \(diamondArea) vs \(exact)")
            #expect(abs(diamondArea - circleArea) <= max(0.02 * exact, 0.5), "\(drawing) circle \(circleArea)")
        }
    }

    /// Events of which every third is a quarry blast.
    static func mixedEvents(_ count: Int, seed: UInt64) -> [SeismicEvent] {
        StampedCirclesTests.events(count, seed: seed).enumerated().map { index, event in
            var event = event
            if index % 3 == 0 { event.eventType = "quarry blast" }
            return event
        }
    }

    static let stampedCases: [(String, Int, MapOptions)] = [
        ("world, land, 20k events", 20_000, MapOptions(width: 1024)),
        ("HiDPI depth colours", 3_000, MapOptions(width: 600, coloring: .depth, scale: 2)),
        ("sub-pixel symbols", 5_000, MapOptions(width: 700, style: MagnitudeStyle(minimumDiameter: 0), basemap: .none)),
    ]

    /// Stamped diamonds (mixed with circles) against Cairo's path fills, to the
    /// circles' own bounds (``StampedCirclesTests``).
    @Test(arguments: stampedCases.map(\.0))
    func stampedDiamondsAgreeWithCairo(_ name: String) throws {
        let (_, count, options) = try #require(Self.stampedCases.first { $0.0 == name })
        let scene = SceneBuilder(options: options).scene(for: Self.mixedEvents(count, seed: 11))
        #expect(scene.circles.contains { $0.shape == .diamond })
        let stamped = try MapRenderer().rasterize(scene, circles: .stamped).rgbaBytes()
        let reference = try MapRenderer().rasterize(scene, circles: .cairoPaths).rgbaBytes()
        let difference = PixelDifference(stamped, reference)
        #expect(difference.meanPerChannel <= 0.5, "mean \(difference.meanPerChannel)/255")
        #expect(difference.fractionBeyond8 <= 0.001, "\(difference.fractionBeyond8 * 100) % of pixels beyond 8/255")
        // Not vacuous: the shapes matter to the picture.
        var asCircles = scene
        asCircles.circles = CircleLayer(scene.circles.map { circle in
            var circle = circle
            circle.shape = .circle
            return circle
        })
        let circles = try MapRenderer().rasterize(asCircles, circles: .stamped).rgbaBytes()
        #expect(PixelDifference(stamped, circles).fractionBeyond8 > 0.001)
    }

    /// The legend has a diamond and its label only when other types are on the map.
    @Test(arguments: [false, true])
    func legendRowOnlyWhenNeeded(_ withBlast: Bool) {
        var events = [Self.event("q1", latitude: 10, longitude: 10), Self.event("q2", latitude: -10, longitude: 50)]
        if withBlast { events.append(Self.event("b", latitude: 37, longitude: -84, magnitude: 2, type: "quarry blast")) }
        let overlay = SceneBuilder(options: MapOptions(width: 800)).scene(for: events).overlay
        #expect(overlay.texts.contains { $0.text == OtherTypesLegendRow.label } == withBlast)
        #expect(overlay.circles.contains { $0.shape == .diamond } == withBlast)
        // A title that counts a quarry blast does not call it an earthquake.
        #expect(overlay.texts.contains { $0.text.hasPrefix(withBlast ? "3 events, " : "2 earthquakes, ") })
        // The row sits inside the legend panel (the lowest-left panel).
        if withBlast, let sample = overlay.circles.first(where: { $0.shape == .diamond }) {
            let panel = overlay.panels.map { $0.rings[0] }.first { ring in
                ring.map(\.x).min()! <= sample.center.x && sample.center.x <= ring.map(\.x).max()!
                    && ring.map(\.y).min()! <= sample.center.y && sample.center.y <= ring.map(\.y).max()!
            }
            #expect(panel != nil)
        }
    }

    /// Tiles draw the same diamonds, on every tile a diamond's corner reaches,
    /// where the circle of its size would not reach.
    @Test func tilesDrawDiamondsWhereTheirCornersReach() throws {
        // At zoom 1, 256-pixel tiles: x = (lon + 180) / 360 · 512; tile 0's right edge is longitude 0.
        let options = try TileOptions()
        let diameter = options.symbols.diameter(magnitude: 8, scale: options.scale)
        let gap = diameter / 2 * 1.12
        let longitude = -gap * 360 / 512
        let quake = MapEvent(Self.event("c", latitude: 40, longitude: longitude, magnitude: 8))!
        let blast = MapEvent(Self.event("d", latitude: 40, longitude: longitude, magnitude: 8, type: "explosion"))!
        let neighbour = try TileID(zoom: 1, x: 1, y: 0)
        for (event, reaches) in [(quake, false), (blast, true)] {
            let layer = TileLayer(events: [event], zoom: 1, options: options)
            #expect(layer.hasCircles(on: neighbour) == reaches, "\(event.id)")
            #expect(try layer.scene(for: TileID(zoom: 1, x: 0, y: 0)).circles.map(\.shape) == [SymbolShape(event)])
            // A layer made for the neighbour alone reads the event too.
            let around = TileLayer(events: [event], zoom: 1, options: options, around: neighbour)
            #expect(around.scene(for: neighbour).circles.count == (reaches ? 1 : 0))
        }
    }

    /// The real month feeds hold quarry blasts, explosions, ice quakes and more:
    /// rows straight to map events flag exactly those the whole events' types
    /// name otherwise, and the map draws each of them as a diamond.
    @Test(.enabled(if: RealFeeds.available, "../shared/data/usgs is not beside the repository"),
          arguments: ["all_month_2020-06.csv", "all_month_2022-03.csv", "all_month_2015-12_15col.csv"])
    func realFeedsOtherTypesBecomeDiamonds(_ file: String) throws {
        let source = FeedSource.file(RealFeeds.folder + "/" + file)
        let whole = try QuakeMap.select(from: source, selection: EventSelection(limit: nil), as: SeismicEvent.self).events
        let others = Set(whole.filter { $0.magnitude != nil && EventType.normalized($0.eventType) != "earthquake" }.map(\.id))
        #expect(others.count > 50, "\(others.count) other events")
        let map = try QuakeMap.select(from: source, selection: EventSelection(limit: nil), as: MapEvent.self).events
        #expect(Set(map.filter { !$0.isEarthquake }.map(\.id)) == others)
        let scene = SceneBuilder(options: MapOptions(width: 720)).scene(for: map)
        #expect(Set(scene.circles.filter { $0.shape == .diamond }.map(\.eventID)) == others)
        #expect(scene.overlay.texts.contains { $0.text == OtherTypesLegendRow.label })
    }

    /// Vector output keeps a diamond as a vector path of its four straight
    /// edges, at the corners the diamond of the circle's area has.
    @Test func svgDrawsDiamondsAsFourEdges() throws {
        let fill = RGBA(red: 1, green: 0.5, blue: 0.2, alpha: 0.6)
        let diamond = SceneCircle(center: PixelPoint(x: 50, y: 40), diameter: 20, fill: fill, eventID: "d", shape: .diamond)
        let circle = SceneCircle(center: PixelPoint(x: 20, y: 20), diameter: 20, fill: fill, eventID: "c")
        let scene = MapScene(width: 100, height: 80, background: nil, polygons: [], circles: [circle, diamond])
        let svg = String(decoding: try MapRenderer().data(for: scene, format: .svg), as: UTF8.self)
        let paths = svg.split(separator: " d=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(paths.count == 2)
        #expect(paths.filter { $0.contains("C") }.count == 1, "the circle's Bézier arcs")
        let straight = try #require(paths.first { !$0.contains("C") })
        let numbers = straight.split(separator: " ").compactMap { Double($0) }
        let half = SymbolShape.diamondDiagonal(diameter: 20) / 2
        let expected = [50, 40 - half, 50 + half, 40, 50, 40 + half, 50 - half, 40]
        #expect(numbers.count >= 8)
        #expect(zip(numbers.prefix(8), expected).allSatisfy { abs($0 - $1) < 0.01 }, "\(straight)")
    }
}
