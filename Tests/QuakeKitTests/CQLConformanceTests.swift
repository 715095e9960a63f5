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

/// CQL2 text on a small synthetic catalogue: each expression with the ids it must select.
@Suite("CQL2 conformance", .timeLimit(.minutes(10)))
struct CQLConformanceTests {
    static func event(_ id: String, _ time: String, mag: Double?, depth: Double?, lat: Double, lon: Double,
                      type: String = "earthquake", magType: String? = "ml", net: String? = "ci",
                      status: String? = "reviewed", place: String = "") -> SeismicEvent {
        SeismicEvent(id: id, time: Fixtures.date(time), latitude: lat, longitude: lon, depth: depth, magnitude: mag,
                     magnitudeType: magType, place: place, eventType: type, network: net, status: status)
    }

    static let catalogue: [SeismicEvent] = [
        event("a", "2024-05-01T00:00:00.000Z", mag: 1.2, depth: 5, lat: 34.1, lon: -117.5, place: "10 km N of Banning, CA"),
        event("b", "2024-05-01T12:30:00.000Z", mag: 4.5, depth: 35, lat: -17.7, lon: 178.1, magType: "mb", net: "us",
              place: "Fiji region"),
        event("c", "2024-05-02T08:00:00.000Z", mag: 6.2, depth: 560, lat: -20.5, lon: -178.4, magType: "mww", net: "us",
              place: "south of the Fiji Islands"),
        event("d", "2024-05-02T09:15:00.500Z", mag: nil, depth: 1.5, lat: 38.8, lon: -122.8, magType: nil, net: "nc",
              status: "automatic", place: "The Geysers, CA"),
        event("e", "2024-05-03T14:00:00.000Z", mag: -0.4, depth: -1.2, lat: 19.4, lon: -155.3, net: "hv",
              place: "5 km S of Pāhala, Hawaii"),
        event("f", "2024-05-03T18:45:00.000Z", mag: 2.1, depth: 0.1, lat: 46.0, lon: -122.2, type: "quarry_blast", magType: "md",
              net: "uw", place: "3 km E of Castle Rock, Washington"),
        event("g", "2024-05-04T00:00:00.000Z", mag: 5.0, depth: 10, lat: 61.2, lon: -150.0, type: "ice quake", net: "ak",
              status: "automatic", place: "Kenai Peninsula, Alaska"),
        event("h", "2024-05-05T06:00:00.000Z", mag: 3.3, depth: nil, lat: 0, lon: 0, type: "explosion", magType: "ML", net: nil,
              status: nil, place: "It's a \"test\" place, Null Island"),
        event("i", "2024-05-06T23:59:59.999Z", mag: 7.1, depth: 33, lat: -33.4, lon: -70.6, magType: "mww", net: "us",
              place: "Santiago, Chile"),
        event("j", "2024-05-07T00:00:00.000Z", mag: 4.5, depth: 120, lat: 89.5, lon: 179.999, magType: "mb", net: "us",
              place: ""),
    ]

    static let table: [(String, String)] = [
        // comparisons
        ("mag = 4.5", "b j"), ("mag <> 4.5", "a c e f g h i"), ("mag > 4.5", "c g i"), ("mag >= 4.5", "b c g i j"),
        ("mag < 0", "e"), ("mag <= 1.2", "a e"), ("depth < 0", "e"), ("depth >= 500", "c"),
        ("latitude > 60", "g j"), ("longitude < -150", "c e"), ("4.5 = mag", "b j"), ("mag != 4.5", "a c e f g h i"),
        // strings, case, accents
        ("net = 'us'", "b c i j"), ("net <> 'us'", "a d e f g"), ("magType = 'ml'", "a e g"), ("magType = 'ML'", "h"),
        ("CASEI(magType) = 'ml'", "a e g h"), ("status = 'automatic'", "d g"), ("id = 'c'", "c"),
        ("place = 'Fiji region'", "b"), ("ACCENTI(place) LIKE '%Pahala%'", "e"), ("place LIKE '%Pāhala%'", "e"),
        ("place = 'It''s a \"test\" place, Null Island'", "h"),
        // types, old spellings
        ("type = 'earthquake'", "a b c d e i j"), ("type = 'quarry blast'", "f"), ("type = 'quarry_blast'", ""),
        ("type IN ('ice quake', 'explosion')", "g h"), ("type NOT IN ('earthquake')", "f g h"),
        // LIKE
        ("place LIKE '%CA'", "a d"), ("place LIKE 'Fiji%'", "b"), ("place LIKE '%fiji%'", ""),
        ("CASEI(place) LIKE '%fiji%'", "b c"), ("place LIKE '_ km%'", "e f"), ("place NOT LIKE '%,%'", "b c"),
        ("id LIKE '_'", "a b c d e f g h i j"), ("place LIKE '%\\%%'", ""),
        // BETWEEN and IN
        ("mag BETWEEN 2 AND 5", "f g h b j"), ("mag NOT BETWEEN 2 AND 5", "a c e i"), ("depth BETWEEN 0 AND 10", "a d f g"),
        ("mag IN (1.2, 7.1)", "a i"), ("net IN ('us', 'ak')", "b c g i j"), ("id NOT IN ('a', 'b', 'c')", "d e f g h i j"),
        // NULL and three-valued logic
        ("mag IS NULL", "d"), ("mag IS NOT NULL", "a b c e f g h i j"), ("depth IS NULL", "h"), ("net IS NULL", "h"),
        ("NOT (mag > 4)", "a e f h"), ("NOT (mag > 4) OR mag IS NULL", "a d e f h"), ("place IS NULL", "j"),
        ("mag > 4 OR depth < 2", "b c d e f g i j"), ("NOT (net = 'us')", "a d e f g"),
        // time
        ("time >= TIMESTAMP('2024-05-03T00:00:00Z')", "e f g h i j"), ("time < TIMESTAMP('2024-05-01T12:30:00Z')", "a"),
        ("time = TIMESTAMP('2024-05-02T09:15:00.5Z')", "d"),
        ("time >= TIMESTAMP('2024-05-06T23:59:59.999Z') AND time < DATE('2024-05-07')", "i"),
        // a DATE is its whole UTC day, as a bare date is for `--until` and `datetime`
        ("time > DATE('2024-05-06')", "j"), ("time >= DATE('2024-05-06')", "i j"), ("time <= DATE('2024-05-01')", "a b"),
        ("time < DATE('2024-05-02')", "a b"), ("time = DATE('2024-05-03')", "e f"), ("time <> DATE('2024-05-03')", "a b c d g h i j"),
        ("DATE('2024-05-06') < time", "j"), ("DATE('2024-05-01') >= time", "a b"),
        ("time BETWEEN DATE('2024-05-02') AND DATE('2024-05-03')", "c d e f"),
        ("time NOT BETWEEN DATE('2024-05-02') AND DATE('2024-05-03')", "a b g h i j"),
        ("time BETWEEN TIMESTAMP('2024-05-03T15:00:00Z') AND DATE('2024-05-04')", "f g"),
        ("time IN (DATE('2024-05-01'), DATE('2024-05-06'))", "a b i"),
        ("time IN (DATE('2024-05-05'), TIMESTAMP('2024-05-07T00:00:00Z'))", "h j"),
        ("time NOT IN (DATE('2024-05-01'), DATE('2024-05-02'))", "e f g h i j"),
        // spatial, across the antimeridian
        ("S_INTERSECTS(geometry, BBOX(170, -30, -170, -10))", "b c"), ("S_INTERSECTS(BBOX(-180,-90,0,90), geometry)", "a c d e f g h i"),
        ("S_DISJOINT(geometry, BBOX(-130, 30, -110, 50))", "b c e g h i j"), ("S_WITHIN(geometry, BBOX(-180, 60, 180, 90))", "g j"),
        ("S_INTERSECTS(geometry, POINT(0 0))", "h"), ("S_DISJOINT(POINT(-70.6 -33.4), geometry)", "a b c d e f g h j"), ("S_INTERSECTS(geometry, BBOX(179, 89, -179, 90))", "j"),
        // structure, precedence, arithmetic, booleans
        ("mag > 4 AND net = 'us' AND depth > 100", "c j"), ("mag > 6 OR mag < 0 AND depth < 0", "c e i"),
        ("(mag > 6 OR mag < 0) AND depth < 0", "e"), ("NOT NOT mag > 6", "c i"), ("TRUE", "a b c d e f g h i j"),
        ("FALSE OR id = 'a'", "a"), ("mag * 2 > 12", "c i"), ("mag + 1 >= 6", "c g i"), ("depth / 10 = 3.5", "b"),
        ("-mag > 0", "e"), ("mag - -1 = 2.2", "a"), ("(depth) % 2 = 1", "a b i"),
        // CQL2's sign may be '+': what a client's '%2B' arrives as
        ("mag >= +6", "c i"), ("mag + +1 >= 6", "c g i"), ("S_INTERSECTS(geometry, BBOX(+170, -30, -170, -10))", "b c"),
        ("mAg >= 7 aNd NeT = 'us'", "i"), ("\"mag\" > 7", "i"),
    ]

    @Test(arguments: table)
    func selectsExactlyTheExpectedEvents(_ expression: String, _ expected: String) throws {
        let filter = try CQLFilter(expression)
        let selected = Self.catalogue.filter(filter.matches).map(\.id).sorted()
        #expect(selected == expected.split(separator: " ").map(String.init).sorted(), "\(expression)")
    }

    @Test func theTableIsLargeEnough() {
        #expect(Self.table.count >= 60)
    }

    static let errors: [(String, Int, String)] = [
        ("", 1, "the expression is empty"),
        ("mag > 3 AND mag >=", 19, "expected a value after '>='"),
        ("mag >", 6, "expected a value after '>'"),
        ("magnitude > 5", 1, "unknown property 'magnitude'"),
        ("mag > 'big'", 7, "cannot compare mag (a number) with a string"),
        ("place > 5", 9, "cannot compare place (a string) with a number"),
        ("time > 5", 8, "cannot compare time (a timestamp) with a number"),
        ("place = 'open", 9, "a string opened here is never closed"),
        ("mag > 5 AND", 12, "expected a predicate after 'AND'"),
        ("mag > 5 mag < 6", 9, "unexpected 'mag' after a complete expression"),
        ("(mag > 5", 9, "expected ')'"),
        ("mag BETWEEN 1 5", 15, "expected AND in BETWEEN"),
        ("mag IN 1, 2", 8, "expected '(' after IN"),
        ("mag IS 5", 8, "expected NULL after IS"),
        ("mag LIKE '%5'", 1, "LIKE needs a string, not a number"),
        ("place LIKE 5", 12, "a LIKE pattern must be a string"),
        ("time > TIMESTAMP('yesterday')", 18, "'yesterday' is not a timestamp"),
        ("time > DATE('2024-13-01')", 13, "'2024-13-01' is not a date"),
        ("S_INTERSECTS(geometry, BBOX(1,2,3))", 24, "BBOX takes 4 numbers"),
        ("S_INTERSECTS(geometry, BBOX(0,10,20,5))", 24, "BBOX: south 10.0 must be below north 5.0"),
        ("S_INTERSECTS(geometry, CIRCLE(1))", 24, "unknown geometry 'CIRCLE'"),
        ("FOO(mag) > 1", 1, "unknown function 'FOO'"),
        ("mag > 5 # 3", 9, "unexpected character '#'"),
        ("place + 1 = 2", 7, "'+' works on numbers only"),
        ("place = +'x'", 9, "'+' works on numbers only"),
        ("NOT", 4, "expected a predicate after 'NOT'"),
        ("mag NOT = 5", 9, "expected LIKE, BETWEEN or IN after NOT"),
        ("mag > AND", 7, "expected a value, found the keyword AND"),
    ]

    @Test(arguments: errors)
    func errorsPointAtTheirColumn(_ expression: String, _ column: Int, _ reason: String) {
        do {
            _ = try CQLFilter(expression)
            Issue.record("'\(expression)' parsed, but should fail")
        } catch let error as CQLError {
            #expect(error.column == column, "\(expression): \(error.message)")
            #expect(error.reason.contains(reason), "\(expression): \(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "(", count: 10_000) + "mag > 1" + String(repeating: ")", count: 10_000)
        #expect(throws: CQLError.self) { try CQLFilter(deep) }
        let negations = String(repeating: "NOT ", count: 10_000) + "mag > 1"
        #expect(throws: CQLError.self) { try CQLFilter(negations) }
    }

    @Test func filtersAreValuesThatCompose() throws {
        let a = try CQLFilter("mag > 4"), b = try CQLFilter("mag > 4")
        #expect(a == b)
        let combined = CQLFilter(expression: .and(a.expression, try CQLFilter("net = 'us'").expression))
        #expect(Self.catalogue.filter(combined.matches).map(\.id) == ["b", "c", "i", "j"])
    }
}
