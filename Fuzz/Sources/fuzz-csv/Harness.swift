import Foundation
import FuzzSupport

/// The CSV feed reader (every era's layout), lenient and strict, and the
/// selection pipeline. Inputs that would be taken as JSON get a CSV header
/// in front, so this fuzzer stays on the CSV path.
enum Harness {
    static let header = Data("time,latitude,longitude,depth,mag\n".utf8)

    static func run(_ input: Data) {
        // The reader tells GeoJSON by its first byte that is not blank (blanks
        // include the bytes of a UTF-8 BOM); '[' is refused as a JSON array.
        let first = input.first { !$0.isFeedBlank }
        FeedChecks.exercise(first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? header + input : input)
    }
}

private extension UInt8 {
    var isFeedBlank: Bool { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains(self) }
}
