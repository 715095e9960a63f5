import Foundation
import QuakeModel

/// How a b-value map is computed: a grid of nodes over a region, the events
/// each node is estimated from, and which figure is drawn.
///
/// Each node takes its nearest `N` events (or those within a radius), finds Mc
/// and b from their magnitudes as ``GutenbergRichterFit`` does (or b by another
/// estimator of `quakemap stats --b-method`), and is left
/// clear with fewer than `minimumEvents` at or above its Mc — the constant-number
/// and constant-radius grids of Wiemer & Wyss (1997) and ZMAP.
public struct BValueGridOptions: Sendable, Hashable {
    /// Which events a node is estimated from.
    public enum Neighbourhood: Sendable, Hashable {
        /// The `count` events nearest to the node (great-circle distance), within
        /// the grid's maximum radius.
        case nearest(Int)
        /// Every event within this many kilometres of the node.
        case radius(Double)
    }

    /// The figure a b-value map colours.
    public enum Layer: String, Sendable, Hashable, CaseIterable {
        /// The b-value.
        case bValue = "bvalue"
        /// Its standard error (Shi & Bolt, or the estimator's own).
        case bUncertainty = "bvalue-sigma"
        /// The completeness magnitude.
        case completeness = "mc"
    }

    /// Degrees between nodes, in latitude and longitude; `nil` picks a round step
    /// that gives the region about 100 nodes across.
    package var spacing: Double?
    /// Which events each node takes.
    package var neighbourhood: Neighbourhood
    /// With ``Neighbourhood/nearest(_:)``, events farther than this (km) are not
    /// taken: a node in an empty sea gets nothing rather than far-away events.
    /// `nil` is five node spacings, at most 200 km (``defaultMaximumRadius(spacing:)``).
    package var maximumRadius: Double?
    /// The fewest events at or above a node's Mc for an estimate (else the node is clear).
    package var minimumEvents: Int
    /// How each node's Mc is found (a fixed Mc applies to every node).
    package var completeness: CompletenessMethod
    /// The magnitude binning.
    package var binning: MagnitudeBinning
    /// What is drawn.
    package var layer: Layer
    /// The values the colour scale spans; `nil` is 0.5…1.5 for b, and the nodes' own range otherwise.
    package var range: ClosedRange<Double>?
    /// The b estimator and its settings (``EstimationSettings``): Aki–Utsu unless chosen.
    package var estimation = EstimationSettings()

    /// Options for a b-value map.
    ///
    /// - Parameters:
    ///   - spacing: degrees between nodes (`nil`: about 100 nodes across the region).
    ///   - neighbourhood: the nearest 200 events by default.
    ///   - maximumRadius: km; `nil` is five node spacings, at most 200 km (nearest-N grids only).
    ///   - minimumEvents: at or above Mc, for an estimate; 50 by default.
    ///   - completeness: Mc per node, by maximum curvature + 0.2 by default.
    ///   - layer: b by default.
    ///   - range: the colour scale's span (`nil`: 0.5…1.5 for b, the nodes' range otherwise).
    public init(spacing: Double? = nil, neighbourhood: Neighbourhood = .nearest(200), maximumRadius: Double? = nil,
                minimumEvents: Int = GutenbergRichterFit.minimumEvents, completeness: CompletenessMethod = .standard,
                binning: MagnitudeBinning = .tenth, layer: Layer = .bValue, range: ClosedRange<Double>? = nil) {
        self.spacing = spacing
        self.neighbourhood = neighbourhood
        self.maximumRadius = maximumRadius
        self.minimumEvents = minimumEvents
        self.completeness = completeness
        self.binning = binning
        self.layer = layer
        self.range = range
    }

    /// The reach of a nearest-N node without a given one: five node spacings (55 km at 0.1°), but
    /// never over 200 km, the radius of global b-value studies; farther events say nothing of a node.
    package static func defaultMaximumRadius(spacing: Double) -> Double {
        min(5 * spacing * Double.pi / 180 * BValueGrid.earthRadius, 200)
    }

    /// The most nodes a grid may have: a 0.01° grid over all of California is 1.1 M.
    package static let maximumNodes = 2_000_000

    /// Checks the options, before any event is read.
    package func validate() throws(StatisticsError) {
        if let spacing, !(spacing.isFinite && spacing >= 0.001 && spacing <= 30) {
            throw .invalidGrid("node spacing \(spacing)° is outside 0.001…30")
        }
        switch neighbourhood {
        case .nearest(let count) where count < 2 || count > 100_000:
            throw .invalidGrid("nearest \(count) events: give 2…100000")
        case .radius(let kilometres) where !(kilometres.isFinite && kilometres > 0 && kilometres <= 5000):
            throw .invalidGrid("radius \(kilometres) km is outside 0…5000")
        default: break
        }
        if let maximumRadius, !(maximumRadius.isFinite && maximumRadius > 0) {
            throw .invalidGrid("maximum radius \(maximumRadius) km must be above 0")
        }
        guard minimumEvents >= 2 else { throw .invalidGrid("minimum events \(minimumEvents): give 2 or more") }
        if let range, !(range.lowerBound.isFinite && range.upperBound.isFinite && range.lowerBound < range.upperBound) {
            throw .invalidGrid("colour range \(range) must run from a lower to a higher value")
        }
    }

    /// The round step (1, 2, 2.5 or 5 × a power of ten) that puts about 100 nodes across `span` degrees.
    package static func spacing(across span: Double) -> Double {
        let raw = max(span, 0.01) / 100
        let power = pow(10, floor(log10(raw)))
        for step in [1.0, 2, 2.5, 5, 10] where step * power >= raw * 0.999 {
            return (step * power * 1e9).rounded() / 1e9
        }
        return 10 * power
    }
}

/// The nodes of a b-value map, each with what its events say.
package struct BValueGrid: Sendable, Hashable {
    /// One node.
    package struct Node: Sendable, Hashable {
        /// Where it is.
        package var latitude: Double
        /// Where it is.
        package var longitude: Double
        /// Events it took.
        package var count: Int
        /// The distance to the farthest of them, km (0 with none).
        package var radius: Double
        /// The fit, when enough events were at or above Mc.
        package var fit: GutenbergRichterFit?

        /// The value `layer` colours, if any.
        package func value(_ layer: BValueGridOptions.Layer) -> Double? {
            guard let fit else { return nil }
            switch layer {
            case .bValue: return fit.b
            case .bUncertainty: return fit.bUncertainty
            case .completeness: return fit.completeness
            }
        }
    }

    /// Degrees between nodes.
    package var spacing: Double
    /// Nodes, row by row from the south, west to east in each row.
    package var nodes: [Node]
    /// Nodes in a row.
    package var columns: Int
    /// Rows.
    package var rows: Int
    /// The options the grid was computed with (the spacing resolved).
    package var options: BValueGridOptions

    /// Earth's mean radius, km: the distances a node's events are chosen by.
    package static let earthRadius = 6371.0

    /// Estimates b on a grid over `region` from `events` (time, latitude,
    /// longitude, magnitude; in any order), on all cores.
    ///
    /// Nodes sit at whole multiples of the spacing inside `region`; a region
    /// across the antimeridian runs east over it.
    package init(events: [MapEvent], region: GeoBox, options: BValueGridOptions) throws(StatisticsError) {
        try options.validate()
        let spacing = options.spacing ?? BValueGridOptions.spacing(across: max(region.longitudeSpan, region.latitudeSpan))
        let firstRow = Int((region.south / spacing - 1e-9).rounded(.up)), lastRow = Int((region.north / spacing + 1e-9).rounded(.down))
        let firstColumn = Int((region.west / spacing - 1e-9).rounded(.up))
        let lastColumn = Int(((region.west + region.longitudeSpan) / spacing + 1e-9).rounded(.down))
        // A region all the way round has its seam's meridian once, not at both ends.
        let wholeTurn = region.longitudeSpan >= 360 - 1e-9
        let rows = max(0, lastRow - firstRow + 1), columns = max(0, lastColumn - firstColumn + (wholeTurn ? 0 : 1))
        guard rows * columns <= BValueGridOptions.maximumNodes else {
            throw .invalidGrid("\(columns) × \(rows) nodes at \(spacing)° is over \(BValueGridOptions.maximumNodes); choose a wider spacing")
        }
        var resolved = options
        resolved.spacing = spacing
        let tree = EventTree(events.map { ($0.latitude, $0.longitude) })
        let reach: Double
        let wanted: Int
        switch options.neighbourhood {
        case .nearest(let count):
            wanted = count
            reach = options.maximumRadius ?? BValueGridOptions.defaultMaximumRadius(spacing: spacing)
        case .radius(let kilometres):
            wanted = Int.max
            reach = kilometres
        }
        let total = rows * columns
        let parts = total >= 64 ? ParallelParts.cores * 4 : 1
        let chunks = ParallelParts.map(parts: parts) { part -> [Node] in
            var nodes: [Node] = []
            var search = EventTree.Search()
            for index in (total * part / parts)..<(total * (part + 1) / parts) {
                // Rounded as the grid is printed, so what a reader recomputes from the CSV is what was computed.
                let latitude = (Double(firstRow + index / columns) * spacing * 1e9).rounded() / 1e9
                var longitude = (Double(firstColumn + index % columns) * spacing * 1e9).rounded() / 1e9
                if longitude > 180 { longitude -= 360 }
                let found = tree.nearest(latitude: latitude, longitude: longitude, count: wanted, within: reach, search: &search)
                let chosen = found.map { events[$0.index] }
                // A node whose estimator has too few values (or no answer) stays clear.
                let fit = (try? GutenbergRichterFit(magnitudes: chosen.map(\.magnitude),
                                                   times: chosen.map(\.time.timeIntervalSinceReferenceDate),
                                                   binning: options.binning, method: options.completeness,
                                                   minimumEvents: options.minimumEvents, settings: options.estimation))
                    .flatMap { $0.b.isFinite ? $0 : nil }
                nodes.append(Node(latitude: latitude, longitude: longitude,
                                  count: found.count, radius: found.last.map { $0.kilometres } ?? 0, fit: fit))
            }
            return nodes
        }
        self.spacing = spacing
        self.nodes = chunks.flatMap { $0 }
        self.columns = columns
        self.rows = rows
        self.options = resolved
    }

    /// The colour scale's span: the options', else 0.5…1.5 for b, else the nodes' values' range.
    package var range: ClosedRange<Double> {
        if let range = options.range { return range }
        if options.layer == .bValue { return 0.5...1.5 }
        let values = nodes.compactMap { $0.value(options.layer) }
        guard let low = values.min(), let high = values.max() else { return 0...1 }
        return low < high ? low...high : (low - 0.5)...(high + 0.5)
    }

    /// The grid as CSV: a header, then one line a node (empty fields where a node has no estimate).
    package var csv: String {
        var lines = ["latitude,longitude,events,radius_km,mc,events_above_mc,b,b_sigma,a"]
        lines.reserveCapacity(nodes.count + 1)
        for node in nodes {
            var fields = [Self.number(node.latitude), Self.number(node.longitude), String(node.count), Self.number(node.radius)]
            if let fit = node.fit {
                fields += [Self.number(fit.completeness), String(fit.countAboveCompleteness), Self.number(fit.b),
                           Self.number(fit.bUncertainty), Self.number(fit.a)]
            } else {
                fields += ["", "", "", "", ""]
            }
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Full precision, shortest form: what a test compares to 1e-6 reads back exactly.
    private static func number(_ value: Double) -> String { "\(value)" }
}

/// A k-d tree over events' positions as unit vectors: chord length orders points as
/// great-circle distance does, with no seam at the antimeridian and none at the poles.
package struct EventTree: Sendable {
    /// One event found: its index in the given positions and its great-circle distance.
    package struct Found: Sendable, Hashable {
        /// The event's index.
        package var index: Int
        /// Its distance, km.
        package var kilometres: Double
    }

    /// Reusable memory for searches.
    package struct Search {
        fileprivate var heap: [(squared: Double, index: Int32)] = []
        package init() {}
    }

    private var points: [SIMD3<Double>]
    private var order: [Int32]
    private var axes: [UInt8]

    /// The tree of `positions` (latitude, longitude in degrees).
    package init(_ positions: [(latitude: Double, longitude: Double)]) {
        points = positions.map { Self.vector(latitude: $0.latitude, longitude: $0.longitude) }
        order = (0..<Int32(positions.count)).map { $0 }
        axes = [UInt8](repeating: 0, count: positions.count)
        build(0, points.count)
    }

    private static func vector(latitude: Double, longitude: Double) -> SIMD3<Double> {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        return SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    /// Splits `order[low..<high]` at its median on its widest axis; the median's slot keeps the axis.
    private mutating func build(_ low: Int, _ high: Int) {
        guard high - low > 1 else { return }
        var lower = SIMD3<Double>(repeating: .infinity), upper = SIMD3<Double>(repeating: -.infinity)
        for position in low..<high {
            let point = points[Int(order[position])]
            lower = pointwiseMin(lower, point)
            upper = pointwiseMax(upper, point)
        }
        let extent = upper - lower
        let axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2)
        let middle = (low + high) / 2
        select(middle, low, high, axis)
        axes[middle] = UInt8(axis)
        build(low, middle)
        build(middle + 1, high)
    }

    /// Quickselect: `order[k]` becomes the element that sorting on `axis` would put there.
    private mutating func select(_ k: Int, _ low: Int, _ high: Int, _ axis: Int) {
        var low = low, high = high - 1
        while low < high {
            let pivot = points[Int(order[(low + high) / 2])][axis]
            var i = low, j = high
            while i <= j {
                while points[Int(order[i])][axis] < pivot { i += 1 }
                while points[Int(order[j])][axis] > pivot { j -= 1 }
                if i <= j {
                    order.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { high = j } else if k >= i { low = i } else { return }
        }
    }

    /// The `count` events nearest to a point within `kilometres`, nearest first
    /// (ties by index, so the answer does not depend on the tree's shape).
    package func nearest(latitude: Double, longitude: Double, count: Int, within kilometres: Double,
                         search: inout Search) -> [Found] {
        guard count > 0, !points.isEmpty else { return [] }
        let target = Self.vector(latitude: latitude, longitude: longitude)
        // Chord of the reach: 2 sin(θ/2), θ the reach's angle (capped at half a turn).
        let angle = min(kilometres / BValueGrid.earthRadius, .pi)
        let chord = 2 * sin(angle / 2)
        var worst = chord * chord * (1 + 1e-12)
        search.heap.removeAll(keepingCapacity: true)
        visit(0, points.count, target, count, &worst, &search.heap)
        return search.heap.sorted { $0.squared != $1.squared ? $0.squared < $1.squared : $0.index < $1.index }.map {
            let chordLength = min($0.squared.squareRoot(), 2)
            return Found(index: Int($0.index), kilometres: 2 * asin(chordLength / 2) * BValueGrid.earthRadius)
        }
    }

    private func visit(_ low: Int, _ high: Int, _ target: SIMD3<Double>, _ count: Int, _ worst: inout Double,
                       _ heap: inout [(squared: Double, index: Int32)]) {
        guard low < high else { return }
        let middle = (low + high) / 2
        let index = order[middle], point = points[Int(index)]
        let difference = point - target
        let squared = (difference * difference).sum()
        if squared <= worst {
            Self.push((squared, index), into: &heap, keeping: count)
            if heap.count == count { worst = heap[0].squared }
        }
        guard high - low > 1 else { return }
        let axis = Int(axes[middle])
        let gap = target[axis] - point[axis]
        let (near, far) = gap < 0 ? ((low, middle), (middle + 1, high)) : ((middle + 1, high), (low, middle))
        visit(near.0, near.1, target, count, &worst, &heap)
        if gap * gap <= worst { visit(far.0, far.1, target, count, &worst, &heap) }
    }

    /// A bounded max-heap on (distance, index): the root is the worst kept.
    private static func push(_ item: (squared: Double, index: Int32), into heap: inout [(squared: Double, index: Int32)],
                             keeping count: Int) {
        func above(_ a: (squared: Double, index: Int32), _ b: (squared: Double, index: Int32)) -> Bool {
            a.squared != b.squared ? a.squared > b.squared : a.index > b.index
        }
        if heap.count == count {
            guard above(heap[0], item) else { return }
            heap[0] = item
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var largest = parent
                if left < heap.count, above(heap[left], heap[largest]) { largest = left }
                if right < heap.count, above(heap[right], heap[largest]) { largest = right }
                guard largest != parent else { return }
                heap.swapAt(parent, largest)
                parent = largest
            }
        }
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard above(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }
}
