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

/// The QuakeML 1.2 reader and writer, on small documents written by hand in
/// the shapes USGS and EMSC publish (not their data).
@Suite("QuakeML", .timeLimit(.minutes(10)))
struct QuakeMLTests {
    static let open = """
        <?xml version="1.0" encoding="UTF-8"?>
        <q:quakeml xmlns="http://quakeml.org/xmlns/bed/1.2" xmlns:catalog="http://anss.org/xmlns/catalog/0.1" \
        xmlns:q="http://quakeml.org/xmlns/quakeml/1.2">
        <eventParameters publicID="quakeml:example.org/fdsnws/event/1/query">

        """
    static let close = "</eventParameters>\n</q:quakeml>\n"

    /// A USGS-style event: catalog attributes, the preferred ids after the origins, depth in metres.
    static func usgsEvent(code: String = "7000abcd", latitude: String = "38.25", depth: String = "35000",
                          mag: String = "5.4") -> String {
        """
        <event catalog:datasource="us" catalog:eventsource="us" catalog:eventid="\(code)" \
        publicID="quakeml:earthquake.usgs.gov/fdsnws/event/1/query?eventid=us\(code)&amp;format=quakeml">
        <description><type>earthquake name</type><text>12 km NNE of Somewhere, Japan</text></description>
        <origin catalog:datasource="us" publicID="quakeml:earthquake.usgs.gov/product/origin/us\(code)/us/1/product.xml">
        <time><value>2026-11-20T10:00:00.123Z</value></time>
        <longitude><value>142.5</value></longitude>
        <latitude><value>\(latitude)</value></latitude>
        <depth><value>\(depth)</value><uncertainty>1800</uncertainty></depth>
        <quality><usedPhaseCount>120</usedPhaseCount></quality>
        </origin>
        <magnitude publicID="quakeml:earthquake.usgs.gov/product/origin/us\(code)/us/1/product.xml#magnitude">
        <mag><value>\(mag)</value><uncertainty>0.05</uncertainty></mag>
        <type>mww</type>
        </magnitude>
        <preferredOriginID>quakeml:earthquake.usgs.gov/product/origin/us\(code)/us/1/product.xml</preferredOriginID>
        <preferredMagnitudeID>quakeml:earthquake.usgs.gov/product/origin/us\(code)/us/1/product.xml#magnitude</preferredMagnitudeID>
        <type>earthquake</type>
        <creationInfo><agencyID>us</agencyID><creationTime>2026-11-20T12:30:00.000Z</creationTime></creationInfo>
        </event>

        """
    }

    /// An EMSC-style event: `smi:` ids, the preferred ids first, two origins and magnitudes, region names.
    static let emscEvent = """
        <event publicID="smi:www.emsc-csem.org/event/20261120_0000042">
          <preferredOriginID>smi:www.emsc-csem.org/origin/1234</preferredOriginID>
          <preferredMagnitudeID>smi:www.emsc-csem.org/magnitude/5678</preferredMagnitudeID>
          <type>earthquake</type>
          <description><text>SOUTHERN GREECE</text><type>Flinn-Engdahl region</type></description>
          <description><text>GREECE</text><type>region name</type></description>
          <origin publicID="smi:www.emsc-csem.org/origin/1233">
            <time><value>2026-11-20T08:00:00.0Z</value></time>
            <latitude><value>1</value></latitude><longitude><value>1</value></longitude>
          </origin>
          <origin publicID="smi:www.emsc-csem.org/origin/1234">
            <time><value>2026-11-20T08:12:34.5Z</value></time>
            <latitude><value>36.9</value></latitude><longitude><value>22.1</value></longitude>
            <depth><value>10000</value></depth>
          </origin>
          <magnitude publicID="smi:www.emsc-csem.org/magnitude/5677"><mag><value>3.9</value></mag><type>mb</type></magnitude>
          <magnitude publicID="smi:www.emsc-csem.org/magnitude/5678"><mag><value>4.2</value></mag><type>ML</type></magnitude>
        </event>

        """

    static func document(_ events: String...) -> String { open + events.joined() + close }

    static func read(_ text: String, strict: Bool = false) throws -> (events: [SeismicEvent], summary: FeedSummary) {
        var events: [SeismicEvent] = []
        let summary = try FeedReader(options: FeedOptions(strict: strict, now: Fixtures.date("2026-11-21T00:00:00Z")))
            .read(.bytes(Data(text.utf8), name: "test.xml")) { events.append($0) }
        return (events, summary)
    }

    /// The 1-based line of the first line of `text` holding `needle`.
    static func line(of needle: String, in text: String) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) }! + 1
    }

    /// The error reading `text` throws, or `nil`.
    static func error(reading text: String) -> FeedError? {
        do { _ = try read(text) } catch let error as FeedError { return error } catch { return nil }
        return nil
    }

    @Test func readsAUSGSStyleEvent() throws {
        let (events, summary) = try Self.read(Self.document(Self.usgsEvent()))
        #expect(summary.rows == 1 && summary.events == 1 && summary.rejected == 0)
        let event = try #require(events.first)
        #expect(event.id == "us7000abcd")
        #expect(event.time == Fixtures.date("2026-11-20T10:00:00.123Z"))
        #expect(event.latitude == 38.25 && event.longitude == 142.5)
        #expect(event.depth == 35)
        #expect(event.magnitude == 5.4 && event.magnitudeType == "mww")
        #expect(event.place == "12 km NNE of Somewhere, Japan")
        #expect(event.eventType == "earthquake")
        #expect(event.network == "us")
        #expect(event.updated == Fixtures.date("2026-11-20T12:30:00.000Z"))
    }

    @Test func readsAnEMSCStyleEventByItsPreferredOriginAndMagnitude() throws {
        let (events, _) = try Self.read(Self.document(Self.emscEvent))
        let event = try #require(events.first)
        #expect(event.id == "20261120_0000042")
        #expect(event.time == Fixtures.date("2026-11-20T08:12:34.500Z"))
        #expect(event.latitude == 36.9 && event.longitude == 22.1 && event.depth == 10)
        #expect(event.magnitude == 4.2 && event.magnitudeType == "ML")
        #expect(event.place == "GREECE", "a region name is preferred to the Flinn-Engdahl region")
        #expect(event.network == nil && event.updated == nil)
    }

    @Test func fallsBackToTheFirstOriginAndMagnitude() throws {
        let withoutPreference = Self.emscEvent
            .replacingOccurrences(of: "<preferredOriginID>smi:www.emsc-csem.org/origin/1234</preferredOriginID>", with: "")
            .replacingOccurrences(of: "<preferredMagnitudeID>smi:www.emsc-csem.org/magnitude/5678</preferredMagnitudeID>", with: "")
        let unresolved = Self.emscEvent.replacingOccurrences(of: "origin/1234<", with: "origin/9999<")
            .replacingOccurrences(of: "magnitude/5678<", with: "magnitude/9999<")
        for text in [withoutPreference, unresolved] {
            let event = try #require(try Self.read(Self.document(text)).events.first)
            #expect(event.time == Fixtures.date("2026-11-20T08:00:00Z"))
            #expect(event.latitude == 1 && event.depth == nil)
            #expect(event.magnitude == 3.9 && event.magnitudeType == "mb")
        }
        // Preferred ids after the origins resolve as well as before them.
        let after = Self.emscEvent
            .replacingOccurrences(of: "<preferredOriginID>smi:www.emsc-csem.org/origin/1234</preferredOriginID>", with: "")
            .replacingOccurrences(of: "</event>", with: "<preferredOriginID> smi:www.emsc-csem.org/origin/1234 </preferredOriginID></event>")
        #expect(try Self.read(Self.document(after)).events.first?.latitude == 36.9)
    }

    @Test func depthsInMetresBecomeTheSameKilometresAsWrittenInKilometres() throws {
        for (metres, kilometres) in [("10123.45", 10.12345), ("-1500", -1.5), ("1.5E4", 15.0), ("0", 0.0), ("7", 0.007),
                                     (" 700000.0 ", 700.0), ("33333.333", 33.333333)] {
            #expect(QuakeMLDecoder.kilometres(fromMetres: ArraySlice(metres.utf8)) == kilometres, "\(metres) m")
            let written = QuakeMLEncoder.metres(kilometres)
            #expect(QuakeMLDecoder.kilometres(fromMetres: ArraySlice(written.utf8)) == kilometres, "\(kilometres) km as \(written) m")
        }
        #expect(QuakeMLEncoder.metres(10.12345) == "10123.45")
        #expect(QuakeMLEncoder.metres(0.007) == "7")
    }

    @Test func idsComeFromCatalogAttributesOrThePublicID() {
        #expect(QuakeMLDecoder.eventID(publicID: "quakeml:earthquake.usgs.gov/fdsnws/event/1/query?eventid=us7000abcd&format=quakeml") == "us7000abcd")
        #expect(QuakeMLDecoder.eventID(publicID: "quakeml:quakemap/query?eventid=a%26b%2Fc%C3%A9") == "a&b/cé")
        #expect(QuakeMLDecoder.eventID(publicID: "smi:www.emsc-csem.org/event/20261120_0000042") == "20261120_0000042")
        #expect(QuakeMLDecoder.eventID(publicID: "smi:org.gfz-potsdam.de/geofon/gfz2026wxyz/") == "gfz2026wxyz")
        #expect(QuakeMLDecoder.eventID(publicID: "gfz2026wxyz") == "gfz2026wxyz")
    }

    /// An ISC-style event: `smi:ISC/evid=…` ids, the preferred ids first, depth in metres.
    static let iscEvent = """
        <event publicID="smi:ISC/evid=600516598">
          <preferredOriginID>smi:ISC/origid=619893562</preferredOriginID>
          <preferredMagnitudeID>smi:ISC/magid=1001234567</preferredMagnitudeID>
          <type>earthquake</type>
          <typeCertainty>known</typeCertainty>
          <description><text>Southern Greece</text><type>Flinn-Engdahl region</type></description>
          <origin publicID="smi:ISC/origid=619893562">
            <time><value>2026-11-19T04:05:06.70Z</value></time>
            <latitude><value>37.0512</value></latitude><longitude><value>21.9876</value></longitude>
            <depth><value>15300.0</value></depth>
            <creationInfo><author>ISC</author><agencyID>ISC</agencyID></creationInfo>
          </origin>
          <magnitude publicID="smi:ISC/magid=1001234567">
            <mag><value>4.1</value></mag><type>mb</type><originID>smi:ISC/origid=619893562</originID>
          </magnitude>
        </event>

        """

    @Test func iscIDsLoseTheirKeyPrefix() throws {
        #expect(QuakeMLDecoder.eventID(publicID: "smi:ISC/evid=600516598") == "600516598")
        #expect(QuakeMLDecoder.eventID(publicID: "smi:ISC/evid=600516598/") == "600516598")
        // Not a key: the last component is kept whole.
        #expect(QuakeMLDecoder.eventID(publicID: "smi:x/a.b=c") == "a.b=c")
        #expect(QuakeMLDecoder.eventID(publicID: "smi:x/=600516598") == "=600516598")
        #expect(QuakeMLDecoder.eventID(publicID: "smi:x/evid=") == "evid=")
        // The query's eventid and USGS's attributes come first.
        #expect(QuakeMLDecoder.eventID(publicID: "smi:x/query?evid=1&eventid=2") == "2")
        let event = try #require(try Self.read(Self.document(Self.iscEvent)).events.first)
        #expect(event.id == "600516598")
        #expect(event.latitude == 37.0512 && event.depth == 15.3 && event.magnitude == 4.1 && event.magnitudeType == "mb")
        #expect(event.place == "Southern Greece")
        let usgs = Self.usgsEvent().replacingOccurrences(of: "publicID=\"quakeml:earthquake.usgs.gov/fdsnws/event/1/query?eventid=us7000abcd&amp;format=quakeml\"",
                                                          with: "publicID=\"smi:ISC/evid=600516598\"")
        #expect(try Self.read(Self.document(usgs)).events.first?.id == "us7000abcd")
    }

    @Test func placesArePickedByDescriptionType() throws {
        func place(_ descriptions: [(String, String)]) throws -> String? {
            let text = descriptions.map { "<description><text>\($0.0)</text><type>\($0.1)</type></description>" }.joined()
            return try Self.read(Self.document(Self.emscEvent.replacingOccurrences(
                of: #"<description><text>SOUTHERN GREECE</text><type>Flinn-Engdahl region</type></description>"#, with: "")
                .replacingOccurrences(of: #"<description><text>GREECE</text><type>region name</type></description>"#, with: text)))
                .events.first?.place
        }
        #expect(try place([("FE", "Flinn-Engdahl region"), ("Region", "region name"), ("Name", "earthquake name")]) == "Name")
        #expect(try place([("FE", "Flinn-Engdahl region")]) == "FE")
        #expect(try place([("Other", "felt report")]) == "")
        #expect(try place([]) == "")
    }

    @Test func eventTypesAreKeptAndDefaultToEarthquake() throws {
        let blast = Self.usgsEvent().replacingOccurrences(of: "<type>earthquake</type>", with: "<type>quarry blast</type>")
        let none = Self.usgsEvent(code: "2").replacingOccurrences(of: "<type>earthquake</type>", with: "")
        let events = try Self.read(Self.document(blast, none)).events
        #expect(events.map(\.eventType) == ["quarry blast", "earthquake"])
    }

    @Test func malformedXMLIsRefusedWithLineAndColumn() throws {
        let broken = Self.document(Self.usgsEvent().replacingOccurrences(of: "</latitude>", with: "</latitud>"))
        let error = try #require(Self.error(reading: broken))
        guard case let .malformedQuakeML(source, line, column, reason) = error else { Issue.record("\(error)"); return }
        let expectedLine = Self.line(of: "</latitud>", in: broken)
        #expect(source == "test.xml" && line == expectedLine && column > 1)
        #expect(reason.contains("latitud"))
        #expect(error.message.hasPrefix("test.xml:\(expectedLine):\(column): not a QuakeML 1.2 document: "))
    }

    @Test func aDoctypeAndEntitiesAreRefused() throws {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE q:quakeml [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2"><eventParameters>&lol2;</eventParameters></q:quakeml>
            """
        let external = """
            <?xml version="1.0"?>
            <!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2">&xxe;</q:quakeml>
            """
        for text in [laughs, external] {
            let error = try #require(Self.error(reading: text))
            guard case let .malformedQuakeML(_, line, _, reason) = error else { Issue.record("\(error)"); continue }
            #expect(line == 2 && reason.contains("DOCTYPE"), "\(reason)")
        }
        // An entity that is not declared is an error too, not an empty text.
        #expect(Self.error(reading: Self.document(Self.usgsEvent().replacingOccurrences(of: "<type>mww", with: "<type>&mw;"))) != nil)
    }

    @Test func aTruncatedDocumentIsMalformed() throws {
        let whole = Self.document(Self.usgsEvent(), Self.emscEvent)
        for cut in [whole.count / 3, whole.count / 2, whole.count - 3] {
            let error = try #require(Self.error(reading: String(whole.prefix(cut))), "cut at \(cut)")
            guard case .malformedQuakeML = error else { Issue.record("\(error)"); continue }
        }
    }

    @Test func otherXMLIsNotQuakeML() throws {
        for text in ["<?xml version=\"1.0\"?><html><body>Service unavailable</body></html>",
                     #"<q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.1"/>"#, "<?xml version=\"1.0\"?>"] {
            let error = try #require(Self.error(reading: text), "\(text)")
            guard case .malformedQuakeML = error else { Issue.record("\(error)"); continue }
        }
    }

    @Test func theFormatIsToldByTheDocumentsOpening() {
        func opens(_ text: String) -> Bool { Array(text.utf8).withUnsafeBytes { QuakeMLDecoder.opensDocument($0) } }
        #expect(opens("<?xml version=\"1.0\"?>") && opens("\u{FEFF}\n <q:quakeml xmlns:q=\"x\">") && opens("<quakeml>"))
        #expect(opens("<qml:quakeml\nxmlns:qml=\"x\"/>"))
        #expect(!opens("<!DOCTYPE html><html>") && !opens("<html>") && !opens("<q:quakemlx>") && !opens("<q:quakeml"))
        #expect(!opens("time,latitude,longitude\n"))
    }

    @Test func eventParametersOrEventsOutsideTheBED12NamespaceAreRefused() throws {
        let bed11 = Self.document(Self.usgsEvent()).replacingOccurrences(of: "xmlns=\"http://quakeml.org/xmlns/bed/1.2\"",
                                                                         with: "xmlns=\"http://quakeml.org/xmlns/bed/1.1\"")
        let none = Self.document(Self.usgsEvent()).replacingOccurrences(of: "xmlns=\"http://quakeml.org/xmlns/bed/1.2\" ", with: "")
        for (text, found) in [(bed11, "found 'http://quakeml.org/xmlns/bed/1.1'"), (none, "it has no namespace")] {
            for strict in [false, true] {
                var error: FeedError?
                do { _ = try Self.read(text, strict: strict) } catch let thrown as FeedError { error = thrown }
                guard case let .malformedQuakeML(_, line, column, reason) = error else { Issue.record("\(String(describing: error))"); continue }
                #expect(line == Self.line(of: "<eventParameters", in: text) && column == 1)
                #expect(reason == "<eventParameters> is not in the QuakeML 1.2 BED namespace http://quakeml.org/xmlns/bed/1.2 (\(found))")
            }
        }
        // An event in another namespace inside BED 1.2 eventParameters.
        let event = Self.document(Self.usgsEvent(), Self.emscEvent.replacingOccurrences(
            of: "<event publicID", with: "<b:event xmlns:b=\"http://quakeml.org/xmlns/bed/1.1\" publicID")
            .replacingOccurrences(of: "</event>", with: "</b:event>"))
        let error = try #require(Self.error(reading: event))
        guard case let .malformedQuakeML(_, line, column, reason) = error else { Issue.record("\(error)"); return }
        #expect(line == Self.line(of: "<b:event", in: event) && column == 1)
        #expect(reason.hasPrefix("<event> is not in the QuakeML 1.2 BED namespace") && reason.hasSuffix("(found 'http://quakeml.org/xmlns/bed/1.1')"))
        // Any prefix bound to BED 1.2 is read.
        let prefixed = Self.document(Self.usgsEvent()).replacingOccurrences(of: "xmlns=\"http://quakeml.org/xmlns/bed/1.2\"",
                                                                            with: "xmlns:bed=\"http://quakeml.org/xmlns/bed/1.2\"")
            .replacingOccurrences(of: #"<(/?)([a-zA-Z]+)([ >])"#, with: "<$1bed:$2$3", options: .regularExpression)
            .replacingOccurrences(of: "bed:q:quakeml", with: "q:quakeml")
        #expect(prefixed.contains("<bed:eventParameters ") && prefixed.contains("<bed:event ") && prefixed.contains("</bed:origin>"))
        #expect(try Self.read(prefixed).events.map(\.id) == ["us7000abcd"])
    }

    @Test func aPreferredOriginOrMagnitudePastTheKeptCandidatesRejectsTheEvent() throws {
        let count = QuakeMLDecoder.maximumCandidates + 76
        func event(preferredOrigin: Int?, preferredMagnitude: Int?) -> String {
            var text = "<event publicID=\"smi:x/event/many\">\n"
            for index in 1...count {
                text += "<origin publicID=\"smi:x/origin/\(index)\"><time><value>2026-11-20T08:00:00Z</value></time>"
                    + "<latitude><value>\(Double(index) / 100)</value></latitude><longitude><value>1</value></longitude></origin>\n"
                text += "<magnitude publicID=\"smi:x/magnitude/\(index)\"><mag><value>\(Double(index % 90) / 10)</value></mag></magnitude>\n"
            }
            if let preferredOrigin { text += "<preferredOriginID>smi:x/origin/\(preferredOrigin)</preferredOriginID>\n" }
            if let preferredMagnitude { text += "<preferredMagnitudeID>smi:x/magnitude/\(preferredMagnitude)</preferredMagnitudeID>\n" }
            return text + "</event>\n"
        }
        // Among the kept ones: read.
        let kept = try Self.read(Self.document(event(preferredOrigin: 10, preferredMagnitude: 1000)))
        #expect(kept.events.first?.latitude == 0.1 && kept.events.first?.magnitude == 1.0)
        // The 1,050th, which was not kept: rejected, not read as the first.
        for (origin, magnitude, element) in [(1050, 10, "preferredOriginID"), (10, 1050, "preferredMagnitudeID"),
                                             (1050, 1050, "preferredOriginID"), (5000, 10, "preferredOriginID")] {
            let text = Self.document(event(preferredOrigin: origin, preferredMagnitude: magnitude), Self.usgsEvent())
            let (events, summary) = try Self.read(text)
            #expect(events.map(\.id) == ["us7000abcd"])
            let rejection = try #require(summary.rejections.first)
            #expect(summary.rejected == 1 && rejection.column == element)
            #expect(rejection.location == .element(line: Self.line(of: "smi:x/event/many", in: text), column: 1, id: "many"))
            let noun = element == "preferredOriginID" ? "origins" : "magnitudes"
            #expect(rejection.reason == "names none of the first \(QuakeMLDecoder.maximumCandidates) \(noun) before it (more are not kept)")
            #expect(throws: FeedError.rejectedRow(rejection)) { try Self.read(text, strict: true) }
        }
        // No preference at all: rejected as before.
        #expect(try Self.read(Self.document(event(preferredOrigin: nil, preferredMagnitude: 10))).summary.rejections.first?.reason
                == "has more than \(QuakeMLDecoder.maximumCandidates) origins before its preferredOriginID")
    }

    @Test func blanksBeforeTheDeclarationAreReadAndLinesStayTheFiles() throws {
        let document = Self.document(Self.usgsEvent())
        for blanks in ["\n\n", "\r\n \t\r\n", "\u{FEFF}\n\n", "\r\r", "  "] {
            let (events, _) = try Self.read(blanks + document)
            #expect(events.map(\.id) == ["us7000abcd"], "\(blanks.debugDescription)")
            let broken = blanks + document.replacingOccurrences(of: "</latitude>", with: "</latitud>")
            let error = try #require(Self.error(reading: broken))
            guard case let .malformedQuakeML(_, line, _, _) = error else { Issue.record("\(error)"); continue }
            let breaks = blanks.filter { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }.count
            #expect(line == Self.line(of: "</latitude>", in: document) + breaks, "\(blanks.debugDescription)")
            // A rejected event is placed on its line too.
            let rejected = try Self.read(blanks + Self.document(Self.usgsEvent(latitude: "95")))
            #expect(rejected.summary.rejections.first?.location
                    == .element(line: Self.line(of: "<event ", in: document) + breaks, column: 1, id: "us7000abcd"))
        }
        // On the line the document starts, columns count the blanks before it.
        let root = #"<q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2" xmlns="http://quakeml.org/xmlns/bed/1.1">"#
        let error = try #require(Self.error(reading: "\n  \t" + root + "<eventParameters/></q:quakeml>"))
        guard case let .malformedQuakeML(_, line, column, _) = error else { Issue.record("\(error)"); return }
        #expect(line == 2 && column == 4 + root.utf8.count)
        // Blank lines filling more than a window of the reader.
        let many = String(repeating: "\n", count: 1_200_000)
        let far = try #require(Self.error(reading: many + document.replacingOccurrences(of: "</latitude>", with: "</latitud>")))
        guard case let .malformedQuakeML(_, farLine, _, _) = far else { Issue.record("\(far)"); return }
        #expect(farLine == 1_200_000 + Self.line(of: "</latitude>", in: document))
    }

    @Test func emptyEventParametersAreAnEmptyCatalogue() throws {
        let (events, summary) = try Self.read(Self.document())
        #expect(events.isEmpty && summary.rows == 0 && summary.rejected == 0)
        let bare = #"<q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2" xmlns="http://quakeml.org/xmlns/bed/1.2"><eventParameters publicID="smi:x/y"/></q:quakeml>"#
        #expect(try Self.read(bare).summary.rows == 0)
    }

    @Test func badEventsAreRejectedWhereTheirElementStarts() throws {
        let text = Self.document(Self.usgsEvent(code: "1"), Self.usgsEvent(code: "2", latitude: "95.2"),
                                 Self.usgsEvent(code: "3", depth: "2000000"), Self.usgsEvent(code: "4", mag: "big"),
                                 Self.usgsEvent(code: "5", mag: ""))
        let (events, summary) = try Self.read(text)
        #expect(events.map(\.id) == ["us1", "us5"])
        #expect(summary.rows == 5 && summary.events == 1 && summary.withoutMagnitude == 1 && summary.rejected == 3)
        let line = { (code: String) in Self.line(of: #"catalog:eventid="\#(code)""#, in: text) }
        #expect(summary.rejections.first?.location == .element(line: line("2"), column: 1, id: "us2"))
        #expect(summary.rejections.map(\.message) == [
            "test.xml:\(line("2")):1: event (us2): element 'origin/latitude': '95.2' is outside -90…90",
            "test.xml:\(line("3")):1: event (us3): element 'origin/depth': '2000000 m' is outside -15…1000 km",
            "test.xml:\(line("4")):1: event (us4): element 'magnitude/mag': 'big' is not a number",
        ])
        #expect(throws: FeedError.rejectedRow(summary.rejections[0])) { try Self.read(text, strict: true) }
        // An event without an origin, or whose origin has no time, is rejected too.
        let noOrigin = Self.document("  <event publicID=\"smi:x/e1\"><type>earthquake</type></event>\n")
        #expect(try Self.read(noOrigin).summary.rejections.map(\.message)
                == ["test.xml:\(Self.line(of: "smi:x/e1", in: noOrigin)):3: event (e1): has no origin"])
    }

    @Test func writtenQuakeMLReadsBackToTheSameEvents() throws {
        let events = [
            SeismicEvent(id: "us7000abcd", time: Fixtures.date("2026-11-20T10:00:00.123Z"), latitude: -38.25, longitude: 179.999,
                         depth: 10.12345, magnitude: 5.4, magnitudeType: "mww", place: "12 km NNE of \"A\" & <B>, Japan",
                         eventType: "earthquake", network: "us", updated: Fixtures.date("2026-11-20T12:30:00.000Z")),
            SeismicEvent(id: "odd id/é&=?%", time: Fixtures.date("1906-04-18T13:12:21Z"), latitude: 37.75, longitude: -122.55,
                         eventType: "quarry blast", network: "xx"),
            SeismicEvent(id: "", time: Fixtures.date("2026-01-01T00:00:00Z"), latitude: 0, longitude: 0, depth: -0.5,
                         magnitude: -0.3, place: "line\nbreak\ttab"),
        ]
        let data = try EventListEncoder().encode(events, as: .quakeml)
        var again: [SeismicEvent] = []
        let summary = try FeedReader(options: FeedOptions(strict: true)).read(.bytes(data, name: "written.xml")) { again.append($0) }
        #expect(summary.rows == 3)
        #expect(again == events)
        // A magnitude type without a magnitude has no QuakeML magnitude to go in.
        var typed = events[1]
        typed.magnitudeType = "ml"
        let written = try EventListEncoder().encode([typed], as: .quakeml)
        #expect(!String(decoding: written, as: UTF8.self).contains("<magnitude"))
        #expect(try Self.read(String(decoding: written, as: UTF8.self)).events == [events[1]])
    }

    @Test(.enabled(if: Xmllint.path != nil, "xmllint (libxml2-utils) is not installed: the written QuakeML is not validated"))
    func writtenQuakeMLIsWellFormedForXmllint() throws {
        let events = try Self.read(Self.document(Self.usgsEvent(), Self.emscEvent)).events
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakeml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("events.xml")
        try EventListEncoder().encode(events, as: .quakeml).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Xmllint.path!)
        process.arguments = ["--noout", "--nonet", file.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
    }

    @Test(.enabled(if: RealFeeds.available, "../shared/data/usgs is not beside the repository: QuakeML round trips of real feeds skipped"))
    func everySharedFeedRoundTripsThroughQuakeML() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: RealFeeds.folder)
            .filter { [".csv", ".geojson", ".txt"].contains(where: $0.hasSuffix) }.sorted()
        #expect(!files.isEmpty)
        for file in files {
            var events: [SeismicEvent] = []
            _ = try FeedReader().read(.file(RealFeeds.folder + "/" + file)) { events.append($0) }
            let data = try EventListEncoder().encode(events, as: .quakeml)
            var again: [SeismicEvent] = []
            let summary = try FeedReader(options: FeedOptions(strict: true)).read(.bytes(data, name: file + ".xml")) { again.append($0) }
            #expect(summary.rows == events.count, "\(file)")
            // What QuakeML has no place for is not written (QuakeMLFieldsTests.carried says what).
            let expected = events.map(QuakeMLFieldsTests.carried)
            #expect(again == expected, "\(file): \(zip(expected, again).first { $0 != $1 }.map { "\($0) became \($1)" } ?? "counts differ")")
        }
    }
}

@Suite(.timeLimit(.minutes(10))) struct QuakeMLEventTypeTests {
    @Test func typesOutsideQuakeMLsListAreWrittenAsItsWords() {
        #expect(EventType.quakeML("earthquake") == "earthquake")
        #expect(EventType.quakeML("quarry_blast") == "quarry blast")
        #expect(EventType.quakeML("quarry") == "quarry blast")
        #expect(EventType.quakeML("Ice Quake") == "ice quake")
        #expect(EventType.quakeML("") == "earthquake")
        #expect(EventType.quakeML("rock slide") == "other event")
        #expect(EventType.quakeML("<b>") == "other event")
    }

    @Test func aWrittenOldTypeReadsBackAsQuakeMLsWord() throws {
        let event = SeismicEvent(id: "ci1", time: Fixtures.date("2014-04-01T00:00:00.000Z"), latitude: 34, longitude: -117,
                                 depth: 1, magnitude: 1.2, eventType: "quarry_blast")
        let data = try EventListEncoder().encode([event], as: .quakeml)
        #expect(String(decoding: data, as: UTF8.self).contains("<type>quarry blast</type>"))
        var again: [SeismicEvent] = []
        _ = try FeedReader().read(.bytes(data, name: "x.xml")) { again.append($0) }
        #expect(again.map(\.eventType) == ["quarry blast"])
    }
}

enum Xmllint {
    static let path = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first { FileManager.default.isExecutableFile(atPath: $0) }
}
