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

/// The fast reader (zero-copy windows, records decoded on all cores, file
/// reads carried over between windows) against a plain reader written for
/// this test: the whole file as bytes, one character at a time, numbers by
/// `Double(String)`, times by `ISO8601DateFormatter`. Every row must agree.
@Suite("Parser agreement", .timeLimit(.minutes(10)))
struct ParserAgreementTests {
    @Test(.enabled(if: RealFeeds.available, "../shared/data/usgs is not beside the repository: skipped"),
          arguments: ["all_month_2020-06.csv", "all_month_2022-03.csv", "all_month_2015-12_15col.csv",
                      "4.5_week_2020-04.csv", "significant_month_2024-05.csv"])
    func realFeedsAgree(_ file: String) throws {
        try expectAgreement(RealFeeds.folder + "/" + file)
    }

    /// The benchmark generator's mix (quoted places with commas, UTF-8, empty
    /// and negative magnitudes), 50,000 rows here; set QUAKEMAP_AGREEMENT_FEED
    /// to a bigger file (the 1 M-row benchmark feed) to check that too.
    @Test func generatedFeedAgrees() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-agreement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = folder.appendingPathComponent("generated.csv").path
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        generator.arguments = ["python3", Self.repository + "/Benchmarks/make_big_feed.py", feed, "50000r"]
        try generator.run()
        generator.waitUntilExit()
        try #require(generator.terminationStatus == 0)
        try expectAgreement(feed)
        if let extra = ProcessInfo.processInfo.environment["QUAKEMAP_AGREEMENT_FEED"] {
            try expectAgreement(extra)
        }
    }

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func expectAgreement(_ path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let expected = try ReferenceReader.events(bytes)
        let options = FeedOptions(now: Date(timeIntervalSince1970: 4_000_000_000))
        var fromFile: [SeismicEvent] = [], fromMemory: [SeismicEvent] = []
        let summary = try FeedReader(options: options).read(.file(path)) { fromFile.append($0) }
        _ = try FeedReader(options: options).read(.bytes(Data(bytes), name: path)) { fromMemory.append($0) }
        #expect(summary.rejected == 0, "\(summary.rejections.first?.message ?? "")")
        #expect(fromFile == fromMemory, "file and memory readers differ")
        try #require(fromFile.count == expected.count, "\(path): \(fromFile.count) events, the plain reader \(expected.count)")
        var mismatches = 0
        for (event, reference) in zip(fromFile, expected) where !reference.matches(event) {
            mismatches += 1
            if mismatches <= 3 { Issue.record("\(path): \(event) differs from \(reference)") }
        }
        #expect(mismatches == 0, "\(mismatches) of \(expected.count) rows differ")
    }
}

/// The straightforward reader.
private enum ReferenceReader {
    struct Row {
        var id: String, time: Date, latitude: Double, longitude: Double
        var depth: Double?, magnitude: Double?, place: String, type: String
        var magnitudeType: String?, network: String?, status: String?, updated: Date?

        func matches(_ event: SeismicEvent) -> Bool {
            event.id == id && abs(event.time.timeIntervalSince(time)) < 0.0005 && event.latitude == latitude
                && event.longitude == longitude && event.depth == depth && event.magnitude == magnitude
                && event.place == place && event.eventType == type && event.magnitudeType == magnitudeType
                && event.network == network && event.status == status
                && (event.updated == nil) == (updated == nil)
                && abs((event.updated ?? .distantPast).timeIntervalSince(updated ?? .distantPast)) < 0.0005
        }
    }

    static func records(_ bytes: [UInt8]) -> [[String]] {
        var records: [[String]] = [], fields: [String] = [], field: [UInt8] = []
        var inQuotes = false, fieldStarted = false
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field = []
            fieldStarted = false
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") && !fieldStarted && field.isEmpty {
                inQuotes = true
                fieldStarted = true
            } else if byte == UInt8(ascii: ",") {
                endField()
            } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if byte == UInt8(ascii: "\r") && index < bytes.count && bytes[index] == UInt8(ascii: "\n") { index += 1 }
                if !fields.isEmpty || !field.isEmpty || fieldStarted {
                    endField()
                    records.append(fields)
                }
                fields = []
            } else {
                field.append(byte)
                fieldStarted = true
            }
        }
        if !fields.isEmpty || !field.isEmpty || fieldStarted {
            endField()
            records.append(fields)
        }
        return records
    }

    static func events(_ bytes: [UInt8]) throws -> [Row] {
        let all = records(bytes)
        let header = all[0].map { $0.lowercased() }
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        func number(_ text: String) -> Double? {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : Double(trimmed)
        }
        let time = column("time")!, latitude = column("latitude")!, longitude = column("longitude")!
        func text(_ fields: [String], _ name: String) -> String? {
            column(name).map { fields[$0].trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func date(_ text: String) -> Date? { formatter.date(from: text) ?? plain.date(from: text) }
        return all.dropFirst().map { fields in
            let stamp = fields[time]
            return Row(
                id: column("id").map { fields[$0] } ?? "",
                time: formatter.date(from: stamp) ?? plain.date(from: stamp) ?? .distantPast,
                latitude: number(fields[latitude])!, longitude: number(fields[longitude])!,
                depth: column("depth").flatMap { number(fields[$0]) },
                magnitude: column("mag").flatMap { number(fields[$0]) },
                place: column("place").map { fields[$0].trimmingCharacters(in: .whitespaces) } ?? "",
                type: column("type").map { fields[$0].isEmpty ? "earthquake" : fields[$0] } ?? "earthquake",
                magnitudeType: text(fields, "magtype"), network: text(fields, "net"), status: text(fields, "status"),
                updated: text(fields, "updated").flatMap(date))
        }
    }
}
