import Foundation
import FuzzSupport
import QuakeKit

/// The QuakeML reader (libxml2's push parser, then QuakeKit's event
/// resolution and checks), lenient and strict, the selection pipeline, and
/// the QuakeML writer's round trip. Inputs that do not open with '<' get a
/// document's start and an open event in front and no end: the fuzzer finds
/// the structure.
enum Harness {
    static let prefix = Data("""
        <q:quakeml xmlns="http://quakeml.org/xmlns/bed/1.2" xmlns:catalog="http://anss.org/xmlns/catalog/0.1" \
        xmlns:q="http://quakeml.org/xmlns/quakeml/1.2"><eventParameters publicID="smi:f/p"><event publicID="smi:f/e">
        """.utf8)

    static func run(_ input: Data) {
        let data = input.first == UInt8(ascii: "<") ? input : prefix + input
        FeedChecks.exercise(data)
        roundTrip(data)
    }

    /// What was read, written as QuakeML, reads back to the same events: the
    /// writer's promise, bar what XML 1.0 cannot carry (control characters,
    /// U+FFFE, U+FFFF become U+FFFD), the review status and the magnitude
    /// type of an event without a magnitude (neither is written).
    static func roundTrip(_ data: Data) {
        var events: [SeismicEvent] = []
        guard (try? FeedReader().read(.bytes(data, name: "fuzz")) { events.append($0) }) != nil, !events.isEmpty else { return }
        let written: Data
        do { written = try EventListEncoder().encode(events, as: .quakeml) } catch {
            fatalError("invariant: encoding \(events.count) read events as QuakeML failed: \(error)")
        }
        var again: [SeismicEvent] = []
        do {
            _ = try FeedReader(options: FeedOptions(strict: true)).read(.bytes(written, name: "round trip")) { again.append($0) }
        } catch {
            fatalError("invariant: the QuakeML written for \(events.count) read events does not read back: \(error)")
        }
        FeedChecks.check(again.count == events.count, "QuakeML round trip: \(events.count) events became \(again.count)")
        func carried(_ text: String?) -> String? {
            text.map { String(String.UnicodeScalarView($0.unicodeScalars.map { scalar in
                scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF ? "\u{FFFD}" : scalar
            })) }
        }
        for (event, back) in zip(events, again) {
            var expected = event
            expected.status = nil
            expected.place = carried(event.place)!
            expected.magnitudeType = event.magnitude == nil ? nil : carried(event.magnitudeType)
            expected.eventType = EventType.quakeML(event.eventType)
            expected.network = carried(event.network)
            var got = back
            got.id = carried(back.id)!
            expected.id = carried(event.id)!
            FeedChecks.check(expected == got, "QuakeML round trip changed an event: read \(event) re-read \(back)"
                .replacingOccurrences(of: "\n", with: "\\n"))
        }
    }
}
