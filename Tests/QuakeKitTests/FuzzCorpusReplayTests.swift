import Foundation
import Testing
@testable import QuakeKit

/// Every input of the fuzzers' seed corpora (written by `Fuzz/make_corpus.py`), and of a grown
/// working corpus when `QUAKEMAP_FUZZ_CORPUS` names one, through the code each fuzzer drives:
/// the readers lenient and strict, the selection and every list format; the CQL2 parser and
/// evaluator; the box and time parsers. Under AddressSanitizer (`make test-sanitize`) this
/// replays what the fuzzers found interesting against the unsafe code, without building them.
@Suite("Fuzz corpus replay", .timeLimit(.minutes(1)))
struct FuzzCorpusReplayTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The corpus folders: the seeds written afresh, and the grown corpus if named.
    static func corpora() throws -> [URL] {
        let seeds = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-corpus-\(UUID().uuidString)")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", repository.appendingPathComponent("Fuzz/make_corpus.py").path, seeds.path]
        try python.run()
        python.waitUntilExit()
        #expect(python.terminationStatus == 0, "Fuzz/make_corpus.py failed")
        var folders = [seeds]
        if let grown = ProcessInfo.processInfo.environment["QUAKEMAP_FUZZ_CORPUS"] { folders.append(URL(fileURLWithPath: grown)) }
        return folders
    }

    static func inputs(_ folder: URL, _ fuzzer: String) -> [Data] {
        let directory = folder.appendingPathComponent(fuzzer)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { try? Data(contentsOf: directory.appendingPathComponent($0)) }
    }

    @Test func everyCorpusInputIsReadRefusedOrWrittenWithoutHarm() throws {
        let folders = try Self.corpora()
        defer { try? FileManager.default.removeItem(at: folders[0]) }
        var replayed = 0
        for folder in folders {
            for fuzzer in ["fuzz-csv", "fuzz-geojson", "fuzz-fdsntext", "fuzz-quakeml"] {
                for input in Self.inputs(folder, fuzzer) {
                    Self.feed(input)
                    replayed += 1
                }
            }
            for input in Self.inputs(folder, "fuzz-cql") {
                if let filter = try? CQLFilter(String(decoding: input, as: UTF8.self)) {
                    _ = filter.matches(SeismicEvent(id: "us1", time: Date(timeIntervalSince1970: 0), latitude: 1, longitude: 2,
                                                    depth: 3, magnitude: 4, place: "Río"))
                }
                replayed += 1
            }
            for input in Self.inputs(folder, "fuzz-arguments") {
                let text = String(decoding: input, as: UTF8.self)
                _ = try? GeoBox(parsing: text)
                _ = try? TimeBound.parse(text, now: Date(timeIntervalSince1970: 1_700_000_000), as: .upper)
                replayed += 1
            }
        }
        // The seeds alone are well over a hundred inputs; fewer means the corpus was not written.
        #expect(replayed > 100, "replayed only \(replayed) inputs")
    }

    /// What the feed fuzzers do with an input, less their own invariant checks (the fuzzers keep those).
    static func feed(_ input: Data) {
        let source = FeedSource.bytes(input, name: "corpus")
        var events: [SeismicEvent] = []
        let lenient = try? FeedReader().read(source) { events.append($0) }
        _ = try? FeedReader(options: FeedOptions(strict: true)).read(source) { _ in }
        if let lenient {
            #expect(lenient.rows == lenient.events + lenient.withoutMagnitude + lenient.rejected)
        }
        _ = try? QuakeMap.select(from: source, selection: EventSelection(limit: 3))
        for format in EventListFormat.allCases {
            let written = try? EventListEncoder().encode(events, as: format)
            #expect(written != nil, "\(format) could not be written")
        }
    }
}
