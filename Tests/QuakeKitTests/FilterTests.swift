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

@Suite("Filters", .timeLimit(.minutes(10)))
struct FilterTests {
    let catalogue = CQLConformanceTests.catalogue

    func ids(_ filter: EventFilter) -> [String] {
        catalogue.filter(filter.matches).map(\.id)
    }

    /// The box indexes narrow a circle by holds every point of the disc: near the poles, across
    /// 180°, small and large; and the index answers as a scan does.
    @Test func aCirclesBoxNeverCutsItsDisc() {
        var random = SplitMix64(state: 46)
        let centres: [(Double, Double)] = [(0, 0), (37, -119), (-60, 179.5), (85, 20), (-89, -170), (10, -179.9)]
        for (latitude, longitude) in centres {
            for radius in [0.5, 3, 20, 75, 179] {
                let circle = GeoCircle(latitude: latitude, longitude: longitude, maximumRadius: radius)
                let box = circle.enclosingBox
                for _ in 0..<400 {
                    let point = (Double.random(in: -90...90, using: &random), Double.random(in: -180...180, using: &random))
                    if circle.contains(latitude: point.0, longitude: point.1) {
                        #expect(box.contains(latitude: point.0, longitude: point.1), "\(circle) \(box) \(point)")
                    }
                }
            }
        }
        let events = (0..<3000).map { index in
            SeismicEvent(id: "e\(index)", time: Date(timeIntervalSince1970: 1e9 - Double(index) * 60),
                         latitude: Double.random(in: -90...90, using: &random), longitude: Double.random(in: -180...180, using: &random),
                         depth: 10, magnitude: 2, place: "", eventType: "earthquake")
        }
        let index = EventIndex(events)
        for (latitude, longitude) in centres {
            var filter = EventFilter()
            filter.circle = GeoCircle(latitude: latitude, longitude: longitude, minimumRadius: 2, maximumRadius: 25)
            #expect(index.positions(matching: filter) == events.indices.filter { filter.matches(events[$0]) })
            #expect(!index.positions(matching: filter).isEmpty)
        }
    }

    @Test func boundsAreInclusive() {
        #expect(ids(EventFilter(minimumMagnitude: 4.5)) == ["b", "c", "g", "i", "j"])
        #expect(ids(EventFilter(maximumMagnitude: 1.2)) == ["a", "e"])
        #expect(ids(EventFilter(minimumMagnitude: 4.5, maximumMagnitude: 4.5)) == ["b", "j"])
        #expect(ids(EventFilter(minimumDepth: -1.2, maximumDepth: 0.1)) == ["e", "f"])
        #expect(ids(EventFilter(since: Fixtures.date("2024-05-06T23:59:59.999Z"))) == ["i", "j"])
        #expect(ids(EventFilter(until: Fixtures.date("2024-05-01T12:30:00.000Z"))) == ["a", "b"])
    }

    @Test func missingValuesDoNotPassTheirBounds() {
        #expect(!ids(EventFilter(minimumMagnitude: -10)).contains("d"), "no magnitude")
        #expect(!ids(EventFilter(maximumDepth: 1000)).contains("h"), "no depth")
        #expect(ids(EventFilter()).count == 10)
    }

    @Test func typesAcrossSpellingsAndExclusions() {
        #expect(ids(EventFilter(types: ["quarry blast"])) == ["f"])
        #expect(ids(EventFilter(types: ["Quarry_Blast"])) == ["f"])
        #expect(ids(EventFilter(types: ["quarry"])) == ["f"])
        // Set after creation, spellings are normalized the same way.
        var later = EventFilter()
        later.types = ["Quarry_Blast"]
        #expect(ids(later) == ["f"])
        #expect(ids(EventFilter(types: ["earthquake", "explosion"], excludedTypes: ["explosion"])) == ["a", "b", "c", "d", "e", "i", "j"])
        #expect(ids(EventFilter(excludedTypes: ["earthquake", "quarry blast"])) == ["g", "h"])
        #expect(EventType.normalized("quarry_blast") == "quarry blast" && EventType.normalized("") == "earthquake")
    }

    @Test func boxesCrossTheAntimeridianAndReachThePoles() throws {
        #expect(ids(EventFilter(bbox: try GeoBox(parsing: "170,-30,-170,-10"))) == ["b", "c"])
        #expect(ids(EventFilter(bbox: try GeoBox(parsing: "179,89,-179,90"))) == ["j"])
        #expect(ids(EventFilter(bbox: try GeoBox(parsing: "-1,-1,1,1"))) == ["h"])
        #expect(ids(EventFilter(bbox: try GeoBox(parsing: "10,10,20,20"))).isEmpty)
    }

    @Test func relativeTimesCountBackFromAPinnedNow() throws {
        let now = Fixtures.date("2024-05-07T00:00:00.000Z")
        #expect(try TimeBound.parse("24h", now: now) == Fixtures.date("2024-05-06T00:00:00.000Z"))
        #expect(try TimeBound.parse("7d", now: now) == Fixtures.date("2024-04-30T00:00:00.000Z"))
        #expect(try TimeBound.parse("90m", now: now) == Fixtures.date("2024-05-06T22:30:00.000Z"))
        #expect(try TimeBound.parse("2w", now: now) == Fixtures.date("2024-04-23T00:00:00.000Z"))
        #expect(try TimeBound.parse("2024-05-01", now: now) == Fixtures.date("2024-05-01T00:00:00.000Z"))
        #expect(try TimeBound.parse("2024-05-01T12:00Z", now: now) == Fixtures.date("2024-05-01T12:00:00.000Z"))
        #expect(throws: TimeBoundError.self) { try TimeBound.parse("last tuesday", now: now) }
        #expect(throws: TimeBoundError.self) { try TimeBound.parse("-3h", now: now) }
        let recent = EventFilter(since: try TimeBound.parse("36h", now: now))
        #expect(ids(recent) == ["i", "j"])
    }

    @Test func filtersApplyBeforeTheLimit() throws {
        let selection = EventSelection(limit: 2, filter: EventFilter(minimumMagnitude: 4.5, cql: try CQLFilter("net = 'us'")))
        #expect(selection.select(catalogue).map(\.id) == ["j", "i"])
    }

    /// For random boxes, a third of them across 180°, `bbox` keeps exactly the
    /// events a brute-force check finds inside.
    @Test func randomBoxesAgreeWithBruteForce() throws {
        var random = SplitMix64(state: 7)
        let events = (0..<400).map { index in
            SeismicEvent(id: "\(index)", time: Date(timeIntervalSince1970: Double(index)),
                         latitude: Double.random(in: -90...90, using: &random).rounded(), // on-edge values are common
                         longitude: Double.random(in: -180...180, using: &random).rounded(), magnitude: 1)
        }
        for _ in 0..<300 {
            let west = Double.random(in: -180...180, using: &random).rounded()
            var east = Double.random(in: -180...180, using: &random).rounded()
            if east == west { east = west == 180 ? -180 : west + 1 }
            let south = Double.random(in: -90...89, using: &random).rounded()
            let north = Double.random(in: (south + 1)...90, using: &random).rounded()
            let box = try GeoBox(west: west, south: south, east: east, north: north)
            let expected = events.filter { event in
                let inLatitude = event.latitude >= south && event.latitude <= north
                let inLongitude = west <= east ? (event.longitude >= west && event.longitude <= east)
                                               : (event.longitude >= west || event.longitude <= east)
                return inLatitude && inLongitude
            }.map(\.id)
            #expect(events.filter(EventFilter(bbox: box).matches).map(\.id) == expected, "\(west),\(south),\(east),\(north)")
        }
    }

    @Test func geoJSONListReadsBackToTheSameEvents() throws {
        let data = try EventListEncoder().encode(catalogue, as: .geojson)
        var read: [SeismicEvent] = []
        _ = try FeedReader().read(.bytes(data, name: "list.geojson")) { read.append($0) }
        #expect(read == catalogue)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(object?["type"] as? String == "FeatureCollection")
    }

    @Test func statisticsCountNormalizedTypes() {
        let statistics = CatalogStatistics(catalogue)
        #expect(statistics.count == 10)
        #expect(statistics.magnitudeRange == -0.4...7.1)
        #expect(statistics.depthRange == -1.2...560)
        #expect(statistics.types == ["earthquake": 7, "quarry blast": 1, "ice quake": 1, "explosion": 1])
        #expect(statistics.text.contains("events     10"))
    }

    /// Maps skip decoding text unless a filter reads it: only CQL that names a text column does.
    @Test func onlyTextFiltersNeedDescriptions() throws {
        #expect(!EventFilter(minimumMagnitude: 4).readsDescriptions)
        #expect(!EventFilter(cql: try CQLFilter("mag > 4 AND id <> 'x'")).readsDescriptions)
        #expect(EventFilter(cql: try CQLFilter("mag > 4 OR place LIKE '%Alaska%'")).readsDescriptions)
        #expect(EventFilter(cql: try CQLFilter("CASEI(net) = 'us'")).readsDescriptions)
        #expect(EventFilter(types: ["earthquake"]).readsDescriptions)
    }
}
