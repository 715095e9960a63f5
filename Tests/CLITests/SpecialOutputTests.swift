import Foundation
import Testing

/// Outputs that are not regular files: a map written to `/dev/null` or to a
/// named pipe goes into it, and the device or pipe is still there afterwards
/// (a rename over it, which root may do, would replace it with a file).
@Suite("Special outputs", .timeLimit(.minutes(10)))
struct SpecialOutputTests {
    let sample = "Data/synthetic_all_day.csv"

    /// The file's type, not following a link (`lstat`'s, as FileManager reads it).
    private func kind(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    @Test func devNullStaysADevice() throws {
        #expect(kind("/dev/null") == .typeCharacterSpecial)
        for format in ["png", "pdf", "svg"] {
            let result = try QuakemapProcess.run(["render", sample, "-o", "/dev/null", "--format", format])
            #expect(result.status == 0, "\(format): \(result.stderr)")
        }
        #expect(kind("/dev/null") == .typeCharacterSpecial, "/dev/null was replaced by a file")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.hasPrefix(".null.tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func aNamedPipeGetsTheMapAndStaysAPipe() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipe = folder.appendingPathComponent("map.png").path
        #expect(mkfifo(pipe, 0o600) == 0)
        // The reader opens the pipe as the map is written; it ends at the writer's close.
        let received = Locked(Data())
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: pipe) {
                let data = handle.readDataToEndOfFile()
                received.withLock { $0 = data }
            }
        }
        reader.start()
        let result = try QuakemapProcess.run(["render", sample, "-o", pipe])
        #expect(result.status == 0, "\(result.stderr)")
        let deadline = Date().addingTimeInterval(10)
        while received.withLock({ $0.isEmpty }), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(received.withLock { $0.starts(with: [0x89, 0x50, 0x4E, 0x47]) }, "the reader got no PNG")
        // Foundation has no name for a FIFO (.typeUnknown): what matters is that it is not a regular file.
        #expect(kind(pipe) == .typeUnknown)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["map.png"])
    }
}

/// A value shared with a reader thread.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
