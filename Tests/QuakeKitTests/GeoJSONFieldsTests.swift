import Foundation
import Testing
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeWrite

/// The GeoJSON readers keep every field (``EventField/detailFields``) in both layouts quakemap
/// writes (``GeoJSONLayout``), the in-place reader as the plain path, each value judged by
/// ``FieldText`` as every reader judges it.
@Suite struct GeoJSONFieldsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let decoder = GeoJSONFeedDecoder(source: "feed.geojson", options: FeedOptions(now: now))
    static let validator = RowValidator(now: now)

    enum Read: Equatable {
        case event(SeismicEvent), rejected(FeedRejection), declined
    }

    /// The in-place reader's reading of one feature.
    static func fast(_ bytes: [UInt8], decoder: GeoJSONFeedDecoder = decoder) -> Read {
        bytes.withUnsafeBytes { buffer in
            guard case .feature(let feature, let end) = GeoJSONFeatureReader.read(buffer, from: 0, readsDetails: decoder.decodesDetails),
                  end == buffer.count else { return .declined }
            var texts = ShortTextCache()
            switch decoder.outcome(of: feature, in: buffer, index: 1, validator: validator, texts: &texts) {
            case .event(let event): return .event(event)
            case .rejected(let rejection): return .rejected(rejection)
            }
        }
    }

    /// The plain path's (`JSONSerialization`) reading of one feature.
    static func plain(_ bytes: [UInt8], decoder: GeoJSONFeedDecoder = decoder) throws -> Read {
        let value = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
        switch decoder.outcome(ofFeature: value, index: 1, validator: validator) {
        case .event(let event): return .event(event)
        case .rejected(let rejection): return .rejected(rejection)
        }
    }

    /// One feature read in place, checked equal to the plain path's reading.
    static func read(_ bytes: [UInt8], decoder: GeoJSONFeedDecoder = decoder,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> Read {
        let fast = fast(bytes, decoder: decoder)
        #expect(fast != .declined, "the in-place reader declined it", sourceLocation: sourceLocation)
        #expect(try fast == plain(bytes, decoder: decoder), sourceLocation: sourceLocation)
        return fast
    }

    static func event(_ read: Read, sourceLocation: SourceLocation = #_sourceLocation) throws -> SeismicEvent {
        guard case .event(let event) = read else {
            Issue.record("not an event: \(read)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return event
    }

    static let usgsFeature = #"""
        {"type":"Feature","properties":{"mag":4.6,"place":"10 km SSW of Ōfunato, Japan","time":1700000000123,"updated":1700000300456,"tz":-480,"url":"https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd","detail":"https://earthquake.usgs.gov/earthquakes/feed/v1.0/detail/us7000abcd.geojson","felt":12,"cdi":3.4,"mmi":4.12,"alert":"green","status":"reviewed","tsunami":1,"sig":326,"net":"us","code":"7000abcd","ids":",us7000abcd,at00abcd,","sources":",us,at,","types":",dyfi,origin,phase-data,","nst":41,"dmin":1.234,"rms":0.7,"gap":35,"magType":"mb","type":"earthquake","title":"M 4.6 - 10 km SSW of \"Ōfunato\", Japan"},"geometry":{"type":"Point","coordinates":[141.7061,38.9841,35.5]},"id":"us7000abcd"}
        """#

    @Test func aUSGSSummaryFeatureKeepsEveryProperty() throws {
        let event = try Self.event(Self.read(Array(Self.usgsFeature.utf8)))
        let expected: [EventField: EventValue] = [
            .tz: .integer(-480), .url: .text("https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd"),
            .detail: .text("https://earthquake.usgs.gov/earthquakes/feed/v1.0/detail/us7000abcd.geojson"),
            .felt: .integer(12), .cdi: .number(3.4), .mmi: .number(4.12), .alert: .text("green"),
            .tsunami: .integer(1), .sig: .integer(326), .code: .text("7000abcd"),
            .ids: .text(",us7000abcd,at00abcd,"), .sources: .text(",us,at,"), .types: .text(",dyfi,origin,phase-data,"),
            .nst: .integer(41), .dmin: .number(1.234), .rms: .number(0.7), .gap: .number(35),
            .title: .text(#"M 4.6 - 10 km SSW of "Ōfunato", Japan"#),
        ]
        #expect(Dictionary(uniqueKeysWithValues: event.details.entries.map { ($0.field, $0.value) }) == expected)
        // Every USGS summary property of a detail field is in that feature.
        #expect(Set(EventField.detailFields.filter { $0.spec.geoJSONProperty != nil }) == Set(expected.keys))
        #expect(event.id == "us7000abcd" && event.magnitude == 4.6 && event.depth == 35.5 && event.status == "reviewed")
    }

    @Test func aStringOfANumberIsReadAsItsNumberAndNullAsNothing() throws {
        let text = Self.usgsFeature
            .replacingOccurrences(of: #""tz":-480"#, with: #""tz":" -480 ""#)
            .replacingOccurrences(of: #""gap":35"#, with: #""gap":"35.5""#)
            .replacingOccurrences(of: #""alert":"green""#, with: #""alert":null"#)
            .replacingOccurrences(of: #""felt":12"#, with: #""felt":"""#)
            .replacingOccurrences(of: #""code":"7000abcd""#, with: #""code":7000"#)
            .replacingOccurrences(of: #""url":"https"#, with: #""url":"  https"#)
        let event = try Self.event(Self.read(Array(text.utf8)))
        #expect(event[.tz] == .integer(-480) && event[.gap] == .number(35.5))
        #expect(event[.alert] == nil && event[.felt] == nil)
        #expect(event[.code] == .text("7000") && event[.url] == .text("https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd"))
    }

    /// A bad detail refuses the feature, naming the property, on both paths alike.
    @Test(arguments: [
        (#""gap":35"#, #""gap":"abc""#, "gap", "abc", "is not a number"),
        (#""felt":12"#, #""felt":2.5"#, "felt", "2.5", "is not a whole number"),
        (#""tsunami":1"#, #""tsunami":"1.5""#, "tsunami", "1.5", "is not a whole number"),
        (#""sig":326"#, #""sig":"Inf""#, "sig", "Inf", "is not a finite number"),
    ])
    func aBadValueIsRefusedNamingItsProperty(original: String, replacement: String, property: String,
                                             shown: String, reason: String) throws {
        let text = Self.usgsFeature.replacingOccurrences(of: original, with: replacement)
        #expect(text != Self.usgsFeature)
        guard case .rejected(let rejection) = try Self.read(Array(text.utf8)) else {
            Issue.record("\(replacement) was not refused")
            return
        }
        #expect(rejection.column == property && rejection.value == shown && rejection.reason == reason)
        #expect(rejection.message == "feed.geojson: feature 1 (us7000abcd): property '\(property)': '\(shown)' \(reason)")
    }

    /// The plain path's reading of what the in-place reader declines: a text field's array is
    /// nothing, as a core text's is; a number field's is refused as a core number's is.
    @Test func valuesLeftToThePlainPathAreJudgedAsCoreOnes() throws {
        let array = Array(Self.usgsFeature.replacingOccurrences(of: #""alert":"green""#, with: #""alert":["green"]"#).utf8)
        #expect(Self.fast(array) == .declined)
        #expect(try Self.event(Self.plain(array))[.alert] == nil)
        let boolean = Array(Self.usgsFeature.replacingOccurrences(of: #""alert":"green""#, with: #""alert":true"#).utf8)
        #expect(try Self.event(Self.plain(boolean))[.alert] == nil)
        let tsunami = Array(Self.usgsFeature.replacingOccurrences(of: #""tsunami":1"#, with: #""tsunami":true"#).utf8)
        #expect(try Self.event(Self.plain(tsunami))[.tsunami] == .integer(1))
        let object = Array(Self.usgsFeature.replacingOccurrences(of: #""gap":35"#, with: #""gap":{"value":35}"#).utf8)
        guard case .rejected(let rejection) = try Self.plain(object) else { Issue.record("not refused"); return }
        #expect(rejection.column == "gap" && rejection.reason == "is not a number")
    }

    // MARK: - Both layouts read back

    /// An event with every field, each detail a value of its kind (texts with escapes and non-ASCII).
    static func everyField(_ number: Int) -> SeismicEvent {
        var event = SeismicEvent(
            id: "us7000ab\(number)", time: Date(timeIntervalSince1970: 1_700_000_000.123 + Double(number) * 60.5),
            latitude: -38.9841 + Double(number), longitude: 141.7061, depth: 35.5 + Double(number), magnitude: 4.6,
            magnitudeType: "mww", place: "10 km SSW of Ōfunato, Japan", eventType: "earthquake", network: "us",
            updated: Date(timeIntervalSince1970: 1_700_000_300.456), status: "reviewed")
        for field in EventField.detailFields {
            let raw = Double(field.rawValue)
            switch field.spec.kind {
            case .text: event[field] = .text("\(field.spec.name) \"\(number)\" é\\ /\t😀")
            case .number: event[field] = .number((raw + Double(number)) * 0.125 - 3)
            case .integer: event[field] = .integer(Int64(field.rawValue) * 7 - 100 + Int64(number))
            case .time: event[field] = .time(Date(timeIntervalSince1970: 1_600_000_000.5 + raw))
            }
        }
        return event
    }

    /// Events with every field, and with none but the required ones.
    static let events: [SeismicEvent] = (0..<3).map(everyField) + [
        SeismicEvent(id: "nc1", time: Date(timeIntervalSince1970: 1_700_000_000), latitude: 37.5, longitude: -122.25),
        SeismicEvent(id: "nc2", time: Date(timeIntervalSince1970: 1_700_000_001), latitude: 0, longitude: 0, depth: -1.5,
                     magnitude: 0, place: "sea", eventType: "quarry blast"),
    ]

    @Test(arguments: GeoJSONLayout.allCases)
    func bothLayoutsReadBackEveryField(layout: GeoJSONLayout) throws {
        #expect(Self.events[0].details.entries.count == EventField.detailFields.count)
        for event in Self.events {
            var bytes: [UInt8] = []
            EventLineEncoder.appendFeature(event, layout: layout, to: &bytes)
            let read = try Self.read(bytes)
            #expect(read == .event(event), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    /// A whole document in each layout through the stream, in windows small and large.
    @Test(arguments: GeoJSONLayout.allCases, [13, 1 << 16])
    func aDocumentInEitherLayoutReadsBackItsEvents(layout: GeoJSONLayout, window: Int) throws {
        var bytes = Array(#"{"type":"FeatureCollection","features":["#.utf8)
        for (index, event) in Self.events.enumerated() {
            if index > 0 { bytes.append(contentsOf: ",\n".utf8) }
            EventLineEncoder.appendFeature(event, layout: layout, to: &bytes)
        }
        bytes.append(contentsOf: "]}".utf8)
        let read = try GeoJSONStreamTests.stream(String(decoding: bytes, as: UTF8.self), window: window)
        #expect(read.rejected.isEmpty)
        #expect(read.events == Self.events)
    }

    /// One-byte changes to each layout's feature with every field: wherever the in-place reader
    /// reads one, the plain path reads it the same.
    @Test(arguments: GeoJSONLayout.allCases)
    func mutatedFeaturesOfEitherLayoutAgreeWithThePlainPath(layout: GeoJSONLayout) {
        var original: [UInt8] = []
        EventLineEncoder.appendFeature(Self.events[1], layout: layout, to: &original)
        var generator = SplitMix64(state: 20261128)
        let alphabet = Array(#"{}[]:,"\-+.eE0123456789 nulltruefalse/uTZ"#.utf8) + [0x09, 0x80, 0xC3]
        var read = 0
        for _ in 0..<1500 {
            var bytes = original
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: bytes[at] = alphabet.randomElement(using: &generator)!
            case 1: bytes.remove(at: at)
            default: bytes.insert(alphabet.randomElement(using: &generator)!, at: at)
            }
            let fast = Self.fast(bytes)
            guard fast != .declined, let plain = try? Self.plain(bytes) else { continue }
            #expect(fast == plain, "\(String(decoding: bytes, as: UTF8.self))")
            read += 1
        }
        #expect(read > 500)
    }

    @Test func anOGCItemTakesItsDepthFromItsPropertiesAndItsTimesAsText() throws {
        let item = #"""
            {"type":"Feature","id":"ci40000001","geometry":{"type":"Point","coordinates":[-117.5,35.75]},"properties":{"depth":8.25,"mag":3.1,"time":"2023-11-14T22:13:20.123Z","updated":"2023-11-14T22:18:20Z","gap":42.5,"felt":"3","horizontalError":0.31,"magSource":"ci"}}
            """#
        let event = try Self.event(Self.read(Array(item.utf8)))
        #expect(event.id == "ci40000001" && event.depth == 8.25 && event.latitude == 35.75)
        #expect(event.time == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(event.updated == Date(timeIntervalSince1970: 1_700_000_300))
        #expect(event[.gap] == .number(42.5) && event[.felt] == .integer(3))
        #expect(event[.horizontalError] == .number(0.31) && event[.magSource] == .text("ci"))
        // Three coordinates give the depth; a property beside them is not read.
        let both = item.replacingOccurrences(of: "[-117.5,35.75]", with: "[-117.5,35.75,9]")
        #expect(try Self.event(Self.read(Array(both.utf8))).depth == 9)
        // A bad depth property is refused as a bad depth coordinate is.
        let bad = item.replacingOccurrences(of: #""depth":8.25"#, with: #""depth":"deep""#)
        guard case .rejected(let rejection) = try Self.read(Array(bad.utf8)) else { Issue.record("not refused"); return }
        #expect(rejection.column == "depth" && rejection.value == "deep")
    }

    /// A map asks for no details: neither path reads them, nor refuses a bad one.
    @Test func withoutDetailsNoneIsReadOrJudged() throws {
        let decoder = GeoJSONFeedDecoder(source: "feed.geojson", options: FeedOptions(now: Self.now), decodesDetails: false)
        let bad = Self.usgsFeature.replacingOccurrences(of: #""gap":35"#, with: #""gap":"abc""#)
        for text in [Self.usgsFeature, bad] {
            let event = try Self.event(Self.read(Array(text.utf8), decoder: decoder))
            #expect(event.details.isEmpty && event.id == "us7000abcd" && event.place == "10 km SSW of Ōfunato, Japan")
        }
        // The code still makes an id where there is none.
        let noID = Self.usgsFeature.replacingOccurrences(of: #","id":"us7000abcd""#, with: "")
        #expect(try Self.event(Self.read(Array(noID.utf8), decoder: decoder)).id == "us7000abcd")
    }

    // MARK: - Real feeds

    /// Every non-null property of a detail field in a real USGS feed is kept, read in place.
    @Test(.enabled(if: RealFeeds.available, "../shared/data/usgs is not beside the repository: skipped"),
          arguments: ["all_week_2014-04.geojson", "4.5_week_2020-10.geojson"])
    func aRealFeedKeepsEveryProperty(file: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: RealFeeds.folder + "/" + file))
        var events: [SeismicEvent] = []
        let summary = try FeedReader(options: FeedOptions(now: Self.now)).read(.bytes(data, name: file)) { events.append($0) }
        #expect(summary.rejections.isEmpty)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let features = try #require(document["features"] as? [[String: Any]])
        #expect(features.count == events.count && events.count > 50)
        var kept: [EventField: Int] = [:]
        for (feature, event) in zip(features, events) {
            let properties = try #require(feature["properties"] as? [String: Any])
            for field in EventField.detailFields {
                guard let value = properties[field.spec.geoJSONProperty ?? field.spec.name], !(value is NSNull) else {
                    #expect(event[field] == nil)
                    continue
                }
                #expect(event[field] != nil, "\(event.id) lost \(field)")
                // Kept as every reader keeps text: trimmed.
                if let text = value as? String { #expect(event[field] == RowValidator.text(text).map(EventValue.text), "\(event.id) \(field)") }
                kept[field, default: 0] += 1
            }
        }
        #expect(kept[.url] == events.count && kept[.title] == events.count)
        #expect(kept[.alert, default: 0] > 0 && kept[.felt, default: 0] > 0)
        // The in-place reader reads every feature of these feeds.
        let parts = try #require(GeoJSONStream.parts(of: data))
        for (index, feature) in parts.features.enumerated() {
            #expect(Self.fast(feature) != .declined, "feature \(index + 1) declined")
        }
    }
}
