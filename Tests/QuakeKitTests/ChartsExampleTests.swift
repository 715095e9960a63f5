import Foundation
import Testing
import QuakeKit

// BEGIN EXAMPLE
func sequenceFigures(events: [SeismicEvent]) throws -> (page: Data, section: Data) {
    let charts = ChartBuilder(options: ChartOptions(width: 800, height: 500))
    let page = ReportPage.a4(maps: [
        PlacedMap(scene: charts.scene(.magnitudeTime, for: events), frame: PixelRect(x: 40, y: 60, width: 515, height: 322)),
        PlacedMap(scene: charts.scene(.frequencyMagnitude(), for: events), frame: PixelRect(x: 40, y: 400, width: 515, height: 322)),
    ])
    let profile = try CrossSectionProfile(start: GeoPoint(longitude: -118.0, latitude: 35.4),
                                          end: GeoPoint(longitude: -117.0, latitude: 36.2), halfWidth: 30)
    let section = try MapRenderer().data(for: charts.scene(.crossSection(profile), for: events), format: .svg)
    return (try MapRenderer().pdfData(for: [page]), section)
}
// END EXAMPLE

/// The DocC "Charts" article's code, compiled and run.
@Suite("Charts article", .timeLimit(.minutes(10)))
struct ChartsExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theArticleShowsThisCode() throws {
        try ArticleExample.check(article: "Charts.md")
    }

    /// Two charts on an A4 page, read back by poppler; the section an SVG.
    @Test(.enabled(if: PDFPages.available, "pdftoppm is missing: skipped"))
    func chartsPlacedOnAPageRender() throws {
        let figures = try sequenceFigures(events: StatisticsChartTests.events)
        #expect(String(decoding: figures.section.prefix(100), as: UTF8.self).contains("<svg"))
        let pages = try PDFPages.render(figures.page)
        try #require(pages.count == 1)
        let image = pages[0]
        #expect(image.width == 595 && image.height == 842)
        func inked(_ top: Int, _ bottom: Int) -> Int {
            var count = 0
            for y in top..<bottom {
                for x in 40..<555 where image.rgba[(y * image.width + x) * 4] < 160 { count += 1 }
            }
            return count
        }
        #expect(inked(60, 382) > 2000 && inked(400, 722) > 2000, "both charts drawn")
        #expect(inked(740, 842) == 0, "nothing below the frames")
    }
}
