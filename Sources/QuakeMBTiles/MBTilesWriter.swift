#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GRDB
import QuakeKit

/// Writes a tile pyramid as an MBTiles 1.3 file: one SQLite database with a
/// `metadata` table and a `tiles` table whose rows count from the south (TMS),
/// as the specification says. The database is built in a temporary file
/// beside the target (a `StagedOutput`) and renamed over it once complete, so
/// a failed or interrupted run leaves the previous file as it was. Tiles may
/// be written from several threads. Vector tiles are stored gzip-compressed, with the
/// `json` metadata that lists their layer, as MBTiles 1.3 says for `pbf`.
public final class MBTilesWriter: TileSink {
    /// The MBTiles file.
    package let path: String
    /// What the tiles hold.
    private let encoding: TileEncoding
    private let staged: StagedOutput
    private let queue: DatabaseQueue
    /// Tiles not yet in the database, and their bytes.
    private let pending = Locked<(tiles: [(TileID, Data)], bytes: Int)>(([], 0))

    /// Prepares to write PNG tiles to `path`, creating its folder.
    ///
    /// - Throws: `WriteError` when the folder or the temporary database cannot be made.
    public convenience init(path: String) throws {
        try self.init(path: path, encoding: .png)
    }

    /// Prepares to write `path` for tiles of `encoding` (vector tiles are stored gzip-compressed).
    ///
    /// - Throws: `WriteError` when the folder or the temporary database cannot be made.
    package init(path: String, encoding: TileEncoding) throws {
        self.path = path
        self.encoding = encoding
        staged = try StagedOutput.file(replacing: path, kind: "an MBTiles file")
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // A file built once and renamed into place needs no journal.
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        }
        do {
            // SQLite opens the (empty) staging file itself; the stage's descriptor only syncs it at the commit.
            queue = try DatabaseQueue(path: staged.stagingPath, configuration: configuration)
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
            throw WriteError(errno: Self.posixCode(error, otherwise: EACCES), stage: .create, path: path)
        }
    }

    deinit {
        // Closed before the stage removes the file.
        if !staged.isCommitted { try? queue.close() }
    }

    /// Adds one tile (written to the database in batches, one transaction each).
    public func write(_ data: Data, for tile: TileID) throws {
        let data = encoding == .mvt && !Gzip.isCompressed(data) ? Gzip.compress(data) : data
        let batch = pending.withLock { pending -> [(TileID, Data)] in
            pending.tiles.append((tile, data))
            pending.bytes += data.count
            guard pending.tiles.count >= 512 || pending.bytes >= 16 << 20 else { return [] }
            defer { pending = ([], 0) }
            return pending.tiles
        }
        try insert(batch)
    }

    /// Writes the metadata and renames the finished file over `path`.
    public func commit(_ metadata: TileSetMetadata) throws {
        try insert(pending.withLock { pending in
            defer { pending = ([], 0) }
            return pending.tiles
        })
        let bounds = metadata.bounds.map { String(format: "%.6f", $0) }.joined(separator: ",")
        var rows: [(String, String)] = [
            ("name", metadata.name),
            ("description", metadata.description),
            ("format", metadata.encoding == .mvt ? "pbf" : "png"),
            ("type", "overlay"),
            ("version", "1.0.0"),
            ("minzoom", String(metadata.zooms.lowerBound)),
            ("maxzoom", String(metadata.zooms.upperBound)),
            ("bounds", bounds),
            ("center", "0,0,\(metadata.zooms.lowerBound)"),
        ]
        if metadata.encoding == .png { rows.append(("tileSize", String(metadata.tileSize))) }
        if metadata.encoding == .mvt { rows.append(("json", String(decoding: metadata.vectorLayersJSON, as: UTF8.self))) }
        if let attribution = metadata.attribution { rows.append(("attribution", attribution)) }
        do {
            try queue.write { db in
                for (name, value) in rows {
                    try db.execute(sql: "INSERT INTO metadata (name, value) VALUES (?, ?)", arguments: [name, value])
                }
            }
            try queue.close()
        } catch {
            throw WriteError(errno: Self.posixCode(error, otherwise: EIO), stage: .write, path: path)
        }
        try staged.commit()
    }

    /// Inserts a batch of tiles in one transaction.
    private func insert(_ batch: [(TileID, Data)]) throws {
        guard !batch.isEmpty else { return }
        do {
            try queue.write { db in
                let insert = try db.makeStatement(
                    sql: "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
                for (tile, data) in batch {
                    try insert.execute(arguments: [tile.zoom, tile.x, tile.tmsRow, data])
                }
            }
        } catch {
            throw WriteError(errno: Self.posixCode(error, otherwise: EIO), stage: .write, path: path)
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
