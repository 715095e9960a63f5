#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
