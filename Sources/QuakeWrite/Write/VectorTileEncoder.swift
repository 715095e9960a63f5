import Foundation
import QuakeModel
import QuakeScene

/// Mapbox Vector Tile 2.1 bytes: the protocol buffer written directly. A tile is three message
/// kinds and a handful of fields, so a writer of its own is a page, where swift-protobuf would
/// add its runtime, committed generated code and an intermediate object per feature.
package struct VectorTileEncoder {
    /// The events' layer of one tile: each feature a point, events with the properties a popup
    /// needs, clusters with their count, largest magnitude, latest time and split zoom.
    package static func tile(_ features: [TileFeature], event: (Int) -> SeismicEvent) -> Data {
        var layer = LayerWriter(name: QuakeVectorLayer.name, extent: Int(ClusterIndex.extent))
        for feature in features {
            var properties: [(String, Value)] = []
            switch feature.kind {
            case .event(let index):
                let event = event(index)
                properties.append(("id", .string(event.id)))
                if let magnitude = event.magnitude { properties.append(("mag", .double(magnitude))) }
                if let type = event.magnitudeType { properties.append(("magType", .string(type))) }
                properties.append(("time", .integer(milliseconds(event.time))))
                if let updated = event.updated { properties.append(("updated", .integer(milliseconds(updated)))) }
                if let depth = event.depth { properties.append(("depth", .double(depth))) }
                if !event.place.isEmpty { properties.append(("place", .string(event.place))) }
                if !event.eventType.isEmpty { properties.append(("type", .string(event.eventType))) }
                if let status = event.status { properties.append(("status", .string(status))) }
                if let network = event.network { properties.append(("net", .string(network))) }
                if let alert = event.details[.alert]?.text { properties.append(("alert", .string(alert))) }
                if let tsunami = event.details[.tsunami]?.number { properties.append(("tsunami", .integer(Int64(tsunami)))) }
                if let url = event.details[.url]?.text { properties.append(("url", .string(url))) }
                if let mechanism = event.mechanism, !mechanism.nodalPlanes.isEmpty {
                    let plane = mechanism.nodalPlanes[mechanism.preferredPlane ?? 0]
                    properties += [("strike", .double(plane.strike)), ("dip", .double(plane.dip)), ("rake", .double(plane.rake))]
                }
            case let .cluster(count, _, latest, largest, splitZoom):
                // The largest event's own magnitude: the index keeps them to a float's precision.
                let magnitude = event(largest).magnitude ?? .nan
                properties = [("cluster", .bool(true)), ("point_count", .integer(Int64(count))),
                              ("point_count_abbreviated", .string(abbreviated(count))),
                              ("latest_time", .integer(milliseconds(latest)))]
                if !magnitude.isNaN { properties.append(("max_mag", .double(magnitude))) }
                if let splitZoom { properties.append(("expansion_zoom", .integer(Int64(splitZoom)))) }
            }
            layer.addPoint(x: feature.x, y: feature.y, properties: properties)
        }
        return layer.tile()
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

    /// One layer's features, keys and values, then the tile around it.
    package struct LayerWriter {
        private let name: String
        private let extent: Int
        private var features = ProtoBuffer()
        private var keys: [String: Int] = [:]
        private var keyList: [String] = []
        private var values: [Value: Int] = [:]
        private var valueList: [Value] = []

        package init(name: String, extent: Int) {
            self.name = name
            self.extent = extent
        }

        /// Whether the layer has no feature.
        package var isEmpty: Bool { features.bytes.isEmpty }

        /// A point at `x`, `y` in tile units.
        package mutating func addPoint(x: Int32, y: Int32, properties: [(String, Value)]) {
            // MoveTo, one point, zig-zag coordinates from the origin.
            add(type: 1, geometry: [1 << 3 | 1, zigzag(x), zigzag(y)], properties: properties)
        }

        /// Line strings or polygon rings (`type` 2 or 3), each a list of points in tile units:
        /// rings closed by ClosePath, as the specification says, without repeating the first point.
        package mutating func addPaths(_ paths: [[(Int32, Int32)]], type: Int, properties: [(String, Value)] = []) {
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
            add(type: type, geometry: geometry, properties: properties)
        }

        private mutating func add(type: Int, geometry: [UInt32], properties: [(String, Value)]) {
            var tags: [UInt32] = []
            tags.reserveCapacity(properties.count * 2)
            for (key, value) in properties {
                tags.append(UInt32(index(ofKey: key)))
                tags.append(UInt32(index(of: value)))
            }
            var feature = ProtoBuffer()
            if !tags.isEmpty { feature.packed(2, tags) }
            feature.varint(3, UInt64(type))
            feature.packed(4, geometry)
            features.message(2, feature)
        }

        private mutating func index(ofKey key: String) -> Int {
            if let index = keys[key] { return index }
            keys[key] = keyList.count
            keyList.append(key)
            return keyList.count - 1
        }

        private mutating func index(of value: Value) -> Int {
            if let index = values[value] { return index }
            values[value] = valueList.count
            valueList.append(value)
            return valueList.count - 1
        }

        private func zigzag(_ value: Int32) -> UInt32 { UInt32(bitPattern: (value << 1) ^ (value >> 31)) }

        /// The layer as a message of its own.
        package func layer() -> ProtoBuffer {
            var layer = ProtoBuffer()
            layer.varint(15, 2)
            layer.string(1, name)
            layer.bytes.append(features.bytes)
            for key in keyList { layer.string(3, key) }
            for value in valueList {
                var encoded = ProtoBuffer()
                switch value {
                case .string(let text): encoded.string(1, text)
                case .double(let number): encoded.fixed64(3, number.bitPattern)
                case .integer(let number) where number >= 0: encoded.varint(5, UInt64(number))
                case .integer(let number): encoded.varint(6, UInt64(bitPattern: (number << 1) ^ (number >> 63)))
                case .bool(let flag): encoded.varint(7, flag ? 1 : 0)
                }
                layer.message(4, encoded)
            }
            layer.varint(5, UInt64(extent))
            return layer
        }

        /// A tile of this layer alone; empty (no layer) when it has no feature.
        package func tile() -> Data {
            var tile = ProtoBuffer()
            if !isEmpty { tile.message(3, layer()) }
            return tile.bytes
        }
    }
}

/// Protocol buffer fields appended to bytes.
package struct ProtoBuffer {
    package var bytes = Data()

    package init() {}

    private mutating func raw(_ value: UInt64) {
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
        let utf8 = Array(text.utf8)
        raw(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    package mutating func message(_ field: Int, _ message: ProtoBuffer) {
        key(field, 2)
        raw(UInt64(message.bytes.count))
        bytes.append(message.bytes)
    }

    package mutating func packed(_ field: Int, _ values: [UInt32]) {
        var body = ProtoBuffer()
        for value in values { body.raw(UInt64(value)) }
        message(field, body)
    }
}
