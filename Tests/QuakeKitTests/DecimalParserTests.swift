import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

@Suite("Decimal numbers", .timeLimit(.minutes(10)))
struct DecimalParserTests {
    @Test(arguments: [
        ("4.5", 4.5), ("-1.64", -1.64), (" 41", 41), ("+3", 3), ("0", 0), ("-0.0", 0),
        ("33.9766667", 33.9766667), ("-116.8666667", -116.8666667),
        ("40.8283333333333", 40.8283333333333), ("1.5e2", 150), ("0.1", 0.1),
        ("123456789012345678901", 123456789012345678901.0),
    ])
    func parsesLikeTheStandardLibrary(_ text: String, _ expected: Double) {
        #expect(DecimalParser.parse(ArraySlice(text.utf8)) == .value(expected))
    }

    /// Zeros in front change nothing, however many: the fast path counts
    /// significant digits, and padding must not send a number to the slow
    /// path's length limit.
    @Test func zeroPaddingIsNoDigit() {
        let padded = String(repeating: "0", count: 401) + "1.5"
        #expect(DecimalParser.parse(ArraySlice(padded.utf8)) == .value(1.5))
        #expect(DecimalParser.parse(ArraySlice("0.000000000000000000123".utf8)) == .value(1.23e-19))
        #expect(DecimalParser.parse(ArraySlice("-000000000000000012.25".utf8)) == .value(-12.25))
    }

    @Test(arguments: ["abc", "1.2.3", "12abc", "-", ".", "0x1p3", "1,5", "4.5 M"])
    func rejectsWhatIsNotADecimal(_ text: String) {
        #expect(DecimalParser.parse(ArraySlice(text.utf8)) == .notANumber)
    }

    @Test(arguments: ["nan", "NaN", "inf", "-Infinity", "1e400"])
    func rejectsWhatIsNotFinite(_ text: String) {
        #expect(DecimalParser.parse(ArraySlice(text.utf8)) == .notFinite)
    }

    @Test func emptyAndBlankAreEmpty() {
        #expect(DecimalParser.parse(ArraySlice("".utf8)) == .empty)
        #expect(DecimalParser.parse(ArraySlice("  ".utf8)) == .empty)
    }

    /// Random decimals of 1 to 20 digits, signs and points anywhere: the fast
    /// path (up to 15 digits) and the slow one must both round as the standard library does.
    @Test func randomDecimalsMatchTheStandardLibrary() {
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<20_000 {
            let count = 1 + next(20)
            var digits = (0..<count).map { _ in Character(String(next(10))) }
            if next(4) == 0 { digits.insert(contentsOf: Array(repeating: "0", count: next(30)), at: 0) }
            if next(3) > 0 { digits.insert(".", at: next(count + 1)) }
            let text = ["", "-", "+"][next(3)] + String(digits)
            let expected = Double(text.hasPrefix("+") ? String(text.dropFirst()) : text)
            guard let expected else { continue }
            #expect(DecimalParser.parse(ArraySlice(text.utf8)) == .value(expected), "\(text)")
        }
    }
}
