import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeScene
import QuakeRender
import QuakeWrite

extension QuakeMap {
    /// Reads `source` and summarizes every event `selection` admits
    /// (``CatalogStatistics``), with memory bounded independent of the
    /// feed's size: the events are spooled as small records (`EventSpool`,
    /// repeated ids settled by `RevisionPolicy`, before the filters) and folded in
    /// the selection's order, so the figures are those of
    /// ``CatalogStatistics/init(_:binning:completeness:)`` over
    /// ``select(from:feed:selection:)``'s events. In memory stay 12 bytes an
    /// event for the spool, 8 for its magnitude and 8 for its time (the estimators
    /// that read time order need them; magnitude types are counted, not kept), and
    /// while the fit and the estimators bin and order them, 16 more.
    /// The one element of `events` is the summary.
    ///
    /// - Throws: ``FeedError`` as `FeedReader` does; ``WriteError`` when
    ///   the temporary file cannot be written.
    public static func statistics(
        from source: FeedSource,
        feed: FeedOptions = FeedOptions(),
        selection: EventSelection = EventSelection(limit: nil),
        binning: MagnitudeBinning = .tenth,
        completeness: CompletenessMethod = .standard
    ) throws -> SelectedEvents<CatalogStatistics> {
        try statistics(from: source, feed: feed, selection: selection, binning: binning, completeness: completeness,
                       settings: nil)
    }

    /// ``statistics(from:feed:selection:binning:completeness:)`` with b, σ and a by
    /// the estimators `settings` choose (none when `nil`).
    package static func statistics(
        from source: FeedSource, feed: FeedOptions, selection: EventSelection, binning: MagnitudeBinning,
        completeness: CompletenessMethod, settings: EstimationSettings?
    ) throws -> SelectedEvents<CatalogStatistics> {
        // Rows are about 100 bytes or more; a record is about 35.
        let spool = try EventSpool(from: source, feed: feed, selection: selection,
                                   expectedRows: (source.byteCount ?? 0) / 110) { event, bytes in
            StatisticsRecord.append(event, to: &bytes)
        }
        var accumulator = CatalogStatistics.Accumulator()
        // Most types are one of a few: their strings are made once.
        var lastType: (bytes: [UInt8], key: String) = ([], "")
        var lastMagnitudeType: (bytes: [UInt8], key: String) = ([], "")
        spool.forEachRecord { record in
            let fields = StatisticsRecord(record)
            let typeBytes = UnsafeRawBufferPointer(rebasing: record[fields.typeOffset...])
            if !typeBytes.elementsEqual(lastType.bytes) {
                lastType = (Array(typeBytes), String(decoding: typeBytes, as: UTF8.self))
            }
            let magnitudeTypeBytes = UnsafeRawBufferPointer(rebasing: record[StatisticsRecord.magnitudeTypeOffset..<fields.typeOffset])
            if !magnitudeTypeBytes.elementsEqual(lastMagnitudeType.bytes) {
                lastMagnitudeType = (Array(magnitudeTypeBytes), String(decoding: magnitudeTypeBytes, as: UTF8.self))
            }
            accumulator.add(time: fields.time, magnitude: fields.magnitude, depth: fields.depth, type: lastType.key,
                            magnitudeType: lastMagnitudeType.key)
        }
        let statistics = CatalogStatistics(accumulator, binning: binning, completeness: completeness, settings: settings)
        return SelectedEvents(events: [statistics], summary: spool.summary, duplicates: spool.duplicates)
    }
}

/// What ``CatalogStatistics`` needs of an event, as a spool record: which
/// of magnitude and depth are there (1 byte), the time's, magnitude's and
/// depth's bits (8 each), the magnitude type's length (1 byte) and UTF-8
/// (at most 255 bytes), then the type key's UTF-8.
private struct StatisticsRecord {
    package static let magnitudeTypeOffset = 26

    package var typeOffset: Int

    package var time: Date
    package var magnitude: Double?
    package var depth: Double?

    package init(_ record: UnsafeRawBufferPointer) {
        func double(at offset: Int) -> Double {
            Double(bitPattern: UInt64(littleEndian: record.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }
        let present = record[0]
        time = Date(timeIntervalSinceReferenceDate: double(at: 1))
        magnitude = present & 1 != 0 ? double(at: 9) : nil
        depth = present & 2 != 0 ? double(at: 17) : nil
        typeOffset = Self.magnitudeTypeOffset + Int(record[25])
    }

    package static func append(_ event: SeismicEvent, to bytes: inout [UInt8]) {
        bytes.append((event.magnitude == nil ? 0 : 1) | (event.depth == nil ? 0 : 2))
        func append(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        // The reference date's interval is what a Date holds: its bits come back exactly.
        append(event.time.timeIntervalSinceReferenceDate)
        append(event.magnitude ?? 0)
        append(event.depth ?? 0)
        let magnitudeType = Array((event.magnitudeType ?? "").utf8.prefix(255))
        bytes.append(UInt8(magnitudeType.count))
        bytes.append(contentsOf: magnitudeType)
        var type = CatalogStatistics.typeKey(event.eventType)
        type.withUTF8 { bytes.append(contentsOf: $0) }
    }
}

extension QuakeMap {
    /// Draws the chart `kind` of a selection in `format` (see ``ChartKind``).
    ///
    /// - Throws: ``ChartOptionsError`` for options out of range, before anything
    ///   is drawn; ``RenderError``.
    public static func chart(_ kind: ChartKind, for selection: FeedSelection, options: ChartOptions = ChartOptions(),
                             format: ImageFormat = .png) throws -> Data {
        try options.validate()
        return try MapRenderer().data(for: ChartBuilder(options: options).scene(kind, for: selection.events), format: format)
    }
}
