import Foundation
import Testing
import QuakeKit

// BEGIN EXAMPLE
func weeklyReport(feed: FeedSource) throws -> Data {
    let selected = try QuakeMap.select(from: feed, selection: EventSelection(limit: 500))
    let generated = selected.summary.generated
    let world = SceneBuilder(options: MapOptions(width: 1030, graticuleSpacing: 30))
        .scene(for: selected.events, feedGenerated: generated)
    let pacific = try SceneBuilder(options: MapOptions(
        width: 1030,
        region: GeoBox(west: 120, south: -60, east: -60, north: 60),
        coloring: .depth
    )).scene(for: selected.events, feedGenerated: generated)

    let heading = SceneText(text: "Seismicity this week", position: PixelPoint(x: 40, y: 56),
                            size: 20, bold: true, color: RGBA(hex: 0x111111))
    let page = ReportPage.a4(
        maps: [
            PlacedMap(scene: world, frame: PixelRect(x: 40, y: 80, width: 515, height: 257.5)),
            PlacedMap(scene: pacific, frame: PixelRect(x: 40, y: 360, width: 515, height: 343.3)),
        ],
        texts: [heading]
    )
    return try MapRenderer().pdfData(for: [page])
}
// END EXAMPLE

/// The DocC "Maps in reports" article's code, compiled and run.
@Suite("Maps in reports article", .timeLimit(.minutes(10)))
struct ReportExampleTests {
    static let root = GettingStartedExampleTests.root

    @Test func theArticleHoldsExactlyTheCodeCompiledHere() throws {
        try ArticleExample.check(article: "MapsInReports.md")
    }

    /// Renders the sample feed's report; `QUAKEMAP_WRITE_EXAMPLES=1` also keeps it as docs/report.pdf.
    @Test func theReportIsAnA4PageWithTwoMaps() throws {
        let pdf = try weeklyReport(feed: .file(Self.root.appendingPathComponent("Data/synthetic_all_day.csv").path))
        if ProcessInfo.processInfo.environment["QUAKEMAP_WRITE_EXAMPLES"] == "1" {
            try pdf.write(to: Self.root.appendingPathComponent("docs/report.pdf"))
        }
        let pages = try PDFPages.render(pdf)
        #expect(pages.count == 1)
        #expect(pages[0].width == 595 && pages[0].height == 842)
        #expect(pages[0].pixel(x: 20, y: 500).red > 240, "white margin")
        #expect(pages[0].pixel(x: 100, y: 340 + 200).blue > pages[0].pixel(x: 100, y: 340 + 200).red, "dark blue ocean in the Pacific frame")
    }
}
