import Foundation
import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

/// Every input of the fuzzers' corpora through the code each fuzzer drives: the readers
/// lenient and strict, the selection and every list format; the CQL2 parser and evaluator; the
/// box and time parsers. `make test` writes the seed corpora (`Fuzz/make_corpus.py`) and names
/// them in `QUAKEMAP_FUZZ_CORPUS` (folders separated by `:`; a grown working corpus such as
/// `Fuzz/.corpus` may be added). Under AddressSanitizer (`make test-sanitize`) this replays
/// what the fuzzers found interesting against the unsafe code, without building them.
/// The corpus folders, each with a folder per fuzzer.
let fuzzCorpora: [URL]? = ProcessInfo.processInfo.environment["QUAKEMAP_FUZZ_CORPUS"]
    .map { $0.split(separator: ":").map { URL(fileURLWithPath: String($0)) } }

@Suite("Fuzz corpus replay", .timeLimit(.minutes(10)),
       .enabled(if: fuzzCorpora != nil, "QUAKEMAP_FUZZ_CORPUS is not set: make test writes the seeds and sets it"))
struct FuzzCorpusReplayTests {

    static func inputs(_ folder: URL, _ fuzzer: String) -> [Data] {
        let directory = folder.appendingPathComponent(fuzzer)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { try? Data(contentsOf: directory.appendingPathComponent($0)) }
    }

    @Test func everyCorpusInputIsReadRefusedOrWrittenWithoutHarm() throws {
        let folders = try #require(fuzzCorpora)
        var replayed = 0
        for fuzzer in ["fuzz-csv", "fuzz-geojson", "fuzz-fdsntext", "fuzz-quakeml", "fuzz-cql", "fuzz-arguments"] {
            #expect(!Self.inputs(folders[0], fuzzer).isEmpty, "no seeds for \(fuzzer)")
        }
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
        #expect(replayed >= 6)
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
