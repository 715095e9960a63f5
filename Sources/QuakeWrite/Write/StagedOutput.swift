#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import QuakeModel
import QuakeQuery
import QuakeScene
import QuakeRender

/// An output built under a temporary name beside its target and renamed over
/// it once complete, so readers see the previous output or the new one, never
/// a part. The one place that names temporaries, sweeps those of dead
/// processes, syncs, closes, renames and turns errno into ``WriteError``:
/// a writer only fills ``stagingPath`` and calls ``commit()``.
///
/// The temporary is `.NAME.tmp-PID-XXXXXX` in the target's folder. While a
/// folder replaces another, the previous one waits under the temporary's name
/// plus `-old`, so the target is missing only between two renames.
/// A process killed outright (`kill -9`) cannot clean up; the next staged
/// output for the same target puts a folder left aside back where it was
/// missing, then removes the temporaries of processes that are gone.
package final class StagedOutput: Sendable {
    /// What is staged.
    package enum Kind: Sendable {
        /// A file (`mkstemp`), written through ``descriptor``.
        case file
        /// A folder (`mkdtemp`), filled by path.
        case folder
    }

    /// The path the output gets on ``commit()``, as given (and shown in errors).
    package let target: String
    /// A file or a folder.
    package let kind: Kind
    /// The temporary file or folder to fill.
    package let stagingPath: String
    /// Open on the staging file (write the bytes to it) or folder, until
    /// ``commit()`` syncs and closes it.
    package let descriptor: Int32
    private let state = Locked(State.filling)

    private enum State {
        /// The descriptor is open; nothing is in place yet.
        case filling
        /// The descriptor is closed, nothing is in place (a commit failed after closing).
        case closed
        /// The output is in place.
        case committed
    }

    /// Makes the target's folder, cleans up after killed writers of the same
    /// target, and creates the temporary with the mode a plain create would give.
    ///
    /// - Throws: ``WriteError`` when the folder or the temporary cannot be made.
    package init(target: String, kind: Kind) throws(WriteError) {
        // A folder's path is standardized (`out/tiles/` or `.` name their folder); a file's
        // is not, so `link/../map.png` stays beside what the kernel resolves.
        let url = kind == .folder ? URL(fileURLWithPath: target).standardizedFileURL : URL(fileURLWithPath: target)
        let parent = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + ".tmp-"
        try Self.createFolder(parent)
        if kind == .folder { Self.restoreAside(of: target, in: parent, prefix: prefix) }
        Self.removeAbandoned(in: parent, prefix: prefix)

        var template = Array((parent + "/" + prefix + "\(getpid())-XXXXXX").utf8CString)
        let (made, code): (Int32, Int32) = template.withUnsafeMutableBufferPointer { buffer in
            let result = kind == .file ? mkstemp(buffer.baseAddress!) : (mkdtemp(buffer.baseAddress!) == nil ? -1 : 0)
            return (result, errno)
        }
        guard made >= 0 else { throw WriteError(errno: code, stage: .create, path: target) }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let descriptor = kind == .file ? made : open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            rmdir(path)
            throw WriteError(errno: code, stage: .create, path: target)
        }
        // mkstemp makes the file 0600 and mkdtemp the folder 0700; others may read outputs.
        fchmod(descriptor, (kind == .file ? 0o666 : 0o777) & ~Self.currentUmask)
        self.target = target
        self.kind = kind
        self.stagingPath = path
        self.descriptor = descriptor
        Self.inProgress.withLock { _ = $0.insert(path) }
    }

    deinit {
        state.withLock { state in
            if state == .filling { close(descriptor) }
            if state != .committed {
                if kind == .file { unlink(stagingPath) } else { try? FileManager.default.removeItem(atPath: stagingPath) }
            }
        }
        Self.inProgress.withLock { _ = $0.remove(stagingPath) }
    }

    /// A file to stage in place of `target`, refused at once (not at the final rename) when
    /// `target` is a folder: `kind` names what the file should be (`an MBTiles file`).
    package static func file(replacing target: String, kind: String) throws -> StagedOutput {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isFolder), isFolder.boolValue {
            throw WriteError.refusingToReplace(path: target, reason: "it is a folder, not \(kind)")
        }
        return try StagedOutput(target: target, kind: .file)
    }

    /// Whether the output is in place.
    package var isCommitted: Bool { state.withLock { $0 == .committed } }

    /// Flushes the staged output to disk, closes it and renames it over the
    /// target (a folder: the previous one is set aside first and removed
    /// after), then makes the rename durable. Call once.
    ///
    /// - Throws: ``WriteError``; the target is then as it was, and the
    ///   temporary is removed when the stage is released.
    package func commit() throws(WriteError) {
        try state.withLock { (state: inout State) throws(WriteError) in
            precondition(state == .filling, "StagedOutput committed twice")
            // A file's data, or every file below the folder: one syncfs
            // rather than one fsync per tile.
            guard (kind == .file ? fsync(descriptor) : Self.syncFileSystem(descriptor)) == 0 else {
                throw WriteError(errno: errno, stage: .write, path: target)
            }
            state = .closed
            guard close(descriptor) == 0 else { throw WriteError(errno: errno, stage: .write, path: target) }
            try kind == .file ? renameFile() : renameFolder()
            state = .committed
        }
        // Make the rename itself durable; the output is in place already, so
        // a failure here is not reported as a failed write.
        let parent = open(URL(fileURLWithPath: stagingPath).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if parent >= 0 {
            fsync(parent)
            close(parent)
        }
        if kind == .folder { try? FileManager.default.removeItem(atPath: stagingPath + "-old") }
    }

    private func renameFile() throws(WriteError) {
        guard rename(stagingPath, target) == 0 else { throw WriteError(errno: errno, stage: .rename, path: target) }
    }

    /// The previous folder moves aside, the new one takes its name: the target
    /// is missing only between two renames, never half-written.
    private func renameFolder() throws(WriteError) {
        var aside: String?
        if FileManager.default.fileExists(atPath: target) {
            let moved = stagingPath + "-old"
            guard rename(target, moved) == 0 else { throw WriteError(errno: errno, stage: .rename, path: target) }
            // Not marked in progress: a signal now must not remove the previous
            // output too; the next run puts it back (restoreAside).
            aside = moved
        }
        guard rename(stagingPath, target) == 0 else {
            let code = errno
            if let aside { rename(aside, target) }
            throw WriteError(errno: code, stage: .rename, path: target)
        }
    }

    // MARK: Clean-up of other runs and of this one

    /// The temporaries being filled in this process, for clean-up on a signal.
    private static let inProgress = Locked<Set<String>>([])

    /// Removes the temporaries of this process's outputs still being filled
    /// (for a `SIGTERM` handler that is about to exit).
    package static func removeAllInProgress() {
        for path in inProgress.withLock({ Array($0) }) where unlink(path) != 0 && errno == EISDIR {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// A writer killed between its two renames left the previous folder aside
    /// and none at `target`: put it back before anything abandoned is removed.
    private static func restoreAside(of target: String, in parent: String, prefix: String) {
        guard !FileManager.default.fileExists(atPath: target),
              let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix("-old") {
            if isGone(writerOf: name, prefix: prefix) && rename(parent + "/" + name, target) == 0 { return }
        }
    }

    /// Removes the temporaries (and folders set aside) of `prefix` left by processes that no longer run.
    private static func removeAbandoned(in parent: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for name in names where name.hasPrefix(prefix) && isGone(writerOf: name, prefix: prefix) {
            try? FileManager.default.removeItem(atPath: parent + "/" + name)
        }
    }

    /// Whether the process named in a temporary's name (`prefix` PID `-`…) has ended.
    private static func isGone(writerOf name: String, prefix: String) -> Bool {
        guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0, pid != getpid() else {
            return false
        }
        return kill(pid, 0) == -1 && errno == ESRCH
    }

    // MARK: System calls

    /// Creates `folder` and its parents unless it exists.
    private static func createFolder(_ folder: String) throws(WriteError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw WriteError(errno: ENOTDIR, stage: .createFolder, path: folder) }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw WriteError(errno: posixCode(of: error), stage: .createFolder, path: folder)
        }
    }

    /// The POSIX error under a Foundation file error (EACCES when it names none).
    package static func posixCode(of error: any Error) -> Int32 {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        return underlying.map { Int32($0.code) } ?? EACCES
    }

    /// The process's file-creation mask (reading it means setting it, so it is set back).
    private static var currentUmask: mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }

    /// `syncfs(2)`, which flushes the file system holding a descriptor. glibc
    /// declares it only for `_GNU_SOURCE`, which Swift's Glibc module does not
    /// set, so it is looked up by name; `sync()` where there is none.
    private static let syncFileSystem: @convention(c) (Int32) -> Int32 = {
        if let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "syncfs") {
            return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
        }
        return { _ in
            sync()
            return 0
        }
    }()
}
