import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

@Suite("PDF and SVG", .timeLimit(.minutes(10)))
struct VectorOutputTests {
    let events: [SeismicEvent] = (0..<12).map { (index: Int) -> SeismicEvent in
        let latitude = Double(index * 10 - 60), longitude = Double(index * 25 - 150)
        return Fixtures.event("e\(index)", latitude: latitude, longitude: longitude, magnitude: Double(index % 7) + 1)
    }

    @Test func svgIsWellFormedWithOnePathPerCircle() throws {
        let scene = SceneBuilder(options: MapOptions(width: 800, basemap: .none, showsLegend: false, labelCount: 0)).scene(for: events)
        let svg = try MapRenderer().data(for: scene, format: .svg)
        let parser = XMLParser(data: svg)
        let counter = ElementCounter()
        parser.delegate = counter
        #expect(parser.parse(), "well-formed XML")
        #expect(counter.counts["svg"] == 1)
        #expect(counter.counts["path", default: 0] == scene.circles.count)
        #expect(scene.circles.count == events.count)
    }

    @Test func pdfHasTheSceneSizeAndRenders() throws {
        let scene = SceneBuilder(options: MapOptions(width: 600)).scene(for: events)
        let pdf = try MapRenderer().data(for: scene, format: .pdf)
        #expect(pdf.starts(with: Data("%PDF-".utf8)))
        let pages = try PDFPages.render(pdf)
        #expect(pages.count == 1)
        #expect(pages[0].width == 600 && pages[0].height == 300)
    }

    @Test func reportPagePlacesSeveralMapsOnOnePage() throws {
        let world = SceneBuilder(options: MapOptions(width: 1000)).scene(for: events)
        let pacific = SceneBuilder(options: MapOptions(width: 1000, region: try GeoBox(parsing: "120,-60,-60,60"))).scene(for: events)
        let page = ReportPage.a4(
            maps: [PlacedMap(scene: world, frame: PixelRect(x: 40, y: 80, width: 515, height: 257.5)),
                   PlacedMap(scene: pacific, frame: PixelRect(x: 40, y: 380, width: 515, height: 343))],
            texts: [SceneText(text: "Weekly report", position: PixelPoint(x: 40, y: 50), size: 20, bold: true,
                              color: RGBA(hex: 0x111111))])
        let pdf = try MapRenderer().pdfData(for: [page, page])
        let pages = try PDFPages.render(pdf)
        #expect(pages.count == 2)
        #expect(pages[0].width == 595 && pages[0].height == 842)
        // The page is white outside the frames and dark ocean inside them.
        #expect(pages[0].pixel(x: 20, y: 400).red > 240)
        #expect(pages[0].pixel(x: 111, y: 266).red < 80)
        #expect(pages[0].pixel(x: 300, y: 550).red < 80)
    }

    @Test func formatFromTheExtension() {
        #expect(ImageFormat(pathExtension: "out/map.PDF") == .pdf)
        #expect(ImageFormat(pathExtension: "map.svg") == .svg)
        #expect(ImageFormat(pathExtension: "map.jpg") == nil)
        #expect(ImageFormat(pathExtension: "dir.png/map") == nil)
    }
}

final class ElementCounter: NSObject, XMLParserDelegate {
    var counts: [String: Int] = [:]

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        // Glyph outlines live in <symbol>s; count only what is drawn on the page.
        counts[elementName, default: 0] += 1
    }
}

/// Renders PDF pages with poppler's `pdftoppm` (a reader nobody here wrote), at 72 dpi.
enum PDFPages {
    static let available = FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftoppm")

    static func render(_ pdf: Data) throws -> [RasterImage] {
        try #require(available, "pdftoppm is missing: `make test` installs poppler-utils")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakekit-pdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try pdf.write(to: folder.appendingPathComponent("in.pdf"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftoppm")
        process.arguments = ["-png", "-r", "72", folder.appendingPathComponent("in.pdf").path, folder.appendingPathComponent("page").path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "pdftoppm could not read the PDF")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("page") }.sorted()
        return try files.map { try RasterImage(png: Data(contentsOf: folder.appendingPathComponent($0))) }
    }
}
