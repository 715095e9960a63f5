import Foundation
import QuakeKit
import Testing

/// QuakeML through the built binary: files and standard input told by
/// content, `list --format quakeml` read back, and refusals with their exit code.
@Suite("quakemap with QuakeML", .timeLimit(.minutes(10)))
struct QuakeMLCLITests {
    static let header = "time,latitude,longitude,depth,mag,magType,net,id,updated,place,type"
    static let feed = [
        header,
        "2026-11-21T01:00:00.000Z,10.5,20.25,5.5,4.5,mb,us,us1,2026-11-21T02:00:00.000Z,\"Somewhere & <there>\",earthquake",
        "2026-11-21T03:00:00.120Z,-33.3,-70.7,120,6.1,mww,us,us2,,\"North of \"\"Here\"\"\",earthquake",
        "2026-11-21T02:00:00.000Z,64.1,-21.9,,1.2,ml,is,is3,,,quarry blast",
    ].joined(separator: "\n") + "\n"

    @Test func listWritesQuakeMLThatReadsBackFromStdinAndFiles() throws {
        let written = try QuakemapProcess.run(["list", "-", "--format", "quakeml", "--quiet"], stdin: Data(Self.feed.utf8))
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdoutText.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<q:quakeml "))
        let fromCSV = try QuakemapProcess.run(["list", "-", "--quiet"], stdin: Data(Self.feed.utf8))
        let fromStdin = try QuakemapProcess.run(["list", "-", "--quiet"], stdin: written.stdout)
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        #expect(fromStdin.stdoutText == fromCSV.stdoutText)
        #expect(fromStdin.stdoutText.contains("2026-11-21T03:00:00.120Z,-33.3,-70.7,120,6.1,mww,,,,,us,us2,,\"North of \"\"Here\"\"\",earthquake,"))

        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Any name: the content tells the format.
        let file = folder.appendingPathComponent("catalogue.dat")
        try written.stdout.write(to: file)
        let fromFile = try QuakemapProcess.run(["list", file.path])
        #expect(fromFile.status == 0)
        #expect(fromFile.stdoutText == fromCSV.stdoutText)
        #expect(fromFile.stderr.hasPrefix("read 3 rows: 3 events, 0 without magnitude, 0 rejected; listed 3 in "), "\(fromFile.stderr)")
        // And a map renders from it.
        let map = try QuakemapProcess.run(["render", file.path, "-o", "-", "--width", "300", "--quiet"])
        #expect(map.status == 0 && map.stdout.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(map.stderr)")
    }

    @Test func malformedQuakeMLExits65WithWhere() throws {
        let written = try QuakemapProcess.run(["list", "-", "--format", "quakeml", "--quiet"], stdin: Data(Self.feed.utf8))
        let broken = written.stdoutText.replacingOccurrences(of: "</mag>", with: "</magn>")
        let result = try QuakemapProcess.run(["list", "-"], stdin: Data(broken.utf8))
        let line = broken.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("</magn>") }! + 1
        #expect(result.status == 65)
        #expect(result.stderr.range(of: #"^quakemap: <stdin>:\#(line):\d+: not a QuakeML 1\.2 document: Opening and ending tag mismatch"#,
                                    options: .regularExpression) != nil, "\(result.stderr)")
        #expect(result.stdout.isEmpty)

        let truncated = try QuakemapProcess.run(["list", "-"], stdin: Data(written.stdout.prefix(written.stdout.count / 2)))
        #expect(truncated.status == 65 && truncated.stderr.contains("not a QuakeML 1.2 document"), "\(truncated.stderr)")
    }

    @Test func aDoctypeIsRefusedWith65() throws {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2">&lol1;</q:quakeml>
            """
        let result = try QuakemapProcess.run(["render", "-", "-o", "-"], stdin: Data(laughs.utf8))
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("quakemap: <stdin>:2:"), "\(result.stderr)")
        #expect(result.stderr.contains("a DOCTYPE declaration: DTDs and entities are refused"))
    }

    @Test func anotherBEDNamespaceExits65AndBlankLinesBeforeTheDeclarationAreRead() throws {
        let written = try QuakemapProcess.run(["list", "-", "--format", "quakeml", "--quiet"], stdin: Data(Self.feed.utf8))
        let bed11 = written.stdoutText.replacingOccurrences(of: "xmlns/bed/1.2", with: "xmlns/bed/1.1")
        #expect(bed11 != written.stdoutText)
        let lines = bed11.split(separator: "\n", omittingEmptySubsequences: false)
        let line = lines.firstIndex { $0.contains("<eventParameters") }! + 1
        let column = lines[line - 1].distance(from: lines[line - 1].startIndex, to: lines[line - 1].range(of: "<eventParameters")!.lowerBound) + 1
        let refused = try QuakemapProcess.run(["list", "-", "--strict"], stdin: Data(bed11.utf8))
        #expect(refused.status == 65 && refused.stdout.isEmpty)
        #expect(refused.stderr.hasPrefix("quakemap: <stdin>:\(line):\(column): not a QuakeML 1.2 document: <eventParameters> is not in the "
                                         + "QuakeML 1.2 BED namespace http://quakeml.org/xmlns/bed/1.2 (found 'http://quakeml.org/xmlns/bed/1.1')"),
                "\(refused.stderr)")
        let blank = try QuakemapProcess.run(["list", "-", "--strict"], stdin: Data(("\n\n" + written.stdoutText).utf8))
        #expect(blank.status == 0, "\(blank.stderr)")
        #expect(blank.stderr.hasPrefix("read 3 rows: 3 events"), "\(blank.stderr)")
    }

    @Test func emptyEventParametersAreAnEmptyCatalogue() throws {
        let empty = """
            <?xml version="1.0" encoding="UTF-8"?>
            <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2" xmlns="http://quakeml.org/xmlns/bed/1.2">
              <eventParameters publicID="smi:example.org/query"/>
            </q:quakeml>
            """
        let result = try QuakemapProcess.run(["list", "-"], stdin: Data(empty.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == EventListEncoder.csvHeader + "\n")
        #expect(result.stderr.hasPrefix("read 0 rows"), "\(result.stderr)")
    }

    @Test func strictStopsAtTheFirstRejectedEventWithItsLineAndColumn() throws {
        let written = try QuakemapProcess.run(["list", "-", "--format", "quakeml", "--quiet"], stdin: Data(Self.feed.utf8))
        let bad = written.stdoutText.replacingOccurrences(of: "<latitude><value>-33.3<", with: "<latitude><value>-133.3<")
        let line = bad.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("eventid=us2") }! + 1
        let lenient = try QuakemapProcess.run(["list", "-"], stdin: Data(bad.utf8))
        #expect(lenient.status == 0)
        #expect(lenient.stderr.contains("<stdin>:\(line):5: event (us2): element 'origin/latitude': '-133.3' is outside -90…90"),
                "\(lenient.stderr)")
        let strict = try QuakemapProcess.run(["list", "-", "--strict"], stdin: Data(bad.utf8))
        #expect(strict.status == 65)
        #expect(strict.stderr.contains("<stdin>:\(line):5: event (us2)"), "\(strict.stderr)")
    }
}
