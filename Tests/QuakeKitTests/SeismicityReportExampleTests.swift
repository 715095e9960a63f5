import Foundation
import Testing
import QuakeKit

// BEGIN EXAMPLE
func monthlyReport(feed: FeedSource, to path: String) throws -> GutenbergRichterFit? {
    let selected = try QuakeMap.select(from: feed, selection: EventSelection(limit: nil))
    let japanTrench = try CrossSectionProfile(start: GeoPoint(longitude: 139, latitude: 36),
                                              end: GeoPoint(longitude: 146, latitude: 39),
                                              halfWidth: 100)
    let options = ReportOptions(paper: .letter, title: "Seismicity this month",
                                source: "USGS", profile: japanTrench)
    try AtomicFileWriter.write(try QuakeMap.report(for: selected, options: options), to: path)
    return try? GutenbergRichterFit(magnitudes: selected.events.compactMap(\.magnitude))
}
// END EXAMPLE

/// The DocC "Seismicity reports" article's code, compiled and run.
@Suite("Seismicity reports article", .timeLimit(.minutes(10)))
struct SeismicityReportExampleTests {
    static let root = GettingStartedExampleTests.root

    @Test func theArticleHoldsExactlyTheCodeCompiledHere() throws {
        try ArticleExample.check(article: "SeismicityReports.md")
    }

    /// The sample feed's report: three Letter pages (the profile's page last), and the fit of its magnitudes.
    @Test func theReportHasThreeLetterPagesAndTheFitItsMagnitudes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).pdf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fit = try monthlyReport(feed: .file(Self.root.appendingPathComponent("Data/synthetic_all_day.csv").path), to: path)
        let pages = try PDFPages.render(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(pages.count == 3)
        #expect(pages.allSatisfy { $0.width == 612 && $0.height == 792 })
        let expected = try GutenbergRichterFit(magnitudes: QuakeMap.select(
            from: .file(Self.root.appendingPathComponent("Data/synthetic_all_day.csv").path),
            selection: EventSelection(limit: nil)).events.compactMap(\.magnitude))
        #expect(fit == expected)
    }
}
