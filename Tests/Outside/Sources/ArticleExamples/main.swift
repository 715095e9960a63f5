// Runs each DocC article's code, and one call of every other entry point, on a feed, writing
// what each makes into a folder that Tests/Interop/test_outside_package.py checks with tools
// nobody here wrote (Pillow, Python's csv and json, poppler).
//
// Usage: ArticleExamples FEED OUTPUT-FOLDER
import Foundation
import QuakeKit

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: ArticleExamples FEED OUTPUT-FOLDER\n".utf8))
    exit(64)
}
let feedPath = arguments[1]
let folder = URL(fileURLWithPath: arguments[2])
func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
var results: [String: String] = [:]

do {
    // Getting started
    let summary = try drawNightlyMap(feedPath: feedPath, mapPath: path("nightly.png"))
    results["nightly.rows"] = String(summary.rows)
    try AtomicFileWriter.write(try mapOfOneEvent(), to: path("one-event.png"))

    // Maps in reports, charts, reports, animations
    try AtomicFileWriter.write(try weeklyReport(feed: .file(feedPath)), to: path("weekly.pdf"))
    let all = try QuakeMap.select(from: .file(feedPath), selection: EventSelection(limit: nil))
    let figures = try sequenceFigures(events: all.events)
    try AtomicFileWriter.write(figures.page, to: path("charts.pdf"))
    try AtomicFileWriter.write(figures.section, to: path("section.svg"))
    try animateMonth(feed: .file(feedPath), to: path("month.png"))
    let fit = try monthlyReport(feed: .file(feedPath), to: path("monthly.pdf"))
    results["monthly.b"] = fit.map { String($0.b) } ?? "none"

    // Tiles, in a folder and in memory
    results["tiles.folder"] = String(try drawTiles(feedPath: feedPath, folder: path("tiles")))
    let mapEvents = try QuakeMap.select(from: .file(feedPath), selection: EventSelection(limit: nil), as: MapEvent.self)
    let tiles = try tilesInMemory(events: mapEvents.events)
    results["tiles.memory"] = String(tiles.count)
    for (tile, png) in tiles where tile.zoom == 3 && tile.x == 0 { try AtomicFileWriter.write(png, to: path("tile-\(tile.y).png")) }
    for (tile, mvt) in try vectorTiles(feedPath: feedPath) {
        try AtomicFileWriter.write(mvt, to: path("vector-\(tile.zoom)-\(tile.x)-\(tile.y).pbf"))
    }

    // Lists and statistics
    let statistics = try exportAndSummarize(feed: .file(feedPath), csvPath: path("california.csv"))
    results["california.count"] = String(statistics.count)
    results["wellLocated.count"] = String(try wellLocated(feed: .file(feedPath), csvPath: path("well-located.csv")).count)

    // The other entry points, once each
    try AtomicFileWriter.write(try QuakeMap.render(mapEvents, options: MapOptions(width: 800, coloring: .depth)),
                               to: path("map-events.png"))
    try AtomicFileWriter.write(try QuakeMap.chart(.cumulative, for: all, format: .svg), to: path("cumulative.svg"))
    let geojson = try QuakeMap.list(from: .file(feedPath), selection: EventSelection(limit: 5), format: .geojson)
    try AtomicFileWriter.write(try geojson.events[0].data(), to: path("latest.geojson"))
    let animation = QuakeMap.animation(for: all, options: AnimationOptions(map: MapOptions(width: 400), duration: 1, fps: 4))
    results["animation.frames"] = String(animation.frameCount)

    // Limits are refused with the value and the limit, before anything is read.
    do {
        _ = try QuakeMap.render(all, options: MapOptions(width: MapOptions.maximumSide + 1))
        results["refused.width"] = "no"
    } catch let error as MapOptionsError {
        results["refused.width"] = error.message
    }

    let json = try JSONSerialization.data(withJSONObject: results, options: [.sortedKeys])
    try AtomicFileWriter.write(json, to: path("results.json"))
} catch let error as any QuakeKitError {
    FileHandle.standardError.write(Data("ArticleExamples: \(error.message)\n".utf8))
    exit(1)
}
