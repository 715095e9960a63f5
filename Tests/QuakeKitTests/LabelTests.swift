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

/// Labels of the largest events, and the places that reach them.
@Suite("Labels of the largest events", .timeLimit(.minutes(10)))
struct LabelTests {
    @Test func textSaysMagnitudePlaceAndUTCTime() {
        let time = Fixtures.date("2020-03-31T23:52:31.000Z")
        #expect(SceneBuilder.labelText(magnitude: 6.5, time: time, place: "72 km W of Challis, Idaho", withYear: false)
            == "M 6.5 · 72 km W of Challis, Idaho · 31 Mar 23:52 UTC")
        #expect(SceneBuilder.labelText(magnitude: 7, time: Fixtures.date("2021-01-05T03:04:00.000Z"), place: nil, withYear: true)
            == "M 7.0 · 5 Jan 2021 03:04 UTC")
        #expect(SceneBuilder.labelText(magnitude: 4.44, time: time, place: "  ", withYear: false) == "M 4.4 · 31 Mar 23:52 UTC")
    }

    @Test func longPlacesAreCutAtAWord() {
        #expect(SceneBuilder.shortenedPlace("South Sandwich Islands region") == "South Sandwich Islands region")
        let long = "136 km SSE of Lorengau, Admiralty Islands, Papua New Guinea"
        let short = SceneBuilder.shortenedPlace(long)
        #expect(short == "136 km SSE of Lorengau, Admiralty…")
        #expect(short.count <= SceneBuilder.placeLengthLimit)
        // One long word: cut inside it rather than keep nothing.
        let word = String(repeating: "x", count: 60)
        #expect(SceneBuilder.shortenedPlace(word) == String(repeating: "x", count: 39) + "…")
    }

    @Test func theLargestWinAndTiesGoToTheMostRecent() {
        func event(_ id: String, _ magnitude: Double, _ time: String) -> MapEvent {
            MapEvent(id: id, time: Fixtures.date(time), latitude: 0, longitude: 0, magnitude: magnitude)
        }
        let events = [event("a", 5, "2026-01-01T00:00:00.000Z"), event("b", 6, "2026-01-01T00:00:00.000Z"),
                      event("c", 5, "2026-01-03T00:00:00.000Z"), event("d", 4, "2026-01-09T00:00:00.000Z"),
                      event("e", 5, "2026-01-03T00:00:00.000Z")]
        #expect(SceneBuilder.largest(events, count: 3).map(\.id) == ["b", "c", "e"])
        #expect(SceneBuilder.largest(events, count: 0).isEmpty)
        #expect(SceneBuilder.largest(events, count: 9).map(\.id) == ["b", "c", "e", "a", "d"])
    }

    /// The bounding box of a panel's rectangle.
    func rect(_ panel: ScenePolygon) -> PanelRect {
        let xs = panel.rings[0].map(\.x), ys = panel.rings[0].map(\.y)
        return PanelRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    @Test(arguments: [MapOptions(width: 1000, labelCount: 20), MapOptions(width: 700, centerLongitude: 150, labelCount: 50),
                      MapOptions(width: 900, region: try! GeoBox(west: 120, south: -60, east: -60, north: 60), labelCount: 20),
                      MapOptions(width: 1000, centerLongitude: 150, mapProjection: .equalEarth, labelCount: 20),
                      MapOptions(width: 800, mapProjection: .robinson, labelCount: 20)])
    func labelsOverlapNothingAndStayOnTheMap(options: MapOptions) throws {
        let events = PanelPlacementTests.crowded + (0..<40).map { index in
            Fixtures.event("big\(index)", time: "2026-11-21T12:00:00.000Z", latitude: Double(index % 8) * 4 - 16,
                           longitude: Double(index / 8) * 3 + 150, magnitude: 6 + Double(index) / 100)
        }
        let scene = SceneBuilder(options: options).scene(for: events)
        let labels = scene.overlay.texts.filter { $0.text.hasPrefix("M ") && $0.text.hasSuffix(" UTC") }
        #expect(labels.count >= 3, "some labels find room")
        #expect(labels.count <= options.labelCount)
        // The title, legend and footer come first; then one panel per label.
        // Panels are the overlay's shapes in the panel colour (the legend's plate samples are not).
        let panels = scene.overlay.panels.filter { $0.fill == options.palette.panel }.map(rect)
        #expect(panels.count == 3 + labels.count)
        for (index, panel) in panels.enumerated() {
            #expect(panel.isInside(width: Double(scene.width), height: Double(scene.height), inset: 1))
            for other in panels[(index + 1)...] { #expect(!panel.overlaps(other), "\(panel) \(other)") }
        }
        for label in labels {
            #expect(panels[3...].contains { $0.x < label.position.x && label.position.x < $0.maxX && $0.y < label.position.y && label.position.y < $0.maxY })
        }
        // The largest event is labelled first, so always.
        #expect(labels.first?.text.hasPrefix("M 6.4") == true)
    }

    @Test func noLabelsWhenAskedForNone() {
        let events = [Fixtures.event("a", magnitude: 6), Fixtures.event("b", latitude: 30, longitude: 30, magnitude: 5)]
        let none = SceneBuilder(options: MapOptions(width: 800, labelCount: 0)).scene(for: events)
        #expect(!none.overlay.texts.contains { $0.text.hasPrefix("M ") })
        #expect(none.overlay.panels.filter { $0.fill == MapPalette.standard.panel }.count == 3)
        let some = SceneBuilder(options: MapOptions(width: 800)).scene(for: events)
        #expect(some.overlay.texts.filter { $0.text.hasPrefix("M ") }.map(\.text)
            == ["M 6.0 · 21 Nov 10:00 UTC", "M 5.0 · 21 Nov 10:00 UTC"])
        let bare = SceneBuilder(options: MapOptions(width: 800, showsLegend: false, labelCount: 0)).scene(for: events)
        #expect(bare.overlay == SceneOverlay())
        // A map without a basemap is the events alone, whatever the label count.
        let overlayOnly = SceneBuilder(options: MapOptions(width: 800, basemap: .none, showsLegend: false)).scene(for: events)
        #expect(overlayOnly.overlay == SceneOverlay() && overlayOnly.lines.isEmpty && overlayOnly.lineMarks.isEmpty)
    }

    @Test func theYearIsShownWhenTheEventsSpanTwoYears() {
        let events = [Fixtures.event("a", time: "2019-12-31T23:00:00.000Z", magnitude: 6),
                      Fixtures.event("b", time: "2020-01-01T01:00:00.000Z", latitude: 30, longitude: 30, magnitude: 5)]
        let scene = SceneBuilder(options: MapOptions(width: 800, labelCount: 1)).scene(for: events)
        #expect(scene.overlay.texts.contains { $0.text == "M 6.0 · 31 Dec 2019 23:00 UTC" })
    }

    // MARK: - Places reach the labels

    /// A CSV of `count` small events with one large event early on, far from the end.
    static func csvWithOneBigEvent(count: Int = 6000, bigAt: Int = 100) -> Data {
        var lines = [Fixtures.header22]
        for index in 0..<count {
            let big = index == bigAt
            let seconds = 59 - index % 60, minutes = 59 - (index / 60) % 60, hours = 23 - index / 3600
            let time = String(format: "2026-11-21T%02d:%02d:%02d.000Z", hours, minutes, seconds)
            lines.append(Fixtures.row22(time: time, latitude: String(Double(index % 120) - 60),
                                        longitude: String(Double(index % 340) - 170), mag: big ? "7.3" : String(2 + Double(index % 20) / 10),
                                        id: big ? "big1" : "ev\(index)", place: big ? "\"88 km NE of Big Town, Far Land\"" : "Small \(index)"))
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    @Test(arguments: [nil, 300, 10_000] as [Int?])
    func theMapSelectionCarriesThePlacesOfTheLargest(limit: Int?) throws {
        let selected = try QuakeMap.select(from: .bytes(Self.csvWithOneBigEvent(), name: "big.csv"),
                                           selection: EventSelection(limit: limit), as: MapEvent.self)
        #expect(selected.events.contains { $0.id == "big1" })
        #expect(selected.places["big1"] == "88 km NE of Big Town, Far Land")
        #expect(selected.places.count <= PlaceCandidates.candidateCount, "only the largest keep a place")
        let scene = SceneBuilder(options: MapOptions(width: 1000)).scene(for: selected.events, places: selected.places)
        #expect(scene.overlay.texts.contains { $0.text == "M 7.3 · 88 km NE of Big Town, Far Land · 21 Nov 23:58 UTC" })
    }

    @Test func aFilterReadingTextStillGetsThePlaces() throws {
        // A type filter is not numeric: rows are decoded whole, then reduced.
        let selected = try QuakeMap.select(from: .bytes(Self.csvWithOneBigEvent(), name: "big.csv"),
                                           selection: EventSelection(limit: nil, filter: EventFilter(types: ["earthquake"])),
                                           as: MapEvent.self)
        #expect(selected.places["big1"] == "88 km NE of Big Town, Far Land")
    }

    @Test func aGeoJSONFeedCarriesPlacesToo() throws {
        let feed = GeoJSONFeedTests.feed([GeoJSONFeedTests.feature(id: "small", mag: "4.1"),
                                          GeoJSONFeedTests.feature(id: "large", mag: "6.9")])
        for limit in [nil, 300] as [Int?] {
            let selected = try QuakeMap.select(from: .bytes(Data(feed.utf8), name: "feed.geojson"),
                                               selection: EventSelection(limit: limit), as: MapEvent.self)
            #expect(selected.places["large"] == "Fiji region")
        }
    }

    @Test func wholeEventsAreLabelledWithTheirOwnPlaces() {
        var event = Fixtures.event("x", time: "2026-11-21T10:00:00.000Z", magnitude: 6.2)
        event.place = "10 km S of Somewhere"
        let scene = SceneBuilder(options: MapOptions(width: 800)).scene(for: [event])
        #expect(scene.overlay.texts.contains { $0.text == "M 6.2 · 10 km S of Somewhere · 21 Nov 10:00 UTC" })
    }
}
