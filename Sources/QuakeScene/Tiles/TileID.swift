import QuakeModel

/// One tile of an XYZ pyramid: zoom `z`, column `x` from the antimeridian
/// eastward, row `y` from the north down (the "slippy map" scheme; MBTiles
/// stores rows from the south, see `tmsRow`).
public struct TileID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The zoom level.
    public let zoom: Int
    /// The column, 0 at 180° W.
    public let x: Int
    /// The row, 0 at the top.
    public let y: Int

    /// The tile, checked: zoom 0…30, x and y within 0..<2^zoom.
    ///
    /// - Throws: ``TileError/outOfRange(zoom:x:y:)``.
    public init(zoom: Int, x: Int, y: Int) throws {
        guard (0...TileID.maximumZoom).contains(zoom), (0..<(1 << zoom)).contains(x), (0..<(1 << zoom)).contains(y) else {
            throw TileError.outOfRange(zoom: zoom, x: x, y: y)
        }
        self.init(unchecked: zoom, x, y)
    }

    package init(unchecked zoom: Int, _ x: Int, _ y: Int) {
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// The deepest zoom a tile may have (tiles a few centimetres across).
    package static let maximumZoom = 30

    /// The row counted from the south, as MBTiles and TMS store it.
    package var tmsRow: Int { (1 << zoom) - 1 - y }

    /// `z/x/y`.
    public var description: String { "\(zoom)/\(x)/\(y)" }

    /// Zoom first, then column, then row: the order pyramids are written in.
    public static func < (lhs: TileID, rhs: TileID) -> Bool {
        (lhs.zoom, lhs.x, lhs.y) < (rhs.zoom, rhs.x, rhs.y)
    }
}

/// Why a tile or a tile pyramid could not be made.
public enum TileError: QuakeKitError, Equatable {
    /// A tile address outside its zoom level (or a zoom outside 0…30).
    case outOfRange(zoom: Int, x: Int, y: Int)
    /// A zoom range that is not `a-b` with 0 ≤ a ≤ b ≤ the limit.
    case invalidZoomRange(String, limit: Int)
    /// A tile side other than 256 or 512 pixels.
    case invalidTileSize(Int)
    /// A per-tile limit below 1.
    case invalidTileLimit(Int)

    /// The message.
    public var message: String {
        switch self {
        case let .outOfRange(zoom, x, y):
            return "tile \(zoom)/\(x)/\(y) does not exist: zoom must be 0…\(TileID.maximumZoom) and x, y 0…2^zoom−1"
        case let .invalidZoomRange(text, limit):
            return "zoom '\(text)' is not a level or a range like 0-6 within 0…\(limit)"
        case let .invalidTileSize(size):
            return "tile size \(size) is not 256 or 512"
        case let .invalidTileLimit(limit):
            return "per-tile limit \(limit) must be 1 or more"
        }
    }
}
