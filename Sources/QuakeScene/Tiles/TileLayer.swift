import Foundation
import QuakeModel
import QuakeGeo

/// Events arranged for drawing as the tiles of one zoom level.
///
/// Each event belongs to the tile its centre lies in; where a tile holds more
/// than ``TileOptions/tileLimit`` events, the largest magnitudes are kept (then
/// the most recent). A kept circle is drawn whole on every tile it touches,
/// its neighbours included, so no circle is cut at a tile seam and two
/// neighbouring tiles always agree on which circles exist. Circles are stacked
/// as on maps: largest first, newest first among equal sizes.
package struct TileLayer: Sendable {
    /// The zoom level.
    package let zoom: Int
    /// How the tiles look.
    package let options: TileOptions
    /// Events whose centre tile was over the limit and which were left out.
    package let droppedByLimit: Int

    private let projection: WebMercator
    // The kept circles in drawing order, in whole-world pixels, resolved as a
    // map's are (``CircleResolver``); a tile is a window onto them.
    private let circles: CircleLayer
    // Per tile (x << 32 | y): the circles touching it, in drawing order. A
    // circle past the left or right edge of the world also touches tiles on the
    // far side; there it is drawn moved `-turns` world widths.
    private let placements: [UInt64: [Placement]]

    private struct Placement: Sendable {
        package var circle: UInt32
        package var turns: Int32
    }

    /// Arranges `events` for the tiles of `zoom`.
    ///
    /// - Parameters:
    ///   - feedGenerated: the feed's own time, "now" of the age colouring.
    ///   - around: when only this tile will be drawn: events are read only from
    ///     the tiles near it whose circles could reach it, for on-demand tiles.
    package init(events: [MapEvent], zoom: Int, options: TileOptions, feedGenerated: Date? = nil, around: TileID? = nil) {
        self.init(events: events, zoom: zoom, options: options, feedGenerated: feedGenerated, around: around, ranking: nil)
    }

    /// - Parameter ranking: ``ranking(_:of:)`` of all `events`, when the
    ///   caller lays out several zooms of the same events (it does not change
    ///   with the zoom); without it, the crowded tiles' events are ranked here.
    package init(events: [MapEvent], zoom: Int, options: TileOptions, feedGenerated: Date?, around: TileID?, ranking: [Int]?) {
        precondition((0...TileID.maximumZoom).contains(zoom) && around.map { $0.zoom == zoom } ?? true, "a zoom level 0…30")
        let projection = WebMercator(zoom: zoom, tileSize: options.tileSize)
        let side = projection.tilesPerSide
        let tileSize = Double(options.tileSize)
        let resolver = CircleResolver(symbols: options.symbols, scale: options.scale, events: events, feedGenerated: feedGenerated)
        // Sizes grow with magnitude, so the largest magnitude gives the largest circle;
        // a diamond of its area reaches further, at its corners.
        let largest = events.lazy.map(\.magnitude).max().map(resolver.diameter(magnitude:)) ?? 0
        let widest: SymbolShape = events.contains { !$0.isEarthquake } ? .diamond : .circle
        // How many tiles away a circle's centre may be and still reach a tile.
        let reach = Int(min((widest.reach(diameter: largest) / tileSize).rounded(.up), Double(side)))

        var centers: [PixelPoint] = []
        var homes: [UInt64] = []
        var chosen: [Int] = []
        for (index, event) in events.enumerated() {
            let center = projection.project(latitude: event.latitude, longitude: event.longitude)
            let home = (x: min(Int(center.x / tileSize), side - 1), y: min(Int(center.y / tileSize), side - 1))
            if let around {
                var dx = abs(home.x - around.x)
                dx = min(dx, side - dx)
                guard dx <= reach, abs(home.y - around.y) <= reach else { continue }
            }
            centers.append(center)
            homes.append(UInt64(home.x) << 32 | UInt64(home.y))
            chosen.append(index)
        }

        let kept = Self.keep(chosen, homes: homes, events: events, ranking: ranking, limit: options.tileLimit)
        self.droppedByLimit = chosen.count - kept.count
        let order = resolver.drawingOrder(kept.lazy.map { events[chosen[$0]] })

        var circles = CircleLayer()
        circles.reserveCapacity(order.count)
        var placements: [UInt64: [Placement]] = [:]
        for position in order {
            let slot = kept[Int(position)]
            let resolved = resolver.circle(events[chosen[slot]], at: centers[slot])
            let center = resolved.center, extent = resolved.shape.reach(diameter: resolved.diameter)
            let circle = UInt32(circles.count)
            circles.append(resolved)
            // Tiles the circle covers: columns without wrapping (a column beyond
            // either edge is a copy a turn away), rows clamped to the world.
            let firstColumn = Int(((center.x - extent) / tileSize).rounded(.down))
            let lastColumn = Int(((center.x + extent) / tileSize).rounded(.up)) - 1
            let firstRow = max(0, Int(((center.y - extent) / tileSize).rounded(.down)))
            let lastRow = min(side - 1, Int(((center.y + extent) / tileSize).rounded(.up)) - 1)
            guard firstRow <= lastRow else { continue }
            // A circle wider than the world (a huge symbol scale at zoom 0) needs no more than its copies.
            for column in firstColumn...min(max(firstColumn, lastColumn), firstColumn + 2 * side) {
                let wrapped = ((column % side) + side) % side
                let turns = Int32((column - wrapped) / side)
                for row in firstRow...lastRow {
                    // The bounding square may touch a tile the symbol itself misses (at a corner).
                    let nearestX = min(max(center.x, Double(column) * tileSize), Double(column + 1) * tileSize)
                    let nearestY = min(max(center.y, Double(row) * tileSize), Double(row + 1) * tileSize)
                    guard resolved.shape.touches(offsetX: center.x - nearestX, offsetY: center.y - nearestY,
                                                 diameter: resolved.diameter) else { continue }
                    placements[UInt64(wrapped) << 32 | UInt64(row), default: []].append(Placement(circle: circle, turns: turns))
                }
            }
        }
        self.zoom = zoom
        self.options = options
        self.projection = projection
        self.circles = circles
        self.placements = placements
    }

    /// The indices `indices` of `events`, best kept first: largest magnitude,
    /// then newest, then first in the input.
    package static func ranking(_ indices: [Int], of events: [MapEvent]) -> [Int] {
        indices.sorted { lhs, rhs in
            let a = events[lhs], b = events[rhs]
            if a.magnitude != b.magnitude { return a.magnitude > b.magnitude }
            if a.time != b.time { return a.time > b.time }
            return lhs < rhs
        }
    }

    /// Positions in `chosen` of the events kept under the per-tile limit, in
    /// input order: a crowded tile keeps its first `limit` events in ranking
    /// order (`ranking` of every event, or of the crowded tiles' if `nil`).
    private static func keep(_ chosen: [Int], homes: [UInt64], events: [MapEvent], ranking: [Int]?, limit: Int?) -> [Int] {
        let all = Array(chosen.indices)
        guard let limit else { return all }
        var counts: [UInt64: Int] = [:]
        for home in homes { counts[home, default: 0] += 1 }
        guard counts.values.contains(where: { $0 > limit }) else { return all }
        var slots = [Int32](repeating: -1, count: events.count)
        for (slot, event) in chosen.enumerated() { slots[event] = Int32(slot) }
        let order = ranking ?? Self.ranking(chosen.filter { counts[homes[Int(slots[$0])]]! > limit }, of: events)
        var kept = [Bool](repeating: true, count: chosen.count)
        var taken: [UInt64: Int] = [:]
        for event in order {
            let slot = Int(slots[event])
            guard slot >= 0, counts[homes[slot]]! > limit else { continue }
            taken[homes[slot], default: 0] += 1
            if taken[homes[slot]]! > limit { kept[slot] = false }
        }
        return all.filter { kept[$0] }
    }

    /// The tiles with at least one circle on them, in order.
    package var tiles: [TileID] {
        placements.keys.map { TileID(unchecked: zoom, Int($0 >> 32), Int($0 & 0xFFFF_FFFF)) }.sorted()
    }

    /// How many circles are kept at this zoom.
    package var keptEvents: Int { circles.count }

    /// The tile as a scene: its circles, moved into the tile's pixels, on a
    /// transparent background (tiles are an overlay on the client's base map).
    package func scene(for tile: TileID) -> MapScene {
        precondition(tile.zoom == zoom, "a tile of this layer's zoom")
        let size = Double(options.tileSize)
        var layer = CircleLayer()
        for placement in placements[UInt64(tile.x) << 32 | UInt64(tile.y)] ?? [] {
            var circle = circles[Int(placement.circle)]
            circle.center.x = circle.center.x - Double(placement.turns) * projection.worldSize - Double(tile.x) * size
            circle.center.y -= Double(tile.y) * size
            layer.append(circle)
        }
        return MapScene(width: options.tileSize, height: options.tileSize, background: nil, polygons: [],
                        circleLayer: layer)
    }

    /// Whether a circle touches `tile`.
    package func hasCircles(on tile: TileID) -> Bool {
        placements[UInt64(tile.x) << 32 | UInt64(tile.y)] != nil
    }
}
