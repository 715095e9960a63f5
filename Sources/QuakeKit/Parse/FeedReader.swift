import Foundation

/// Reads a USGS feed into ``SeismicEvent`` values: the comma-separated feed
/// of any era, streaming (memory stays bounded by one chunk and one record,
/// whatever the size of the input), or the GeoJSON summary feed, told apart by
/// the content, not by a file name.
///
/// ```swift
/// var events: [SeismicEvent] = []
/// let summary = try FeedReader().read(.file("all_day.csv")) { events.append($0) }
/// ```
public struct FeedReader: Sendable {
    /// How rows are judged.
    public var options: FeedOptions

    /// Creates a reader.
    public init(options: FeedOptions = FeedOptions()) {
        self.options = options
    }

    /// Reads `source`, calling `body` for every valid event, with or without a
    /// magnitude, in file order.
    ///
    /// - Throws: ``FeedError`` when the feed cannot be read at all, or, in
    ///   strict mode, at the first rejected row; whatever `body` throws.
    /// - Returns: the counts, and the first rejections.
    public func read(
        _ source: FeedSource,
        _ body: (SeismicEvent) throws -> Void
    ) throws -> FeedSummary {
        let name = source.displayName
        var reader = CSVRecordReader(sourceName: name)
        var decoder: EventDecoder?
        var summary = FeedSummary()
        var sawFirstByte = false

        func handle(_ record: inout CSVRecord) throws {
            guard let active = decoder else {
                guard String(validating: record.bytes, as: UTF8.self) != nil,
                      !record.bytes.contains(where: { $0 < 0x20 && $0 != ASCII.tab }) else {
                    throw FeedError.notCSV(source: name, reason: "the first line is not text: binary data, not a CSV feed")
                }
                let header = (0..<record.fieldCount).map { record.string($0) }
                decoder = EventDecoder(layout: try FeedLayout(header: header, source: name), source: name,
                                       now: options.now ?? Date())
                return
            }
            summary.rows += 1
            switch active.decode(record) {
            case .event(let event):
                if event.magnitude == nil { summary.withoutMagnitude += 1 } else { summary.events += 1 }
                try body(event)
            case .rejected(let rejection):
                try summary.record(rejection, options: options)
            }
        }

        // The format is told by the content: GeoJSON opens with '{'.
        var json: Data?
        try ChunkReader.forEachChunk(of: source) { chunk in
            if !sawFirstByte, let first = chunk.first(where: { !Self.isWhitespace($0) }) {
                sawFirstByte = true
                if first == UInt8(ascii: "{") { json = Data() }
                if first == UInt8(ascii: "[") {
                    throw FeedError.notCSV(source: name, reason: "this is a JSON array, neither a CSV nor a GeoJSON feed")
                }
            }
            if json != nil {
                json!.append(contentsOf: chunk)
                if json!.count > GeoJSONFeedDecoder.maximumBytes {
                    throw FeedError.malformedGeoJSON(source: name,
                        reason: "larger than \(GeoJSONFeedDecoder.maximumBytes >> 20) MiB")
                }
            } else {
                try reader.consume(chunk) { try handle(&$0) }
            }
        }
        if let json {
            try GeoJSONFeedDecoder(source: name, options: options).decode(json, into: &summary, body)
            // Like a CSV header with no rows: nothing to map is an error, not an empty map.
            if summary.rows == 0 { throw FeedError.headerOnly(source: name) }
            return summary
        }
        try reader.finish { try handle(&$0) }

        if decoder == nil { throw FeedError.empty(source: name) }
        if summary.rows == 0 { throw FeedError.headerOnly(source: name) }
        return summary
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == ASCII.space || byte == ASCII.tab || byte == ASCII.lf || byte == ASCII.cr
            || byte == 0xEF || byte == 0xBB || byte == 0xBF
    }
}
