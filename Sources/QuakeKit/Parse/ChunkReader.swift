#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Hands a source's bytes to a consumer in bounded windows, so parsing a file
/// of any size needs only a window of memory at a time.
///
/// The consumer says how much of each window it used; the rest (an incomplete
/// record) is moved to the front and the next read appends to it, so every
/// window starts where the consumer left off and records are never split.
/// Plain `read(2)` rather than `mmap`: a mapped file that another program
/// truncates meanwhile kills the reader with SIGBUS.
enum ChunkReader {
    static let chunkSize = 1 << 20

    /// Calls `body` with successive windows of the source until it is
    /// exhausted; `isLast` is true for the final one, which must be used up.
    ///
    /// - Parameters:
    ///   - chunkSize: bytes read at a time (tests make it small to cut anywhere).
    ///   - copyingBytes: read in-memory sources through the same copying
    ///     loop as files and pipes, not as slices (for tests of that loop).
    ///   - body: returns how many bytes of the window it used.
    static func forEachWindow(
        of source: FeedSource,
        chunkSize: Int? = nil,
        copyingBytes: Bool = false,
        _ body: (UnsafeRawBufferPointer, _ isLast: Bool) throws -> Int
    ) throws {
        switch source {
        case .bytes(let data, _) where copyingBytes:
            var offset = data.startIndex
            let size = chunkSize ?? Self.chunkSize
            try windows(chunkSize: size, fill: { space in
                let count = min(space.count, size, data.endIndex - offset)
                data.copyBytes(to: space.bindMemory(to: UInt8.self), from: offset..<(offset + count))
                offset += count
                return count
            }, body)
        case .bytes(let data, _):
            // Already contiguous: windows are slices, one chunk further each time.
            let size = max(chunkSize ?? Self.chunkSize, 1)
            try data.withUnsafeBytes { all in
                var start = 0, end = min(size, all.count)
                while true {
                    let isLast = end == all.count
                    let used = try body(UnsafeRawBufferPointer(rebasing: all[start..<end]), isLast)
                    if isLast { return }
                    start += used
                    end = min(all.count, end + size)
                }
            }
        case .standardInput:
            try windows(chunkSize: chunkSize ?? Self.chunkSize, fill: { try readSome(STDIN_FILENO, into: $0, name: source.displayName) }, body)
        case .file(let path):
            let fd = try openForReading(path)
            defer { close(fd) }
            try windows(chunkSize: chunkSize ?? Self.chunkSize, fill: { try readSome(fd, into: $0, name: path) }, body)
        }
    }

    /// The carry-over loop: `fill` appends fresh bytes (0 at the end of the input).
    private static func windows(
        chunkSize: Int,
        fill: (UnsafeMutableRawBufferPointer) throws -> Int,
        _ body: (UnsafeRawBufferPointer, Bool) throws -> Int
    ) throws {
        var capacity = max(chunkSize * 2, 64)
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var filled = 0
        while true {
            // Read a chunk's worth more than was carried over, or up to the end.
            var ended = false
            let target = filled + chunkSize
            while filled < target {
                let count = try fill(UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<capacity]))
                if count == 0 { ended = true; break }
                filled += count
            }
            let window = UnsafeRawBufferPointer(rebasing: buffer[0..<filled])
            if ended {
                _ = try body(window, true)
                return
            }
            let used = try body(window, false)
            let rest = filled - used
            if used > 0 && rest > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + used, byteCount: rest)
            }
            filled = rest
            // What is left must leave room for a whole chunk more.
            if capacity - filled < chunkSize {
                capacity = filled + chunkSize * 2
                let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
                grown.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: filled)
                buffer.deallocate()
                buffer = grown
            }
        }
    }

    private static func readSome(_ fd: Int32, into space: UnsafeMutableRawBufferPointer, name: String) throws -> Int {
        while true {
            let count = read(fd, space.baseAddress, space.count)
            if count >= 0 { return count }
            if errno != EINTR { throw FeedError.readFailed(path: name, errno: errno) }
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
}
