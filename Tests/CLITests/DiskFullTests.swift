import Foundation
import Testing

/// A full disk must fail the run (exit 74) and leave the previous map whole.
/// Needs a small tmpfs, which only root may mount; skipped elsewhere.
@Suite("A full disk", .timeLimit(.minutes(10)), .enabled(if: SmallDisk.canMount, "mounting a tmpfs needs root: full-disk test skipped"))
struct DiskFullTests {
    @Test func writingToAFullDiskKeepsThePreviousMap() throws {
        let disk = try SmallDisk(kilobytes: 64)
        defer { disk.unmount() }
        let map = disk.folder.appendingPathComponent("quakes.png")
        let old = Data(repeating: 7, count: 20_000)
        try old.write(to: map)
        let result = try QuakemapProcess.run(["render", "Data/synthetic_all_day.csv", "-o", map.path])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
        #expect(try Data(contentsOf: map) == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.folder.path) == ["quakes.png"])
    }
}

struct SmallDisk {
    let folder: URL

    init(kilobytes: Int) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard SystemTool.succeeds("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", folder.path]) else {
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    func unmount() {
        _ = SystemTool.succeeds("/bin/umount", [folder.path])
        try? FileManager.default.removeItem(at: folder)
    }

    static let canMount: Bool = {
        guard getuid() == 0, let disk = try? SmallDisk(kilobytes: 16) else { return false }
        disk.unmount()
        return true
    }()
}
