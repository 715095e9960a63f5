import Foundation
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
        var message = ProtoBuffer()
        switch value {
        case .string(let text): message.string(1, text)
        case .double(let number): message.fixed64(3, number.bitPattern)
        case .integer(let number) where number >= 0: message.varint(5, UInt64(number))
        case .integer(let number): message.varint(6, UInt64(bitPattern: (number << 1) ^ (number >> 63)))
        case .bool(let flag): message.varint(7, flag ? 1 : 0)
        }
        bytes.append(key.rawValue)
        ProtoBuffer.appendVarint(UInt64(message.bytes.count), to: &bytes)
        bytes.append(contentsOf: message.bytes)
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
        private var values: [ValueBytes: Int] = [:]
        private var valueList: [[UInt8]] = []

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
            var tags: [UInt32] = []
            var position = 0
            while position < encoded.count {
                let key = encoded[position]
                position += 1
                var length = 0, shift = 0
                while true {
                    let byte = encoded[position]
                    position += 1
                    length |= Int(byte & 0x7F) << shift
                    shift += 7
                    if byte < 0x80 { break }
                }
                let message = ValueBytes(bytes: Array(encoded[position..<(position + length)]))
                position += length
                let index: Int
                if let known = values[message] {
                    index = known
                } else {
                    index = valueList.count
                    values[message] = index
                    valueList.append(message.bytes)
                }
                if keyPlaces[Int(key)] < 0 {
                    keyPlaces[Int(key)] = usedKeys.count
                    usedKeys.append(Int(key))
                }
                tags.append(UInt32(keyPlaces[Int(key)]))
                tags.append(UInt32(index))
            }
            var feature = ProtoBuffer()
            if !tags.isEmpty { feature.packed(2, tags) }
            feature.varint(3, UInt64(type))
            feature.packed(4, geometry)
            features.message(2, feature)
        }

        /// A value message as a key: hashed as one run of bytes, not byte by byte.
        private struct ValueBytes: Hashable {
            let bytes: [UInt8]

            func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
        }

        private func zigzag(_ value: Int32) -> UInt32 { UInt32(bitPattern: (value << 1) ^ (value >> 31)) }

        /// A tile of this layer alone; empty (no layer) when it has no feature.
        package func tile() -> Data {
            var tile = ProtoBuffer()
            guard !isEmpty else { return Data() }
            var layer = ProtoBuffer()
            layer.varint(15, 2)
            layer.string(1, name)
            layer.bytes.append(contentsOf: features.bytes)
            for key in usedKeys { layer.string(3, keys[key]) }
            for value in valueList { layer.message(4, value) }
            layer.varint(5, UInt64(extent))
            tile.message(3, layer)
            return Data(tile.bytes)
        }
    }
}

/// Protocol buffer fields appended to bytes.
package struct ProtoBuffer {
    package var bytes: [UInt8] = []

    package init() {}

    private mutating func raw(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// `value` as a varint at the end of `bytes`.
    package static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

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

    package mutating func message(_ field: Int, _ message: [UInt8]) {
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
