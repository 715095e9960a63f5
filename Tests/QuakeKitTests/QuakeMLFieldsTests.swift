import Foundation
import Testing
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeWrite

/// Every field QuakeML 1.2 can carry (``EventField/Spec/quakeML``), written and read back:
/// the origin's quality, uncertainties and creation info, the magnitude's uncertainty, station
/// count and agency, the event's agency, and the review status as the origin's evaluation.
@Suite("QuakeML fields", .timeLimit(.minutes(10)))
struct QuakeMLFieldsTests {
    /// An event with a value for every field QuakeML has a place for, in awkward decimals.
    static let everyField: SeismicEvent = {
        var details = EventDetails()
        details[.nst] = .integer(38)
        details[.gap] = .number(41.55119324)
        details[.dmin] = .number(0.005398940544)
        details[.rms] = .number(0.129999995)
        details[.horizontalError] = .number(1.1899965180000003)
        details[.depthError] = .number(0.699999988)
        details[.magError] = .number(0.145804190413845)
        details[.magNst] = .integer(111)
        details[.locationSource] = .text("ci")
        details[.magSource] = .text("us & <b>")
        details[.latitudeError] = .number(0.0123)
        details[.longitudeError] = .number(1e-5)
        details[.timeError] = .number(0.37)
        details[.usedPhaseCount] = .integer(120)
        details[.associatedPhaseCount] = .integer(131)
        details[.associatedStationCount] = .integer(45)
        details[.author] = .text("Jane \"Q\" Analyst")
        return SeismicEvent(id: "ci40171383", time: Fixtures.date("2022-03-08T16:58:16.770Z"), latitude: 39.4183333,
                            longitude: -110.3096667, depth: -1.97, magnitude: 1.73, magnitudeType: "md",
                            place: "16 km SSE of Sunnyside, Utah", eventType: "explosion", network: "ci",
                            updated: Fixtures.date("2022-03-08T17:06:12.590Z"), status: "reviewed", details: details)
    }()

    static func roundTrip(_ events: [SeismicEvent]) throws -> (xml: String, events: [SeismicEvent]) {
        let data = try EventListEncoder().encode(events, as: .quakeml)
        var again: [SeismicEvent] = []
        _ = try FeedReader(options: FeedOptions(strict: true)).read(.bytes(data, name: "written.xml")) { again.append($0) }
        return (String(decoding: data, as: UTF8.self), again)
    }

    /// What QuakeML carries of `event`: its fields that have a QuakeML place, less what needs
    /// an element the event cannot have (a magnitude's, without a magnitude; the depth's
    /// uncertainty, without a depth), the type in QuakeML's words, a status QuakeML has a word for.
    static func carried(_ event: SeismicEvent) -> SeismicEvent {
        var event = event
        for field in EventField.allCases where field.spec.quakeML == nil { event[field] = nil }
        if event.magnitude == nil {
            for field in EventField.allCases where field.spec.quakeML?.hasPrefix("magnitude/") == true { event[field] = nil }
        }
        if event.depth == nil { event[.depthError] = nil }
        event.eventType = EventType.quakeML(event.eventType)
        if let status = event.status { event.status = QuakeMLEncoder.evaluation(of: status) == nil ? nil : status.lowercased() }
        return event
    }

    @Test func theEventHasEveryFieldQuakeMLCarries() {
        // A field the schema gives a QuakeML place is one this test must then carry.
        #expect(EventField.allCases.filter { $0.spec.quakeML != nil && Self.everyField[$0] == nil } == [])
    }

    @Test func everyFieldRoundTrips() throws {
        let (xml, again) = try Self.roundTrip([Self.everyField])
        #expect(again == [Self.everyField])
        let event = try #require(again.first)
        for field in EventField.allCases where field.spec.quakeML != nil {
            #expect(event[field] == Self.everyField[field], "\(field)")
        }
        // Metres where QuakeML counts them, moved as text; the agency and author escaped.
        #expect(xml.contains("<horizontalUncertainty>1189.9965180000003</horizontalUncertainty>"))
        #expect(xml.contains("<depth><value>-1970</value><uncertainty>699.999988</uncertainty></depth>"))
        #expect(xml.contains("<creationInfo><agencyID>us &amp; &lt;b&gt;</agencyID></creationInfo>"))
        #expect(xml.contains("<author>Jane &quot;Q&quot; Analyst</author>"))
        #expect(xml.contains("<evaluationMode>manual</evaluationMode>\n        <evaluationStatus>reviewed</evaluationStatus>"))
    }

    @Test func theOriginsElementsFollowTheSchemasOrder() throws {
        let xml = try Self.roundTrip([Self.everyField]).xml
        func order(_ names: [String], within element: String) throws {
            let start = try #require(xml.range(of: "<\(element) "))
            let end = try #require(xml.range(of: "</\(element)>", range: start.upperBound..<xml.endIndex))
            let body = xml[start.upperBound..<end.lowerBound]
            let positions = try names.map { try #require(body.range(of: "<\($0)>"), "\(element)/\($0)").lowerBound }
            #expect(positions == positions.sorted(), "\(element): \(names)")
        }
        try order(["originUncertainty", "time", "longitude", "latitude", "depth", "quality", "evaluationMode",
                   "evaluationStatus", "creationInfo"], within: "origin")
        try order(["associatedPhaseCount", "usedPhaseCount", "associatedStationCount", "usedStationCount",
                   "standardError", "azimuthalGap", "minimumDistance"], within: "origin")
        try order(["mag", "type", "originID", "stationCount", "creationInfo"], within: "magnitude")
    }

    @Test func eachStatusReadsBackAsItsWord() throws {
        for status in ["automatic", "reviewed", "deleted", "preliminary", "confirmed", "final"] {
            var event = Self.everyField
            event.status = status
            #expect(try Self.roundTrip([event]).events.first?.status == status)
        }
        // QuakeML's words are lower case: an older feed's capitals read back in its spelling.
        for status in ["AUTOMATIC", "Reviewed"] {
            var event = Self.everyField
            event.status = status
            #expect(try Self.roundTrip([event]).events.first?.status == status.lowercased())
        }
        // Words QuakeML has none for are not written.
        for status in ["manual", "rejected", "whatever"] {
            var event = Self.everyField
            event.status = status
            let (xml, again) = try Self.roundTrip([event])
            #expect(!xml.contains("<evaluation") && again.first?.status == nil, "\(status)")
        }
    }

    @Test func statusIsReadFromTheOriginsEvaluation() {
        let status = QuakeMLDecoder.status(evaluationMode:evaluationStatus:)
        #expect(status("automatic", nil) == "automatic" && status("automatic", "preliminary") == "automatic")
        #expect(status("manual", nil) == "reviewed" && status("manual", "reviewed") == "reviewed"
                && status(nil, "reviewed") == "reviewed" && status("manual", "confirmed") == "reviewed")
        #expect(status("automatic", "rejected") == "deleted" && status(nil, "rejected") == "deleted")
        #expect(status(nil, "final") == "final" && status(nil, nil) == nil && status("other", nil) == nil)
    }

    @Test func theDecoderLooksWhereTheSchemaPlacesEachField() {
        for field in EventField.detailFields {
            guard let path = QuakeMLDecoder.elementPath(field) else { continue }
            let tags = path.split(separator: "/").map { QuakeMLDecoder.Tag(rawValue: String($0)) }
            #expect(!tags.contains(nil) && (tags.count == 2 || tags.count == 3), "\(field): \(path)")
            let found = QuakeMLDecoder.detail(tags[0] ?? .other, tags[1] ?? .other, tags.count == 3 ? tags[2] ?? .other : .other)
            let expected: QuakeMLDecoder.Field = tags[0] == .magnitude ? .magnitudeDetail(field) : .originDetail(field)
            #expect(found == expected, "\(field): \(path)")
        }
        #expect(QuakeMLDecoder.detailsInMetres == [.horizontalError, .depthError])
    }

    @Test func aUSGSStyleDocumentsFieldsAreRead() throws {
        let usgs = QuakeMLTests.usgsEvent()
            .replacingOccurrences(of: "<quality><usedPhaseCount>120</usedPhaseCount></quality>", with: """
                <originUncertainty><horizontalUncertainty>6600</horizontalUncertainty>\
                <preferredDescription>horizontal uncertainty</preferredDescription></originUncertainty>
                <quality><usedPhaseCount>120</usedPhaseCount><usedStationCount> 98 </usedStationCount>\
                <standardError>0.71</standardError><azimuthalGap>23</azimuthalGap><minimumDistance>1.234</minimumDistance></quality>
                <evaluationMode>manual</evaluationMode><evaluationStatus>reviewed</evaluationStatus>
                <creationInfo><agencyID>us</agencyID><creationTime>2026-11-20T11:00:00Z</creationTime></creationInfo>
                """)
            .replacingOccurrences(of: "<type>mww</type>", with: """
                <type>mww</type><stationCount>77</stationCount><creationInfo><agencyID>us</agencyID></creationInfo>
                """)
        let event = try #require(try QuakeMLTests.read(QuakeMLTests.document(usgs)).events.first)
        #expect(event.details[.depthError] == .number(1.8) && event.details[.horizontalError] == .number(6.6))
        #expect(event.details[.usedPhaseCount] == .integer(120) && event.details[.nst] == .integer(98))
        #expect(event.details[.rms] == .number(0.71) && event.details[.gap] == .number(23) && event.details[.dmin] == .number(1.234))
        #expect(event.details[.magError] == .number(0.05) && event.details[.magNst] == .integer(77))
        #expect(event.details[.locationSource] == .text("us") && event.details[.magSource] == .text("us"))
        #expect(event.status == "reviewed" && event.network == "us")
    }

    @Test func theNetworkIsTheEventsAgencyWithoutUSGSsAttribute() throws {
        let emsc = QuakeMLTests.emscEvent.replacingOccurrences(
            of: "</event>", with: "<creationInfo><agencyID> EMSC </agencyID></creationInfo></event>")
        #expect(try QuakeMLTests.read(QuakeMLTests.document(emsc)).events.first?.network == "EMSC")
        // USGS's catalog:eventsource stays first.
        let usgs = QuakeMLTests.usgsEvent().replacingOccurrences(of: "<agencyID>us</agencyID>", with: "<agencyID>other</agencyID>")
        #expect(try QuakeMLTests.read(QuakeMLTests.document(usgs)).events.first?.network == "us")
    }

    @Test func onlyTheChosenOriginAndMagnitudeGiveFields() throws {
        // EMSC's preferred origin is the second, its preferred magnitude the second.
        let emsc = QuakeMLTests.emscEvent
            .replacingOccurrences(of: "<latitude><value>1</value></latitude>",
                                  with: "<latitude><value>1</value><uncertainty>not even</uncertainty></latitude>")
            .replacingOccurrences(of: "<depth><value>10000</value></depth>",
                                  with: "<depth><value>10000</value><uncertainty>500</uncertainty></depth>")
            .replacingOccurrences(of: "<mag><value>3.9</value></mag>", with: "<mag><value>3.9</value><uncertainty>9</uncertainty></mag>")
        let event = try #require(try QuakeMLTests.read(QuakeMLTests.document(emsc)).events.first)
        #expect(event.details.entries.map(\.field) == [.depthError] && event.details[.depthError] == .number(0.5))
    }

    @Test func aBadNumberRejectsTheEventAsOtherValuesDo() throws {
        let cases: [(String, String, String)] = [
            ("<quality><usedPhaseCount>120</usedPhaseCount></quality>", "<quality><azimuthalGap>wide</azimuthalGap></quality>",
             "element 'origin/quality/azimuthalGap': 'wide' is not a number"),
            ("<quality><usedPhaseCount>120</usedPhaseCount></quality>", "<quality><usedStationCount>7.5</usedStationCount></quality>",
             "element 'origin/quality/usedStationCount': '7.5' is not a whole number"),
            ("<uncertainty>1800</uncertainty>", "<uncertainty>1e999</uncertainty>",
             "element 'origin/depth/uncertainty': '1e999' is not a finite number"),
            ("<uncertainty>0.05</uncertainty>", "<uncertainty>x</uncertainty>",
             "element 'magnitude/mag/uncertainty': 'x' is not a number"),
        ]
        for (old, new, message) in cases {
            let text = QuakeMLTests.document(QuakeMLTests.usgsEvent(code: "1"),
                                             QuakeMLTests.usgsEvent(code: "2").replacingOccurrences(of: old, with: new))
            let (events, summary) = try QuakeMLTests.read(text)
            #expect(events.map(\.id) == ["us1"] && summary.rejected == 1, "\(new)")
            let line = QuakeMLTests.line(of: #"catalog:eventid="2""#, in: text)
            #expect(summary.rejections.map(\.message) == ["test.xml:\(line):1: event (us2): \(message)"])
            #expect(throws: FeedError.rejectedRow(summary.rejections[0])) { try QuakeMLTests.read(text, strict: true) }
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: RealFeeds.folder + "/all_month_2022-03.csv"),
                   "../shared/data/usgs/all_month_2022-03.csv is absent: the real month's fields are not round-tripped"))
    func aRealMonthKeepsEveryFieldQuakeMLCarries() throws {
        var events: [SeismicEvent] = []
        _ = try FeedReader().read(.file(RealFeeds.folder + "/all_month_2022-03.csv")) { events.append($0) }
        #expect(events.count == 10_134)
        let again = try Self.roundTrip(events).events
        let expected = events.map(Self.carried)
        #expect(again.count == expected.count)
        #expect(again == expected, "\(zip(expected, again).first { $0 != $1 }.map { "\($0) became \($1)" } ?? "counts differ")")
        // Every one of the CSV's detail columns is read back somewhere, and both statuses the month has.
        let details = EventField.usgsCSVColumns.filter { !$0.isCore }
        let present = details.map { field in again.filter { $0[field] != nil }.count }
        #expect(!present.contains(0), "\(zip(details, present).map { "\($0): \($1)" })")
        #expect(Set(again.compactMap(\.status)) == ["automatic", "reviewed"])
        #expect(again.filter { $0.details.isEmpty }.count == 0)
    }
}
