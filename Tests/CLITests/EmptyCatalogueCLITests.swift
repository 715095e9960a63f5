import FeedTestServer
import Foundation
import GRDB
import QuakeKit
import Testing

/// A quiet day's feed — a CSV header with no rows, a FeatureCollection with
/// no features — end to end: every command exits 0 with an empty map, list,
/// summary or pyramid, so a nightly job does not fail on the days USGS's
/// `significant_day` is empty. No bytes at all, or not a feed, stay 65.
@Suite("Empty catalogues on the command line", .timeLimit(.minutes(10)))
struct EmptyCatalogueCLITests {
    /// The header line of every CSV layout (column names only).
    static let headers: [(layout: String, header: String)] = [
        ("22 columns", "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,"
            + "horizontalError,depthError,magError,magNst,status,locationSource,magSource"),
        ("15 columns", "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type"),
        ("eqs7day", "Src,Eqid,Version,Datetime,Lat,Lon,Magnitude,Depth,NST,Region"),
        ("Date,TimeUTC", "Date,TimeUTC,Latitude,Longitude,Magnitude,Depth"),
    ]

    /// The USGS GeoJSON summary feed on a quiet day: its metadata, no features, no `bbox`.
    static let quietGeoJSON = """
        {"type":"FeatureCollection","metadata":{"generated":1795305492000,\
        "url":"https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/significant_day.geojson",\
        "title":"USGS Significant Earthquakes, Past Day","status":200,"api":"1.14.1","count":0},"features":[]}

        """

    /// Every quiet feed: each CSV layout's header with CRLF, a BOM or no final newline, and the GeoJSON.
    static let quietFeeds: [(name: String, body: String)] = headers.flatMap { layout, header in
        [("\(layout), LF", header + "\n"), ("\(layout), CRLF", header + "\r\n"),
         ("\(layout), BOM, no final newline", "\u{FEFF}" + header)]
    } + [("GeoJSON", quietGeoJSON)]

    static let sample = "Data/synthetic_all_day.csv"

    /// Ocean and land as the default palette paints them (within a little, for antialiasing).
    static func census(_ image: RasterImage) -> (ocean: Int, land: Int) {
        var ocean = 0, land = 0
        for y in stride(from: 0, to: image.height, by: 2) {
            for x in stride(from: 0, to: image.width, by: 2) {
                let p = image.pixel(x: x, y: y)
                func near(_ r: Int, _ g: Int, _ b: Int) -> Bool {
                    abs(Int(p.red) - r) <= 3 && abs(Int(p.green) - g) <= 3 && abs(Int(p.blue) - b) <= 3 && p.alpha == 255
                }
                if near(0x1E, 0x2A, 0x38) { ocean += 1 } else if near(0x4B, 0x55, 0x63) { land += 1 }
            }
        }
        return (ocean, land)
    }

    @Test func rendersAMapOfNothingFromEveryQuietFeed() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, body) in Self.quietFeeds {
            let feed = folder.appendingPathComponent("feed")
            try Data(body.utf8).write(to: feed)
            let map = folder.appendingPathComponent("map.png")
            let result = try QuakemapProcess.run(["render", feed.path, "-o", map.path, "--width", "800"])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("read 0 rows") && result.stderr.contains(": 0 events, 0 without magnitude, 0 rejected; drew 0 → "),
                    "\(name): \(result.stderr)")
            let image = try RasterImage(png: Data(contentsOf: map))
            #expect(image.width == 800 && image.height == 400, "\(name)")
            let (ocean, land) = Self.census(image)
            // A world map is about two thirds sea; land is a fifth to a third of it.
            #expect(ocean > 40_000 && land > 10_000, "\(name): \(ocean) ocean, \(land) land samples")
        }
    }

    @Test func standardInputToStandardOutputInEveryFormat() throws {
        for (name, body) in [Self.quietFeeds[0], Self.quietFeeds.last!] {
            let png = try QuakemapProcess.run(["render", "-", "-o", "-", "--width", "400"], stdin: Data(body.utf8))
            #expect(png.status == 0, "\(name): \(png.stderr)")
            #expect(try RasterImage(png: png.stdout).width == 400)
            let pdf = try QuakemapProcess.run(["render", "-", "-o", "-", "--format", "pdf", "--quiet"], stdin: Data(body.utf8))
            #expect(pdf.status == 0 && pdf.stdout.starts(with: Data("%PDF-".utf8)), "\(name)")
            let svg = try QuakemapProcess.run(["render", "-", "-o", "-", "--format", "svg", "--quiet"], stdin: Data(body.utf8))
            #expect(svg.status == 0 && svg.stdoutText.contains("<svg") && svg.stdoutText.hasSuffix("</svg>\n"), "\(name)")
        }
    }

    /// The title panel says there is nothing, so it is not the title of a map with events.
    @Test func theTitleOfAnEmptyMapIsNotTheTitleOfABusyOne() throws {
        let arguments = ["-o", "-", "--width", "800", "--quiet"]
        let quiet = try RasterImage(png: QuakemapProcess.run(["render", "-"] + arguments, stdin: Data(Self.quietGeoJSON.utf8)).stdout)
        let bare = try RasterImage(png: QuakemapProcess.run(["render", "-"] + arguments,
                                                            stdin: Data((Self.headers[0].header + "\n").utf8)).stdout)
        let busy = try RasterImage(png: QuakemapProcess.run(["render", Self.sample] + arguments).stdout)
        func titleDifference(_ a: RasterImage, _ b: RasterImage) -> Int {
            var differing = 0
            for y in 10..<40 {
                for x in 10..<400 where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { differing += 1 }
            }
            return differing
        }
        #expect(titleDifference(quiet, busy) > 500)
        #expect(titleDifference(bare, busy) > 500)
        #expect(titleDifference(quiet, bare) > 500, "the GeoJSON's title is named, the CSV's bare 'No earthquakes' is not")
    }

    @Test func listPrintsTheEmptyFormOfEachFormat() throws {
        let expected: [(format: String, output: String)] = [
            ("csv", EventListEncoder.csvHeader + "\n"),
            ("json", "[]\n"),
            ("geojson", #"{"features":[],"metadata":{"count":0,"title":"quakemap selection"},"type":"FeatureCollection"}"# + "\n"),
            ("table", "time (UTC)  mag  magType  depth  latitude  longitude  place  id\n"
                + "──────────  ───  ───────  ─────  ────────  ─────────  ─────  ──\n"),
        ]
        for (name, body) in Self.quietFeeds {
            for (format, output) in expected {
                let result = try QuakemapProcess.run(["list", "-", "--format", format], stdin: Data(body.utf8))
                #expect(result.status == 0, "\(name), \(format): \(result.stderr)")
                #expect(result.stdoutText == output, "\(name), \(format)")
                #expect(result.stderr.contains(": 0 events, 0 without magnitude, 0 rejected; listed 0 in "), "\(name): \(result.stderr)")
            }
        }
    }

    @Test func statsCountsZero() throws {
        for (name, body) in [Self.quietFeeds[0], Self.quietFeeds.last!] {
            let text = try QuakemapProcess.run(["stats", "-"], stdin: Data(body.utf8))
            #expect(text.status == 0, "\(name): \(text.stderr)")
            #expect(text.stdoutText == "events     0\nfirst      —\nlast       —\nmagnitude  —\ndepth      —\n"
                    + "Mc, b      not enough events for Mc and b: no magnitudes, 50 needed\ntypes\n")
            #expect(text.stderr.contains(": 0 events, 0 without magnitude, 0 rejected; summarized 0 in "))
            let json = try QuakemapProcess.run(["stats", "-", "--format", "json", "--quiet"], stdin: Data(body.utf8))
            let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any], "\(name)")
            #expect(object["count"] as? Int == 0)
            #expect(object["first"] is NSNull && object["magnitude"] is NSNull && object["depth"] is NSNull)
            #expect((object["types"] as? [String: Int])?.isEmpty == true)
        }
    }

    /// An empty pyramid is its metadata and no tiles: a tile folder holding only
    /// its TileJSON, an MBTiles file with every metadata row and an empty
    /// `tiles` table (clients show nothing where a tile is missing).
    @Test func tilesWriteAnEmptyPyramidThatOpens() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, body) in [Self.quietFeeds[0], Self.quietFeeds.last!] {
            let pyramid = folder.appendingPathComponent("tiles")
            let result = try QuakemapProcess.run(["tiles", "-", "--zoom", "0-3", "-o", pyramid.path], stdin: Data(body.utf8))
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("drew 0 events as 0 tiles (zoom 0–3, 0 kB)"), "\(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: pyramid.path) == ["tilejson.json"])
            let tileJSON = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: pyramid.appendingPathComponent("tilejson.json"))) as? [String: Any])
            #expect(tileJSON["tilejson"] as? String == "3.0.0" && tileJSON["minzoom"] as? Int == 0 && tileJSON["maxzoom"] as? Int == 3)
            #expect((tileJSON["bounds"] as? [Double])?.count == 4 && (tileJSON["center"] as? [Double]) == [0, 0, 0])
            // The empty pyramid is a pyramid: the next run replaces it.
            let again = try QuakemapProcess.run(["tiles", Self.sample, "--zoom", "0-1", "-o", pyramid.path, "--quiet"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: pyramid.path).sorted() == ["0", "1", "tilejson.json"])

            let file = folder.appendingPathComponent("quakes.mbtiles").path
            let mbtiles = try QuakemapProcess.run(["tiles", "-", "--zoom", "0-3", "-o", file], stdin: Data(body.utf8))
            #expect(mbtiles.status == 0, "\(name): \(mbtiles.stderr)")
            let queue = try DatabaseQueue(path: file)
            try queue.read { db in
                let metadata = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT name, value FROM metadata")
                    .map { ($0["name"] as String, $0["value"] as String) })
                #expect(Set(metadata.keys) == ["name", "description", "format", "type", "version", "minzoom", "maxzoom",
                                                "bounds", "center", "tileSize", "attribution"])
                #expect(metadata["attribution"] == "Data: USGS")
                #expect(metadata["format"] == "png" && metadata["minzoom"] == "0" && metadata["maxzoom"] == "3")
                #expect(metadata["description"] == "Earthquakes: 0 events, circles coloured by magnitude")
                #expect(metadata["center"] == "0,0,0")
                // What GDAL's MBTiles driver needs to open a file without tiles: the zooms from the
                // metadata, and bounds of four numbers, west < east, south < north, |lat| < 89.99.
                let bounds = try #require(metadata["bounds"]).split(separator: ",").compactMap { Double($0) }
                #expect(bounds.count == 4 && bounds[0] < bounds[2] && bounds[1] < bounds[3])
                #expect(abs(bounds[0]) <= 180 && abs(bounds[2]) <= 180 && abs(bounds[1]) < 89.99 && abs(bounds[3]) < 89.99)
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM tiles") == 0)
            }
            try queue.close()
            try FileManager.default.removeItem(atPath: file)
            try FileManager.default.removeItem(at: pyramid)
        }
    }

    @Test func strictChangesNothing() throws {
        for (name, body) in [Self.quietFeeds[0], Self.quietFeeds.last!] {
            let result = try QuakemapProcess.run(["render", "-", "-o", "/dev/null", "--strict"], stdin: Data(body.utf8))
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(result.stderr.contains(": 0 events, 0 without magnitude, 0 rejected; drew 0 → "))
        }
    }

    /// An empty feed is today's news: it replaces yesterday's map. No bytes is
    /// not a feed: the previous map stays byte for byte.
    @Test func anEmptyFeedReplacesTheMapAndNoBytesKeepsIt() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let map = folder.appendingPathComponent("quakes.png")
        #expect(try QuakemapProcess.run(["render", Self.sample, "-o", map.path, "--width", "300", "--quiet"]).status == 0)
        let busy = try Data(contentsOf: map)

        for (input, message) in [("", "<stdin>: the feed is empty"), ("\n\n", "<stdin>: the feed is empty"),
                                 ("  \t \n", "required column 'time', 'latitude', 'longitude' not found in the header")] {
            let result = try QuakemapProcess.run(["render", "-", "-o", map.path, "--width", "300"], stdin: Data(input.utf8))
            #expect(result.status == 65, "\(input.debugDescription)")
            #expect(result.stderr.hasPrefix("quakemap: ") && result.stderr.contains(message), "\(result.stderr)")
            #expect(try Data(contentsOf: map) == busy)
        }

        let quiet = try QuakemapProcess.run(["render", "-", "-o", map.path, "--width", "300"], stdin: Data(Self.quietGeoJSON.utf8))
        #expect(quiet.status == 0, "\(quiet.stderr)")
        let replaced = try Data(contentsOf: map)
        #expect(replaced != busy)
        #expect(try RasterImage(png: replaced).width == 300)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["quakes.png"])
    }

    /// The README's nightly line on `significant_day`: a busy day, then a quiet
    /// one (the empty map replaces the busy one; `--stale-ok` does not bring
    /// back yesterday's events, since an empty feed is not a failed one), then
    /// the same quiet feed again (nothing to do). Every run exits 0.
    @Test func theNightlyLineSucceedsOnAQuietDay() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let busy = Self.headers[1].header + "\n"
            + "2026-11-21T10:00:00.000Z,-17.7,178.1,560,6.1,mww,,,,,us,us1,2026-11-21T11:00:00.000Z,synthetic,earthquake\n"
        let quiet = Self.headers[0].header + "\n"
        let validators = [("ETag", "\"quiet\""), ("Last-Modified", "Sun, 22 Nov 2026 23:58:00 GMT")]
        server.route("/significant_day.csv", [.response(status: 200, body: busy),
                                              .response(status: 200, headers: validators, body: quiet),
                                              .response(status: 304, headers: validators)])
        let map = folder.appendingPathComponent("significant.png")
        let nightly = ["render", "--url", server.baseURL + "/significant_day.csv", "-o", map.path, "--if-changed", "--stale-ok",
                       "--cache-dir", folder.appendingPathComponent("cache").path, "--width", "400"]

        let day1 = try QuakemapProcess.run(nightly)
        #expect(day1.status == 0 && day1.stderr.contains(": 1 events, "), "\(day1.stderr)")
        let busyMap = try Data(contentsOf: map)
        let day2 = try QuakemapProcess.run(nightly)
        #expect(day2.status == 0, "\(day2.stderr)")
        #expect(day2.stderr.contains("fetched 0 rows from ") && day2.stderr.contains("(feed generated 2026-11-22T23:58:00.000Z): 0 events, "),
                "\(day2.stderr)")
        #expect(!day2.stderr.contains("warning"), "\(day2.stderr)")
        let quietMap = try Data(contentsOf: map)
        #expect(quietMap != busyMap)
        let day3 = try QuakemapProcess.run(nightly)
        #expect(day3.status == 0 && day3.stderr.contains("unchanged since the last render"), "\(day3.stderr)")
        #expect(try Data(contentsOf: map) == quietMap)
    }

    /// Filters that leave nothing of a real feed follow the same rule: exit 0, empty outputs.
    @Test func filtersThatLeaveNothingGiveEmptyOutputs() throws {
        let render = try QuakemapProcess.run(["render", Self.sample, "--min-mag", "9", "-o", "-", "--width", "400"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stderr.contains("read 420 rows: 417 events, 3 without magnitude, 0 rejected; drew 0 → <stdout>"))
        #expect(Self.census(try RasterImage(png: render.stdout)).land > 1000)
        let list = try QuakemapProcess.run(["list", Self.sample, "--min-mag", "9", "--format", "json", "--quiet"])
        #expect(list.status == 0 && list.stdoutText == "[]\n")
        let stats = try QuakemapProcess.run(["stats", Self.sample, "--bbox", "0,0,1,1", "--quiet"])
        #expect(stats.status == 0 && stats.stdoutText.hasPrefix("events     0\n"), "\(stats.stderr)")
    }
}
