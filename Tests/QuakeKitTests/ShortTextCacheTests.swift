import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

@Suite("Short text cache", .timeLimit(.minutes(10)))
struct ShortTextCacheTests {
    /// Every length up to 17 bytes, values that differ in one byte anywhere
    /// (so words that overlap must still tell them apart), asked for in turn
    /// and again: the string of the bytes, or nil past 16 bytes or for non-ASCII.
    @Test func givesTheStringOfTheBytes() {
        var cache = ShortTextCache()
        var values: [[UInt8]] = []
        for length in 1...17 {
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            values.append(plain)
            for position in 0..<length {
                var changed = plain
                changed[position] = UInt8(ascii: "b")
                values.append(changed)
            }
        }
        values.append(Array("é".utf8))
        for round in 0..<2 {
            for value in values {
                let got = value.withUnsafeBytes { cache.string($0) }
                let ascii = value.allSatisfy { $0 < 0x80 }
                let expected: String? = value.count <= 16 && ascii ? String(decoding: value, as: UTF8.self) : nil
                #expect(got == expected, "round \(round): \(value)")
            }
        }
    }
}
