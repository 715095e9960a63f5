import Foundation
import QuakeGeo
import QuakeModel

/// Where an event lies and what a cluster of it reports: what ``ClusterIndex`` is built from.
package struct TilePoint: Sendable, Hashable {
    /// Degrees north; beyond Web Mercator's ±85.0511° it lies on the top or bottom edge.
    package var latitude: Double
    /// Degrees east.
    package var longitude: Double
    /// The magnitude, if any.
    package var magnitude: Double?
    /// Origin time.
    package var time: Date

    /// Creates a point.
    package init(latitude: Double, longitude: Double, magnitude: Double?, time: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.magnitude = magnitude
        self.time = time
    }

    /// Where `event` lies.
    package init(_ event: SeismicEvent) {
        self.init(latitude: event.latitude, longitude: event.longitude, magnitude: event.magnitude, time: event.time)
    }
}

/// One feature of a vector tile: an event, or a cluster of the events of one cell of the tile.
package struct TileFeature: Sendable, Hashable {
    /// Position in tile units (0 ..< ``ClusterIndex/extent`` inside the tile; beyond it for a
    /// neighbour's feature drawn in the buffer).
    package var x: Int32
    package var y: Int32
    /// Whether the feature belongs to a neighbouring tile and is only drawn here.
    package var buffered: Bool
    /// What it is.
    package var kind: Kind

    package enum Kind: Sendable, Hashable {
        /// One event: its position in the events the index was built from.
        case event(Int)
        /// Several events of one cell: how many, the largest magnitude (NaN when none has one),
        /// the latest time, the largest event (where the cluster is drawn), and the zoom at which
        /// its events are first shown apart (`nil`: not within the index's zooms).
        case cluster(count: Int, maximumMagnitude: Double, latest: Date, largest: Int, splitZoom: Int?)
    }
}

/// The events of a catalogue sorted along a Z-order curve of Web Mercator, so that every tile
/// and every cell in it is one run of the sorted events: a tile's count is two binary searches,
/// and a crowded tile is cut into the cells of the finest grid that keeps it within the budget.
/// No event is dropped: each lies in exactly one tile at each zoom, and is drawn there as itself
/// or counted in exactly one cluster; clusters never span tiles.
///
/// Memory: 28 bytes an event (its code, its position among the events, magnitude and time), plus
/// 12 bytes a block of 64, plus one entry per crowded tile.
package struct ClusterIndex: Sendable {
    /// Tile units along a side (MVT's default).
    package static let extent: Int32 = 4096
    /// Finest cell a crowded tile is cut into: 2^10 a side, 4 tile units.
    package static let maximumCellDepth = 10
    /// The deepest zoom the index answers (cells then reach the code's 32 bits).
    package static let maximumZoom = 22

    /// The most features a tile holds before its events are clustered.
    package let budget: Int
    /// The budget unless told otherwise: the PNG tiles' limit, what map clients' paging layers
    /// ask a tile for (the largest tile of a z0–z10 world pyramid of 1 M events: 280 kB).
    package static let defaultBudget = TileOptions.defaultTileLimit
    /// Z-order codes of the events' positions (x in the odd bits), ascending.
    private let codes: [UInt64]
    /// For each code, the event's position in the input.
    private let order: [UInt32]
    /// Magnitudes (NaN when none) and times (seconds since 1970), in code order.
    private let magnitudes: [Double]
    private let times: [Double]
    /// For each block of 64 codes: the slot of its largest event, and its latest time.
    private let blockLargest: [UInt32]
    private let blockLatest: [Double]
    /// For each tile with more than `budget` events: how many levels below the tile its cells lie.
    private let cellDepths: [UInt64: UInt8]

    private static let blockShift = 6

    /// Indexes `points` (in any order); features name events by their position in `points`.
    package init(_ points: some Collection<TilePoint>, budget: Int = defaultBudget) {
        precondition(budget >= 4, "a budget of at least the four cells one level down")
        self.budget = budget
        var keys = [UInt64]()
        keys.reserveCapacity(points.count)
        var unsortedMagnitudes = [Double]()
        unsortedMagnitudes.reserveCapacity(points.count)
        var unsortedTimes = [Double]()
        unsortedTimes.reserveCapacity(points.count)
        for point in points {
            keys.append(Self.code(latitude: point.latitude, longitude: point.longitude))
            unsortedMagnitudes.append(point.magnitude ?? .nan)
            unsortedTimes.append(point.time.timeIntervalSince1970)
        }
        var order = (0..<UInt32(keys.count)).map { $0 }
        RadixSort.sortIndices(&order, byKeys: keys)
        codes = order.map { keys[Int($0)] }
        magnitudes = order.map { unsortedMagnitudes[Int($0)] }
        times = order.map { unsortedTimes[Int($0)] }
        self.order = order
        // Block summaries: range questions read whole blocks, and only the ends one by one.
        var largest = [UInt32](), latest = [Double]()
        for start in stride(from: 0, to: codes.count, by: 1 << Self.blockShift) {
            let end = min(start + (1 << Self.blockShift), codes.count)
            var best = start
            var newest = -Double.infinity
            for slot in start..<end {
                if Self.larger(magnitudes[slot], times[slot], than: magnitudes[best], times[best]) { best = slot }
                newest = max(newest, times[slot])
            }
            largest.append(UInt32(best))
            latest.append(newest)
        }
        blockLargest = largest
        blockLatest = latest
        cellDepths = Self.cellDepths(codes, budget: budget)
    }

    /// How many events the index holds.
    package var count: Int { codes.count }

    // MARK: Positions

    /// The event's Z-order code: Web Mercator x and y as 32-bit fractions of the world, interleaved.
    package static func code(latitude: Double, longitude: Double) -> UInt64 {
        let scale = 4_294_967_296.0
        // The map's projection, in fractions of the world (longitudes as given: 180° is the right edge, clamped).
        let world = WebMercator(zoom: 0, tileSize: 1).projectUnwrapped(latitude: latitude, longitude: longitude)
        let x = world.x, y = world.y
        func fixed(_ value: Double) -> UInt32 {
            guard value.isFinite else { return 0 }
            return UInt32(min(max(value * scale, 0), scale - 1))
        }
        return spread(fixed(x)) << 1 | spread(fixed(y))
    }

    private static func spread(_ value: UInt32) -> UInt64 {
        var bits = UInt64(value)
        bits = (bits | bits << 16) & 0x0000_FFFF_0000_FFFF
        bits = (bits | bits << 8) & 0x00FF_00FF_00FF_00FF
        bits = (bits | bits << 4) & 0x0F0F_0F0F_0F0F_0F0F
        bits = (bits | bits << 2) & 0x3333_3333_3333_3333
        bits = (bits | bits << 1) & 0x5555_5555_5555_5555
        return bits
    }

    private static func compact(_ code: UInt64) -> UInt32 {
        var bits = code & 0x5555_5555_5555_5555
        bits = (bits | bits >> 1) & 0x3333_3333_3333_3333
        bits = (bits | bits >> 2) & 0x0F0F_0F0F_0F0F_0F0F
        bits = (bits | bits >> 4) & 0x00FF_00FF_00FF_00FF
        bits = (bits | bits >> 8) & 0x0000_FFFF_0000_FFFF
        bits = (bits | bits >> 16) & 0x0000_0000_FFFF_FFFF
        return UInt32(bits)
    }

    /// The cell at `level` (a tile of that zoom) holding `code`.
    private static func cell(_ code: UInt64, level: Int) -> UInt64 { level == 0 ? 0 : code >> UInt64(64 - 2 * level) }

    /// The deepest level at which two codes share a cell.
    private static func sharedLevel(_ a: UInt64, _ b: UInt64) -> Int { a == b ? 32 : (a ^ b).leadingZeroBitCount / 2 }

    /// The cell of a tile.
    private static func cell(of tile: TileID) -> UInt64 { spread(UInt32(tile.x)) << 1 | spread(UInt32(tile.y)) }

    private static func key(level: Int, cell: UInt64) -> UInt64 { UInt64(level) << 58 | cell }

    // MARK: Ranges

    /// The first slot in `range` whose code is at least `code`.
    private func lowerBound(_ code: UInt64, in range: Range<Int>) -> Int {
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let middle = (low + high) / 2
            if codes[middle] < code { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The slots of the cell `cell` at `level`, within `range` (which must hold them all).
    private func slots(level: Int, cell: UInt64, in range: Range<Int>) -> Range<Int> {
        let shift = UInt64(64 - 2 * level)
        let low = level == 0 ? range.lowerBound : lowerBound(cell << shift, in: range)
        let last: UInt64 = level == 32 ? .max : (1 << UInt64(2 * level)) - 1
        let high = level == 0 || cell == last ? range.upperBound : lowerBound((cell + 1) << shift, in: low..<range.upperBound)
        return low..<high
    }

    /// How many events lie in `tile`.
    package func count(in tile: TileID) -> Int {
        slots(level: tile.zoom, cell: Self.cell(of: tile), in: 0..<codes.count).count
    }

    /// The tiles of `zoom` that hold an event, in Z order.
    package func tiles(zoom: Int) -> [TileID] {
        var tiles: [TileID] = []
        var start = 0
        while start < codes.count {
            let cell = Self.cell(codes[start], level: zoom)
            tiles.append(TileID(unchecked: zoom, Int(Self.compact(cell >> 1)), Int(Self.compact(cell))))
            start = slots(level: zoom, cell: cell, in: start..<codes.count).upperBound
        }
        return tiles
    }

    /// The tiles of `zoom` with a feature when each is drawn with `buffer` units of its
    /// neighbours: those holding an event, and those next to one.
    package func tilesWithFeatures(zoom: Int, buffer: Int32) -> [TileID] {
        let own = tiles(zoom: zoom)
        guard buffer > 0 else { return own }
        let side = 1 << zoom
        var candidates = Set(own)
        for tile in own {
            for dy in -1...1 where tile.y + dy >= 0 && tile.y + dy < side {
                for dx in -1...1 { candidates.insert(TileID(unchecked: zoom, ((tile.x + dx) % side + side) % side, tile.y + dy)) }
            }
        }
        let ownSet = Set(own)
        return candidates.filter { ownSet.contains($0) || !features(for: $0, buffer: buffer).isEmpty }.sorted()
    }

    /// The position in the input of the events in `tile`.
    package func events(in tile: TileID) -> [Int] {
        slots(level: tile.zoom, cell: Self.cell(of: tile), in: 0..<codes.count).map { Int(order[$0]) }
    }

    private static func larger(_ magnitude: Double, _ time: Double, than other: Double, _ otherTime: Double) -> Bool {
        if magnitude.isNaN != other.isNaN { return other.isNaN }
        if magnitude != other, !magnitude.isNaN { return magnitude > other }
        return time > otherTime
    }

    /// The largest event of `slots` and the latest time.
    private func summary(_ range: Range<Int>) -> (largest: Int, latest: Double) {
        var best = range.lowerBound
        var latest = -Double.infinity
        func take(_ slot: Int) {
            if Self.larger(magnitudes[slot], times[slot], than: magnitudes[best], times[best]) { best = slot }
        }
        let block = 1 << Self.blockShift
        let firstWhole = (range.lowerBound + block - 1) >> Self.blockShift, endWhole = range.upperBound >> Self.blockShift
        if firstWhole >= endWhole {
            for slot in range {
                take(slot)
                latest = max(latest, times[slot])
            }
            return (best, latest)
        }
        for slot in range.lowerBound..<(firstWhole << Self.blockShift) {
            take(slot)
            latest = max(latest, times[slot])
        }
        for index in firstWhole..<endWhole {
            take(Int(blockLargest[index]))
            latest = max(latest, blockLatest[index])
        }
        for slot in (endWhole << Self.blockShift)..<range.upperBound {
            take(slot)
            latest = max(latest, times[slot])
        }
        return (best, latest)
    }

    // MARK: Crowded tiles

    /// For every tile over the budget, at every zoom: the deepest cells (at most
    /// ``maximumCellDepth`` below it) of which it has no more than `budget` non-empty ones.
    private static func cellDepths(_ codes: [UInt64], budget: Int) -> [UInt64: UInt8] {
        guard codes.count > budget else { return [:] }
        // The level each code shares with the one before: a new cell begins below it.
        var shared = [UInt8](repeating: 0, count: codes.count)
        for slot in 1..<codes.count { shared[slot] = UInt8(sharedLevel(codes[slot - 1], codes[slot])) }
        var depths: [UInt64: UInt8] = [:]
        var crowded: [Range<Int>] = [0..<codes.count]
        for zoom in 0...maximumZoom {
            var next: [Range<Int>] = []
            for range in crowded {
                // The tiles of this zoom within a crowded tile of the zoom above.
                var start = range.lowerBound
                for slot in (range.lowerBound + 1)...range.upperBound where slot == range.upperBound || Int(shared[slot]) < zoom {
                    let tile = start..<slot
                    start = slot
                    guard tile.count > budget else { continue }
                    next.append(tile)
                    var cellsBelow = [Int](repeating: 0, count: maximumCellDepth + 1)
                    for slot in tile.dropFirst() {
                        let below = Int(shared[slot]) - zoom
                        if below < maximumCellDepth { cellsBelow[max(below, 0)] += 1 }
                    }
                    // Non-empty cells `depth` levels down: one, plus each code sharing less than that with the one before.
                    var cells = 1
                    var chosen = 1
                    for depth in 1...maximumCellDepth {
                        cells += cellsBelow[depth - 1]
                        if cells > budget || zoom + depth > 32 { break }
                        chosen = depth
                    }
                    depths[key(level: zoom, cell: cell(codes[tile.lowerBound], level: zoom))] = UInt8(chosen)
                }
            }
            crowded = next
            if crowded.isEmpty { break }
        }
        return depths
    }

    private func cellDepth(level: Int, cell: UInt64) -> Int? {
        cellDepths[Self.key(level: level, cell: cell)].map(Int.init)
    }

    /// The first zoom after `zoom` at which the events of `range` are not one feature.
    private func splitZoom(_ range: Range<Int>, after zoom: Int) -> Int? {
        let first = codes[range.lowerBound]
        let shared = Self.sharedLevel(first, codes[range.upperBound - 1])
        var deeper = zoom + 1
        while deeper <= Self.maximumZoom {
            guard let depth = cellDepth(level: deeper, cell: Self.cell(first, level: deeper)) else { return deeper }
            if deeper + depth > shared { return deeper }
            deeper += 1
        }
        return nil
    }

    // MARK: Features

    /// The features of `tile`, largest first, and within `buffer` tile units around it those of
    /// its neighbours (across the antimeridian too), marked ``TileFeature/buffered``.
    package func features(for tile: TileID, buffer: Int32 = 0) -> [TileFeature] {
        precondition(tile.zoom <= Self.maximumZoom, "zooms 0…\(Self.maximumZoom)")
        var ranked: [Ranked] = []
        let extent = Self.extent
        collect(tile, offset: (0, 0), clip: (0, 0, extent, extent), buffered: false, into: &ranked)
        if buffer > 0 {
            let side = 1 << tile.zoom
            for dy in -1...1 {
                let row = tile.y + dy
                guard row >= 0, row < side else { continue }
                for dx in -1...1 where dx != 0 || dy != 0 {
                    let column = ((tile.x + dx) % side + side) % side
                    // The neighbour's own units: what lies within `buffer` of this tile's edge.
                    let ox = Int32(dx) * extent, oy = Int32(dy) * extent
                    let clip = (max(0, -buffer - ox), max(0, -buffer - oy), min(extent, extent + buffer - ox), min(extent, extent + buffer - oy))
                    guard clip.0 < clip.2, clip.1 < clip.3 else { continue }
                    collect(TileID(unchecked: tile.zoom, column, row), offset: (ox, oy), clip: clip, buffered: true, into: &ranked)
                }
            }
        }
        // Largest first (then the most recent), the tile's own before the buffer's copies.
        ranked.sort { lhs, rhs in
            if lhs.feature.buffered != rhs.feature.buffered { return !lhs.feature.buffered }
            return Self.larger(lhs.magnitude, lhs.time, than: rhs.magnitude, rhs.time)
        }
        return ranked.map(\.feature)
    }

    /// A feature and what it is ranked by.
    private struct Ranked {
        var feature: TileFeature
        var magnitude: Double
        var time: Double
    }

    /// Adds the features of `tile` whose position (in the tile's own units) lies in `clip`,
    /// moved by `offset`. Events are named by their slot here and by input position at the end.
    private func collect(_ tile: TileID, offset: (Int32, Int32), clip: (Int32, Int32, Int32, Int32), buffered: Bool,
                         into features: inout [Ranked]) {
        let tileCell = Self.cell(of: tile)
        let range = slots(level: tile.zoom, cell: tileCell, in: 0..<codes.count)
        guard !range.isEmpty else { return }
        func position(_ slot: Int) -> (Int32, Int32) {
            // The code's bits below the tile's, as the top 12 bits of a 32-bit fraction of the tile.
            let x = UInt64(Self.compact(codes[slot] >> 1)) << UInt64(tile.zoom) & 0xFFFF_FFFF
            let y = UInt64(Self.compact(codes[slot])) << UInt64(tile.zoom) & 0xFFFF_FFFF
            return (Int32(x >> 20), Int32(y >> 20))
        }
        func inside(_ point: (Int32, Int32)) -> Bool {
            point.0 >= clip.0 && point.0 < clip.2 && point.1 >= clip.1 && point.1 < clip.3
        }
        func add(_ slot: Int, _ kind: TileFeature.Kind, latest: Double? = nil) {
            let point = position(slot)
            guard inside(point) else { return }
            features.append(Ranked(feature: TileFeature(x: point.0 + offset.0, y: point.1 + offset.1, buffered: buffered, kind: kind),
                                   magnitude: magnitudes[slot], time: latest ?? times[slot]))
        }
        guard let depth = cellDepth(level: tile.zoom, cell: tileCell) else {
            for slot in range { add(slot, .event(Int(order[slot]))) }
            return
        }
        let level = tile.zoom + depth
        let whole = clip == (0, 0, Self.extent, Self.extent)
        // A cell's events: one event, or a cluster drawn at its largest.
        func emit(_ cellRange: Range<Int>) {
            if cellRange.count == 1 {
                add(cellRange.lowerBound, .event(Int(order[cellRange.lowerBound])))
                return
            }
            let (largest, latest) = summary(cellRange)
            let magnitude = magnitudes[largest]
            add(largest, .cluster(count: cellRange.count, maximumMagnitude: magnitude,
                                  latest: Date(timeIntervalSince1970: latest), largest: Int(order[largest]),
                                  splitZoom: splitZoom(cellRange, after: tile.zoom)), latest: latest)
        }
        if whole {
            // Every cell in turn: each is the run of codes sharing its prefix.
            var start = range.lowerBound
            while start < range.upperBound {
                let cell = Self.cell(codes[start], level: level)
                let cellRange = slots(level: level, cell: cell, in: start..<range.upperBound)
                emit(cellRange)
                start = cellRange.upperBound
            }
            return
        }
        // Only the cells that reach into `clip`: down the quadtree from the tile, skipping empty quarters.
        func descend(_ cell: UInt64, level current: Int, range: Range<Int>) {
            guard !range.isEmpty else { return }
            let size = Self.extent >> Int32(current - tile.zoom)
            let local = (Int32(Self.compact(cell >> 1) & UInt32((1 << (current - tile.zoom)) - 1)) * size,
                         Int32(Self.compact(cell) & UInt32((1 << (current - tile.zoom)) - 1)) * size)
            guard local.0 < clip.2, local.0 + size > clip.0, local.1 < clip.3, local.1 + size > clip.1 else { return }
            if current == level { return emit(range) }
            var start = range.lowerBound
            for quarter in 0..<UInt64(4) {
                let child = cell << 2 | quarter
                let childRange = slots(level: current + 1, cell: child, in: start..<range.upperBound)
                descend(child, level: current + 1, range: childRange)
                start = childRange.upperBound
            }
        }
        descend(tileCell, level: tile.zoom, range: range)
    }
}
