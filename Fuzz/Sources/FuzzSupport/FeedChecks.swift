import Foundation
import QuakeKit

/// Reads a feed the ways the CLI does and checks what QuakeKit documents about
/// the results. A broken promise stops the fuzzer like a crash would
/// (`fatalError`), with the promise in the message; a feed that is merely
/// refused (any thrown error) is fine.
public enum FeedChecks {
    /// The Pacific, a box crossing the antimeridian (the README's example).
    static let pacific = try! GeoBox(west: 120, south: -60, east: -60, north: 60)

    /// `FUZZ_VERBOSE=1`: print what each input gave (to check seeds by hand:
    /// `FUZZ_VERBOSE=1 .build/release/fuzz-csv .corpus/fuzz-csv/seed-*`).
    public static let verbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] != nil

    public static func exercise(_ data: Data) {
        let source = FeedSource.bytes(data, name: "fuzz")
        if verbose {
            do {
                let summary = try FeedReader().read(source) { _ in }
                print("rows \(summary.rows), events \(summary.events), without magnitude \(summary.withoutMagnitude), "
                      + "rejected \(summary.rejected): \(summary.rejections.map { "\($0)" })")
            } catch {
                print("error: \(error)")
            }
        }

        // 1. Lenient (the default): bad rows are counted and skipped.
        var events: [SeismicEvent] = []
        let lenient = try? FeedReader().read(source) { events.append($0) }
        if let lenient {
            for event in events { checkEvent(event) }
            check(lenient.rows == lenient.events + lenient.withoutMagnitude + lenient.rejected,
                  "summary: rows \(lenient.rows) != events \(lenient.events) + without magnitude \(lenient.withoutMagnitude) + rejected \(lenient.rejected)")
            check(lenient.events + lenient.withoutMagnitude == events.count,
                  "summary counts \(lenient.events)+\(lenient.withoutMagnitude) events, the body saw \(events.count)")
            check(lenient.rejections.count == min(lenient.rejected, FeedOptions().maximumReportedRejections),
                  "summary keeps \(lenient.rejections.count) rejections of \(lenient.rejected)")
            writeBack(events, generated: lenient.generated)
        }

        // 2. Strict: stops at the first rejected row; otherwise the same reading.
        let strict = try? FeedReader(options: FeedOptions(strict: true)).read(source) { _ in }
        if let strict {
            check(strict.rejected == 0, "strict mode succeeded with \(strict.rejected) rejections")
            check(lenient != nil && lenient!.rows == strict.rows && lenient!.events == strict.events,
                  "strict read succeeded (rows \(strict.rows)) but lenient gave \(String(describing: lenient.map { ($0.rows, $0.events) }))")
        } else if let lenient, lenient.rejected == 0 {
            fatalError("invariant: lenient read rejected nothing (rows \(lenient.rows)) but strict read failed")
        }

        // 3. The selection pipeline, with a limit, and with a region.
        for selection in [EventSelection(limit: 3), EventSelection(limit: 2, region: pacific)] {
            guard let selected = try? QuakeMap.select(from: source, selection: selection) else { continue }
            let kept = selected.events
            check(kept.count <= selection.limit!, "selected \(kept.count) events with limit \(selection.limit!)")
            check(kept.count <= selected.summary.events, "selected \(kept.count) of \(selected.summary.events) events with a magnitude")
            var ids: Set<String> = []
            for (index, event) in kept.enumerated() {
                checkEvent(event)
                check(event.magnitude != nil, "an event without magnitude was selected")
                if index > 0 { check(kept[index - 1].time >= event.time, "selection is not most recent first") }
                if let region = selection.region {
                    check(region.contains(latitude: event.latitude, longitude: event.longitude),
                          "selected event at \(event.latitude),\(event.longitude) is outside the region")
                }
                if !event.id.isEmpty { check(ids.insert(event.id).inserted, "id \(event.id) selected twice") }
            }
        }
    }

    /// What the reader accepted, the library can write: every list format
    /// (the CLI's `list`/`export`), the feed's generation time as the CLI
    /// prints it, and the GeoJSON, which ``EventListFormat/geojson`` documents
    /// that ``FeedReader`` "reads back to the same events".
    static func writeBack(_ events: [SeismicEvent], generated: Date?) {
        if let generated { _ = QuakeMap.timestamp(generated) }
        guard !events.isEmpty else { return }
        let encoder = EventListEncoder()
        for format in EventListFormat.allCases {
            do { _ = try encoder.encode(events, as: format) } catch {
                fatalError("invariant: encoding \(events.count) read events as \(format) failed: \(error)")
            }
        }
        var again: [SeismicEvent] = []
        do {
            let geojson = try encoder.encode(events, as: .geojson)
            _ = try FeedReader().read(.bytes(geojson, name: "round trip")) { again.append($0) }
        } catch {
            fatalError("invariant: the GeoJSON written for \(events.count) read events does not read back: \(error)")
        }
        check(again.count == events.count, "GeoJSON round trip: \(events.count) events became \(again.count)")
        checkTextRoundTrip(events)
        // Two known, reported differences are tolerated, so that fuzzing goes
        // on past them: Foundation's JSONSerialization (which the GeoJSON reader
        // uses) reads some 17-digit numbers a few ulps off and "-0" as 0, and it
        // drops a U+FEFF that opens a JSON string or follows an escape.
        func same(_ a: Double?, _ b: Double?) -> Bool {
            guard let a, let b else { return a == nil && b == nil }
            return abs(a - b) <= 1e-12 * max(1, abs(a))
        }
        func same(_ a: String?, _ b: String?) -> Bool {
            a.map { $0.replacingOccurrences(of: "\u{FEFF}", with: "") } == b.map { $0.replacingOccurrences(of: "\u{FEFF}", with: "") }
        }
        func same(_ a: Date?, _ b: Date?) -> Bool {  // written in whole milliseconds
            guard let a, let b else { return a == nil && b == nil }
            return abs(a.timeIntervalSince1970 - b.timeIntervalSince1970) <= max(0.001, 1e-12 * abs(a.timeIntervalSince1970))
        }
        for (event, back) in zip(events, again) {
            let sameValues = same(event.id, back.id) && same(event.latitude, back.latitude)
                && same(event.longitude, back.longitude) && same(event.depth, back.depth)
                && same(event.magnitude, back.magnitude) && same(event.magnitudeType, back.magnitudeType)
                && same(event.place, back.place) && same(event.eventType, back.eventType)
                && same(event.network, back.network) && same(event.status, back.status)
            check(sameValues && same(event.time, back.time) && same(event.updated, back.updated),
                  "GeoJSON round trip changed an event: read \(event) re-read \(back)".replacingOccurrences(of: "\n", with: "\\n"))
        }
    }

    /// The FDSN text that ``EventListFormat/text`` writes reads back to the
    /// same events: numbers exactly (shortest round-trip text, QuakeKit's own
    /// decimal reader), times to the millisecond, texts as the writer
    /// documents them (`|` to `/`, C0 controls, DEL, U+0085, U+2028 and
    /// U+2029 to a space) and as every reader trims them (blanks at the ends,
    /// byte order marks), the network through `Contributor`.
    static func checkTextRoundTrip(_ events: [SeismicEvent]) {
        var again: [SeismicEvent] = []
        let summary: FeedSummary
        do {
            let text = try EventListEncoder().encode(events, as: .text)
            summary = try FeedReader(options: FeedOptions(strict: true)).read(.bytes(text, name: "text round trip")) {
                again.append($0)
            }
        } catch {
            fatalError("invariant: the FDSN text written for \(events.count) read events does not read back: \(error)")
        }
        check(summary.rows == events.count && again.count == events.count,
              "FDSN text round trip: \(events.count) events became \(again.count) (rows \(summary.rows))")
        func written(_ text: String?) -> String? {
            guard let text else { return nil }
            let scalars = text.unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
                if scalar == "\u{FEFF}" { return nil }
                if scalar == "|" { return "/" }
                let value = scalar.value
                return value < 0x20 || value == 0x7F || value == 0x85 || value == 0x2028 || value == 0x2029 ? " " : scalar
            }
            var trimmed = Substring(String(String.UnicodeScalarView(scalars)))
            while trimmed.first == " " { trimmed.removeFirst() }
            while trimmed.last == " " { trimmed.removeLast() }
            return trimmed.isEmpty ? nil : String(trimmed)
        }
        for (event, back) in zip(events, again) {
            let sameValues = (written(event.id) ?? "") == back.id && event.latitude == back.latitude
                && event.longitude == back.longitude && event.depth == back.depth && event.magnitude == back.magnitude
                && written(event.magnitudeType) == back.magnitudeType && (written(event.place) ?? "") == back.place
                && (written(event.eventType) ?? "earthquake") == back.eventType && written(event.network) == back.network
                && abs(event.time.timeIntervalSince(back.time)) <= 0.0005
            check(sameValues, "FDSN text round trip changed an event: read \(event) re-read \(back)"
                .replacingOccurrences(of: "\n", with: "\\n"))
        }
    }

    /// What ``SeismicEvent`` documents: coordinates finite and in range, a
    /// non-empty event type, finite numbers.
    static func checkEvent(_ event: SeismicEvent) {
        check(event.latitude.isFinite && abs(event.latitude) <= 90, "latitude \(event.latitude)")
        check(event.longitude.isFinite && abs(event.longitude) <= 180, "longitude \(event.longitude)")
        check(event.depth.map(\.isFinite) ?? true, "depth \(String(describing: event.depth))")
        check(event.magnitude.map(\.isFinite) ?? true, "magnitude \(String(describing: event.magnitude))")
        check(!event.eventType.isEmpty, "empty event type")
    }

    public static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fatalError("invariant: \(message())") }
    }
}
