import Foundation
import QuakeKit
import Testing
@testable import QuakeServer

/// The items pages' fast paths pinned to the plain ones: the event index
/// finds what a scan of every event finds, in the same order, and the byte
/// writer writes the documents `JSONEncoder` writes for the `Codable`
/// types, with the same text for every number, string and time.
@Suite(.timeLimit(.minutes(10))) struct FeaturePageTests {
    static let usgs = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/data/usgs").path
    static var sharedMonthAvailable: Bool { FileManager.default.fileExists(atPath: usgs + "/all_month_2020-06.csv") }

    static func sharedMonth() throws -> FeedSnapshot {
        let selected = try QuakeMap.select(from: .file(usgs + "/all_month_2020-06.csv"), selection: EventSelection(limit: nil))
        return FeedSnapshot(events: selected.events, generated: selected.summary.generated)
    }

    /// A deterministic generator (a 64-bit LCG), so a failure repeats.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        mutating func unit() -> Double { Double(next() % (1 << 40)) / Double(1 << 40) }
        mutating func between(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// Boxes of every kind: small and large, crossing the antimeridian, at a
    /// pole, the world, on whole degrees (cell edges), and some with nothing in them.
    static func boxes(_ random: inout Random, count: Int) -> [GeoBox] {
        var boxes: [GeoBox] = [
            .world,
            try! GeoBox(west: 170, south: -60, east: -170, north: 60),
            try! GeoBox(west: 120, south: -60, east: -60, north: 60),
            try! GeoBox(west: -180, south: 80, east: 180, north: 90),
            try! GeoBox(west: -180, south: -90, east: 180, north: -60),
            try! GeoBox(west: -125, south: 32, east: -114, north: 42),
            try! GeoBox(west: 10, south: 35, east: 30, north: 48),
            try! GeoBox(west: -30, south: -50, east: -29.5, north: -49.5),  // open ocean
            try! GeoBox(west: 179, south: -90, east: -179, north: 90),
            try! GeoBox(west: -118, south: 34, east: -116, north: 36),  // edges on cell edges
        ]
        while boxes.count < count {
            let size = [0.01, 0.5, 2, 10, 60, 200][random.below(6)]
            let west = random.between(-180, 180)
            var east = west + random.between(0.001, size)
            if east > 180 { east -= 360 }
            if random.below(8) == 0 { east = east.rounded() }
            let south = random.between(-90, 90)
            let north = min(90, south + random.between(0.001, size / 2))
            if let box = try? GeoBox(west: random.below(8) == 0 ? west.rounded() : west, south: south, east: east, north: north) {
                boxes.append(box)
            }
        }
        return boxes
    }

    /// Filters over `boxes` with and without time windows (some empty, some
    /// on an event's exact time), magnitudes and CQL expressions.
    static func filters(_ events: [SeismicEvent], _ random: inout Random, boxes: [GeoBox]) throws -> [EventFilter] {
        let times = events.map(\.time).sorted()
        var filters: [EventFilter] = [EventFilter(since: times[times.count / 2]), EventFilter(until: times[times.count / 3])]
        for box in boxes {
            var filter = EventFilter(bbox: box)
            filters.append(filter)
            // Expressions the index narrows by (magnitude, depth, time, polygons' boxes) and some it cannot.
            let moment = CivilTime.iso8601(times[random.below(times.count)])
            let ring = box.crossesAntimeridian ? "" : "(\(box.west) \(box.south), \(box.east) \(box.south), \((box.west + box.east) / 2) \(box.north), \(box.west) \(box.south))"
            let expressions = [
                "mag >= \(random.between(-1, 6))", "mag BETWEEN \(random.between(0, 3)) AND \(random.between(3, 7))",
                "depth < \(random.between(-2, 30))", "time >= TIMESTAMP('\(moment)')", "updated > TIMESTAMP('\(moment)')",
                "mag >= 4 OR depth > 300", "NOT (mag < 2) AND depth >= 5", "\(random.between(2, 5)) <= mag",
            ] + (ring.isEmpty ? [] : [
                "S_INTERSECTS(geometry, POLYGON(\(ring)))", "mag > 1 AND S_WITHIN(geometry, MULTIPOLYGON((\(ring)), ((-1 -1, 1 -1, 1 1, -1 -1))))",
            ])
            var bare = EventFilter()
            bare.cql = try CQLFilter(expressions[random.below(expressions.count)])
            filters.append(bare)
            switch random.below(7) {
            case 6: filter.cql = try CQLFilter(expressions[random.below(expressions.count)])
            case 0: filter.since = times[random.below(times.count)]
            case 1: filter.until = times[random.below(times.count)]
            case 2:
                let ends = [times[random.below(times.count)], times[random.below(times.count)]].sorted()
                (filter.since, filter.until) = (ends[0], ends[1])
            case 3: (filter.since, filter.until) = (times[0].addingTimeInterval(-100), times[0].addingTimeInterval(-50))
            case 4: filter.cql = try CQLFilter("mag >= 2.5 AND type = 'earthquake'")
            default: filter.minimumMagnitude = 1
            }
            filters.append(filter)
        }
        return filters
    }

    func expectIndexAgreesWithScan(_ catalogue: FeedSnapshot, filters: [EventFilter], random: inout Random) {
        let events = catalogue.events
        for filter in filters {
            let scanned = events.indices.filter { filter.matches(events[$0]) }
            let found = catalogue.index.positions(matching: filter)
            #expect(found == scanned, "\(filter)")
            for _ in 0..<3 {
                let offset = random.below(max(1, scanned.count + 5)), limit = 1 + random.below(200)
                let page = catalogue.index.page(matching: filter, offset: offset, limit: limit)
                #expect(page.matched == scanned.count)
                #expect(page.positions == Array(scanned.dropFirst(offset).prefix(limit)), "\(filter) offset \(offset) limit \(limit)")
            }
        }
    }

    @Test(.enabled(if: sharedMonthAvailable, "../shared/data/usgs/all_month_2020-06.csv is not beside the repository: skipped"))
    func indexFindsWhatAScanFindsOnTheSharedMonth() throws {
        let catalogue = try Self.sharedMonth()
        var random = Random(state: 21)
        let filters = try Self.filters(catalogue.events, &random, boxes: Self.boxes(&random, count: 400))
        expectIndexAgreesWithScan(catalogue, filters: filters, random: &random)
    }

    /// Events out of time order (no binary search then), on cell edges, at
    /// ±180 and the poles, and with coordinates no reader would let through.
    @Test func indexFindsWhatAScanFindsOnOddEvents() throws {
        var random = Random(state: 7)
        var events: [SeismicEvent] = []
        let corners: [(Double, Double)] = [(90, 180), (-90, -180), (90, -180), (-90, 180), (0, 0), (2, 2), (-2, -2),
                                           (34, -118), (.nan, 10), (10, .nan), (95, 200), (-95, -200)]
        for (index, (latitude, longitude)) in corners.enumerated() {
            events.append(SeismicEvent(id: "c\(index)", time: Date(timeIntervalSince1970: Double(random.below(1000))),
                                       latitude: latitude, longitude: longitude, magnitude: 3))
        }
        for index in 0..<3000 {
            let latitude = random.below(4) == 0 ? random.between(-90, 90).rounded() : random.between(-90, 90)
            let longitude = random.below(4) == 0 ? random.between(-180, 180).rounded() : random.between(-180, 180)
            events.append(SeismicEvent(id: "e\(index)", time: Date(timeIntervalSince1970: Double(random.below(1000))),
                                       latitude: latitude, longitude: longitude, magnitude: random.between(-1, 7)))
        }
        let boxes = Self.boxes(&random, count: 300)
        let filters = try Self.filters(events, &random, boxes: boxes)
        // As given (out of time order), and newest first as a catalogue keeps them.
        for list in [events, FeedSnapshot(events: events, generated: nil).events] {
            let index = EventIndex(list)
            for filter in filters {
                #expect(index.positions(matching: filter) == list.indices.filter { filter.matches(list[$0]) }, "\(filter)")
            }
        }
    }

    /// A JSON document with its keys sorted: `JSONEncoder` writes keys in
    /// hash order (it changes from run to run), so the documents are compared
    /// as values, both read and written again by `JSONSerialization`.
    static func canonical(_ json: some Sequence<UInt8>) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]),
                      as: UTF8.self)
    }

    /// What `JSONEncoder` writes for one value: the numbers' and times' text must be it exactly.
    static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try ReferenceJSON.data(value), as: UTF8.self)
    }

    /// The event's fields as `key":value` text, each of which the written feature must hold.
    static func fragments(_ event: SeismicEvent) throws -> [String] {
        [#"{"type":"Feature""#,
         #""coordinates":[\#(try encoded(event.longitude)),\#(try encoded(event.latitude))]"#,
         #""mag":\#(try encoded(event.magnitude))"#, #""depth":\#(try encoded(event.depth))"#,
         #""time":\#(try encoded(CivilTime.iso8601(event.time)))"#,
         #""updated":\#(try encoded(event.updated.map(CivilTime.iso8601)))"#,
         #""place":\#(try encoded(event.place.isEmpty ? nil : event.place))"#, #""type":\#(try encoded(event.eventType))"#,
         #""magType":\#(try encoded(event.magnitudeType))"#, #""net":\#(try encoded(event.network))"#,
         #""status":\#(try encoded(event.status))"#]
            + (event.id.isEmpty ? [] : [#""id":\#(try encoded(event.id))"#])
    }

    /// The page, and every `stride`th event as a single item.
    func expectSameDocuments(_ events: [SeismicEvent], base: String, stride: Int = 1) throws {
        let links = [Link(href: "\(base)/collections/quakes/items?limit=100&bbox=1,2,3,4", rel: "self", type: "application/geo+json"),
                     Link(href: "\(base)/collections/quakes", rel: "collection", type: "application/json"),
                     Link(href: "\(base)/collections/quakes/items?offset=100", rel: "next", type: "application/geo+json",
                          title: "The next page \"quoted\" – ü")]
        let collection = FeatureCollection(numberMatched: 12_345, numberReturned: events.count, timeStamp: "2026-11-26T12:00:00.000Z",
                                           links: links, features: events.map { Feature(event: $0, base: base) })
        let written = FeatureBytes.collection(matched: 12_345, timeStamp: "2026-11-26T12:00:00.000Z", links: links,
                                              events: events, base: base)
        #expect(try Self.canonical(written) == (try Self.canonical(ReferenceJSON.data(collection))))
        let more = [Link(href: "\(base)/collections/quakes", rel: "collection", type: "application/json")]
        for event in Swift.stride(from: 0, to: events.count, by: stride).map({ events[$0] }) {
            let written = FeatureBytes.feature(event, base: base, moreLinks: more)
            let reference = try ReferenceJSON.data(Feature(event: event, base: base, moreLinks: more))
            #expect(try Self.canonical(written) == (try Self.canonical(reference)))
            let text = String(decoding: written, as: UTF8.self)
            for fragment in try Self.fragments(event) {
                #expect(text.contains(fragment), "\(fragment) in \(text)")
            }
        }
    }

    @Test(.enabled(if: sharedMonthAvailable, "../shared/data/usgs/all_month_2020-06.csv is not beside the repository: skipped"))
    func pagesAreJSONEncodersOnTheSharedMonth() throws {
        let events = try Self.sharedMonth().events
        // Every third page of 1,000 and every 25th feature alone: the month's variety at a
        // sixth of the cost (the sanitizer runs multiply it).
        for start in stride(from: 0, to: events.count, by: 3000) {
            try expectSameDocuments(Array(events[start..<min(events.count, start + 1000)]), base: "http://127.0.0.1:8080", stride: 25)
        }
    }

    /// Details of every kind, some absent, hostile text and odd numbers among them.
    static func details(_ step: Int, _ text: String, _ number: Double?) -> EventDetails {
        var details = EventDetails()
        if let number, step % 2 == 0 { details[.gap] = .number(number) }
        if step % 3 != 1 { details[.felt] = .integer(Int64(step) - 3) }
        if !text.isEmpty, step % 4 != 2 { details[.alert] = .text(text) }
        if step % 5 == 1 { details[.url] = .text("https://example.org/" + text) }
        return details
    }

    /// What takes the slow paths: text to escape, ids to percent-encode,
    /// numbers of many digits or none, missing values, extreme times.
    @Test func pagesAreJSONEncodersOnOddEvents() throws {
        let times: [Double] = [0, -1, 1_591_000_000.123, 1_591_000_000.0005, -62_135_596_800, 253_402_300_799.999, 1e15, -1e15]
        let numbers: [Double?] = [nil, 0, -0.0, 1, -1, 0.1, 1e-7, 123.456789012345, 1e21, -179.99999999, .leastNonzeroMagnitude, 1e15, 4.35]
        let texts = ["", "plain", "\"quoted\" \\ back/slash", "line\nbreak\ttab\r\u{1}\u{1F}\u{7F}", "São Paulo – 東京 👋🏽",
                     "\u{2028}\u{2029}\u{85}", "100 km W of A, B"]
        let ids = ["us7000abcd", "", "id with space", "a/b?c#d%e", "ü-id", "x\"y"]
        var events: [SeismicEvent] = []
        for (index, time) in times.enumerated() {
            for (step, number) in numbers.enumerated() {
                let text = texts[(index + step) % texts.count]
                events.append(SeismicEvent(id: ids[(index * 3 + step) % ids.count] + "\(step)", time: Date(timeIntervalSince1970: time),
                                           latitude: number ?? 45, longitude: numbers[(step + 3) % numbers.count] ?? -120,
                                           depth: numbers[(step + 5) % numbers.count], magnitude: number,
                                           magnitudeType: step % 3 == 0 ? nil : text, place: text, eventType: text,
                                           network: step % 2 == 0 ? nil : "us", updated: step % 4 == 0 ? nil : Date(timeIntervalSince1970: time + 0.001),
                                           status: step % 5 == 0 ? nil : text, details: Self.details(step, text, number)))
            }
        }
        events.append(SeismicEvent(id: "", time: Date(timeIntervalSince1970: 0), latitude: 1, longitude: 2))
        try expectSameDocuments(events, base: "http://127.0.0.1:8080")
        try expectSameDocuments(events, base: "http://[::1]:80")
        try expectSameDocuments([], base: "http://h")
    }
}
