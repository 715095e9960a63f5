import Foundation
import QuakeScene

/// Where a tile pyramid goes: a folder of PNGs (``TileDirectoryWriter``) or a
/// single file (the MBTiles writer of `QuakeMBTiles`). Nothing is visible at
/// the destination until ``commit(_:)``; a sink dropped without it leaves the
/// previous pyramid as it was. Sinks are `Sendable`: tiles may come from any thread.
package protocol TileSink: AnyObject, Sendable {
    /// Adds one tile.
    func write(_ data: Data, for tile: TileID) throws
    /// Finishes the pyramid and puts it in place of the previous one.
    func commit(_ metadata: TileSetMetadata) throws
}
