// Write/ — bytes out: drawn pixels encoded as PNG, events as CSV, JSON or GeoJSON, and files and tile
// folders replaced only once complete.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes a file so that readers see either the old complete file or the new
/// complete one, never a part: the bytes go to a temporary file in the same
/// folder, are flushed to disk, and the temporary file is renamed over the target.
///
/// Temporary files are named `.NAME.tmp-PID-XXXXXX`. A writer killed outright
/// (`kill -9`) cannot remove its own; the next write to the same path removes
/// those whose process is gone, so they never pile up. A program that wants
/// its temporary files removed on `SIGTERM` calls ``removeFilesInProgress()``
/// from its signal handling.
public enum AtomicFileWriter {
    /// Writes `data` to `path`, creating missing folders.
    ///
    /// - Throws: ``WriteError``; on any failure the temporary file is removed
    ///   and a previous file at `path` is left as it was.
    public static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        try createFolder(folder)

        let prefix = "." + url.lastPathComponent + ".tmp-"
        removeAbandoned(in: folder, prefix: prefix)
        var template = Array((folder + "/" + prefix + "\(getpid())-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw WriteError.cannotCreate(path: path, errno: errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        InProgress.shared.add(temporary)
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
            InProgress.shared.remove(temporary)
        }
        do {
            defer { close(fd) }
            // mkstemp makes the file 0600; give it the mode a plain create would.
            fchmod(fd, 0o666 & ~currentUmask)
            try writeAll(data, to: fd, path: path)
            guard fsync(fd) == 0 else { throw WriteError.writeFailed(path: path, errno: errno) }
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            throw code == EISDIR || code == EACCES || code == EROFS
                ? WriteError.cannotCreate(path: path, errno: code)
                : WriteError.writeFailed(path: path, errno: code)
        }
        renamed = true
        // Make the rename itself durable; a failure here loses nothing.
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    /// Writes all of `data` to a descriptor (a pipe, standard output…), retrying short writes.
    public static func writeAll(_ data: Data, to fd: Int32, path: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw WriteError.writeFailed(path: path, errno: errno)
                }
                offset += written
            }
        }
    }

    /// Removes the temporary files of writes still in progress in this process
    /// (for a `SIGTERM` handler that is about to exit).
    public static func removeFilesInProgress() {
        for path in InProgress.shared.paths() where unlink(path) != 0 && errno == EISDIR {
            // A tile folder being filled (see TileDirectoryWriter).
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The process's file-creation mask (reading it means setting it, so it is set back).
    package static var currentUmask: mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }

    /// The POSIX error under a Foundation file error (EACCES when it names none).
    package static func posixCode(of error: any Error) -> Int32 {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        return underlying.map { Int32($0.code) } ?? EACCES
    }

    /// Marks a temporary file or folder another writer of this package is filling
    /// (removed by ``removeFilesInProgress()``), or, with `false`, no longer.
    package static func track(_ path: String, inProgress: Bool) {
        if inProgress { InProgress.shared.add(path) } else { InProgress.shared.remove(path) }
    }

    /// Temporary files of this target left by processes that no longer run.
    package static func removeAbandoned(in folder: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            let pidText = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = Int32(pidText), pid != getpid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH { try? FileManager.default.removeItem(atPath: folder + "/" + name) }
        }
    }

    package static func createFolder(_ folder: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw WriteError.cannotCreateFolder(path: folder, errno: ENOTDIR) }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw WriteError.cannotCreateFolder(path: folder, errno: posixCode(of: error))
        }
    }
}

/// The temporary files being written right now, for clean-up on termination.
final class InProgress: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    static let shared = InProgress()
    private let lock = NSLock()
    private var set: Set<String> = []

    func add(_ path: String) { lock.withLock { _ = set.insert(path) } }
    func remove(_ path: String) { lock.withLock { _ = set.remove(path) } }
    func paths() -> [String] { lock.withLock { Array(set) } }
}
