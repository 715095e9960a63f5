import Foundation
import QuakeModel

/// Turns CSV records into ``SeismicEvent``s (or, for a map, ``MapRow``s), or
/// ``FeedRejection``s, into the parts of a batch (``Part``).
///
/// A class, not a struct: the decoding threads share one instance rather than
/// copying its layout (and retaining the header's names) per record.
package final class EventDecoder: Sendable {
    package let layout: FeedLayout
    package let source: String
    package let now: Date
    /// The rules every reader shares, judging against `now`.
    private let validator: RowValidator
    /// Whether place, type, magnitude type, network and status are made into
    /// strings. A map whose filters read none of them skips them: they are
    /// most of the cost of decoding a row.
    package let decodesDescriptions: Bool
    /// Whether the place is made into a string even without the other descriptions.
    package let decodesPlaces: Bool
    /// When set, valid rows become map rows (``Part/mapped``) if it admits
    /// them, and ``Part/Entry/notAdmitted(hasMagnitude:)`` if not.
    package let mapping: RowAdmission?
    /// When set (and `mapping` is not), valid rows become records in
    /// ``Part/listed`` if it admits them, and
    /// ``Part/Entry/notAdmitted(hasMagnitude:)`` if not: no event leaves
    /// the decoding thread.
    package let listing: RowListing?
    /// Whether each valid row's version (its id's key and `updated`) goes into
    /// ``Part/versionKeys`` for a ``RevisionLedger``, whatever the filters say of the row.
    package let recordsVersions: Bool
    /// The mapping's or listing's numeric bounds, when they decide alone:
    /// such rows are judged from their numbers before an event is made (a
    /// map's become map rows without one).
    private let numericAdmission: NumericAdmission?

    package init(layout: FeedLayout, source: String, now: Date, decodesDescriptions: Bool = true,
         decodesPlaces: Bool = false, mapping: RowAdmission? = nil, listing: RowListing? = nil,
         recordsVersions: Bool = false) {
        precondition(mapping == nil || listing == nil, "rows are mapped or listed, not both")
        self.layout = layout
        self.source = source
        self.now = now
        validator = RowValidator(now: now)
        self.decodesDescriptions = decodesDescriptions
        self.decodesPlaces = decodesPlaces
        self.mapping = mapping
        self.listing = listing
        self.recordsVersions = recordsVersions
        numericAdmission = mapping?.numeric ?? listing?.admission.numeric
    }

    /// What a map keeps of an event, and what finding its repeats needs.
    package struct MapRow {
        package let event: MapEvent
        /// Its version in the part's ``Part/versionKeys`` (or, for a whole
        /// event, in the ledger); -1 for none.
        package let version: Int32
        /// The place, only for a row that may be among the largest events
        /// (a label's candidate): a string per row of a million would cost
        /// more than the rest of the row.
        package var place: String?

        /// What a map keeps of `event`; `nil` when `admission` does not admit it.
        package init?(_ event: SeismicEvent, admittedBy admission: RowAdmission, version: Int32) {
            guard admission.admits(event), let drawn = MapEvent(event) else { return nil }
            self.init(drawn, version: version)
        }

        package init(_ event: MapEvent, version: Int32) {
            self.event = event
            self.version = version
        }
    }

    /// What deciding whether to pass over a valid row needs.
    package struct PassableRow {
        /// Its index in the batch, to decode it whole after all.
        package let record: Int
        package let time: Date
        /// ``FNV1a/id(_:)`` of its id; `nil` when it has none.
        package let idHash: UInt32?
        package let hasMagnitude: Bool
        /// Its version in the part's ``Part/versionKeys``; -1 for none.
        package let version: Int32
    }

    /// Below this many records a batch is decoded on the calling thread:
    /// handing work to other cores costs more than it saves.
    package static let parallelThreshold = 2048

    /// One part of a decoded batch, its records in order: a small entry per
    /// record, with events, admitted map rows and rejections in arrays of
    /// their own. An outcome in one array would take an event's 180 bytes
    /// for every record, and most records of a long feed are passed over.
    package struct Part {
        package enum Entry {
            /// The next of `events`, with its version in the part's ``Part/versionKeys`` (-1: none).
            case event(version: Int32)
            /// A valid row the reader may pass over, its event not made (see ``FeedReader/RowPassing``).
            case passable(PassableRow)
            /// A valid row the mapping or listing does not admit.
            case notAdmitted(hasMagnitude: Bool)
            /// A valid row recorded in `listed`.
            case listed(hasMagnitude: Bool)
            /// The next of `rejections`.
            case rejected
        }

        /// An entry for every record except those in `mapped`.
        package var entries: [Entry] = []
        package var events = EventBuffer()
        /// The rows the mapping admits. Their order among the
        /// entries does not matter: they are only collected, and a strict
        /// read stops at a rejection anyway.
        package var mapped: [MapRow] = []
        package var rejections: [FeedRejection] = []
        /// The records of the rows the listing admits, in order.
        package var listed = ListedRows()
        /// The largest events this part has mapped, across batches: only rows
        /// that rank among them bring their place (``MapRow/place``).
        package var largest = LargestEvents<Void>()
        /// Where a row's details are built (``EventDecoder/decode(_:index:passableThrough:texts:into:)``).
        package var detailBuffer = EventDetails()
        /// The versions of the part's valid rows with an id, in row order, for
        /// a ``RevisionLedger``: the id's key and `updated` (seconds since 1970, NaN for none).
        package var versionKeys: [UInt64] = []
        package var versionUpdated: [Double] = []
        /// How many records the part holds.
        package var rows: Int { entries.count + mapped.count }

        package mutating func removeAll() {
            entries.removeAll(keepingCapacity: true)
            events.removeAll()
            mapped.removeAll(keepingCapacity: true)
            rejections.removeAll(keepingCapacity: true)
            listed.removeAll()
            versionKeys.removeAll(keepingCapacity: true)
            versionUpdated.removeAll(keepingCapacity: true)
        }

        package mutating func append(_ event: consuming SeismicEvent, version: Int32) {
            events.append(event)
            entries.append(.event(version: version))
        }

        /// Records a version; returns its number in the part.
        package mutating func recordVersion(key: UInt64, updated: Date?) -> Int32 {
            versionKeys.append(key)
            versionUpdated.append(updated?.timeIntervalSince1970 ?? .nan)
            return Int32(versionKeys.count - 1)
        }

        package mutating func append(_ row: MapRow) { mapped.append(row) }

        package mutating func append(_ entry: Entry) { entries.append(entry) }

        package mutating func append(_ rejection: FeedRejection) {
            rejections.append(rejection)
            entries.append(.rejected)
        }
    }

    /// Decodes the batch's records in `range` into `parts`, in parts on all
    /// cores for large batches: the parts, in order, hold the records in
    /// order. The arrays are emptied first and keep their storage, so a
    /// stream of windows allocates them once.
    ///
    /// - Parameter passableThrough: valid rows at or before this time become
    ///   ``Part/Entry/passable(_:)`` when their id can be hashed from the bytes.
    package func decode(_ batch: CSVBatch, _ range: Range<Int>, passableThrough: Date? = nil, into parts: inout [Part]) {
        let count = range.count >= Self.parallelThreshold ? ParallelParts.cores : 1
        // Each its own: a part's event buffer is a reference.
        if parts.count != count { parts = (0..<count).map { _ in Part() } }
        batch.withRecords(range) { records in
            parts.withUnsafeMutableBufferPointer { parts in
                // Each part writes only its own arrays.
                _ = ParallelParts.map(parts: count) { part in
                    let lower = range.lowerBound + range.count * part / count
                    let upper = range.lowerBound + range.count * (part + 1) / count
                    var texts = ShortTextCache()
                    parts[part].removeAll()
                    // Sized once rather than doubled: their capacity stays for the stream's windows.
                    if mapping == nil {
                        parts[part].entries.reserveCapacity(upper - lower)
                        if passableThrough == nil && listing == nil { parts[part].events.reserveCapacity(upper - lower) }
                    }
                    for index in lower..<upper {
                        decode(records[index], index: index, passableThrough: passableThrough, texts: &texts,
                               into: &parts[part])
                    }
                }
            }
        }
    }

    /// The event of a record already judged valid (a passable row that is
    /// not passed over after all), read without a mapping.
    package func event(_ record: CSVRecord) -> SeismicEvent {
        precondition(mapping == nil && listing == nil, "rows are passed over only when whole events are read")
        var texts = ShortTextCache(enabled: false)
        var part = Part()
        part.events.reserveCapacity(1)
        decode(record, index: 0, passableThrough: nil, texts: &texts, into: &part)
        precondition(part.events.remaining == 1, "a row judged valid decodes to an event")
        // Its version was recorded when it was first decoded.
        return part.events.takeNext()
    }

    /// Decodes `record` into `part`.
    package func decode(_ record: CSVRecord, index: Int, passableThrough: Date?, texts: inout ShortTextCache,
                into part: inout Part) {
        guard record.fieldCount == layout.header.count else {
            let plural = record.fieldCount == 1 ? "field" : "fields"
            return part.append(reject(record, nil, nil,
                "row has \(record.fieldCount) \(plural), the header has \(layout.header.count)"))
        }
        // The validator every reader shares judges the values; this reader only says where they are.
        let time: Date, latitude: Double, longitude: Double, depth: Double?, magnitude: Double?, updated: Date?
        let fields = fields(record)
        switch validator.check(fields) {
        case .success(let row):
            (time, latitude, longitude, depth, magnitude, updated) =
                (row.time, row.latitude, row.longitude, row.depth, row.magnitude, row.updated)
        case .failure(let refusal):
            let problem = validator.problem(refusal, in: fields)
            return part.append(reject(record, column(problem.field), problem.shown, problem.reason))
        }
        // The other fields are read where descriptions are (a map reads none of them); a bad value
        // refuses the row as a bad magnitude would, before it can be passed over or listed.
        var details = EventDetails()
        if decodesDescriptions && !layout.details.isEmpty {
            // Built in the part's buffer, which keeps its room from row to row, then copied once at
            // its exact size: an event holds no spare capacity and no growth leaves freed blocks behind.
            details = part.detailBuffer
            part.detailBuffer = EventDetails()
            details.removeAll()
            defer { part.detailBuffer = details; details = details.compacted() }
            for (field, column) in layout.details {
                // ASCII text is copied as its bytes, trimmed, with no `String` made (anything else may
                // hold a byte order mark or bytes that are not UTF-8, which the text rule repairs).
                let kind = field.kind
                if kind == .text {
                    let trimmed = record.trimmed(column)
                    if trimmed.isEmpty { continue }
                    if !trimmed.contains(where: { $0 >= 0x80 }) {
                        details.appendText(field, trimmed)
                        continue
                    }
                }
                // A short decimal is kept as its digits (the common case), anything else as its value.
                if kind == .number || kind == .integer, let decimal = DecimalParser.decimal(record.field(column)) {
                    if kind == .number {
                        details.appendDecimal(field, mantissa: decimal.mantissa, scale: decimal.scale)
                        continue
                    }
                    if decimal.scale == 0 {
                        details.append(field, .integer(decimal.mantissa))
                        continue
                    }
                }
                switch FieldText.value(field, bytes: record.field(column)) {
                case .success(let value?): details.append(field, value)
                case .success(nil): continue
                case .failure(let refusal): return part.append(reject(record, column, refusal.shown, refusal.reason))
                }
            }
        }
        // Every valid row's version, whatever the filters say of it: repeated ids are settled before filters.
        let version = recordsVersions ? versionKey(record).map { part.recordVersion(key: $0, updated: updated) } ?? -1 : -1
        if let passableThrough, time <= passableThrough, let idHash = idHash(record) {
            let row = PassableRow(record: index, time: time, idHash: idHash, hasMagnitude: magnitude != nil, version: version)
            return part.append(.passable(row))
        }
        // The network is read without descriptions too when the id is made from it.
        let network = decodesDescriptions || layout.id == nil ? shortText(record, layout.network, &texts) : nil
        // The bounds decide before an event is made: most rows of a narrow map or listing are refused here.
        if let numericAdmission {
            guard let magnitude else { return part.append(.notAdmitted(hasMagnitude: false)) }
            guard numericAdmission.admits(latitude: latitude, longitude: longitude, time: time, magnitude: magnitude,
                                          depth: depth) else { return part.append(.notAdmitted(hasMagnitude: true)) }
        }
        // Straight into a map event when no description is read (a map whose colouring reads details goes the long way).
        if mapping != nil, numericAdmission != nil, !decodesDescriptions, let magnitude {
            let event = MapEvent(id: identifier(record, network: network), time: time, latitude: latitude,
                                 longitude: longitude, magnitude: magnitude, depth: depth,
                                 isEarthquake: isEarthquake(record))
            var row = MapRow(event, version: version)
            row.place = placeCandidate(record, magnitude: magnitude, time: time, part: &part)
            return part.append(row)
        }
        let event = SeismicEvent(
            id: identifier(record, network: network),
            time: time,
            latitude: latitude,
            longitude: longitude,
            depth: depth,
            magnitude: magnitude,
            magnitudeType: decodesDescriptions ? shortText(record, layout.magnitudeType, &texts) : nil,
            place: decodesDescriptions || decodesPlaces ? text(record, layout.place) ?? "" : "",
            // Without descriptions the type is still told apart from an earthquake: a map draws others differently.
            eventType: decodesDescriptions || !isEarthquake(record)
                ? shortText(record, layout.eventType, &texts) ?? "earthquake" : "earthquake",
            network: decodesDescriptions ? network : nil,
            updated: updated,
            status: decodesDescriptions ? shortText(record, layout.status, &texts) : nil,
            details: details
        )
        if let listing {
            guard listing.admission.numeric != nil || listing.admission.admits(event) else {
                return part.append(.notAdmitted(hasMagnitude: event.magnitude != nil))
            }
            listing.record(event, &part.listed)
            part.listed.versions.append(version)
            return part.append(.listed(hasMagnitude: event.magnitude != nil))
        }
        guard let mapping else { return part.append(consume event, version: version) }
        // Bounds that decide alone have admitted the row above; otherwise the mapping decides.
        let admitted = numericAdmission != nil ? MapEvent(event).map { MapRow($0, version: version) }
            : MapRow(event, admittedBy: mapping, version: version)
        guard var row = admitted else {
            return part.append(.notAdmitted(hasMagnitude: event.magnitude != nil))
        }
        row.place = placeCandidate(record, magnitude: row.event.magnitude, time: time, part: &part)
        part.append(row)
    }

    /// The record's place when its event ranks among the largest the part has
    /// mapped (one comparison for most rows); `nil` otherwise.
    private func placeCandidate(_ record: CSVRecord, magnitude: Double, time: Date, part: inout Part) -> String? {
        guard part.largest.threshold.admits(magnitude: magnitude, time: time) else { return nil }
        part.largest.offer(magnitude: magnitude, time: time, ())
        return text(record, layout.place)
    }

    /// The record's fields as the validator takes them: the bytes, borrowed from the batch.
    @inline(__always)
    private func fields(_ record: CSVRecord) -> RowValidator.Fields {
        let time: RowValidator.Text
        switch layout.time {
        case .single(let column): time = .bytes(record.field(column))
        case let .dateAndTime(date, clock): time = .dateAndTime(date: record.field(date), time: record.field(clock))
        }
        func text(_ column: Int?) -> RowValidator.Text { column.map { .bytes(record.field($0)) } ?? .absent }
        return RowValidator.Fields(time: time, latitude: .bytes(record.field(layout.latitude)),
                                   longitude: .bytes(record.field(layout.longitude)), depth: text(layout.depth),
                                   magnitude: text(layout.magnitude), updated: text(layout.updated))
    }

    /// The column a field the validator refused was read from.
    private func column(_ field: RowValidator.Field) -> Int? {
        switch (field, layout.time) {
        case (.time, .single(let column)), (.time, .dateAndTime(_, let column)), (.date, .dateAndTime(let column, _)):
            return column
        case (.date, .single): return nil
        case (.latitude, _): return layout.latitude
        case (.longitude, _): return layout.longitude
        case (.depth, _): return layout.depth
        case (.magnitude, _): return layout.magnitude
        case (.updated, _): return layout.updated
        }
    }

    /// The hash of the id ``identifier(_:network:)`` would make, from the
    /// bytes; `.some(nil)` for no id. `nil` (decode it whole) when the id is
    /// made of two columns, or its bytes are not plain ASCII: a string made of
    /// them might differ (a byte order mark dropped, invalid UTF-8 repaired).
    private func idHash(_ record: CSVRecord) -> UInt32?? {
        guard let column = layout.id else { return nil }
        let trimmed = record.trimmed(column)
        if trimmed.isEmpty { return .some(nil) }
        guard !trimmed.contains(where: { $0 >= 0x80 }) else { return nil }
        return FNV1a.id(bytes: trimmed)
    }

    /// The ``RevisionLedger/key(_:)`` of the id ``identifier(_:network:)``
    /// would make; `nil` for no id. From the bytes when they are plain ASCII,
    /// else from the string (which may differ from the bytes: see ``idHash(_:)``).
    private func versionKey(_ record: CSVRecord) -> UInt64? {
        if let column = layout.id {
            let trimmed = record.trimmed(column)
            if !trimmed.isEmpty && !trimmed.contains(where: { $0 >= 0x80 }) { return RevisionLedger.key(bytes: trimmed) }
        }
        let id = identifier(record, network: text(record, layout.network))
        return id.isEmpty ? nil : RevisionLedger.key(id)
    }

    /// Whether the record's type is an earthquake (``EventType/isEarthquake(_:)``),
    /// from its bytes: no string for the rows that are.
    private func isEarthquake(_ record: CSVRecord) -> Bool {
        guard let column = layout.eventType else { return true }
        if let answer = EventType.isEarthquake(ascii: record.trimmed(column)) { return answer }
        return EventType.isEarthquake(record.trimmedString(column) ?? "")
    }

    private func identifier(_ record: CSVRecord, network: String?) -> String {
        RowValidator.identifier(id: text(record, layout.id), network: network, code: text(record, layout.eventCode))
    }

    private func text(_ record: CSVRecord, _ column: Int?) -> String? {
        guard let column else { return nil }
        return record.trimmedString(column)
    }

    /// ``text(_:_:)`` for a column of a few repeated values, through the cache.
    private func shortText(_ record: CSVRecord, _ column: Int?, _ texts: inout ShortTextCache) -> String? {
        guard let column else { return nil }
        let trimmed = record.trimmed(column)
        guard trimmed.count > 0 else { return nil }
        return texts.string(trimmed) ?? record.trimmedString(column)
    }

    private func reject(_ record: CSVRecord, _ column: Int?, _ value: String?, _ reason: String) -> FeedRejection {
        FeedRejection(source: source, line: record.line, column: column.map(layout.name), value: value, reason: reason)
    }
}
