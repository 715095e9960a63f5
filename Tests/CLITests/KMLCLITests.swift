import Foundation
import Testing

/// `list --format kml|kmz` through the built binary: placemarks, times, escaping, the map's
/// colours, folders, the limit, the zip's first entry, and refusals with their exit code.
@Suite("quakemap list as KML", .timeLimit(.minutes(10)))
struct KMLCLITests {
    static let feed = [
        "time,latitude,longitude,depth,mag,magType,net,id,updated,place,type",
        "2026-11-21T03:00:00.120Z,-33.3,-70.7,120,6.1,mww,us,us2,,\"North of <Here> & \"\"there\"\"\",earthquake",
        "2026-11-21T01:00:00.000Z,10.5,20.25,5.5,4.5,mb,us,us1,2026-11-21T02:00:00.000Z,Somewhere,earthquake",
        "2026-11-20T22:00:00.000Z,64.1,-21.9,,2,ml,is,is3,,,quarry blast",
    ].joined(separator: "\n") + "\n"

    static func kml(_ arguments: [String]) throws -> String {
        let result = try QuakemapProcess.run(["list", "-", "--quiet"] + arguments, stdin: Data(feed.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdoutText
    }

    static func count(_ text: String, _ piece: String) -> Int { text.components(separatedBy: piece).count - 1 }

    /// The `<name>`s of the folders, in order.
    static func folders(_ text: String) -> [String] {
        text.components(separatedBy: "<Folder>\n<name>").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    @Test func placemarksCarryTimeEscapedTextFieldsAndTheMapsColours() throws {
        let kml = try Self.kml(["--format", "kml"])
        #expect(kml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\""))
        #expect(Self.count(kml, "<Placemark>") == 3)
        #expect(kml.contains("<TimeStamp><when>2026-11-21T03:00:00.120Z</when></TimeStamp>"))
        // Markup in a place is text, in the name, the table and the data.
        #expect(kml.contains("<name>M 6.1 – North of &lt;Here&gt; &amp; &quot;there&quot;</name>"))
        #expect(kml.contains("<Data name=\"place\"><value>North of &lt;Here&gt; &amp; &quot;there&quot;</value></Data>"))
        #expect(kml.contains("<tr><th align=\"left\">place</th><td>North of &lt;Here&gt; &amp; &quot;there&quot;</td></tr>"))
        #expect(!kml.contains("<Here>"))
        #expect(kml.contains("<name>M 2.0 – is3</name>"))
        // Every field the event has, named as the schema names it; depth below ground in metres.
        #expect(kml.contains("<Data name=\"magType\"><value>mww</value></Data>"))
        #expect(kml.contains("<Data name=\"updated\"><value>2026-11-21T02:00:00.000Z</value></Data>"))
        #expect(kml.contains("<coordinates>-70.7,-33.3,-120000</coordinates>"))
        #expect(kml.contains("<coordinates>-21.9,64.1</coordinates>"))
        // The map's fill, RGBA(1, 1 − 0.015·m², 0.211, 0.6), as aabbggrr: alpha 0.6 → 99, blue 0.211 → 36,
        // green 1 − 0.54 = 0.46 → 75 at M6 and 1 − 0.06 = 0.94 → f0 at M2, red ff.
        #expect(kml.contains("<styleUrl>#m6</styleUrl>") && kml.contains("<Style id=\"m6\"><IconStyle><color>993675ff</color>"))
        #expect(kml.contains("<styleUrl>#m2</styleUrl>") && kml.contains("<Style id=\"m2\"><IconStyle><color>9936f0ff</color>"))
        #expect(Self.folders(kml) == ["M 6–7", "M 4–5", "M 2–3"])
    }

    @Test func foldersByDayNewestFirstOrNoneAndTheLimit() throws {
        let byDay = try Self.kml(["--format", "kml", "--kml-folders", "day"])
        #expect(Self.folders(byDay) == ["2026-11-21", "2026-11-20"])
        #expect(Self.count(byDay, "<Placemark>") == 3)
        let flat = try Self.kml(["--format", "kml", "--kml-folders", "none", "--limit", "2"])
        #expect(Self.folders(flat).isEmpty && Self.count(flat, "<Placemark>") == 2)
        #expect(!flat.contains("is3"))
    }

    @Test func kmzIsAZipWhoseFirstEntryIsDocKMLDeflated() throws {
        let result = try QuakemapProcess.run(["list", "-", "--quiet", "--format", "kmz"], stdin: Data(Self.feed.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let zip = [UInt8](result.stdout)
        // A local file header: its signature, method 8 (deflate), then the name.
        #expect(zip.count > 30 && zip[0..<4] == [0x50, 0x4B, 0x03, 0x04])
        #expect(zip.count > 30 && Int(zip[8]) | Int(zip[9]) << 8 == 8)
        let nameLength = zip.count > 30 ? Int(zip[26]) | Int(zip[27]) << 8 : 0
        #expect(zip.count > 30 + nameLength && String(decoding: zip[30..<(30 + nameLength)], as: UTF8.self) == "doc.kml")
    }

    @Test func foldersWithoutKMLAndUnknownGroupingsAreUsageErrors() throws {
        let csv = try QuakemapProcess.run(["list", "-", "--kml-folders", "day"], stdin: Data(Self.feed.utf8))
        #expect(csv.status == 64 && csv.stderr.contains("--kml-folders applies to --format kml and kmz"), "\(csv.stderr)")
        #expect(csv.stdout.isEmpty)
        let unknown = try QuakemapProcess.run(["list", "-", "--format", "kml", "--kml-folders", "week"], stdin: Data(Self.feed.utf8))
        #expect(unknown.status == 64 && unknown.stdout.isEmpty, "\(unknown.stderr)")
    }
}
