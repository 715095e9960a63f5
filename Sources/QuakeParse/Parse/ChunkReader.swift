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
/// truncates meanwhile kills the reader with SIGBUS. A regular file's next
/// chunk is read on another thread while the consumer works on the window
/// (the copy out of the page cache is a tenth of a big feed's parse, and
/// otherwise no other core does anything meanwhile); a pipe is read only when
/// asked, since a read ahead on one may wait for ever on a writer that is done.
package enum ChunkReader {
    package static let chunkSize = 1 << 20

    /// Calls `body` with successive windows of the source until it is
    /// exhausted; `isLast` is true for the final one, which must be used up.
    ///
    /// - Parameters:
    ///   - chunkSize: bytes read at a time (tests make it small to cut anywhere).
    ///   - copyingBytes: read in-memory sources through the same copying
    ///     loop as files and pipes, not as slices (for tests of that loop).
    ///   - body: returns how many bytes of the window it used.
    package static func forEachWindow(
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
            let size = max(chunkSize ?? Self.chunkSize, 1)
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                return try windows(chunkSize: size, fill: { try readSome(fd, into: $0, name: path) }, body)
            }
            let ahead = ReadAhead(fd: fd, name: path, chunkSize: size)
            defer { ahead.finish() }
            try windows(chunkSize: size, fill: { try ahead.fill($0) }, body)
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

    /// Reads a regular file a chunk ahead of its consumer, on a thread of its own. Not on a
    /// dispatch queue: the consumer blocks until the chunk is read, and on one core it can hold
    /// the global queues' only thread itself, so that the read waited about a second, each
    /// time, for libdispatch to add a thread (1.4 s instead of 0.4 s for a 1 M-row map).
    private final class ReadAhead: @unchecked Sendable {
        // @unchecked: the reading thread touches `count`, `offset`, `failure` and the buffer only
        // between `go`'s signal and `done`'s, and the consumer waits for `done` before it looks at
        // them; `stopping` is set before the last `go`.
        private let fd: Int32
        private let name: String
        private let buffer: UnsafeMutableRawBufferPointer
        private var count = 0
        private var offset = 0
        private var failure: Error?
        private var pending = false
        private var stopping = false
        private let go = DispatchSemaphore(value: 0)
        private let done = DispatchSemaphore(value: 0)

        package init(fd: Int32, name: String, chunkSize: Int) {
            self.fd = fd
            self.name = name
            buffer = .allocate(byteCount: chunkSize, alignment: 16)
            let thread = Thread { [self] in
                while true {
                    go.wait()
                    if stopping { return }
                    readChunk()
                    done.signal()
                }
            }
            thread.name = "quakemap-read-ahead"
            thread.start()
        }

        /// Copies read-ahead bytes into `space`, waiting for them if need be; 0 at the end.
        package func fill(_ space: UnsafeMutableRawBufferPointer) throws -> Int {
            // A read in flight owns `count` and `offset` until it signals.
            if pending { wait() }
            if let failure { throw failure }
            if offset == count {
                start()
                wait()
                if let failure { throw failure }
                if count == 0 { return 0 }
            }
            let taken = min(space.count, count - offset)
            space.baseAddress!.copyMemory(from: buffer.baseAddress! + offset, byteCount: taken)
            offset += taken
            if offset == count { start() }
            return taken
        }

        /// Waits for a read in flight, ends the thread, then frees the buffer.
        package func finish() {
            if pending { wait() }
            stopping = true
            go.signal()
            buffer.deallocate()
        }

        private func start() {
            pending = true
            go.signal()
        }

        private func readChunk() {
            var total = 0
            do {
                while total < buffer.count {
                    let got = try ChunkReader.readSome(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...]), name: name)
                    if got == 0 { break }
                    total += got
                }
            } catch {
                failure = error
            }
            count = total
            offset = 0
        }

        private func wait() {
            done.wait()
            pending = false
        }
    }

    private static func readSome(_ fd: Int32, into space: UnsafeMutableRawBufferPointer, name: String) throws -> Int {
        while true {
            let count = read(fd, space.baseAddress, space.count)
            if count >= 0 { return count }
            if errno != EINTR { throw FeedError.readFailed(path: name, errno: errno) }
        }
    }

    static func openForReading(_ path: String) throws -> Int32 {
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
