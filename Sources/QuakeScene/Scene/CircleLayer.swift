import QuakeGeo

/// The circles of a scene, stored column by column: positions and diameters as
/// they are, fills as indices into a palette of the distinct colours (a map has
/// a few hundred at most), shapes as a byte each. A million circles take
/// about 45 MB instead of 72; 29 MB without their event ids, which a layer made for drawing
/// alone leaves out (``SceneBuilder/keepsEventIDs``: its circles read with an empty id).
/// Reads like an array of ``SceneCircle``.
package struct CircleLayer: RandomAccessCollection, Sendable, Hashable, ExpressibleByArrayLiteral {
    package private(set) var xs: [Double] = []
    package private(set) var ys: [Double] = []
    package private(set) var diameters: [Double] = []
    package private(set) var fillIndices: [UInt32] = []
    /// ``SymbolShape`` raw values.
    package private(set) var shapes: [UInt8] = []
    private var fills = FillPalette()
    /// One a circle, or none at all (a layer made without them).
    private var ids: [String] = []

    /// The distinct fills, in the order `fillIndices` number them.
    package var palette: [RGBA] { fills.colors }

    /// An empty layer.
    package init() {}

    /// A layer of these columns, which must be equally long (`ids` may be empty: no ids).
    package init(xs: [Double], ys: [Double], diameters: [Double], fillIndices: [UInt32], shapes: [UInt8], fills: FillPalette,
         ids: [String]) {
        precondition(Set([xs.count, ys.count, diameters.count, fillIndices.count, shapes.count, ids.isEmpty ? xs.count : ids.count]).count == 1,
                     "one value per circle in every column")
        self.xs = xs
        self.ys = ys
        self.diameters = diameters
        self.fillIndices = fillIndices
        self.shapes = shapes
        self.fills = fills
        self.ids = ids
    }

    /// A layer of `circles`, in order.
    package init<S: Sequence>(_ circles: S) where S.Element == SceneCircle {
        for circle in circles { append(circle) }
    }

    /// A layer of the listed circles.
    package init(arrayLiteral circles: SceneCircle...) {
        self.init(circles)
    }

    /// Adds a circle on top.
    package mutating func append(_ circle: SceneCircle) {
        xs.append(circle.center.x)
        ys.append(circle.center.y)
        // A layer made without ids stays without.
        if ids.count == xs.count - 1 { ids.append(circle.eventID) }
        diameters.append(circle.diameter)
        fillIndices.append(fills.index(of: circle.fill))
        shapes.append(circle.shape.rawValue)
    }

    /// Makes room for `count` circles.
    package mutating func reserveCapacity(_ count: Int) {
        xs.reserveCapacity(count)
        ys.reserveCapacity(count)
        diameters.reserveCapacity(count)
        fillIndices.reserveCapacity(count)
        shapes.reserveCapacity(count)
        ids.reserveCapacity(count)
    }

    /// The first position.
    package var startIndex: Int { 0 }
    /// One past the last position.
    package var endIndex: Int { xs.count }

    /// The circle at `index`.
    package subscript(index: Int) -> SceneCircle {
        SceneCircle(center: PixelPoint(x: xs[index], y: ys[index]), diameter: diameters[index],
                    fill: fills.colors[Int(fillIndices[index])], eventID: ids.isEmpty ? "" : ids[index],
                    shape: SymbolShape(rawValue: shapes[index]) ?? .circle)
    }

    package static func == (lhs: CircleLayer, rhs: CircleLayer) -> Bool {
        lhs.elementsEqual(rhs)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for circle in self { hasher.combine(circle) }
    }
}

/// A layer's distinct fills, each numbered once.
package struct FillPalette: Sendable {
    package private(set) var colors: [RGBA] = []
    private var numbers: [RGBA: UInt32] = [:]
    private var recent = RecentFills()
    private var lookups = 0

    /// The number of `fill`, given it if it is new.
    package mutating func index(of fill: RGBA) -> UInt32 {
        // The cache pays for its 11 KB only in a big layer, not in a tile's.
        lookups += 1
        guard lookups > 1024 else { return number(of: fill) }
        if let index = recent.index(of: fill) { return index }
        let index = number(of: fill)
        recent.remember(fill, at: index)
        return index
    }

    private mutating func number(of fill: RGBA) -> UInt32 {
        if let known = numbers[fill] { return known }
        let index = UInt32(colors.count)
        colors.append(fill)
        numbers[fill] = index
        return index
    }
}

/// A direct-mapped cache in front of the palette's dictionary: hashing four
/// Doubles per circle was a large share of a million-circle scene, and a
/// map's few hundred fills nearly all stay in 256 slots. Made on first use,
/// which ``FillPalette`` puts off until a layer is big enough to gain.
private struct RecentFills: Sendable {
    private static let slots = 256
    private var fills: [RGBA?] = []
    private var indices: [UInt32] = []

    private static func slot(_ fill: RGBA) -> Int {
        let mixed = (fill.red.bitPattern &* 0x9E37_79B9_7F4A_7C15) ^ (fill.green.bitPattern &* 0xC2B2_AE3D_27D4_EB4F)
            ^ (fill.blue.bitPattern &* 0x1656_67B1_9E37_79F9) ^ (fill.alpha.bitPattern &* 0x27D4_EB2F_1656_67C5)
        return Int(truncatingIfNeeded: mixed >> 56) % slots
    }

    package func index(of fill: RGBA) -> UInt32? {
        guard !fills.isEmpty else { return nil }
        let slot = Self.slot(fill)
        return fills[slot] == fill ? indices[slot] : nil
    }

    package mutating func remember(_ fill: RGBA, at index: UInt32) {
        if fills.isEmpty {
            fills = Array(repeating: nil, count: Self.slots)
            indices = Array(repeating: 0, count: Self.slots)
        }
        let slot = Self.slot(fill)
        fills[slot] = fill
        indices[slot] = index
    }
}
