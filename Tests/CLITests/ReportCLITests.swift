import Foundation
import Testing

/// `quakemap report` checked with poppler, which nobody here wrote: the page count and size
/// (`pdfinfo`), fonts embedded (`pdffonts`), and every word inside the page's margins and
/// clear of every other word (`pdftotext -bbox`).
@Suite("quakemap report", .timeLimit(.minutes(10)))
struct ReportCLITests {
    static let month = QueryCLITests.shared.appendingPathComponent("all_month_2020-06.csv")
    static let monthPresent = FileManager.default.fileExists(atPath: month.path)
    static let sample = QuakemapProcess.repositoryRoot.appendingPathComponent("Data/synthetic_all_day.csv").path

    /// A word on a page and its box in points.
    struct Word {
        var text: String
        var minX, minY, maxX, maxY: Double
    }

    struct Page {
        var width, height: Double
        var words: [Word]
    }

    static func poppler(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(tool) could not read the PDF")
        return String(decoding: data, as: UTF8.self)
    }

    /// The pages with their words, as `pdftotext -bbox` finds them.
    static func pages(_ pdf: URL) throws -> [Page] {
        let html = try poppler("pdftotext", ["-bbox", pdf.path, "-"])
        func number(_ name: String, in tag: Substring) -> Double {
            guard let range = tag.range(of: name + "=\"") else { return .nan }
            return Double(tag[range.upperBound...].prefix { $0 != "\"" }) ?? .nan
        }
        var pages: [Page] = []
        for chunk in html.components(separatedBy: "<page ").dropFirst() {
            let tag = chunk.prefix { $0 != ">" }
            var page = Page(width: number("width", in: tag), height: number("height", in: tag), words: [])
            for word in chunk.components(separatedBy: "<word ").dropFirst() {
                let attributes = word.prefix { $0 != ">" }
                let text = word.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" }
                let decoded = String(text).replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
                    .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                    .replacingOccurrences(of: "&amp;", with: "&")
                page.words.append(Word(text: decoded, minX: number("xMin", in: attributes), minY: number("yMin", in: attributes),
                                       maxX: number("xMax", in: attributes), maxY: number("yMax", in: attributes)))
            }
            pages.append(page)
        }
        return pages
    }

    func report(_ arguments: [String]) throws -> (URL, [Page]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("report.pdf")
        let result = try QuakemapProcess.run(["report"] + arguments + ["-o", output.path])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("reported "), "one log line: \(result.stderr)")
        return (output, try Self.pages(output))
    }

    /// A regional catalogue gets the page of b-value and Mc maps, laid out as the others; `--no-bvalue-map` drops it.
    @Test func aRegionGetsTheBValuePage() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try BMapCLITests.catalogue(in: folder, side: 150)
        let (_, pages) = try report([input])
        #expect(pages.count == 3)
        let words = pages.count == 3 ? pages[2].words.map(\.text) : []
        #expect(words.starts(with: ["b-value", "and", "completeness"]), "\(words.prefix(8))")
        #expect(words.contains("Mc") && words.contains("σ(b)") == false)
        checkLayout(pages)
        let (_, without) = try report([input, "--no-bvalue-map"])
        #expect(without.count == 2)
    }

    /// Words stay on the page, inside 30 pt margins, and no two overlap.
    func checkLayout(_ pages: [Page], sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, page) in pages.enumerated() {
            for word in page.words {
                #expect(word.minX >= 30 && word.maxX <= page.width - 30 && word.minY >= 30 && word.maxY <= page.height - 20,
                        "page \(index + 1): '\(word.text)' at \(word.minX),\(word.minY) is outside the margins",
                        sourceLocation: sourceLocation)
            }
            for (first, a) in page.words.enumerated() {
                for b in page.words[(first + 1)...] {
                    let overlapX = min(a.maxX, b.maxX) - max(a.minX, b.minX)
                    let overlapY = min(a.maxY, b.maxY) - max(a.minY, b.minY)
                    // Glyph boxes of neighbouring lines touch by a fraction of a point.
                    #expect(overlapX <= 0.5 || overlapY <= 1,
                            "page \(index + 1): '\(a.text)' and '\(b.text)' overlap", sourceLocation: sourceLocation)
                }
            }
        }
    }

    @Test(.enabled(if: monthPresent, "../shared/data/usgs is not beside the repository: skipped"))
    func theSharedMonthIsAnA4ReportOfTwoPagesOrThreeWithAProfile() throws {
        let (pdf, pages) = try report([Self.month.path])
        #expect(pages.count == 2)
        for page in pages { #expect(abs(page.width - 595.28) < 0.1 && abs(page.height - 841.89) < 0.1) }
        let first = pages[0].words.map(\.text)
        #expect(first.contains("Seismicity") && first.contains("19,813"), "title and count")
        #expect(first.contains("Largest") && first.contains("6.8"), "the table holds the largest event, M6.8")
        #expect(pages[1].words.map(\.text).contains("Mc"), "page 2 gives Mc and b")
        for (index, page) in pages.enumerated() {
            let text = page.words.map(\.text).joined(separator: " ")
            #expect(text.contains("Page \(index + 1) of 2"))
            #expect(text.contains("Bird (2003)"), "the plate boundaries' credit (ODC-By)")
        }
        checkLayout(pages)
        let fonts = try Self.poppler("pdffonts", [pdf.path]).split(separator: "\n").dropFirst(2)
        #expect(!fonts.isEmpty)
        for font in fonts {
            // The last five columns are emb, sub, uni, object and generation: read `emb` itself,
            // not any "yes" on the line (sub and uni say yes too).
            let columns = font.split(separator: " ", omittingEmptySubsequences: true)
            #expect(columns.count >= 5 && columns[columns.count - 5] == "yes" && font.contains("DejaVuSans"),
                    "not embedded: \(font)")
        }

        let (_, withProfile) = try report([Self.month.path, "--profile", "-122,38.5,-116,35", "--half-width", "60", "--paper", "letter"])
        #expect(withProfile.count == 3)
        for page in withProfile { #expect(page.width == 612 && page.height == 792) }
        let third = withProfile[2].words.map(\.text).joined(separator: " ")
        #expect(third.contains("Cross-section A → B") && third.contains("Page 3 of 3"))
        checkLayout(withProfile)
    }

    @Test func theSampleReportAndItsRefusals() throws {
        let (_, pages) = try report([Self.sample, "--title", "Today's earthquakes"])
        #expect(pages.count == 2)
        #expect(Array(pages[0].words.prefix(2).map(\.text)) == ["Today's", "earthquakes"], "the title comes first")
        checkLayout(pages)

        // A refused option never touches the previous report.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("report.pdf")
        try Data("previous".utf8).write(to: output)
        for arguments in [["--profile", "10,10,10,10"], ["--profile", "1,2,3"], ["--half-width", "0", "--profile", "0,0,1,1"],
                          ["--paper", "a3"], ["--largest", "0"], ["--mag-bin", "5"]] {
            let result = try QuakemapProcess.run(["report", Self.sample] + arguments + ["-o", output.path])
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("Error:"), "\(arguments)")
        }
        let missing = try QuakemapProcess.run(["report", "/nonexistent/feed.csv", "-o", output.path])
        #expect(missing.status == 66)
        #expect(try String(contentsOf: output, encoding: .utf8) == "previous")
    }

    /// Events with focal mechanisms (the project's generated NDK catalogue) get a page of their own:
    /// the map of the largest as beachballs and the table of the largest, laid out clear of each other.
    @Test func mechanismsHaveAPageOfTheirOwn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ndk = folder.appendingPathComponent("mechanisms.ndk")
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        generator.arguments = ["python3", QuakemapProcess.repositoryRoot.appendingPathComponent("scripts/make_mechanisms.py").path,
                               "--count", "400", "--out", ndk.path]
        try generator.run()
        generator.waitUntilExit()
        try #require(generator.terminationStatus == 0)
        let (_, pages) = try report([ndk.path])
        #expect(pages.count == 3)
        let words = pages[2].words.map(\.text)
        let text = words.joined(separator: " ")
        #expect(text.hasPrefix("Focal mechanisms") && text.contains("400 events with a focal mechanism (the map shows the 100 largest)"),
                "\(text.prefix(200))")
        #expect(text.contains("Largest events with a focal mechanism") && text.contains("Page 3 of 3"))
        // Ten rows, each with a time of 2024 and a faulting style.
        #expect(words.filter { $0.hasPrefix("2024-") }.count == 10)
        #expect(words.filter { ["thrust", "normal", "strike-slip", "oblique"].contains($0) }.count == 10)
        checkLayout(pages)
        // Without mechanisms, no such page.
        let (_, sample) = try report([Self.sample])
        #expect(sample.count == 2 && !sample.flatMap(\.words).map(\.text).contains("mechanism"))
    }

    @Test func aQuietDayIsAReportToo() throws {
        let header = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type\n"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("quiet.pdf")
        let result = try QuakemapProcess.run(["report", "-", "-o", output.path], stdin: Data(header.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let pages = try Self.pages(output)
        #expect(pages.count == 2)
        #expect(pages[0].words.map(\.text).joined(separator: " ").contains("No events"))
        checkLayout(pages)
    }
}
