import Foundation
import QuakeModel

/// Reads a USGS feed into ``SeismicEvent`` values: the comma-separated feed
/// of any era or the FDSN event text format (`#EventID|Time|…`), streaming
/// (memory stays bounded by one chunk and one record, whatever the size of
/// the input), the GeoJSON summary feed, a QuakeML 1.2 document or a GCMT NDK file, also
/// streamed, told apart by the content, not by a file name; GMT `meca` text when the
/// options ask for it (``FeedOptions/mecaConvention``).
///
/// ```swift
/// var events: [SeismicEvent] = []
/// let summary = try FeedReader().read(.file("all_day.csv")) { events.append($0) }
/// ```
package struct FeedReader: Sendable {
    /// How rows are judged.
    package var options: FeedOptions

    /// Whether events get their descriptive text (see `EventDecoder`); maps
    /// whose filters read no text turn it off.
    package var decodesDescriptions = true
    /// Whether events get their place even when they get no other
    /// description: a map's selection keeps the places of its largest events.
    package var decodesPlaces = false

    /// Creates a reader.
    package init(options: FeedOptions = FeedOptions()) {
        self.options = options
    }

    /// Reads `source`, calling `body` for every valid event, with or without a
    /// magnitude, in file order.
    ///
    /// A header with no rows, a GeoJSON `FeatureCollection` with no
    /// features, or QuakeML `eventParameters` with no events, is an empty
    /// catalogue, not an error: `body` is not called and the summary counts
    /// no rows.
    ///
    /// - Throws: ``FeedError`` when the feed cannot be read at all, or, in
    ///   strict mode, at the first rejected row; whatever `body` throws.
    /// - Returns: the counts, and the first rejections.
    package func read(
        _ source: FeedSource,
        _ body: (SeismicEvent) throws -> Void
    ) throws -> FeedSummary {
        try read(source, passing: nil, mapping: nil, listing: nil, revisions: nil, body,
                 mapRows: { _, _ in }, listedRows: { _, _ in })
    }

    /// How a consumer that ignores most rows lets the reader pass over them
    /// without making their events: a selection of the N most recent events
    /// ignores every row older than all it keeps, unless the row repeats a
    /// kept id. The rows are still read and judged whole (a bad one is
    /// rejected as ever); only their strings and the hand-over are spared.
    package struct RowPassing {
        /// Asked before each batch: rows at or before this time may be passable.
        package let passableThrough: () -> Date?
        /// Asked in row order, for each passable row: `true` passes over it,
        /// `false` decodes it whole and hands it to `body`.
        package let passesOver: (_ time: Date, _ idHash: UInt32?) -> Bool

        package init(passableThrough: @escaping () -> Date?, passesOver: @escaping (_ time: Date, _ idHash: UInt32?) -> Bool) {
            self.passableThrough = passableThrough
            self.passesOver = passesOver
        }
    }

    /// ``read(_:_:)``, passing over the rows `passing` says `body` would
    /// ignore, and recording every valid row's version in `revisions`
    /// (``RevisionLedger/current`` is the version of the event `body` is given).
    package func read(
        _ source: FeedSource,
        passing: RowPassing?,
        revisions: RevisionLedger,
        _ body: (SeismicEvent) throws -> Void
    ) throws -> FeedSummary {
        try read(source, passing: passing, mapping: nil, listing: nil, revisions: revisions, body,
                 mapRows: { _, _ in }, listedRows: { _, _ in })
    }

    /// Reads what a map keeps of the events `admission` admits, in file
    /// order, a run of rows at a time: admission and the reduction to
    /// ``MapEvent`` run on the decoding threads, so the hand-over, which is
    /// serial, only appends. Every valid row's version goes into
    /// `revisions`; a map row's version is the one given with the rows plus its own.
    package func readMapRows(
        _ source: FeedSource,
        admitting admission: RowAdmission,
        revisions: RevisionLedger,
        _ body: (_ rows: [EventDecoder.MapRow], _ firstVersion: Int) throws -> Void
    ) throws -> FeedSummary {
        try read(source, passing: nil, mapping: admission, listing: nil, revisions: revisions, { _ in },
                 mapRows: body, listedRows: { _, _ in })
    }

    /// Reads the records `listing` makes of the events it admits, in file
    /// order, a part of a batch at a time: admission and recording run on
    /// the decoding threads, so the hand-over, which is serial, only copies.
    /// Whole events (GeoJSON, QuakeML) are recorded as they come. Every valid
    /// row's version goes into `revisions`; a record's version is the one
    /// given with the rows plus its own.
    package func readListedRows(
        _ source: FeedSource,
        listing: RowListing,
        revisions: RevisionLedger,
        _ body: (_ rows: ListedRows, _ firstVersion: Int) throws -> Void
    ) throws -> FeedSummary {
        var reader = self
        reader.decodesDescriptions = true
        var single = ListedRows()
        return try reader.read(source, passing: nil, mapping: nil, listing: listing, revisions: revisions, { event in
            guard listing.admission.admits(event) else { return }
            single.removeAll()
            listing.record(event, &single)
            single.versions.append(revisions.current.map(Int32.init) ?? -1)
            try body(single, 0)
        }, mapRows: { _, _ in }, listedRows: body)
    }

    private func read(
        _ source: FeedSource,
        passing: RowPassing?,
        mapping: RowAdmission?,
        listing: RowListing?,
        revisions: RevisionLedger?,
        _ body: (SeismicEvent) throws -> Void,
        mapRows: ([EventDecoder.MapRow], Int) throws -> Void,
        listedRows: (ListedRows, Int) throws -> Void
    ) throws -> FeedSummary {
        precondition(passing == nil || (mapping == nil && listing == nil),
                     "rows are passed over only when whole events are read")
        let name = source.displayName
        let scanner = CSVScanner(sourceName: name)
        let parallelScanner = ParallelRecordScanner(primary: scanner)
        // Made when the first line says the input is FDSN text.
        var pipeScanners: (first: PipeScanner, parallel: ParallelRecordScanner<PipeScanner>)?
        var batch = CSVBatch()
        var decoder: EventDecoder?
        var decoded: [EventDecoder.Part] = []
        var summary = FeedSummary()
        var sawFirstByte = false
        var scannedBeforeFirstByte = false

        func handle(_ batch: CSVBatch) throws {
            var first = 0
            if decoder == nil, batch.count > 0 {
                let dialect: FeedLayout.Dialect = pipeScanners == nil ? .csv : .fdsnText
                decoder = try batch.withRecord(0) {
                    try Self.headerDecoder($0, name: name, dialect: dialect, options: options,
                                           decodesDescriptions: decodesDescriptions, decodesPlaces: decodesPlaces,
                                           mapping: mapping, listing: listing, recordsVersions: revisions != nil)
                }
                first = 1
                // The USGS's layouts of every era name the contributing network (`net`, `Src`).
                if dialect == .csv, decoder?.layout.network != nil { summary.credit(Credits.usgs) }
            }
            guard let decoder, first < batch.count else { return }
            decoder.decode(batch, first..<batch.count, passableThrough: passing?.passableThrough(), into: &decoded)
            for part in decoded.indices {
                try handOver(decoded[part], of: batch, decoder: decoder, passing: passing, revisions: revisions,
                             summary: &summary, body, mapRows: mapRows, listedRows: listedRows)
            }
        }

        /// The header alone first (binary input is refused by its first
        /// line), then the rest of the window on all cores.
        func scanRecords<Scanner: RecordScanner>(_ window: UnsafeRawBufferPointer, isLast: Bool, with scanner: Scanner,
                                                 parallel: ParallelRecordScanner<Scanner>) throws -> Int {
            var used = 0
            if decoder == nil {
                used = try scanner.scan(window, isLast: isLast, limit: 1, into: &batch)
                try handle(batch)
                if decoder == nil { return used }
            }
            used += try parallel.scan(UnsafeRawBufferPointer(rebasing: window[used...]), isLast: isLast) {
                try handle($0)
            }
            return used
        }

        // The format is told by the content: GeoJSON opens with '{', QuakeML with an XML
        // declaration or its root element (an HTML error page is refused as a CSV without
        // columns), FDSN text with a '#EventID|…' line, GCMT NDK with a hypocentre line.
        var json: GeoJSONStream?
        var quakeML: QuakeMLDecoder?
        var ndk: NDKDecoder?
        // GMT meca text is read only when asked for: it has nothing to be told by.
        let meca = options.mecaConvention.map {
            GMTMecaDecoder(source: name, convention: $0, defaultTime: options.mecaTime, now: options.now ?? Date())
        }
        try ChunkReader.forEachWindow(of: source) { window, isLast in
            if let meca {
                try meca.parse(window, isLast: isLast) { outcome in
                    try handOver(outcome, summary: &summary, mapping: mapping, revisions: revisions, body, mapRows: mapRows)
                }
                return window.count
            }
            // Bytes before the FDSN text header's line, passed over.
            var skipped = 0
            if !sawFirstByte, let start = window.firstIndex(where: { !Self.isWhitespace($0) }) {
                let first = window[start]
                if first == UInt8(ascii: "#") {
                    guard let isText = Self.isFDSNTextHeader(window[start...], isLast: isLast) else { return 0 }
                    if isText {
                        // The header is the line the '#' is on, whatever blanks stand before it.
                        skipped = window[..<start].lastIndex { $0 == ASCII.lf || $0 == ASCII.cr }.map { $0 + 1 } ?? 0
                        let pipe = PipeScanner(sourceName: name)
                        if scannedBeforeFirstByte || skipped > 0 {
                            // Blank lines before this window were counted by the CSV scanner.
                            let before = scannedBeforeFirstByte ? scanner.line : 1
                            pipe.restart(line: before + Self.lineBreaks(in: window[..<skipped]))
                        }
                        pipeScanners = (pipe, ParallelRecordScanner(primary: pipe))
                    }
                }
                sawFirstByte = true
                if first == UInt8(ascii: "{") {
                    // A map reads no details, as it reads no descriptions (the CSV decoder's rule).
                    json = GeoJSONStream(decoder: GeoJSONFeedDecoder(source: name, options: options,
                                                                     decodesDetails: decodesDescriptions))
                }
                if first == UInt8(ascii: "<"), QuakeMLDecoder.opensDocument(window) {
                    // Blank lines in windows before this one were counted by the CSV scanner.
                    quakeML = QuakeMLDecoder(source: name, now: options.now ?? Date(),
                                             firstLine: scannedBeforeFirstByte ? scanner.line : 1)
                }
                if NDKDecoder.opensDocument(UnsafeRawBufferPointer(rebasing: window[start...])) {
                    ndk = NDKDecoder(source: name, now: options.now ?? Date())
                    summary.credit(Credits.globalCMT)
                }
                if first == UInt8(ascii: "[") {
                    throw FeedError.notCSV(source: name, reason: "this is a JSON array, neither a CSV nor a GeoJSON feed")
                }
            }
            if let quakeML {
                try quakeML.parse(window, isLast: isLast) { outcome in
                    try handOver(outcome, summary: &summary, mapping: mapping, revisions: revisions, body, mapRows: mapRows)
                }
                summary.generated = quakeML.generated
                return window.count
            }
            if let ndk {
                try ndk.parse(window, isLast: isLast) { outcome in
                    try handOver(outcome, summary: &summary, mapping: mapping, revisions: revisions, body, mapRows: mapRows)
                }
                return window.count
            }
            if let json {
                try json.parse(window, isLast: isLast) { outcome in
                    try handOver(outcome, summary: &summary, mapping: mapping, revisions: revisions, body, mapRows: mapRows)
                }
                summary.generated = json.generated
                summary.title = json.title
                // The USGS's summary feeds call themselves "USGS All Earthquakes, Past Day" and the like.
                if json.title?.hasPrefix("USGS ") == true { summary.credit(Credits.usgs) }
                return window.count
            }
            if let pipeScanners {
                return try skipped + scanRecords(UnsafeRawBufferPointer(rebasing: window[skipped...]), isLast: isLast,
                                                 with: pipeScanners.first, parallel: pipeScanners.parallel)
            }
            if !sawFirstByte { scannedBeforeFirstByte = true }
            return try scanRecords(window, isLast: isLast, with: scanner, parallel: parallelScanner)
        }
        if json != nil || quakeML != nil || ndk != nil || meca != nil { return summary }

        // No header at all is not a feed; a header with no rows is a quiet day's feed.
        if decoder == nil { throw FeedError.empty(source: name) }
        return summary
    }

    /// Hands one decoded part's rows on, in order, and counts them. Apart
    /// from the reading loop so that the summary is an `inout` here, not a
    /// variable captured by closures, which the runtime checks for
    /// exclusive access at every count.
    private func handOver(
        _ part: EventDecoder.Part,
        of batch: CSVBatch,
        decoder: EventDecoder,
        passing: RowPassing?,
        revisions: RevisionLedger?,
        summary: inout FeedSummary,
        _ body: (SeismicEvent) throws -> Void,
        mapRows: ([EventDecoder.MapRow], Int) throws -> Void,
        listedRows: (ListedRows, Int) throws -> Void
    ) throws {
        summary.rows += part.rows
        // The part's versions, every valid row's, before any of its rows is handed over.
        let firstVersion = revisions?.record(keys: part.versionKeys, updated: part.versionUpdated) ?? 0
        var nextRejection = 0
        for entry in part.entries {
            switch entry {
            case .event(let version):
                // Moved out of the part: handing it over is its last use there.
                let event = part.events.takeNext()
                if event.magnitude == nil { summary.withoutMagnitude += 1 } else { summary.events += 1 }
                revisions?.current = version < 0 ? nil : firstVersion + Int(version)
                try body(event)
            case .passable(let row):
                if row.hasMagnitude { summary.events += 1 } else { summary.withoutMagnitude += 1 }
                if passing?.passesOver(row.time, row.idHash) == true { continue }
                revisions?.current = row.version < 0 ? nil : firstVersion + Int(row.version)
                try body(batch.withRecord(row.record) { decoder.event($0) })
            case .notAdmitted(let hasMagnitude), .listed(let hasMagnitude):
                if hasMagnitude { summary.events += 1 } else { summary.withoutMagnitude += 1 }
            case .rejected:
                try summary.record(part.rejections[nextRejection], options: options)
                nextRejection += 1
            }
        }
        summary.events += part.mapped.count
        try mapRows(part.mapped, firstVersion)
        if part.listed.count > 0 { try listedRows(part.listed, firstVersion) }
    }

    /// Hands one QuakeML event on, or counts its rejection.
    private func handOver(
        _ outcome: QuakeMLDecoder.Outcome,
        summary: inout FeedSummary,
        mapping: RowAdmission?,
        revisions: RevisionLedger?,
        _ body: (SeismicEvent) throws -> Void,
        mapRows: ([EventDecoder.MapRow], Int) throws -> Void
    ) throws {
        summary.rows += 1
        switch outcome {
        case .event(let event):
            if event.magnitude == nil { summary.withoutMagnitude += 1 } else { summary.events += 1 }
            try handOver(event, mapping: mapping, revisions: revisions, body, mapRows: mapRows)
        case .rejected(let rejection):
            try summary.record(rejection, options: options)
        }
    }

    /// Hands a whole event (GeoJSON, QuakeML) on, its version recorded first:
    /// to `body`, or as a map row when `mapping` admits it.
    private func handOver(
        _ event: SeismicEvent,
        mapping: RowAdmission?,
        revisions: RevisionLedger?,
        _ body: (SeismicEvent) throws -> Void,
        mapRows: ([EventDecoder.MapRow], Int) throws -> Void
    ) throws {
        let version = revisions?.record(id: event.id, updated: event.updated)
        revisions?.current = version
        guard let mapping else { return try body(event) }
        // The event has its place already; the collector keeps the largest few.
        if var row = EventDecoder.MapRow(event, admittedBy: mapping, version: version.map(Int32.init) ?? -1) {
            row.place = event.place
            try mapRows([row], 0)
        }
    }

    private static func headerDecoder(_ record: CSVRecord, name: String, dialect: FeedLayout.Dialect,
                                      options: FeedOptions, decodesDescriptions: Bool, decodesPlaces: Bool,
                                      mapping: RowAdmission?, listing: RowListing?,
                                      recordsVersions: Bool) throws -> EventDecoder {
        for index in 0..<record.fieldCount {
            let bytes = record.field(index)
            guard String(validating: bytes, as: UTF8.self) != nil,
                  !bytes.contains(where: { $0 < 0x20 && $0 != ASCII.tab }) else {
                throw FeedError.notCSV(source: name, reason: "the first line is not text: binary data, not a CSV feed")
            }
        }
        var header = (0..<record.fieldCount).map { record.string($0) }
        if dialect == .fdsnText, let first = header.first {
            // The '#' marks the header line; the column is `EventID`, as messages name it.
            header[0] = String(first.withoutByteOrderMarks.trimmingBlanks().dropFirst()).trimmingBlanks()
        }
        return EventDecoder(layout: try FeedLayout(header: header, source: name, dialect: dialect), source: name,
                            now: options.now ?? Date(), decodesDescriptions: decodesDescriptions,
                            decodesPlaces: decodesPlaces, mapping: mapping, listing: listing,
                            recordsVersions: recordsVersions)
    }

    /// Whether the line at the start of `bytes` (a `#`) is an FDSN event
    /// text header: `|`-separated names, `EventID` among them. `nil` while
    /// its end is yet to come; a line longer than any record is no header.
    private static func isFDSNTextHeader(_ bytes: Slice<UnsafeRawBufferPointer>, isLast: Bool) -> Bool? {
        let lineEnd = bytes.firstIndex(where: { $0 == ASCII.lf || $0 == ASCII.cr })
        if lineEnd == nil && !isLast && bytes.count <= CSVScanner.defaultMaximumRecordBytes { return nil }
        let line = bytes[bytes.startIndex..<(lineEnd ?? bytes.endIndex)].dropFirst()
        guard line.contains(ASCII.pipe) else { return false }
        return line.split(separator: ASCII.pipe, omittingEmptySubsequences: false).contains { name in
            String(decoding: name, as: UTF8.self).trimmingBlanks().lowercased() == "eventid"
        }
    }

    /// Line breaks in `bytes`, CRLF counted once.
    private static func lineBreaks(in bytes: Slice<UnsafeRawBufferPointer>) -> Int {
        var count = 0, previous: UInt8 = 0
        for byte in bytes {
            if byte == ASCII.cr || (byte == ASCII.lf && previous != ASCII.cr) { count += 1 }
            previous = byte
        }
        return count
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == ASCII.space || byte == ASCII.tab || byte == ASCII.lf || byte == ASCII.cr
            || byte == 0xEF || byte == 0xBB || byte == 0xBF
    }
}
