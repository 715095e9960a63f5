import Testing
@testable import QuakeServer
import HTTPTypes

/// Query strings as clients encode them (application/x-www-form-urlencoded).
@Suite(.timeLimit(.minutes(10))) struct FormQueryTests {
    private func decoded(_ query: String) throws -> [String] {
        try FormQuery.parameters(Substring(query)).map { "\($0.name)=\($0.value)" }
    }

    @Test func plusIsASpaceAndEscapedPlusIsAPlus() throws {
        #expect(try decoded("filter=mag+%3E%3D+4.5+AND+depth+%3C+70") == ["filter=mag >= 4.5 AND depth < 70"])
        #expect(try decoded("datetime=2024-05-01T00:00:00%2B02:00/..") == ["datetime=2024-05-01T00:00:00+02:00/.."])
        #expect(try decoded("a+b=c%20d") == ["a b=c d"])
    }

    @Test func escapesAreUTF8AndHexMayBeEitherCase() throws {
        #expect(try decoded("place=S%C3%A3o+Paulo&x=%e2%80%93") == ["place=São Paulo", "x=–"])
    }

    @Test func emptyPiecesAndBareNames() throws {
        #expect(try decoded("&a=1&&b=&c&=d&") == ["a=1", "b=", "c=", "=d"])
        #expect(try decoded("filter=a=b") == ["filter=a=b"])
        #expect(try decoded("") == [])
    }

    @Test(arguments: [
        ("filter=mag%zz3", "filter", "'%zz'"), ("filter=%", "filter", "'%'"), ("filter=mag%3", "filter", "'%3'"),
        ("limit=5&bbox=1,2,3,4%G0", "bbox", "'%G0'"), ("fil%ter=1", "fil%ter", "name"),
    ])
    func badEscapesNameTheParameter(_ query: String, _ parameter: String, _ shown: String) {
        let error = #expect(throws: Problem.self) { try FormQuery.parameters(Substring(query)) }
        #expect(error?.parameter == parameter)
        #expect(error?.status == .badRequest)
        #expect(error?.detail.contains(shown) == true, "\(error?.detail ?? "")")
    }

    @Test func escapesThatAreNotUTF8AreRefused() {
        let error = #expect(throws: Problem.self) { try FormQuery.parameters("place=%FF%FE") }
        #expect(error?.parameter == "place")
        #expect(error?.detail.contains("not UTF-8") == true)
    }
}
