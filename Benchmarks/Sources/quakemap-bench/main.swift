// Times each stage of the pipeline in one process on one feed: reading the file,
// parsing (from memory, so the parser's own speed shows), selecting, building the
// scene, drawing and encoding, the streamed list. Prints the median of RUNS runs of
// each stage, and checks the streamed list against the one built in memory.
//
// usage: quakemap-bench FEED.csv [RUNS] [STAGES]
//        quakemap-bench estimators [RUNS] [MAGNITUDES.bin]   (see Estimators.swift)
// STAGES `parse` stops after the parsing stages, `whole` after parsing whole
// events, for profiling them alone.
import Foundation
import QuakeKit

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: quakemap-bench FEED.csv [RUNS]\n".utf8))
    exit(64)
}
let path = arguments[1]
let runs = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 3) : 3
let stopAfter = arguments.count > 3 ? arguments[3] : ""
if path == "estimators" {
    // The statistics estimators on synthetic magnitudes (Estimators.swift); no feed is read.
    try runEstimatorBenchmark(runs: runs, output: arguments.count > 3 ? arguments[3] : "/tmp/quakemap-estimators.bin")
    exit(0)
}

/// A line of /proc/self/status in KiB (`VmRSS`, `VmHWM`); `nil` where there is none (not Linux).
func statusKiB(_ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).dropLast(3)
            .trimmingCharacters(in: .whitespaces))
    }
    return nil
}

/// What one stage took: the median wall time of its runs, the peak resident
/// memory of the process while they ran and how far it rose above the
/// resident memory at their start (MiB; Linux resets the peak through
/// /proc/self/clear_refs), and the last result.
struct Measured<T> {
    let seconds: Double
    let peak: Int?
    let rise: Int?
    let result: T
}

func measure<T>(_ body: () throws -> T) rethrows -> Measured<T> {
    if let reset = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
        reset.write(Data("5".utf8))
        try? reset.close()
    }
    let before = statusKiB("VmRSS")
    var times: [Double] = []
    var result: T?
    for _ in 0..<runs {
        let start = ContinuousClock.now
        result = try body()
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    let peak = statusKiB("VmHWM")
    return Measured(seconds: times.sorted()[times.count / 2], peak: peak.map { $0 / 1024 },
                    rise: peak.flatMap { peak in before.map { max(0, peak - $0) / 1024 } }, result: result!)
}

func row<T>(_ stage: String, _ measured: Measured<T>, _ note: String = "") {
    let memory = measured.peak.map { peak in
        String(format: "%5d MiB peak", peak) + (measured.rise.map { String(format: " (+%d)", $0) } ?? "")
    } ?? "memory n/a"
    print(stage.padding(toLength: 46, withPad: " ", startingAt: 0)
          + String(format: "%9.1f ms  ", measured.seconds * 1000)
          + memory.padding(toLength: 22, withPad: " ", startingAt: 0) + (note.isEmpty ? "" : " " + note))
}

let options = FeedOptions(now: Date(timeIntervalSince1970: 4_000_000_000))
let read = measure { FileManager.default.contents(atPath: path) ?? Data() }
let data = read.result
let megabytes = Double(data.count) / 1e6
print("\(path): \(data.count) bytes, \(ProcessInfo.processInfo.activeProcessorCount) cores available to this process")
row("read the file", read, String(format: "%.0f MB/s", megabytes / read.seconds))

let parse = try measure {
    var events = 0
    let summary = try FeedReader(options: options).read(.bytes(data, name: path)) { _ in events += 1 }
    return (events, summary.rows)
}
row("parse whole events (from memory, all strings)", parse,
    String(format: "%.0f MB/s, %.2f M rows/s", megabytes / parse.seconds, Double(parse.result.1) / parse.seconds / 1e6))
if stopAfter == "whole" { exit(0) }

let recent = try measure { try QuakeMap.select(from: .bytes(data, name: path), feed: options, as: MapEvent.self) }
row("parse map fields + select the 300 most recent", recent,
    String(format: "%.0f MB/s, ", megabytes / recent.seconds) + "\(recent.result.events.count) kept")

let everything = try measure {
    try QuakeMap.select(from: .bytes(data, name: path), feed: options, selection: EventSelection(limit: nil), as: MapEvent.self)
}
row("parse + keep all (map events)", everything,
    String(format: "%.0f MB/s, ", megabytes / everything.seconds) + "\(everything.result.events.count) kept")
if stopAfter == "parse" { exit(0) }

let mapOptions = MapOptions(basemap: .none)
let scene = measure { SceneBuilder(options: mapOptions).scene(for: everything.result.events) }
row("scene for all (sort, project, colour)", scene,
    String(format: "%.2f M circles/s, ", Double(scene.result.circles.count) / scene.seconds / 1e6)
        + "\(scene.result.circles.count) circles")

let image = try measure { try MapRenderer().image(for: scene.result) }
row("draw all (stamped circles, to RGBA)", image,
    String(format: "%.2f M circles/s, ", Double(scene.result.circles.count) / image.seconds / 1e6)
        + "\(image.result.width)×\(image.result.height)")

let png = try measure { try MapRenderer().pngData(for: scene.result) }
row("draw all + encode PNG", png, "\(png.result.count) bytes")

let small = SceneBuilder(options: mapOptions).scene(for: recent.result.events)
let smallPNG = try measure { try MapRenderer().pngData(for: small) }
row("draw 300 + encode PNG (the default job's map)", smallPNG, "\(smallPNG.result.count) bytes")

// `list --limit 0` streams: the streamed CSV must be byte for byte the list built in memory
// (every event kept, sorted, encoded), here on the whole feed; the in-memory one takes
// seconds and hundreds of MiB, so once, after the timed stages.
do {
    let source = FeedSource.bytes(data, name: path)
    let streamed = try measure { try EventListSpool(from: source, feed: options, format: .csv).data() }
    row("list --limit 0 as CSV, streamed", streamed, "\(streamed.result.count) bytes")
    let selected = try QuakeMap.select(from: source, feed: options, selection: EventSelection(limit: nil)).events
    let inMemory = try EventListEncoder().encode(selected, as: .csv)
    print("the streamed list is \(inMemory == streamed.result ? "byte-identical to" : "NOT the same as") "
          + "the in-memory one (\(selected.count) events)")
    if inMemory != streamed.result { exit(1) }
}
