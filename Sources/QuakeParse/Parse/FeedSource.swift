import Foundation

/// Where a feed's bytes come from.
public enum FeedSource: Sendable, Hashable {
    /// A file on disk, read in chunks so that memory does not grow with its size.
    case file(String)
    /// The process's standard input, read in chunks.
    case standardInput
    /// Bytes already in memory; `name` is used in messages (e.g. `"all_day.csv"`).
    case bytes(Data, name: String)

    /// How many bytes the source holds, when that is known before reading:
    /// a regular file's size, or the bytes'; `nil` for a pipe.
    package var byteCount: Int? {
        switch self {
        case .file(let path):
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            return Int(status.st_size)
        case .standardInput: return nil
        case .bytes(let data, _): return data.count
        }
    }

    /// Throws at once what reading would throw first when the source cannot be opened (a missing
    /// file, a folder): a job that writes something before it reads, such as an ingest, asks first.
    package func checkOpens() throws {
        guard case .file(let path) = self else { return }
        close(try ChunkReader.openForReading(path))
    }

    /// The name that messages use for this source: the path, `<stdin>`, or the given name.
    package var displayName: String {
        switch self {
        case .file(let path): return path
        case .standardInput: return "<stdin>"
        case .bytes(_, let name): return name
        }
    }
}
