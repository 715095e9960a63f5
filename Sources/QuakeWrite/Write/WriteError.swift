#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QuakeModel

/// Why an output could not be written. The previous file at the path, if any,
/// is untouched in every case.
public enum WriteError: QuakeKitError, Equatable {
    /// The folder for the output could not be created.
    case cannotCreateFolder(path: String, errno: Int32)
    /// The output (or its temporary file) could not be created.
    case cannotCreate(path: String, errno: Int32)
    /// Writing, flushing or renaming failed part-way.
    case writeFailed(path: String, errno: Int32)
    /// The output exists and is not something quakemap may replace (a folder
    /// that holds other files than a tile pyramid quakemap wrote).
    case refusingToReplace(path: String, reason: String)
    /// The encoder of a format failed (for PNG: zlib, out of memory); `status`
    /// is its own code. Nothing was written.
    case encodingFailed(format: String, status: Int32)

    /// The message.
    public var message: String {
        switch self {
        case let .cannotCreateFolder(path, code):
            return "\(path): cannot create folder: \(String(cString: strerror(code)))"
        case let .cannotCreate(path, code):
            return "\(path): cannot create: \(String(cString: strerror(code)))"
        case let .writeFailed(path, code):
            return "\(path): write failed: \(String(cString: strerror(code)))"
        case let .refusingToReplace(path, reason):
            return "\(path): not replaced: \(reason)"
        case let .encodingFailed(format, status):
            return "\(format) encoding failed (\(status))"
        }
    }
}

extension WriteError {
    /// The step of writing an output that failed, which with the errno decides the case.
    package enum Stage: Sendable {
        /// Making the output's folder.
        case createFolder
        /// Making the output or its temporary file.
        case create
        /// Writing, syncing or closing it.
        case write
        /// Renaming it into place (or setting the previous output aside).
        case rename
    }

    /// The one mapping from a failed system call to a case, so every writer
    /// reports the same failure the same way (and the CLI exits the same):
    /// a path that may not be created or replaced there (permissions, a
    /// read-only disk, a folder in the way) is ``cannotCreate(path:errno:)``
    /// or ``cannotCreateFolder(path:errno:)`` (exit 73); anything else, and
    /// any failure while writing, is ``writeFailed(path:errno:)`` (exit 74,
    /// e.g. a full disk or an I/O error).
    package init(errno code: Int32, stage: Stage, path: String) {
        let refused = Self.refusals.contains(code)
        switch stage {
        case .createFolder where refused: self = .cannotCreateFolder(path: path, errno: code)
        case .create where refused, .rename where refused: self = .cannotCreate(path: path, errno: code)
        case .createFolder, .create, .write, .rename: self = .writeFailed(path: path, errno: code)
        }
    }

    /// The errnos that say "not here" rather than "the disk failed".
    package static let refusals: Set<Int32> = [
        EACCES, EPERM, EROFS, EISDIR, ENOTDIR, EEXIST, ENOTEMPTY, EBUSY, ENOENT, ENAMETOOLONG, ELOOP, ETXTBSY,
    ]
}
