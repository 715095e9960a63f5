import Foundation
import Testing

/// An output the system will not let a rename replace is the same failure
/// from every writer: exit 73 ("cannot create"), the previous output kept,
/// nothing left behind. A mount point cannot be renamed over (EBUSY), and
/// only root may bind-mount; skipped elsewhere.
@Suite("A refused rename", .timeLimit(.minutes(10)), .enabled(if: SmallDisk.canMount, "bind mounts need root: refused-rename test skipped"))
struct RefusedRenameTests {
    @Test func renderTilesAndMBTilesAllExit73AndKeepThePreviousOutput() throws {
        let folder = try QuakemapProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = "Data/synthetic_all_day.csv"
        let cases: [(name: String, arguments: [String])] = [
            ("map.png", ["render", sample]),
            ("tiles", ["tiles", sample, "--zoom", "0"]),
            ("quakes.mbtiles", ["tiles", sample, "--zoom", "0"]),
            ("quakes.pmtiles", ["tiles", sample, "--encoding", "mvt", "--zoom", "0"]),
        ]
        for (name, arguments) in cases {
            let output = folder.appendingPathComponent(name).path
            #expect(try QuakemapProcess.run(arguments + ["-o", output]).status == 0)
            let marker = name == "tiles" ? output + "/0/0/0.png" : output
            let before = try Data(contentsOf: URL(fileURLWithPath: marker))
            // The output bound over itself: it is now a mount point.
            #expect(SystemTool.succeeds("/bin/mount", ["--bind", output, output]))
            defer { _ = SystemTool.succeeds("/bin/umount", [output]) }
            let refused = try QuakemapProcess.run(arguments + ["-o", output])
            #expect(refused.status == 73, "\(name): \(refused.stderr)")
            #expect(refused.stderr.contains("\(output): cannot create: Device or resource busy"), "\(name): \(refused.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: marker)) == before, "\(name)")
        }
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: folder.path)) == Set(cases.map(\.name)))
    }
}
