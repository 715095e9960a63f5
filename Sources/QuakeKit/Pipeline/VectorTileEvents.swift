import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeScene
import QuakeWrite

/// Selected events ready to be cut into vector tiles: their ``ClusterIndex``, and each event's
/// properties already encoded as the tiles store them, about 130 bytes an event instead of a
/// whole ``SeismicEvent``'s several hundred. A feed or a catalogue is read through a spool
/// (``EventSpool``), so no whole event is kept while reading either.
package final class VectorTileEvents: Sendable, Hashable {
    /// Where each event lies, and how crowded tiles are cut into clusters.
    package let index: ClusterIndex
    /// Every event's properties, one after another.
    private let properties: [UInt8]
    /// Where each event's properties end.
    private let ends: [Int]
    /// Counts and rejections from reading the feed.
    package let summary: FeedSummary

    /// How many events there are.
    package var count: Int { ends.count }

    /// The events of `events`, in any order.
    package convenience init(_ events: [SeismicEvent], budget: Int = ClusterIndex.defaultBudget, summary: FeedSummary = FeedSummary()) {
        var properties: [UInt8] = [], ends: [Int] = []
        ends.reserveCapacity(events.count)
        for event in events {
            VectorTileEncoder.appendProperties(of: event, to: &properties)
            ends.append(properties.count)
        }
        self.init(index: ClusterIndex(events.lazy.map(TilePoint.init), budget: budget), properties: properties, ends: ends,
                  summary: summary)
    }

    /// The events of a spool whose records ``record(_:into:)`` made.
    package convenience init(spool: EventSpool, budget: Int) {
        var points: [TilePoint] = [], properties: [UInt8] = [], ends: [Int] = []
        points.reserveCapacity(spool.count)
        ends.reserveCapacity(spool.count)
        spool.forEachRecord { record in
            func number(_ position: Int) -> Double {
                Double(bitPattern: record.loadUnaligned(fromByteOffset: position * 8, as: UInt64.self).littleEndian)
            }
            let magnitude = number(2)
            points.append(TilePoint(latitude: number(0), longitude: number(1), magnitude: magnitude.isNaN ? nil : magnitude,
                                    time: Date(timeIntervalSince1970: number(3))))
            properties.append(contentsOf: record[Self.headerBytes...])
            ends.append(properties.count)
        }
        self.init(index: ClusterIndex(points, budget: budget), properties: properties, ends: ends, summary: spool.summary)
    }

    private init(index: ClusterIndex, properties: [UInt8], ends: [Int], summary: FeedSummary) {
        self.index = index
        self.properties = properties
        self.ends = ends
        self.summary = summary
    }

    /// A spool record: latitude, longitude, magnitude (NaN for none) and time as 8-byte numbers, then the properties.
    private static let headerBytes = 32

    /// Appends `event`'s spool record to `bytes`.
    package static func record(_ event: SeismicEvent, into bytes: inout [UInt8]) {
        for number in [event.latitude, event.longitude, event.magnitude ?? .nan, event.time.timeIntervalSince1970] {
            withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        VectorTileEncoder.appendProperties(of: event, to: &bytes)
    }

    /// The vector tile of `tile`, with `buffer` units of its neighbours' features; empty when it has none.
    package func tile(_ tile: TileID, buffer: Int32) -> Data {
        VectorTileEncoder.tile(index.features(for: tile, buffer: buffer)) { event, bytes in
            bytes.append(contentsOf: properties[(event == 0 ? 0 : ends[event - 1])..<ends[event]])
        }
    }

    /// Identity: one reading of a feed.
    package static func == (lhs: VectorTileEvents, rhs: VectorTileEvents) -> Bool { lhs === rhs }

    /// Identity: one reading of a feed.
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension QuakeMap {
    /// Reads `source` and prepares the events `selection` selects for vector tiles, through a
    /// spool: memory about 160 bytes an event, whatever a whole event would take.
    ///
    /// - Throws: ``FeedError`` as reading does; ``WriteError`` when the spool cannot be written.
    package static func vectorTileEvents(from source: FeedSource, feed: FeedOptions = FeedOptions(),
                                         selection: EventSelection = EventSelection(limit: nil),
                                         budget: Int = ClusterIndex.defaultBudget) throws -> SelectedEvents<VectorTileEvents> {
        let spool = try EventSpool(from: source, feed: feed, selection: selection, expectedRows: (source.byteCount ?? 0) / 110) {
            event, bytes in VectorTileEvents.record(event, into: &bytes)
        }
        let events = VectorTileEvents(spool: spool, budget: budget)
        return SelectedEvents(events: [events], summary: spool.summary, duplicates: spool.duplicates)
    }

    /// Prepares the events `produce` hands over (a catalogue's, page by page) for vector tiles.
    package static func vectorTileEvents(budget: Int = ClusterIndex.defaultBudget,
                                         produce: ((SeismicEvent) throws -> Void) async throws -> FeedSummary)
        async throws -> SelectedEvents<VectorTileEvents> {
        let spool = try await EventSpool(produce: produce) { event, bytes in VectorTileEvents.record(event, into: &bytes) }
        let events = VectorTileEvents(spool: spool, budget: budget)
        return SelectedEvents(events: [events], summary: spool.summary)
    }
}
