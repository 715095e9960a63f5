import Foundation
import QuakeKit

/// The CQL2 text parser (`--where`), and when a filter parses, its evaluation
/// on a few fixed events: complete ones, one without magnitude or depth, ones
/// on the antimeridian and the poles, accented text for ACCENTI.
enum Harness {
    static let events: [SeismicEvent] = [
        SeismicEvent(id: "us7000abcd", time: Date(timeIntervalSince1970: 1_714_564_800), latitude: 35.7, longitude: -117.5,
                     depth: 10.2, magnitude: 4.5, magnitudeType: "mww", place: "12 km NNE of Ridgecrest, CA",
                     eventType: "earthquake", network: "us", updated: Date(timeIntervalSince1970: 1_714_565_000), status: "reviewed"),
        SeismicEvent(id: "", time: Date(timeIntervalSince1970: 0), latitude: 0, longitude: 0,
                     depth: nil, magnitude: nil, eventType: "quarry_blast"),
        SeismicEvent(id: "ci40513131", time: Date(timeIntervalSince1970: -2_208_988_800), latitude: -90, longitude: 180,
                     depth: -2.5, magnitude: 0, magnitudeType: "ml", place: "Río Ñuble, Chile", eventType: "Explosion",
                     network: "ci", status: "automatic"),
        SeismicEvent(id: "ak0249", time: Date(timeIntervalSince1970: 4_102_444_800), latitude: 90, longitude: -180,
                     depth: 700, magnitude: -1.5, magnitudeType: nil, place: "  ", eventType: "ice quake", network: nil),
    ]

    static let verbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] != nil

    static func run(_ input: Data) {
        let text = String(decoding: input, as: UTF8.self)
        if verbose {
            do { print("ok: \(try CQLFilter(text).expression)") } catch { print("error: \(error) in \(text)") }
        }
        guard let filter = try? CQLFilter(text) else { return }
        for event in events {
            _ = filter.matches(event)
            _ = EventFilter(cql: filter).matches(event)
        }
        // NOT of a filter: exercises the three-valued logic on the same tree.
        let negated = CQLFilter(expression: .not(filter.expression))
        for event in events where filter.matches(event) && negated.matches(event) {
            fatalError("invariant: a filter and its negation both hold for \(event.id)")
        }
    }
}
