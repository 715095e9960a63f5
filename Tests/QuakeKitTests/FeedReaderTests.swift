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

@Suite("Reading feeds", .timeLimit(.minutes(10)))
struct FeedReaderTests {
    @Test func todaysLayoutGivesResolvedEvents() throws {
        let text = Fixtures.header22 + "\n"
            + Fixtures.row22(mag: "-0.5", id: "ci1", place: "\"12 km NNE of Ridgecrest, CA\"", type: "") + "\n"
            + Fixtures.row22(depth: "", mag: "", id: "nc2", type: "quarry blast") + "\n"
        let (events, summary) = try Fixtures.read(text)
        var expected = FeedSummary(rows: 2, events: 1, withoutMagnitude: 1, rejected: 0)
        expected.sources = [Credits.usgs]
        #expect(summary == expected)
        #expect(events[0].id == "ci1")
        #expect(events[0].place == "12 km NNE of Ridgecrest, CA")
        #expect(events[0].eventType == "earthquake")
        #expect(events[0].magnitude == -0.5)
        #expect(events[0].network == "us")
        #expect(events[0].status == "reviewed")
        #expect(events[1].magnitude == nil)
        #expect(events[1].depth == nil)
        #expect(events[1].eventType == "quarry blast")
    }

    @Test func fifteenColumnLayoutWithMixedCaseHeader() throws {
        let text = "Time,Latitude,Longitude,Depth,Mag,MagType,nst,gap,dmin,rms,net,id,updated,place,type\n"
            + "2015-12-22T18:45:00.000Z,-8.5,-74.4,600.2,7.6,mww,,,,,us,us100040x6,2015-12-23T00:00:00.000Z,\"Peru-Brazil border region\",earthquake\n"
        let (events, _) = try Fixtures.read(text)
        #expect(events.count == 1)
        #expect(events[0].magnitude == 7.6)
        #expect(events[0].depth == 600.2)
        #expect(events[0].magnitudeType == "mww")
    }

    @Test func preTwentyThirteenLayout() throws {
        let text = "Src,Eqid,Version,Datetime,Lat,Lon,Magnitude,Depth,NST,Region\r\n"
            + "nn,00338129,1,\"Saturday, May 21, 2011 09:06:50 UTC\",38.5123,-119.4567,1.2,7.0, 9,\"central Nevada, USA\"\r\n"
        let (events, _) = try Fixtures.read(text)
        let event = try #require(events.first)
        #expect(event.id == "nn00338129")
        #expect(CivilTime.iso8601(event.time) == "2011-05-21T09:06:50.000Z")
        #expect(event.place == "central Nevada, USA")
        #expect(event.magnitude == 1.2)
        #expect(event.eventType == "earthquake")
    }

    @Test func dateAndTimeUTCLayout() throws {
        let text = "Date,TimeUTC,Latitude,Longitude,Magnitude,Depth\n2010/11/02,06:39:55.6,-5.378,151.545,5.8, 41\n"
        let (events, _) = try Fixtures.read(text)
        let event = try #require(events.first)
        #expect(CivilTime.iso8601(event.time) == "2010-11-02T06:39:55.600Z")
        #expect(event.depth == 41)
        #expect(event.id == "")
    }

    @Test(arguments: [
        (Fixtures.row22(latitude: "95.2"), "test.csv:2: column 'latitude': '95.2' is outside -90…90"),
        (Fixtures.row22(longitude: "-180.5"), "test.csv:2: column 'longitude': '-180.5' is outside -180…180"),
        (Fixtures.row22(latitude: ""), "test.csv:2: column 'latitude' is empty"),
        (Fixtures.row22(longitude: "abc"), "test.csv:2: column 'longitude': 'abc' is not a number"),
        (Fixtures.row22(latitude: "NaN"), "test.csv:2: column 'latitude': 'NaN' is not a finite number"),
        (Fixtures.row22(time: ""), "test.csv:2: column 'time' is empty"),
        (Fixtures.row22(time: "yesterday"),
         "test.csv:2: column 'time': 'yesterday' is not a time (expected ISO 8601, e.g. 2020-06-11T15:27:04.123Z)"),
        (Fixtures.row22(mag: "big"), "test.csv:2: column 'mag': 'big' is not a number"),
        ("2026-11-21T10:00:00.000Z,1,2", "test.csv:2: row has 3 fields, the header has 22"),
    ])
    func badRowsAreRejectedWithEvidence(_ row: String, _ message: String) throws {
        let (events, summary) = try Fixtures.read(Fixtures.header22 + "\n" + row + "\n" + Fixtures.row22() + "\n")
        #expect(events.count == 1)
        #expect(summary.rows == 2)
        #expect(summary.rejected == 1)
        #expect(summary.rejections.map(\.message) == [message])
    }

    @Test func rejectionLineIsThePhysicalLineAfterMultiLineFields() throws {
        let text = Fixtures.header22 + "\n" + Fixtures.row22(place: "\"two\nlines\"") + "\n" + Fixtures.row22(latitude: "-91") + "\n"
        let (_, summary) = try Fixtures.read(text)
        #expect(summary.rejections.first?.line == 4)
    }

    @Test func strictModeStopsAtTheFirstRejectedRow() throws {
        let text = Fixtures.header22 + "\n" + Fixtures.row22() + "\n" + Fixtures.row22(latitude: "95.2") + "\n"
        #expect(throws: FeedError.rejectedRow(FeedRejection(
            source: "test.csv", line: 3, column: "latitude", value: "95.2", reason: "is outside -90…90"))) {
            try Fixtures.read(text, strict: true)
        }
    }

    @Test func keepsOnlyTheFirstRejectionsButCountsThemAll() throws {
        let bad = Array(repeating: Fixtures.row22(latitude: "99"), count: 25).joined(separator: "\n")
        let (_, summary) = try Fixtures.read(Fixtures.header22 + "\n" + bad + "\n")
        #expect(summary.rejected == 25)
        #expect(summary.rejections.count == 20)
        #expect(summary.rejections.last?.line == 21)
    }

    @Test func inputsThatAreNotAFeedEndTheRead() throws {
        #expect(throws: FeedError.empty(source: "test.csv")) { try Fixtures.read("") }
        #expect(throws: FeedError.empty(source: "test.csv")) { try Fixtures.read("\n\n") }
        #expect(throws: FeedError.missingColumns(source: "test.csv", missing: ["latitude"], header: ["time", "lon", "mag"])) {
            try Fixtures.read("time,lon,mag\n2026-01-01T00:00:00Z,1,2\n")
        }
        #expect(throws: FeedError.malformedGeoJSON(source: "test.csv", reason: "the top level is not a FeatureCollection or a Feature")) {
            try Fixtures.read("{\"type\":\"Point\",\"coordinates\":[1,2]}")
        }
        // A lone Feature is a detail document, one event: without a position it is that event's rejection.
        let (events, summary) = try Fixtures.read("{\"type\":\"Feature\"}")
        #expect(events.isEmpty && summary.rows == 1 && summary.rejections.first?.column == "geometry.coordinates")
        // The column counts bytes: U+0089 takes two in UTF-8.
        #expect(throws: FeedError.binaryData(source: "test.csv", line: 1, column: 6)) {
            try Fixtures.read("\u{89}PNG\u{0}\u{1}\u{2}")
        }
    }

    @Test func missingColumnMessageNamesColumnAndHeader() {
        let error = FeedError.missingColumns(source: "f.csv", missing: ["time"], header: ["lat", "lon"])
        #expect(error.message == "f.csv:1: required column 'time' not found in the header (lat,lon)")
    }

    /// Found by fuzz-csv: a byte order mark inside a place name did not survive
    /// the GeoJSON round trip (JSON readers drop it), so no reader keeps it.
    @Test func byteOrderMarksInsideFieldsAreDropped() throws {
        let (events, _) = try Fixtures.read(Fixtures.header22 + "\n" + Fixtures.row22(place: "\"lin one\r\u{FEFF}\nline two\"") + "\n")
        #expect(events.first?.place == "lin one\r\nline two")
        // Found on the fuzzer's next run: blanks before a trailing mark are trimmed too.
        let (trailing, _) = try Fixtures.read(Fixtures.header22 + "\n" + Fixtures.row22(place: "\"here \"\u{FEFF}") + "\n")
        #expect(trailing.first?.place == "here")
        let geojson = try EventListEncoder().encode(events, as: .geojson)
        var back: [SeismicEvent] = []
        _ = try FeedReader().read(.bytes(geojson, name: "x")) { back.append($0) }
        #expect(back == events)
    }

    @Test func missingFileAndFolderCannotBeOpened() throws {
        #expect(throws: FeedError.cannotOpen(path: "/nonexistent/feed.csv", errno: ENOENT)) {
            try FeedReader().read(.file("/nonexistent/feed.csv")) { _ in }
        }
        #expect(throws: FeedError.cannotOpen(path: "/tmp", errno: EISDIR)) {
            try FeedReader().read(.file("/tmp")) { _ in }
        }
    }

    /// A map's read admits rows by what it is handed, built here by hand,
    /// with no selection: numeric bounds alone decide without asking
    /// `admits`, and without them `admits` decides every valid row.
    @Test func mapRowsAreAdmittedByWhatTheReaderIsHanded() throws {
        let feed = ([Fixtures.header22,
                     Fixtures.row22(mag: "2.0", id: "small"),
                     Fixtures.row22(mag: "5.0", id: "big", place: "Alaska"),
                     Fixtures.row22(mag: "", id: "none"),
                     Fixtures.row22(mag: "6.0", id: "deep", place: "Fiji")] + [""]).joined(separator: "\n")
        func kept(_ admission: RowAdmission) throws -> (ids: [String], summary: FeedSummary) {
            var rows: [EventDecoder.MapRow] = []
            let revisions = RevisionLedger()
            let summary = try FeedReader().readMapRows(.bytes(Data(feed.utf8), name: "test.csv"),
                                                       admitting: admission, revisions: revisions) { mapped, _ in rows += mapped }
            // Every valid row's version is recorded, admitted or not.
            #expect(revisions.count == 4)
            return (rows.map(\.event.id), summary)
        }
        let numeric = RowAdmission(numeric: NumericAdmission(minimumMagnitude: 4), admits: { _ in
            Issue.record("numeric bounds decide alone")
            return false
        })
        let byNumbers = try kept(numeric)
        #expect(byNumbers.ids == ["big", "deep"])
        #expect(byNumbers.summary.events == 3 && byNumbers.summary.withoutMagnitude == 1)
        let byText = try kept(RowAdmission(numeric: nil, admits: { $0.place == "Alaska" }))
        #expect(byText.ids == ["big"])
        #expect(byText.summary.events == 3 && byText.summary.withoutMagnitude == 1)
    }
}
