import Foundation
import QuakeKit

/// The command line's value parsers: `--region`/`--bbox` (GeoBox(parsing:))
/// on the text before the first newline, `--since`/`--until`
/// (TimeBound.parse) on the text after it. Without a newline both get it all.
/// A box that parses also goes where `render --region` sends it: MapOptions.
enum Harness {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static let verbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] != nil

    static func run(_ input: Data) {
        let newline = input.firstIndex(of: 0x0A)
        let boxText = String(decoding: newline.map { input[..<$0] } ?? input[...], as: UTF8.self)
        let timeText = String(decoding: newline.map { input[($0 + 1)...] } ?? input[...], as: UTF8.self)

        if verbose {
            print("box \(boxText.debugDescription): \(Result { try GeoBox(parsing: boxText) })")
            print("time \(timeText.debugDescription): \(Result { try TimeBound.parse(timeText, now: now) })")
        }
        if let box = try? GeoBox(parsing: boxText) {
            check(box.west.isFinite && box.east.isFinite && abs(box.west) <= 180 && abs(box.east) <= 180,
                  "box west \(box.west) east \(box.east)")
            check(abs(box.south) <= 90 && abs(box.north) <= 90 && box.south < box.north,
                  "box south \(box.south) north \(box.north)")
            // Known finding (reported): west 180, east -180 (the same meridian)
            // passes the "west = east: no width" check and gives a box of
            // span 0. Not flagged here, so that the report shows what it does
            // to MapOptions below (a trap), as any too-thin box does.
            let knownZeroWidth = abs(box.west) == 180 && box.west == -box.east
            check(box.longitudeSpan > 0 || knownZeroWidth, "box span \(box.longitudeSpan)")
            check(box.longitudeSpan <= 360, "box span \(box.longitudeSpan)")
            check(box.contains(latitude: box.south, longitude: box.west), "box does not contain its south-west corner")
            check(box.contains(latitude: box.north, longitude: box.east), "box does not contain its north-east corner")
            _ = box.contains(latitude: 0, longitude: 180)
            _ = box.contains(latitude: 0, longitude: -180)
            // What `quakemap render --region` does next with the box: the
            // default height from its aspect ratio, then the projection.
            let options = MapOptions(width: 2048, region: box)
            _ = options.projection.project(latitude: box.south, longitude: box.east)
        }
        if let date = try? TimeBound.parse(timeText, now: now) {
            _ = date.timeIntervalSince1970
        }
    }

    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("invariant: \(message())") }
    }
}
