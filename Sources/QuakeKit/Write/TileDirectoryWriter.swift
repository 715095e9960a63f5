#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes a tile pyramid as `DIR/z/x/y.png` plus `DIR/tilejson.json`, all or
/// nothing: tiles go to a temporary folder beside `DIR`, which replaces `DIR`
/// only once every tile is written, so a failed or interrupted run leaves the
/// previous pyramid as it was.
///
/// A `DIR` that exists must be empty or look like a pyramid this writer made
/// (a `tilejson.json` and zoom-level folders, nothing else); any other folder
/// is refused rather than replaced.
public final class TileDirectoryWriter {
    /// The pyramid's folder.
    public let path: String
    private let temporary: String
    private var committed = false
    private var folders: Set<String> = []

    /// The name of the TileJSON file written beside the tiles; its presence marks a folder as a pyramid.
    public static let tileJSONName = "tilejson.json"

    /// Prepares to write a pyramid at `path`, creating its parent folders.
    ///
    /// - Throws: ``WriteError``, e.g. ``WriteError/refusingToReplace(path:reason:)``
    ///   for a folder of other files.
    public init(path: String) throws {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        self.path = path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw WriteError.refusingToReplace(path: path, reason: "it is a file, not a tile folder")
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            let pyramid = entries.contains(Self.tileJSONName)
                && entries.allSatisfy { $0 == Self.tileJSONName || (!$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber }) }
            guard entries.isEmpty || pyramid else {
                throw WriteError.refusingToReplace(
                    path: path, reason: "the folder holds other files than a tile pyramid quakemap wrote (\(Self.tileJSONName) and zoom folders)")
            }
        }
        let parent = url.deletingLastPathComponent().path
        try AtomicFileWriter.createFolder(parent)
        let prefix = "." + url.lastPathComponent + ".tmp-"
        Self.restoreAsideIfKilled(path, in: parent, prefix: prefix)
        AtomicFileWriter.removeAbandoned(in: parent, prefix: prefix)
        var template = Array((parent + "/" + prefix + "\(getpid())-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw WriteError.cannotCreate(path: path, errno: errno)
        }
        temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chmod(temporary, 0o777 & ~AtomicFileWriter.currentUmask)
        InProgress.shared.add(temporary)
    }

    deinit {
        if !committed { try? FileManager.default.removeItem(atPath: temporary) }
        InProgress.shared.remove(temporary)
    }

    /// Writes one tile.
    public func write(_ data: Data, for tile: TileID) throws {
        let folder = "\(temporary)/\(tile.zoom)/\(tile.x)"
        if !folders.contains(folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw WriteError.cannotCreateFolder(path: "\(path)/\(tile.zoom)/\(tile.x)", errno: AtomicFileWriter.posixCode(of: error))
            }
            folders.insert(folder)
        }
        try writeFile(data, at: "\(folder)/\(tile.y).png", shownAs: "\(path)/\(tile).png")
    }

    /// Writes the TileJSON and puts the new pyramid in place of the old.
    public func commit(_ metadata: TileSetMetadata) throws {
        try writeFile(metadata.tileJSON(), at: "\(temporary)/\(Self.tileJSONName)", shownAs: "\(path)/\(Self.tileJSONName)")
        // The old pyramid moves aside, the new one takes its name, the old one goes:
        // two renames, so `path` is missing only between them, never half-written.
        var aside: String?
        if FileManager.default.fileExists(atPath: path) {
            let moved = temporary + "-old"
            guard rename(path, moved) == 0 else { throw WriteError.writeFailed(path: path, errno: errno) }
            // Not marked in progress: a signal now must not remove the old pyramid
            // too; the next run puts it back (restoreAsideIfKilled).
            aside = moved
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            if let aside { rename(aside, path) }
            throw WriteError.writeFailed(path: path, errno: code)
        }
        committed = true
        if let aside { try? FileManager.default.removeItem(atPath: aside) }
    }

    /// A writer killed between its two renames left the old pyramid aside and
    /// none at `path`: put it back before anything abandoned is removed.
    private static func restoreAsideIfKilled(_ path: String, in parent: String, prefix: String) {
        guard !FileManager.default.fileExists(atPath: path),
              let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix("-old") {
            let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }) ?? 0
            if kill(pid, 0) == -1 && errno == ESRCH && rename(parent + "/" + name, path) == 0 { return }
        }
    }

    private func writeFile(_ data: Data, at file: String, shownAs shown: String) throws {
        // No fsync per tile: the folder becomes visible only whole, by rename.
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw WriteError.cannotCreate(path: shown, errno: errno) }
        defer { close(fd) }
        try AtomicFileWriter.writeAll(data, to: fd, path: shown)
    }
}
