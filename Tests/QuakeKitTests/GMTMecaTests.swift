import Foundation
import Testing
@testable import QuakeModel
@testable import QuakeParse

/// GMT `meca` text (`--input-format meca-a|meca-c|meca-m`): the three conventions read to
/// the same mechanisms, times taken from the title or given, and every bad row refused
/// with its line and field. ObsPy's numbers check the same rows in Tests/Interop/test_mechanisms.py.
@Suite("GMT meca text")
struct GMTMecaTests {
    static func read(_ text: String, _ convention: MecaConvention, time: Date? = nil,
                     now: Date = Date(timeIntervalSince1970: 1_800_000_000)) throws -> (events: [SeismicEvent], summary: FeedSummary) {
        var events: [SeismicEvent] = []
        let reader = FeedReader(options: FeedOptions(now: now, mecaConvention: convention, mecaTime: time))
        let summary = try reader.read(.bytes(Data(text.utf8), name: "focal.txt")) { events.append($0) }
        return (events, summary)
    }

    /// Tōhoku 2011 in each convention, as GCMT's solution C201103110546A gives it:
    /// the planes 203/10/88 and 25/80/90, M₀ 5.31e29 dyn·cm.
    @Test func theThreeConventionsGiveOneMechanism() throws {
        let aki = try Self.read("""
            # lon lat depth strike dip rake mag
            143.05 37.52 20.0 203 10 88 9.1 2011-03-11T05:46:24Z near the east coast of Honshu
            """, .akiRichards)
        let cmt = try Self.read("143.05,37.52,20.0,203,10,88,25,80,90,5.31,29,145,35,C201103110546A\n", .globalCMT)
        let tensor = try Self.read("""
            > a GMT segment header
            143.05 37.52 20.0 1.730 -0.281 -1.450 2.120 4.550 -0.657 29 C201103110546A
            """, .momentTensor)
        for (name, read) in [("a", aki), ("c", cmt), ("m", tensor)] {
            #expect(read.summary.rejections.isEmpty, "\(name): \(read.summary.rejections)")
            let event = try #require(read.events.first, "\(name)")
            #expect(read.events.count == 1)
            #expect(event.latitude == 37.52 && event.longitude == 143.05 && event.depth == 20)
            #expect(event.magnitudeType == "Mw" && abs((event.magnitude ?? 0) - 9.1) < 0.06, "\(name): \(String(describing: event.magnitude))")
            let mechanism = try #require(event.mechanism)
            // Every convention's planes come out as the same pair: -Sc's as given, -Sa's auxiliary and the tensor's
            // within a degree or so (GCMT rounds each plane and each of the six values on its own).
            let planes = mechanism.planes
            #expect(planes.count == 2)
            let thrust = try #require(planes.first { $0.dip < 45 }), steep = try #require(planes.first { $0.dip >= 45 })
            let tolerance = ["a": 1.0, "c": 0.01, "m": 1.5][name]!
            #expect(abs(thrust.strike - 203) < tolerance + 1 && abs(thrust.dip - 10) < tolerance && abs(thrust.rake - 88) < tolerance + 1,
                    "\(name): \(thrust)")
            #expect(abs(steep.strike - 25) < tolerance && abs(steep.dip - 80) < tolerance && abs(steep.rake - 90) < tolerance,
                    "\(name): \(steep)")
        }
        // The title's time, or the CMT name's to the minute; the name is the id.
        #expect(aki.events[0].time == Date(timeIntervalSince1970: 1_299_822_384))
        #expect(aki.events[0].place == "near the east coast of Honshu" && aki.events[0].id == "focal.txt:2")
        #expect(cmt.events[0].time == Date(timeIntervalSince1970: 1_299_822_360) && cmt.events[0].id == "C201103110546A")
        // dyn·cm to N·m, read as one decimal: 5.31e29 dyn·cm is 5.31e22 N·m exactly as written.
        #expect(cmt.events[0].mechanism?.scalarMoment == 5.31e22)
        #expect(tensor.events[0].mechanism?.tensor == MomentTensor(rr: 1.73e22, tt: -0.281e22, pp: -1.45e22, rt: 2.12e22,
                                                                   rp: 4.55e22, tp: -0.657e22))
    }

    /// A row whose title has no time is refused, saying where a time goes; `--meca-time` gives one to all.
    @Test func aRowWithoutATimeNeedsOne() throws {
        let text = "-118.54 34.21 18 122 40 101 6.7 Northridge\n-118.54 34.21 18 122 40 101 6.7\n"
        let refused = try Self.read(text, .akiRichards)
        #expect(refused.events.isEmpty && refused.summary.rejections.count == 2)
        let first = try #require(refused.summary.rejections.first)
        #expect(first.location == .line(1) && first.column == "title" && first.value == "Northridge")
        #expect(first.reason.contains("no origin time") && first.reason.contains("--meca-time"))
        let given = Date(timeIntervalSince1970: 758_809_831)
        let read = try Self.read(text, .akiRichards, time: given)
        #expect(read.events.map(\.time) == [given, given] && read.events.map(\.place) == ["Northridge", ""])
        #expect(read.events.map(\.id) == ["focal.txt:1", "focal.txt:2"])
        // A date alone is its midnight, UTC.
        let dated = try Self.read("0 0 10 10 45 90 5 2020-05-01 somewhere at sea\n", .akiRichards)
        #expect(dated.events.first?.time == Date(timeIntervalSince1970: 1_588_291_200) && dated.events.first?.place == "somewhere at sea")
    }

    /// Bad numbers are refused by the rules every reader shares, naming the field; short rows
    /// say how many fields the convention has; the good rows around them are kept.
    @Test func badRowsAreRefusedWithTheirLineAndField() throws {
        let read = try Self.read("""
            10 10 10 400 45 90 6 2020-01-01T00:00:00Z
            10 10 10 45 45 90 2020-01-01T00:00:00Z
            10 95 10 45 45 90 6 2020-01-01T00:00:00Z
            10 10 10 45 45 90 6.5 2020-01-01T00:00:00Z
            10 10 10 45 x 90 6 2020-01-01T00:00:00Z
            10 10 10 45 45 90 6 2099-01-01T00:00:00Z
            """, .akiRichards)
        #expect(read.events.count == 1 && read.events[0].magnitude == 6.5)
        let refusals = read.summary.rejections.map { ($0.location, $0.column ?? "", $0.value ?? "") }
        #expect(refusals.count == 5)
        #expect(refusals[0] == (.line(1), "strike (field 4)", "400"))
        // Six numbers and a time: the time stands where the magnitude should.
        #expect(refusals[1] == (.line(2), "magnitude (field 7)", "2020-01-01T00:00:00Z"))
        #expect(refusals[2] == (.line(3), "latitude (field 2)", "95"))
        #expect(refusals[3] == (.line(5), "dip (field 5)", "x"))
        #expect(refusals[4].0 == .line(6) && refusals[4].1 == "title")
        let short = try Self.read("10 10 10 45 45\n", .akiRichards)
        #expect(short.summary.rejections.first?.reason.contains("has 5 fields where GMT meca -Sa rows have 7") == true)
        let zero = try Self.read("0 0 10 0 0 0 0 0 0 23 2020-01-01T00:00:00Z\n", .momentTensor)
        #expect(zero.events.isEmpty && zero.summary.rejections.first?.reason.contains("all zero") == true)
        let exponent = try Self.read("0 0 10 1 1 1 1 1 1 2.5 2020-01-01T00:00:00Z\n", .momentTensor)
        #expect(exponent.summary.rejections.first?.column == "exponent (field 10)")
    }

    /// GCMT event names, and what is not one.
    @Test func cmtNamesGiveTheirMinute() {
        #expect(GMTMecaDecoder.cmtNameTime("C201103110546A") == Date(timeIntervalSince1970: 1_299_822_360))
        #expect(GMTMecaDecoder.cmtNameTime("S201509162254A") != nil)
        for word in ["C201113110546A", "C20110311054A", "X201103110546A", "C201103112560A", "Northridge"] {
            #expect(GMTMecaDecoder.cmtNameTime(word) == nil, "\(word)")
        }
    }
}
