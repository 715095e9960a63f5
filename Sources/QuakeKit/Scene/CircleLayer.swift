/// The circles of a scene, stored column by column: positions and diameters as
/// they are, fills as indices into a palette of the distinct colours (a map has
/// a few hundred at most). A million circles take about 44 MB instead of 72.
/// Reads like an array of ``SceneCircle``.
public struct CircleLayer: RandomAccessCollection, Sendable, Hashable, ExpressibleByArrayLiteral {
    private(set) var xs: [Double] = []
    private(set) var ys: [Double] = []
    private(set) var diameters: [Double] = []
    private(set) var fillIndices: [UInt32] = []
    private(set) var palette: [RGBA] = []
    private var paletteIndex: [RGBA: UInt32] = [:]
    private var ids: [String] = []

    /// An empty layer.
    public init() {}

    /// A layer of `circles`, in order.
    public init<S: Sequence>(_ circles: S) where S.Element == SceneCircle {
        for circle in circles { append(circle) }
    }

    /// A layer of the listed circles.
    public init(arrayLiteral circles: SceneCircle...) {
        self.init(circles)
    }

    /// Adds a circle on top.
    public mutating func append(_ circle: SceneCircle) {
        xs.append(circle.center.x)
        ys.append(circle.center.y)
        diameters.append(circle.diameter)
        ids.append(circle.eventID)
        if let index = paletteIndex[circle.fill] {
            fillIndices.append(index)
        } else {
            let index = UInt32(palette.count)
            palette.append(circle.fill)
            paletteIndex[circle.fill] = index
            fillIndices.append(index)
        }
    }

    /// Puts the circles in `order` (indices into the layer as it is), each
    /// followed by its copies `shift` pixels east (bit 0 of `copies[index]`)
    /// and west (bit 1). Column by column, so at most one extra column is
    /// held at a time.
    mutating func reorder(_ order: [UInt32], copies: [UInt8], shift: Double) {
        let extra = copies.reduce(0) { $0 + Int($1 & 1) + Int($1 >> 1 & 1) }
        let total = order.count + extra
        func reordered<T>(_ column: [T], _ copy: (T, Bool) -> T) -> [T] {
            var result: [T] = []
            result.reserveCapacity(total)
            for index in order {
                let value = column[Int(index)]
                result.append(value)
                guard !copies.isEmpty else { continue }
                let flags = copies[Int(index)]
                if flags & 1 != 0 { result.append(copy(value, true)) }
                if flags & 2 != 0 { result.append(copy(value, false)) }
            }
            return result
        }
        xs = reordered(xs) { x, east in east ? x + shift : x - shift }
        ys = reordered(ys) { y, _ in y }
        diameters = reordered(diameters) { d, _ in d }
        fillIndices = reordered(fillIndices) { f, _ in f }
        ids = reordered(ids) { id, _ in id }
    }

    /// Makes room for `count` circles.
    public mutating func reserveCapacity(_ count: Int) {
        xs.reserveCapacity(count)
        ys.reserveCapacity(count)
        diameters.reserveCapacity(count)
        fillIndices.reserveCapacity(count)
        ids.reserveCapacity(count)
    }

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { xs.count }

    /// The circle at `index`.
    public subscript(index: Int) -> SceneCircle {
        SceneCircle(center: PixelPoint(x: xs[index], y: ys[index]), diameter: diameters[index],
                    fill: palette[Int(fillIndices[index])], eventID: ids[index])
    }

    public static func == (lhs: CircleLayer, rhs: CircleLayer) -> Bool {
        lhs.elementsEqual(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for circle in self { hasher.combine(circle) }
    }
}
