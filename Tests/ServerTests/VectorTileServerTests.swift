import Foundation
import QuakeCatalogue
import QuakeKit
@testable import QuakeServer
import Testing

@Suite("Vector tiles of a catalogue: its index and a read per tile agree with the feed's", .timeLimit(.minutes(10)))
struct VectorTileServerTests {
    /// A few tiles of every kind: the world, crowded and empty ones, across the antimeridian.
    static let tiles = [(0, 0, 0), (1, 0, 0), (2, 0, 1), (3, 0, 3), (4, 2, 6), (5, 31, 12), (6, 10, 24), (9, 81, 197)]
        .map { TileID(unchecked: $0.0, $0.1, $0.2) }

    @Test(arguments: ServedBackend.available)
    func theIndexAndAReadPerTileGiveTheFeedsTiles(_ backend: ServedBackend) async throws {
        let served = try ServedCatalogue(backend)
        defer { served.finish() }
        let feed = CatalogueServerTests.sample
        try await served.ingest(feed)
        let store = try await served.store()
        defer { Task { await store.close() } }
        let events = try QuakeMap.select(from: .file(feed), selection: EventSelection(limit: nil)).events
        let snapshot = FeedSnapshot(events: events, generated: nil)
        let budget = 25
        let index = CatalogueTileIndex(budget: budget)
        let database = await store.served()
        guard case .database(let catalogue, let state) = database else { Issue.record("not a catalogue"); return }
        // Built in the background once asked for.
        var built = index.index(catalogue, at: state)
        for _ in 0..<200 where built == nil {
            try await Task.sleep(for: .milliseconds(50))
            built = index.index(catalogue, at: state)
        }
        #expect(built?.keys.count == snapshot.mapEvents.count)
        let unbuilt = CatalogueTileIndex(budget: budget)
        for tile in Self.tiles {
            let expected = try await ServedEvents.memory(snapshot).vectorTile(EventFilter(), for: tile, budget: budget,
                                                                            catalogueIndex: unbuilt)
            let fromIndex = try await database.vectorTile(EventFilter(), for: tile, budget: budget, catalogueIndex: index)
            // A filter takes the read per tile; one that admits every event gives the same tile.
            var everything = EventFilter()
            everything.minimumMagnitude = -10
            let perTile = try await database.vectorTile(everything, for: tile, budget: budget, catalogueIndex: index)
            #expect(Self.features(fromIndex) == Self.features(expected), "tile \(tile) from the index")
            #expect(Self.features(perTile) == Self.features(expected), "tile \(tile) read for itself")
        }
    }

    /// A tile's features, order aside (equal magnitudes and times may come in either order): the
    /// bytes of each feature message with its tags resolved to keys and values.
    static func features(_ tile: Data) -> [String] {
        let bytes = [UInt8](tile)
        var reader = Reader(bytes: bytes[...])
        guard let layer = reader.fields().first(where: { $0.field == 3 })?.bytes else { return [] }
        var keys: [String] = [], values: [String] = [], features: [(tags: [Int], geometry: [Int])] = []
        var layerReader = Reader(bytes: layer)
        for field in layerReader.fields() {
            switch field.field {
            case 3: keys.append(String(decoding: field.bytes ?? [], as: UTF8.self))
            case 4: values.append((field.bytes ?? []).map { String($0) }.joined(separator: ","))
            case 2:
                var featureReader = Reader(bytes: field.bytes ?? [])
                var feature: (tags: [Int], geometry: [Int]) = ([], [])
                for part in featureReader.fields() {
                    var packed = Reader(bytes: part.bytes ?? [])
                    if part.field == 2 { feature.tags = packed.varints() }
                    if part.field == 4 { feature.geometry = packed.varints() }
                }
                features.append(feature)
            default: break
            }
        }
        return features.map { feature in
            let tags = stride(from: 0, to: feature.tags.count - 1, by: 2).map { "\(keys[feature.tags[$0]])=\(values[feature.tags[$0 + 1]])" }
            return "\(feature.geometry) \(tags.sorted())"
        }.sorted()
    }

    /// Just enough of the protocol buffer wire format to take a tile apart.
    struct Reader {
        var bytes: ArraySlice<UInt8>

        mutating func varint() -> Int {
            var value = 0, shift = 0
            while let byte = bytes.popFirst() {
                value |= Int(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            return value
        }

        mutating func varints() -> [Int] {
            var values: [Int] = []
            while !bytes.isEmpty { values.append(varint()) }
            return values
        }

        mutating func fields() -> [(field: Int, bytes: ArraySlice<UInt8>?)] {
            var fields: [(field: Int, bytes: ArraySlice<UInt8>?)] = []
            while !bytes.isEmpty {
                let key = varint()
                switch key & 7 {
                case 0: fields.append((key >> 3, nil)); _ = varint()
                case 1: fields.append((key >> 3, nil)); bytes = bytes.dropFirst(8)
                case 2:
                    let length = varint()
                    fields.append((key >> 3, bytes.prefix(length)))
                    bytes = bytes.dropFirst(length)
                default: fields.append((key >> 3, nil)); bytes = bytes.dropFirst(4)
                }
            }
            return fields
        }
    }
}
