#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import QuakeModel
import QuakeScene

/// Writes a tile pyramid as `DIR/z/x/y.png` (or `.pbf`, uncompressed, with the `metadata.json`
/// that GDAL and tile servers read beside vector tile folders) plus `DIR/tilejson.json`, all or
/// nothing: tiles go to a temporary folder beside `DIR`, which replaces `DIR`
/// only once every tile is written, so a failed or interrupted run leaves the
/// previous pyramid as it was.
///
/// A `DIR` that exists must be empty or look like a pyramid this writer made
/// (a `tilejson.json` and zoom-level folders, nothing else); any other folder
/// is refused rather than replaced. Tiles may be written from several threads.
package final class TileDirectoryWriter: TileSink {
    /// The pyramid's folder.
    package let path: String
    /// What the tiles hold.
    private let encoding: TileEncoding
    private let staged: StagedOutput
    /// The `z/x` folders made so far.
    private let folders = Locked<Set<String>>([])

    /// The name of the TileJSON file written beside the tiles; its presence marks a folder as a pyramid.
    private static let tileJSONName = "tilejson.json"
    /// The metadata of a vector tile folder, as tippecanoe writes it.
    private static let metadataName = "metadata.json"

    /// Prepares to write a pyramid at `path`, creating its parent folders.
    ///
    /// - Throws: ``WriteError``, e.g. ``WriteError/refusingToReplace(path:reason:)``
    ///   for a folder of other files.
    package init(path: String, encoding: TileEncoding = .png) throws {
        self.path = path
        self.encoding = encoding
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw WriteError.refusingToReplace(path: path, reason: "it is a file, not a tile folder")
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            let pyramid = entries.contains(Self.tileJSONName)
                && entries.allSatisfy { $0 == Self.tileJSONName || $0 == Self.metadataName || (!$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber }) }
            guard entries.isEmpty || pyramid else {
                throw WriteError.refusingToReplace(
                    path: path, reason: "the folder holds other files than a tile pyramid quakemap wrote (\(Self.tileJSONName), \(Self.metadataName) and zoom folders)")
            }
        }
        staged = try StagedOutput(target: path, kind: .folder)
    }

    /// Writes one tile.
    package func write(_ data: Data, for tile: TileID) throws {
        let folder = "\(staged.stagingPath)/\(tile.zoom)/\(tile.x)"
        try folders.withLock { (folders: inout Set<String>) throws(WriteError) in
            guard !folders.contains(folder) else { return }
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw WriteError(errno: StagedOutput.posixCode(of: error), stage: .createFolder, path: "\(path)/\(tile.zoom)/\(tile.x)")
            }
            folders.insert(folder)
        }
        let name = "\(tile.y).\(encoding.fileExtension)"
        // Uncompressed in a folder: a static host serves the files as they are.
        let bytes = encoding == .mvt && Gzip.isCompressed(data) ? Gzip.decompress(data) ?? data : data
        try writeFile(bytes, at: "\(folder)/\(name)", shownAs: "\(path)/\(tile.zoom)/\(tile.x)/\(name)")
    }

    /// Writes the TileJSON and puts the new pyramid in place of the old.
    package func commit(_ metadata: TileSetMetadata) throws {
        try writeFile(metadata.tileJSON(), at: "\(staged.stagingPath)/\(Self.tileJSONName)", shownAs: "\(path)/\(Self.tileJSONName)")
        if encoding == .mvt {
            var object: [String: Any] = ["name": metadata.name, "description": metadata.description, "format": "pbf",
                                         "minzoom": String(metadata.zooms.lowerBound), "maxzoom": String(metadata.zooms.upperBound),
                                         "bounds": metadata.bounds.map { String($0) }.joined(separator: ","),
                                         "json": String(decoding: metadata.vectorLayersJSON, as: UTF8.self)]
            object["attribution"] = metadata.attribution
            try writeFile(TileSetMetadata.json(object), at: "\(staged.stagingPath)/\(Self.metadataName)", shownAs: "\(path)/\(Self.metadataName)")
        }
        try staged.commit()
    }

    private func writeFile(_ data: Data, at file: String, shownAs shown: String) throws {
        // No fsync per tile: the commit syncs the whole folder at once.
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw WriteError(errno: errno, stage: .create, path: shown) }
        do {
            try AtomicFileWriter.writeAll(data, to: fd, path: shown)
        } catch {
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw WriteError(errno: errno, stage: .write, path: shown) }
    }
}
