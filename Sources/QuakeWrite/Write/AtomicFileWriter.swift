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
/// its temporary files removed on `SIGTERM` calls `removeFilesInProgress()`
/// from its signal handling.
public enum AtomicFileWriter {
    /// Writes `data` to `path`, creating missing folders.
    ///
    /// A path that names a device, a named pipe or a socket (`/dev/null`,
    /// `/dev/stdout`, a FIFO) is written in place: renaming a file over it
    /// would replace the device itself, which root may do.
    ///
    /// - Throws: ``WriteError``; on any failure the temporary file is removed
    ///   and a previous file at `path` is left as it was.
    public static func write(_ data: Data, to path: String) throws {
        var status = stat()
        if stat(path, &status) == 0, !Self.isReplaceable(status.st_mode) {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw WriteError(errno: errno, stage: .create, path: path) }
            defer { close(descriptor) }
            try writeAll(data, to: descriptor, path: path)
            return
        }
        let staged = try StagedOutput(target: path, kind: .file)
        try writeAll(data, to: staged.descriptor, path: path)
        try staged.commit()
    }

    /// Writes all of `data` to a descriptor (a pipe, standard output…), retrying short writes.
    package static func writeAll(_ data: Data, to fd: Int32, path: String) throws {
        try data.withUnsafeBytes { try writeAll($0, to: fd, path: path) }
    }

    /// Writes all of `buffer` to a descriptor, retrying short writes.
    package static func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32, path: String) throws {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw WriteError(errno: errno, stage: .write, path: path)
            }
            offset += written
        }
    }

    /// Whether a file of this mode is replaced by a rename: a regular file,
    /// or a folder (which the rename refuses, as it should).
    private static func isReplaceable(_ mode: mode_t) -> Bool {
        mode & S_IFMT == S_IFREG || mode & S_IFMT == S_IFDIR
    }

    /// Removes the temporary files and folders of writes still in progress in
    /// this process (for a `SIGTERM` handler that is about to exit).
    package static func removeFilesInProgress() {
        StagedOutput.removeAllInProgress()
    }
}
