import Foundation
import FuzzSupport

/// The GeoJSON summary feed reader (JSONSerialization plus QuakeKit's mapping
/// and checks), lenient and strict, and the selection pipeline. Inputs that
/// do not open with '{' get the start of a FeatureCollection in front and no
/// end: the fuzzer finds the structure.
enum Harness {
    static let prefix = Data(#"{"type":"FeatureCollection","features":["#.utf8)

    static func run(_ input: Data) {
        FeedChecks.exercise(input.first == UInt8(ascii: "{") ? input : prefix + input)
    }
}
