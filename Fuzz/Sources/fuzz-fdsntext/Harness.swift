import Foundation
import FuzzSupport

/// The FDSN event text reader (`#EventID|Time|…`), lenient and strict, and
/// the selection pipeline. Inputs that do not open with a `#` line get the
/// FDSN text header in front, so this fuzzer stays on the pipe-separated path.
enum Harness {
    static let header = Data(
        "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType\n".utf8)

    static func run(_ input: Data) {
        // The reader takes a first line opening with '#' (after blanks and a
        // BOM) for FDSN text when its names include EventID; else for CSV.
        let first = input.first { !$0.isFeedBlank }
        FeedChecks.exercise(first == UInt8(ascii: "#") ? input : header + input)
    }
}

private extension UInt8 {
    var isFeedBlank: Bool { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains(self) }
}
