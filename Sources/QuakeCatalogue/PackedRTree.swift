import Foundation
import GRDB

/// Fills an empty SQLite R*Tree of points in one pass (Sort-Tile-Recursive
/// packing), writing its three shadow tables as SQLite's `rtree` module lays
/// them out. SQLite has no bulk load: through the virtual table each insert
/// walks and splits the tree, 9 to 12 µs a point, most of the time of a
/// million-event first ingest; packed, the same tree costs a sort and a
/// write. The result is checked with SQLite's own `rtreecheck()` before it
/// counts: a tree it does not accept is emptied and filled point by point.
struct PackedRTree {
    /// The virtual table (`events_position`: `seq`, then min and max longitude, min and max latitude).
    let table: String

    struct Point {
        var id: Int64
        var longitude: Double
        var latitude: Double
    }

    /// A cell of a node: a point (in a leaf) or a child node's bounding box.
    private struct Cell {
        var id: Int64
        var minX: Float, maxX: Float, minY: Float, maxY: Float
        var centerX: Float { (minX + maxX) / 2 }
        var centerY: Float { (minY + maxY) / 2 }
    }

    /// Loads `points` into the empty tree; `false` (and the tree left empty) when SQLite does not accept the result.
    /// `points` is emptied as it is read: a first ingest of millions holds one copy of its positions.
    func load(_ points: inout [Point], _ db: Database) throws -> Bool {
        guard let nodeSize = try Int.fetchOne(db, sql: "SELECT length(data) FROM \(table)_node WHERE nodeno = 1"),
              try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)_rowid") == 0 else { return false }
        // 8 bytes of id and four 4-byte coordinates a cell, after a 4-byte header.
        let capacity = (nodeSize - 4) / 24
        guard capacity >= 4 else { return false }
        var level = points.map { point in
            Cell(id: point.id, minX: Self.down(point.longitude), maxX: Self.up(point.longitude),
                 minY: Self.down(point.latitude), maxY: Self.up(point.latitude))
        }
        points = []
        let writeNode = try db.makeStatement(sql: "INSERT OR REPLACE INTO \(table)_node (nodeno, data) VALUES (?, ?)")
        let writeRowid = try db.makeStatement(sql: "INSERT INTO \(table)_rowid (rowid, nodeno) VALUES (?, ?)")
        let writeParent = try db.makeStatement(sql: "INSERT INTO \(table)_parent (nodeno, parentnode) VALUES (?, ?)")
        var nextNode: Int64 = 2, depth = 0
        // Children of the level being built, and the node each was put in, for the parent table.
        var pendingParents: [(child: Int64, parent: Int64)] = []
        while true {
            let groups = level.count <= capacity ? [level.indices] : Self.tile(&level, capacity: capacity)
            let isRoot = groups.count == 1
            var parents: [Cell] = []
            for range in groups {
                let group = level[range]
                let number: Int64 = isRoot ? 1 : nextNode
                if !isRoot { nextNode += 1 }
                writeNode.setUncheckedArguments([number, Self.blob(group, depth: isRoot ? depth : 0, size: nodeSize)])
                try writeNode.execute()
                for cell in group {
                    if depth == 0 {
                        writeRowid.setUncheckedArguments([cell.id, number])
                        try writeRowid.execute()
                    } else {
                        pendingParents.append((cell.id, number))
                    }
                }
                parents.append(Cell(id: number, minX: group.map(\.minX).min()!, maxX: group.map(\.maxX).max()!,
                                    minY: group.map(\.minY).min()!, maxY: group.map(\.maxY).max()!))
            }
            for (child, parent) in pendingParents {
                writeParent.setUncheckedArguments([child, parent])
                try writeParent.execute()
            }
            pendingParents = []
            if isRoot { break }
            level = parents
            depth += 1
        }
        let verdict = try String.fetchOne(db, sql: "SELECT rtreecheck(?)", arguments: [table])
        guard verdict == "ok" else {
            try db.execute(sql: "DELETE FROM \(table)")
            return false
        }
        return true
    }

    /// Sort-Tile-Recursive: vertical slices by longitude, each sorted by latitude, cut into nodes.
    /// Sorts `cells` in place and returns each node's range of them.
    private static func tile(_ cells: inout [Cell], capacity: Int) -> [Range<Int>] {
        let nodes = (cells.count + capacity - 1) / capacity
        let slices = Int(Double(nodes).squareRoot().rounded(.up))
        let perSlice = slices * capacity
        cells.sort { $0.centerX < $1.centerX }
        var groups: [Range<Int>] = []
        groups.reserveCapacity(nodes)
        var start = 0
        while start < cells.count {
            let end = min(start + perSlice, cells.count)
            cells[start..<end].sort { $0.centerY < $1.centerY }
            var from = start
            while from < end {
                groups.append(from..<min(from + capacity, end))
                from += capacity
            }
            start = end
        }
        return groups
    }

    /// A node as the `rtree` module stores it: the tree's depth (read from the root only), the
    /// number of cells, then each cell's id and coordinates, all big-endian, padded to the node size.
    private static func blob(_ cells: ArraySlice<Cell>, depth: Int, size: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: size)
        func put16(_ value: Int, at offset: Int) {
            bytes[offset] = UInt8(value >> 8 & 0xFF)
            bytes[offset + 1] = UInt8(value & 0xFF)
        }
        func put(_ value: UInt64, bytes count: Int, at offset: Int) {
            for index in 0..<count { bytes[offset + index] = UInt8(value >> UInt64(8 * (count - 1 - index)) & 0xFF) }
        }
        put16(depth, at: 0)
        put16(cells.count, at: 2)
        for (index, cell) in cells.enumerated() {
            let offset = 4 + index * 24
            put(UInt64(bitPattern: cell.id), bytes: 8, at: offset)
            for (slot, value) in [cell.minX, cell.maxX, cell.minY, cell.maxY].enumerated() {
                put(UInt64(value.bitPattern), bytes: 4, at: offset + 8 + slot * 4)
            }
        }
        return Data(bytes)
    }

    /// The largest float at or below `value`, and the smallest at or above: a box never smaller than its point.
    private static func down(_ value: Double) -> Float {
        let float = Float(value)
        return Double(float) > value ? float.nextDown : float
    }

    private static func up(_ value: Double) -> Float {
        let float = Float(value)
        return Double(float) < value ? float.nextUp : float
    }
}
