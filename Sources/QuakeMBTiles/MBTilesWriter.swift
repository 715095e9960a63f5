#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GRDB
import QuakeKit

/// Writes a tile pyramid as an MBTiles 1.3 file: one SQLite database with a
/// `metadata` table and a `tiles` table whose rows count from the south (TMS),
/// as the specification says. The database is built in a temporary file
/// beside the target and renamed over it once complete, so a failed or
/// interrupted run leaves the previous file as it was.
public final class MBTilesWriter: TileSink {
    /// The MBTiles file.
    public let path: String
    private let temporary: String
    private let queue: DatabaseQueue
    private var pending: [(TileID, Data)] = []
    private var pendingBytes = 0
    private var committed = false

    /// Prepares to write `path`, creating its folder.
    ///
    /// - Throws: `WriteError` when the folder or the temporary database cannot be made.
    public init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        // Refused before drawing, not at the final rename.
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw WriteError.refusingToReplace(path: path, reason: "it is a folder, not an MBTiles file")
        }
        try AtomicFileWriter.createFolder(folder)
        let prefix = "." + url.lastPathComponent + ".tmp-"
        AtomicFileWriter.removeAbandoned(in: folder, prefix: prefix)
        temporary = folder + "/" + prefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        AtomicFileWriter.track(temporary, inProgress: true)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // A file built once and renamed into place needs no journal.
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        }
        do {
            queue = try DatabaseQueue(path: temporary, configuration: configuration)
            try queue.write { db in
                try db.execute(sql: """
                    PRAGMA application_id = 0x4d504258;
                    CREATE TABLE metadata (name TEXT, value TEXT);
                    CREATE UNIQUE INDEX name ON metadata (name);
                    CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                    CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                    """)
            }
        } catch {
            unlink(temporary)
            AtomicFileWriter.track(temporary, inProgress: false)
            throw WriteError.cannotCreate(path: path, errno: Self.posixCode(error, otherwise: EACCES))
        }
    }

    deinit {
        if !committed {
            try? queue.close()
            unlink(temporary)
        }
        AtomicFileWriter.track(temporary, inProgress: false)
    }

    /// Adds one tile (written to the database in batches, one transaction each).
    public func write(_ data: Data, for tile: TileID) throws {
        pending.append((tile, data))
        pendingBytes += data.count
        if pending.count >= 512 || pendingBytes >= 16 << 20 { try flush() }
    }

    /// Writes the metadata and renames the finished file over `path`.
    public func commit(_ metadata: TileSetMetadata) throws {
        try flush()
        let bounds = metadata.bounds.map { String(format: "%.6f", $0) }.joined(separator: ",")
        let rows: [(String, String)] = [
            ("name", metadata.name),
            ("description", metadata.description),
            ("format", "png"),
            ("type", "overlay"),
            ("version", "1.0.0"),
            ("minzoom", String(metadata.zooms.lowerBound)),
            ("maxzoom", String(metadata.zooms.upperBound)),
            ("bounds", bounds),
            ("center", "0,0,\(metadata.zooms.lowerBound)"),
            ("tileSize", String(metadata.tileSize)),
        ]
        do {
            try queue.write { db in
                for (name, value) in rows {
                    try db.execute(sql: "INSERT INTO metadata (name, value) VALUES (?, ?)", arguments: [name, value])
                }
            }
            try queue.close()
        } catch {
            throw WriteError.writeFailed(path: path, errno: Self.posixCode(error, otherwise: EIO))
        }
        let fd = open(temporary, O_RDONLY)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            throw code == EISDIR || code == EACCES ? WriteError.cannotCreate(path: path, errno: code)
                : WriteError.writeFailed(path: path, errno: code)
        }
        committed = true
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending = []
        pendingBytes = 0
        do {
            try queue.write { db in
                let insert = try db.makeStatement(
                    sql: "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
                for (tile, data) in batch {
                    try insert.execute(arguments: [tile.zoom, tile.x, tile.tmsRow, data])
                }
            }
        } catch {
            throw WriteError.writeFailed(path: path, errno: Self.posixCode(error, otherwise: EIO))
        }
    }

    /// The POSIX error closest to what SQLite said: a full disk, a denied file, or `otherwise`.
    private static func posixCode(_ error: any Error, otherwise: Int32) -> Int32 {
        guard let error = error as? DatabaseError else { return otherwise }
        switch error.resultCode {
        case .SQLITE_FULL: return ENOSPC
        case .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_CANTOPEN: return EACCES
        default: return otherwise
        }
    }
}
