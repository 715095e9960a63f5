#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import QuakeGeo
import QuakeModel
import QuakeScene

/// Mapbox Vector Tile 2.1 bytes: the protocol buffer written directly. A tile is three message
/// kinds and a handful of fields, so a writer of its own is a page, where swift-protobuf would
/// add its runtime, committed generated code and an intermediate object per feature.
package enum VectorTileEncoder {
    /// The events' layer of one tile: each feature a point, events with the properties a popup
    /// needs (``appendProperties(of:to:)``, which `properties` appends for the event at an index),
    /// clusters with their count, largest magnitude, latest time and split zoom.
    package static func tile(_ features: [TileFeature], properties: (Int, inout [UInt8]) -> Void) -> Data {
        var layer = LayerWriter(name: QuakeVectorLayer.name, extent: Int(ClusterIndex.extent), keys: QuakeVectorLayer.fields.map(\.name))
        var encoded: [UInt8] = []
        encoded.reserveCapacity(512)
        for feature in features {
            encoded.removeAll(keepingCapacity: true)
            switch feature.kind {
            case .event(let index):
                properties(index, &encoded)
            case let .cluster(count, magnitude, latest, _, splitZoom):
                append(.cluster, .bool(true), to: &encoded)
                append(.pointCount, .integer(Int64(count)), to: &encoded)
                append(.pointCountAbbreviated, .string(abbreviated(count)), to: &encoded)
                append(.latestTime, .integer(milliseconds(latest)), to: &encoded)
                if !magnitude.isNaN { append(.maximumMagnitude, .double(magnitude), to: &encoded) }
                if let splitZoom { append(.expansionZoom, .integer(Int64(splitZoom)), to: &encoded) }
            }
            layer.addPoint(x: feature.x, y: feature.y, encoded: encoded)
        }
        return layer.tile()
    }

    /// The events' layer of `features`, the events' properties read from `events` by index.
    package static func tile(_ features: [TileFeature], events: (Int) -> SeismicEvent) -> Data {
        tile(features) { index, bytes in appendProperties(of: events(index), to: &bytes) }
    }

    /// The events' layer of `features` naming `events[positions[i]]` as `i`: read in place, with no
    /// copy of each event (a server cuts thousands a tile).
    package static func tile(_ features: [TileFeature], events: [SeismicEvent], positions: [Int]) -> Data {
        events.withUnsafeBufferPointer { events in
            tile(features) { index, bytes in appendProperties(of: events[positions[index]], to: &bytes) }
        }
    }

    package typealias Key = QuakeVectorLayer.Key

    /// Appends what a popup shows of `event`, as the layer stores it: for each property its key,
    /// the length of its value message, and the message. Made once an event, wherever it is tiled.
    package static func appendProperties(of event: SeismicEvent, to bytes: inout [UInt8]) {
        append(.id, .string(event.id), to: &bytes)
        if let magnitude = event.magnitude { append(.mag, .double(magnitude), to: &bytes) }
        if let type = event.magnitudeType { append(.magType, .string(type), to: &bytes) }
        append(.time, .integer(milliseconds(event.time)), to: &bytes)
        if let updated = event.updated { append(.updated, .integer(milliseconds(updated)), to: &bytes) }
        if let depth = event.depth { append(.depth, .double(depth), to: &bytes) }
        if !event.place.isEmpty { append(.place, .string(event.place), to: &bytes) }
        if !event.eventType.isEmpty { append(.type, .string(event.eventType), to: &bytes) }
        if let status = event.status { append(.status, .string(status), to: &bytes) }
        if let network = event.network { append(.net, .string(network), to: &bytes) }
        if let alert = event.details[.alert]?.text { append(.alert, .string(alert), to: &bytes) }
        if let tsunami = event.details[.tsunami]?.number { append(.tsunami, .integer(Int64(tsunami)), to: &bytes) }
        if let url = event.details[.url]?.text { append(.url, .string(url), to: &bytes) }
        if let mechanism = event.mechanism, !mechanism.nodalPlanes.isEmpty {
            let plane = mechanism.nodalPlanes[mechanism.preferredPlane ?? 0]
            append(.strike, .double(plane.strike), to: &bytes)
            append(.dip, .double(plane.dip), to: &bytes)
            append(.rake, .double(plane.rake), to: &bytes)
        }
    }

    private static func append(_ key: Key, _ value: Value, to bytes: inout [UInt8]) {
        append(key: key.rawValue, value, to: &bytes)
    }

    /// A property as ``LayerWriter`` reads them: the key's place in the layer's keys, the value
    /// message's length, the message (written in place: this runs for every property of every
    /// event of every tile a server cuts).
    package static func append(key: UInt8, _ value: Value, to bytes: inout [UInt8]) {
        bytes.append(key)
        switch value {
        case .string(let text):
            let count = text.utf8.count
            ProtoBuffer.appendVarint(UInt64(1 + ProtoBuffer.varintSize(UInt64(count)) + count), to: &bytes)
            bytes.append(1 << 3 | 2)
            ProtoBuffer.appendVarint(UInt64(count), to: &bytes)
            bytes.append(contentsOf: text.utf8)
        case .double(let number):
            bytes.append(9)
            bytes.append(3 << 3 | 1)
            withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        case .integer(let number):
            // Whole numbers as uint (field 5) or, when negative, zig-zag sint (field 6).
            let (field, raw) = number >= 0 ? (5, UInt64(number)) : (6, UInt64(bitPattern: (number << 1) ^ (number >> 63)))
            bytes.append(UInt8(1 + ProtoBuffer.varintSize(raw)))
            bytes.append(UInt8(field << 3))
            ProtoBuffer.appendVarint(raw, to: &bytes)
        case .bool(let flag):
            bytes.append(2)
            bytes.append(7 << 3)
            bytes.append(flag ? 1 : 0)
        }
    }

    /// The land (layer `land`, polygons) and plate boundaries (layer `plates`, lines with `name`,
    /// `subduction` and, for subduction zones, the `overriding` plate) of `tile`.
    package static func basemapTile(_ tile: TileID, from basemap: BasemapVectorTiles) -> Data {
        let extent = BasemapVectorTiles.extent
        var land = LayerWriter(name: "land", extent: extent, keys: [])
        for polygon in basemap.land(for: tile) { land.addPaths(polygon, type: 3) }
        var plates = LayerWriter(name: "plates", extent: extent, keys: ["name", "subduction", "overriding"])
        for (boundary, runs) in basemap.plates(for: tile) {
            var properties: [UInt8] = []
            append(key: 0, .string(boundary.name), to: &properties)
            append(key: 1, .bool(boundary.isSubduction), to: &properties)
            if let overriding = boundary.overridingPlate { append(key: 2, .string(overriding), to: &properties) }
            plates.addPaths(runs, type: 2, encoded: properties)
        }
        // A tile's layers are one repeated field: two one-layer tiles side by side are one tile of both.
        return land.tile() + plates.tile()
    }

    /// A count as a cluster's label shows it: 950, 1.2k, 34k, 1.2M.
    package static func abbreviated(_ count: Int) -> String {
        switch count {
        case ..<1000: return String(count)
        case ..<10_000: return String(format: "%.1fk", (Double(count) / 100).rounded(.down) / 10)
        case ..<1_000_000: return "\(count / 1000)k"
        default: return String(format: "%.1fM", (Double(count) / 100_000).rounded(.down) / 10)
        }
    }

    private static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// A property value, as the format types them.
    package enum Value: Hashable {
        case string(String)
        case double(Double)
        case integer(Int64)
        case bool(Bool)
    }

    /// One layer's features, keys and values, then the tile around it. Values are kept as their
    /// encoded messages, each once.
    package struct LayerWriter {
        private let name: String
        private let extent: Int
        private let keys: [String]
        private var features = ProtoBuffer()
        /// Each key's place in the tile's key table, once used (a tile lists only its keys).
        private var keyPlaces: [Int]
        private var usedKeys: [Int] = []
        /// The values, each message once, one after another, and where each starts (one past the last too).
        private var valueBytes: [UInt8] = []
        private var valueStarts: [Int] = [0]
        /// An open-addressing table of value numbers (−1 empty) by the hash of their bytes: no
        /// allocation a value, where a dictionary of byte arrays made one for every property.
        private var slots = [Int32](repeating: -1, count: 256)
        /// Reused for each feature.
        private var tags: [UInt32] = []
        private var scratch = ProtoBuffer()

        /// A layer whose properties are named by `keys` (a property's key is its place there).
        package init(name: String, extent: Int, keys: [String]) {
            self.name = name
            self.extent = extent
            self.keys = keys
            keyPlaces = Array(repeating: -1, count: keys.count)
        }

        /// Whether the layer has no feature.
        package var isEmpty: Bool { features.bytes.isEmpty }

        /// A point at `x`, `y` in tile units, with properties as ``VectorTileEncoder/appendProperties(of:to:)`` encodes them.
        package mutating func addPoint(x: Int32, y: Int32, encoded: [UInt8]) {
            // MoveTo, one point, zig-zag coordinates from the origin.
            add(type: 1, geometry: [1 << 3 | 1, zigzag(x), zigzag(y)], encoded: encoded)
        }

        /// Line strings or polygon rings (`type` 2 or 3), each a list of points in tile units:
        /// rings closed by ClosePath, as the specification says, without repeating the first point.
        package mutating func addPaths(_ paths: [[(Int32, Int32)]], type: Int, encoded: [UInt8] = []) {
            var geometry: [UInt32] = []
            var cursor: (Int32, Int32) = (0, 0)
            for path in paths where path.count >= (type == 3 ? 3 : 2) {
                geometry.append(1 << 3 | 1)
                geometry += [zigzag(path[0].0 &- cursor.0), zigzag(path[0].1 &- cursor.1)]
                cursor = path[0]
                geometry.append(UInt32(path.count - 1) << 3 | 2)
                for point in path.dropFirst() {
                    geometry += [zigzag(point.0 &- cursor.0), zigzag(point.1 &- cursor.1)]
                    cursor = point
                }
                if type == 3 { geometry.append(1 << 3 | 7) }
            }
            guard !geometry.isEmpty else { return }
            add(type: type, geometry: geometry, encoded: encoded)
        }

        private mutating func add(type: Int, geometry: [UInt32], encoded: [UInt8]) {
            tags.removeAll(keepingCapacity: true)
            encoded.withUnsafeBufferPointer { encoded in
                var position = 0
                while position < encoded.count {
                    let key = Int(encoded[position])
                    position += 1
                    var length = 0, shift = 0
                    while true {
                        let byte = encoded[position]
                        position += 1
                        length |= Int(byte & 0x7F) << shift
                        shift += 7
                        if byte < 0x80 { break }
                    }
                    let index = value(UnsafeBufferPointer(rebasing: encoded[position..<(position + length)]))
                    position += length
                    if keyPlaces[key] < 0 {
                        keyPlaces[key] = usedKeys.count
                        usedKeys.append(key)
                    }
                    tags.append(UInt32(keyPlaces[key]))
                    tags.append(UInt32(index))
                }
            }
            scratch.bytes.removeAll(keepingCapacity: true)
            if !tags.isEmpty { scratch.packed(2, tags) }
            scratch.varint(3, UInt64(type))
            scratch.packed(4, geometry)
            features.message(2, scratch)
        }

        /// The number of the value whose message is `message`, added if new.
        private mutating func value(_ message: UnsafeBufferPointer<UInt8>) -> Int {
            var hash = FNV1a()
            hash.mix(bytes: UnsafeRawBufferPointer(message))
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash.value) & mask
            while slots[slot] >= 0 {
                let known = Int(slots[slot])
                let start = valueStarts[known], end = valueStarts[known + 1]
                if end - start == message.count,
                   valueBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + start, message.baseAddress!, message.count) == 0 }) {
                    return known
                }
                slot = (slot + 1) & mask
            }
            let number = valueStarts.count - 1
            valueBytes.append(contentsOf: message)
            valueStarts.append(valueBytes.count)
            slots[slot] = Int32(number)
            // At most half full.
            if (number + 1) * 2 > slots.count { grow() }
            return number
        }

        private mutating func grow() {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            let mask = slots.count - 1
            for number in 0..<(valueStarts.count - 1) {
                var hash = FNV1a()
                valueBytes.withUnsafeBytes { hash.mix(bytes: UnsafeRawBufferPointer(rebasing: $0[valueStarts[number]..<valueStarts[number + 1]])) }
                var slot = Int(truncatingIfNeeded: hash.value) & mask
                while slots[slot] >= 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(number)
            }
        }

        private func zigzag(_ value: Int32) -> UInt32 { UInt32(bitPattern: (value << 1) ^ (value >> 31)) }

        /// A tile of this layer alone; empty (no layer) when it has no feature.
        package func tile() -> Data {
            guard !isEmpty else { return Data() }
            // The layer's fields but its features, which are copied once, into the tile itself.
            var head = ProtoBuffer()
            head.varint(15, 2)
            head.string(1, name)
            var tail = ProtoBuffer()
            for key in usedKeys { tail.string(3, keys[key]) }
            for number in 0..<(valueStarts.count - 1) {
                tail.message(4, valueBytes[valueStarts[number]..<valueStarts[number + 1]])
            }
            tail.varint(5, UInt64(extent))
            let length = head.bytes.count + features.bytes.count + tail.bytes.count
            var tile = Data(capacity: length + 11)
            tile.append(3 << 3 | 2)
            var size: [UInt8] = []
            ProtoBuffer.appendVarint(UInt64(length), to: &size)
            tile.append(contentsOf: size)
            tile.append(contentsOf: head.bytes)
            tile.append(contentsOf: features.bytes)
            tile.append(contentsOf: tail.bytes)
            return tile
        }
    }
}

/// Protocol buffer fields appended to bytes.
package struct ProtoBuffer {
    package var bytes: [UInt8] = []

    package init() {}

    private mutating func raw(_ value: UInt64) { EventDetails.appendVarint(value, to: &bytes) }

    /// The bytes of `value` as a varint.
    package static func varintSize(_ value: UInt64) -> Int { max(1, (64 - value.leadingZeroBitCount + 6) / 7) }

    /// `value` as a varint at the end of `bytes`.
    package static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) { EventDetails.appendVarint(value, to: &bytes) }

    private mutating func key(_ field: Int, _ wire: Int) { raw(UInt64(field << 3 | wire)) }

    package mutating func varint(_ field: Int, _ value: UInt64) {
        key(field, 0)
        raw(value)
    }

    package mutating func fixed64(_ field: Int, _ value: UInt64) {
        key(field, 1)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    package mutating func string(_ field: Int, _ text: String) {
        key(field, 2)
        raw(UInt64(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    package mutating func message(_ field: Int, _ message: ProtoBuffer) {
        key(field, 2)
        raw(UInt64(message.bytes.count))
        bytes.append(contentsOf: message.bytes)
    }

    package mutating func message(_ field: Int, _ message: some Collection<UInt8>) {
        key(field, 2)
        raw(UInt64(message.count))
        bytes.append(contentsOf: message)
    }

    package mutating func packed(_ field: Int, _ values: [UInt32]) {
        var body = ProtoBuffer()
        for value in values { body.raw(UInt64(value)) }
        message(field, body)
    }
}
