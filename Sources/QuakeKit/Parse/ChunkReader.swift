#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Hands a source's bytes to a consumer in bounded chunks, so parsing a file of
/// any size needs only one chunk of memory at a time.
enum ChunkReader {
    static let chunkSize = 1 << 20

    /// Calls `body` with successive chunks of the source until it is exhausted.
    static func forEachChunk(
        of source: FeedSource,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        switch source {
        case .bytes(let data, _):
            try data.withUnsafeBytes { try body($0) }
        case .standardInput:
            try readDescriptor(STDIN_FILENO, name: source.displayName, body)
        case .file(let path):
            let fd = try openForReading(path)
            defer { close(fd) }
            try readDescriptor(fd, name: path, body)
        }
    }

    private static func openForReading(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FeedError.cannotOpen(path: path, errno: errno) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw FeedError.cannotOpen(path: path, errno: EISDIR)
        }
        return fd
    }

    private static func readDescriptor(
        _ fd: Int32, name: String,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw FeedError.readFailed(path: name, errno: errno)
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}
