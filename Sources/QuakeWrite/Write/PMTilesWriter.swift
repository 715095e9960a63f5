#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import QuakeModel
import QuakeScene

/// Writes a tile pyramid as one PMTiles v3 archive, for static hosting with range requests:
/// a header, a root directory and leaf directories (gzip), the metadata (gzip JSON), and the tiles
/// in Hilbert order ("clustered"), identical tiles stored once and runs of them as one entry.
///
/// Tiles arrive in any order and are spooled to a temporary file beside the target; the archive is
/// laid out at ``commit(_:)`` in a second temporary, renamed over the target when complete, so a
/// failed or interrupted run leaves the previous archive as it was. Tiles may come from any thread.
package final class PMTilesWriter: TileSink {
    /// The archive's path.
    package let path: String
    /// How tiles are stored: vector tiles gzip-compressed, as PMTiles readers expect them.
    private let encoding: TileEncoding
    private let staged: StagedOutput
    private let spool: StagedOutput
    private let state = Locked(Spool())

    private struct Spool {
        /// Each tile: its Hilbert id, and where its bytes are in the spool.
        var entries: [(id: UInt64, offset: UInt64, length: UInt32)] = []
        /// A tile's digest and length to where its bytes already are.
        var stored: [Content: UInt64] = [:]
        var written: UInt64 = 0
    }

    private struct Content: Hashable {
        var digest: UInt64
        var length: Int
    }

    /// The root directory, with the header, must fit the first 16 KiB a client reads.
    private static let rootBudget = 16_384 - 127

    /// Prepares to write `path`; vector tiles are stored gzip-compressed.
    ///
    /// - Throws: ``WriteError`` when the folder or the temporaries cannot be made.
    package init(path: String, encoding: TileEncoding) throws {
        self.path = path
        self.encoding = encoding
        staged = try StagedOutput.file(replacing: path, kind: "a PMTiles file")
        spool = try StagedOutput(target: path + ".tiles", kind: .file)
    }

    /// Adds one tile (vector tiles are compressed here, once).
    package func write(_ data: Data, for tile: TileID) throws {
        let stored = encoding == .mvt && !Gzip.isCompressed(data) ? Gzip.compress(data) : data
        var hash = FNV1a()
        stored.withUnsafeBytes { hash.mix(bytes: $0) }
        let content = Content(digest: hash.value, length: stored.count)
        let id = Self.tileID(tile)
        try state.withLock { spool in
            if let offset = spool.stored[content] {
                spool.entries.append((id, offset, UInt32(stored.count)))
                return
            }
            try stored.withUnsafeBytes { bytes in
                guard pwrite(self.spool.descriptor, bytes.baseAddress, bytes.count, off_t(spool.written)) == bytes.count else {
                    throw WriteError(errno: errno, stage: .write, path: path)
                }
            }
            spool.stored[content] = spool.written
            spool.entries.append((id, spool.written, UInt32(stored.count)))
            spool.written += UInt64(stored.count)
        }
    }

    /// Lays out the archive and puts it in place of the previous one.
    package func commit(_ metadata: TileSetMetadata) throws {
        let spooled = state.withLock { $0 }
        // Tiles in Hilbert order; each content placed where it first appears in that order.
        let sorted = spooled.entries.sorted { $0.id < $1.id }
        var placed: [UInt64: UInt64] = [:]
        var copies: [(from: UInt64, length: UInt32)] = []
        var dataLength: UInt64 = 0
        var entries: [Entry] = []
        for tile in sorted {
            let offset: UInt64
            if let known = placed[tile.offset] {
                offset = known
            } else {
                offset = dataLength
                placed[tile.offset] = offset
                copies.append((tile.offset, tile.length))
                dataLength += UInt64(tile.length)
            }
            if var last = entries.last, last.offset == offset, last.tileID + UInt64(last.runLength) == tile.id {
                last.runLength += 1
                entries[entries.count - 1] = last
            } else {
                entries.append(Entry(tileID: tile.id, offset: offset, length: tile.length, runLength: 1))
            }
        }
        let (root, leaves) = Self.directories(entries)
        var json = Self.metadataObject(metadata)
        json["vector_layers"] = metadata.encoding != .mvt ? nil
            : metadata.isBasemap ? BasemapVectorTiles.layerDescriptions : [QuakeVectorLayer.description(zooms: metadata.zooms)]
        let metadataBytes = Gzip.compress(TileSetMetadata.json(json, pretty: false))

        var header = Data()
        func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) } }
        func i32(_ value: Int32) { withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) } }
        header.append(contentsOf: Array("PMTiles".utf8))
        header.append(3)
        let rootOffset: UInt64 = 127
        let metadataOffset = rootOffset + UInt64(root.count)
        let leavesOffset = metadataOffset + UInt64(metadataBytes.count)
        let dataOffset = leavesOffset + UInt64(leaves.count)
        u64(rootOffset); u64(UInt64(root.count))
        u64(metadataOffset); u64(UInt64(metadataBytes.count))
        u64(leavesOffset); u64(UInt64(leaves.count))
        u64(dataOffset); u64(dataLength)
        u64(UInt64(sorted.count)); u64(UInt64(entries.count)); u64(UInt64(copies.count))
        header.append(1)  // clustered
        header.append(2)  // directories and metadata: gzip
        header.append(metadata.encoding == .mvt ? 2 : 1)  // tiles: gzip, or none for PNG
        header.append(metadata.encoding == .mvt ? 1 : 2)  // MVT or PNG
        header.append(UInt8(metadata.zooms.lowerBound))
        header.append(UInt8(metadata.zooms.upperBound))
        let bounds = metadata.bounds.map { Int32(($0 * 10_000_000).rounded()) }
        i32(bounds[0]); i32(bounds[1]); i32(bounds[2]); i32(bounds[3])
        header.append(UInt8(metadata.zooms.lowerBound))
        i32(0); i32(0)
        precondition(header.count == 127, "a PMTiles v3 header is 127 bytes")

        let fd = staged.descriptor
        var written: UInt64 = 0
        func put(_ data: Data) throws {
            try AtomicFileWriter.writeAll(data, to: fd, path: path)
            written += UInt64(data.count)
        }
        try put(header)
        try put(root)
        try put(metadataBytes)
        try put(leaves)
        // The tiles, copied from the spool in their new order, a megabyte at a time.
        var buffer = Data()
        for copy in copies {
            var chunk = Data(count: Int(copy.length))
            let read = chunk.withUnsafeMutableBytes { pread(spool.descriptor, $0.baseAddress, Int(copy.length), off_t(copy.from)) }
            guard read == Int(copy.length) else { throw WriteError(errno: errno, stage: .write, path: path) }
            buffer.append(chunk)
            if buffer.count >= 1 << 20 {
                try put(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try put(buffer)
        try staged.commit()
    }

    /// The archive's JSON metadata, as PMTiles readers and MapLibre read it.
    private static func metadataObject(_ metadata: TileSetMetadata) -> [String: Any] {
        var object: [String: Any] = ["name": metadata.name, "description": metadata.description, "version": "1.0.0",
                                     "type": "overlay", "format": metadata.encoding == .mvt ? "pbf" : "png"]
        if let attribution = metadata.attribution { object["attribution"] = attribution }
        return object
    }

    /// One directory entry: `runLength` tiles from `tileID` on, with the same bytes; 0 for a leaf directory.
    struct Entry: Equatable {
        var tileID: UInt64
        var offset: UInt64
        var length: UInt32
        var runLength: UInt32
    }

    /// The root directory, and the leaf directories it points to when the entries do not fit it.
    static func directories(_ entries: [Entry]) -> (root: Data, leaves: Data) {
        let whole = Gzip.compress(serialize(entries))
        if whole.count <= rootBudget { return (whole, Data()) }
        var leafSize = 4096
        while true {
            var leaves = Data()
            var rootEntries: [Entry] = []
            for start in stride(from: 0, to: entries.count, by: leafSize) {
                let leaf = Gzip.compress(serialize(Array(entries[start..<min(start + leafSize, entries.count)])))
                rootEntries.append(Entry(tileID: entries[start].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
                leaves.append(leaf)
            }
            let root = Gzip.compress(serialize(rootEntries))
            if root.count <= rootBudget { return (root, leaves) }
            leafSize *= 2
        }
    }

    /// A directory's bytes: the count, then each column as varints (ids as deltas, offsets as 0
    /// where a tile follows the one before, else the offset + 1).
    static func serialize(_ entries: [Entry]) -> Data {
        var bytes: [UInt8] = []
        func varint(_ value: UInt64) { EventDetails.appendVarint(value, to: &bytes) }
        varint(UInt64(entries.count))
        var last: UInt64 = 0
        for entry in entries {
            varint(entry.tileID - last)
            last = entry.tileID
        }
        for entry in entries { varint(UInt64(entry.runLength)) }
        for entry in entries { varint(UInt64(entry.length)) }
        for (index, entry) in entries.enumerated() {
            if index > 0, entry.offset == entries[index - 1].offset + UInt64(entries[index - 1].length) {
                varint(0)
            } else {
                varint(entry.offset + 1)
            }
        }
        return Data(bytes)
    }

    /// The tile's position along the archive's order: all tiles of lower zooms, then the tile's
    /// place on the Hilbert curve of its zoom.
    package static func tileID(_ tile: TileID) -> UInt64 {
        var accumulated = ((UInt64(1) << UInt64(2 * tile.zoom)) - 1) / 3
        var x = UInt64(tile.x), y = UInt64(tile.y)
        var level = tile.zoom - 1
        while level >= 0 {
            let side = UInt64(1) << UInt64(level)
            let rx: UInt64 = x & side != 0 ? 1 : 0
            let ry: UInt64 = y & side != 0 ? 1 : 0
            accumulated += ((3 * rx) ^ ry) << UInt64(2 * level)
            // Rotate the quadrant, as the curve does.
            if ry == 0 {
                if rx == 1 {
                    x = side &- 1 &- x
                    y = side &- 1 &- y
                }
                swap(&x, &y)
            }
            level -= 1
        }
        return accumulated
    }
}
