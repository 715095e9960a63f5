import QuakeParse

/// How tiles look and how full they may get.
public struct TileOptions: Sendable, Hashable {
    /// The per-tile limit of map clients' paging layers, which ask each tile for
    /// at most 2000 features.
    public static let defaultTileLimit = 2000

    /// Pixels along a tile's side: 256, or 512 for high-density screens (the
    /// same ground as a 256-pixel tile at twice the pixels, circles twice as large).
    package var tileSize: Int
    /// At most this many events whose centre lies in a tile, keeping the largest
    /// magnitudes; `nil` keeps all.
    package var tileLimit: Int?
    /// Circle sizes and what their colour tells, as on maps: the initializer's `style` and `coloring`.
    package var symbols: SymbolStyle

    /// Creates options, checked.
    ///
    /// - Throws: ``TileError`` for a tile size other than 256 or 512, or a limit below 1;
    ///   ``MapOptionsError`` for a style out of range (a symbol scale not above 0 or over 100, a
    ///   minimum diameter outside 0…1000 pixels).
    public init(tileSize: Int = 256, tileLimit: Int? = TileOptions.defaultTileLimit,
                style: MagnitudeStyle = MagnitudeStyle(), coloring: SymbolColoring = .magnitude) throws {
        guard tileSize == 256 || tileSize == 512 else { throw TileError.invalidTileSize(tileSize) }
        if let tileLimit, tileLimit < 1 { throw TileError.invalidTileLimit(tileLimit) }
        try style.validate()
        self.tileSize = tileSize
        self.tileLimit = tileLimit
        self.symbols = SymbolStyle(sizes: style, coloring: coloring)
    }

    /// Circle diameters are multiplied by this: 1 for 256-pixel tiles, 2 for 512.
    package var scale: Double { Double(tileSize) / 256 }

    /// Reads a zoom level or range: `4`, `0-6`, within 0…`limit`.
    ///
    /// - Throws: ``TileError/invalidZoomRange(_:limit:)``.
    package static func zoomRange(parsing text: String, limit: Int = TileID.maximumZoom) throws -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let numbers = parts.map { part in part.allSatisfy(\.isASCII) ? Int(part) : nil }
        guard (1...2).contains(parts.count), let low = numbers.first ?? nil, let high = numbers.last ?? nil,
              0 <= low, low <= high, high <= limit else {
            throw TileError.invalidZoomRange(text, limit: limit)
        }
        return low...high
    }
}
