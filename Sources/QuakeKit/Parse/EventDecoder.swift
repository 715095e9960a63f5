import Foundation

/// Turns one CSV record into a ``SeismicEvent`` or a ``FeedRejection``.
struct EventDecoder: Sendable {
    let layout: FeedLayout
    let source: String
    let now: Date
    /// Whether place, type, magnitude type, network and status are made into
    /// strings. A map whose filters read none of them skips them: they are
    /// most of the cost of decoding a row.
    var decodesDescriptions = true

    enum Outcome {
        case event(SeismicEvent)
        case rejected(FeedRejection)
    }

    /// Below this many records a batch is decoded on the calling thread:
    /// handing work to other cores costs more than it saves.
    static let parallelThreshold = 2048

    /// Decodes the batch's records in `range`, in parts on all cores for large
    /// batches; the parts, joined, are in record order.
    func decode(_ batch: CSVBatch, _ range: Range<Int>) -> [[Outcome]] {
        let parts = range.count >= Self.parallelThreshold ? ParallelParts.cores : 1
        return batch.withRecords(range) { records in
            ParallelParts.map(parts: parts) { part in
                let lower = range.lowerBound + range.count * part / parts
                let upper = range.lowerBound + range.count * (part + 1) / parts
                return (lower..<upper).map { decode(records[$0]) }
            }
        }
    }

    func decode(_ record: CSVRecord) -> Outcome {
        guard record.fieldCount == layout.header.count else {
            let plural = record.fieldCount == 1 ? "field" : "fields"
            return .rejected(reject(record, nil, nil,
                "row has \(record.fieldCount) \(plural), the header has \(layout.header.count)"))
        }
        let time: Date
        switch timeValue(record) {
        case .success(let value): time = value
        case .failure(let rejection): return .rejected(rejection)
        }
        let latitude: Double, longitude: Double
        switch coordinate(record, layout.latitude, limit: 90) {
        case .success(let value): latitude = value
        case .failure(let rejection): return .rejected(rejection)
        }
        switch coordinate(record, layout.longitude, limit: 180) {
        case .success(let value): longitude = value
        case .failure(let rejection): return .rejected(rejection)
        }
        var depth: Double?, magnitude: Double?
        switch optionalNumber(record, layout.depth) {
        case .success(let value): depth = value
        case .failure(let rejection): return .rejected(rejection)
        }
        switch optionalNumber(record, layout.magnitude) {
        case .success(let value): magnitude = value
        case .failure(let rejection): return .rejected(rejection)
        }
        if let depth, let problem = Plausibility.depthProblem(depth), let column = layout.depth {
            return .rejected(reject(record, column, record.trimmedString(column), problem))
        }
        if let magnitude, let problem = Plausibility.magnitudeProblem(magnitude), let column = layout.magnitude {
            return .rejected(reject(record, column, record.trimmedString(column), problem))
        }
        if let problem = Plausibility.timeProblem(time, now: now) {
            let column: Int
            switch layout.time {
            case .single(let index): column = index
            case .dateAndTime(_, let index): column = index
            }
            return .rejected(reject(record, column, CivilTime.iso8601(time), problem))
        }
        var updated: Date?
        if let column = layout.updated, !record.isBlank(column) {
            guard let value = TimeParser.parse(record.field(column)) else {
                return .rejected(reject(record, column, record.string(column), "is not a time"))
            }
            updated = value
        }
        // The network is read without descriptions too when the id is made from it.
        let network = decodesDescriptions || layout.id == nil ? text(record, layout.network) : nil
        return .event(SeismicEvent(
            id: identifier(record, network: network),
            time: time,
            latitude: latitude,
            longitude: longitude,
            depth: depth,
            magnitude: magnitude,
            magnitudeType: description(record, layout.magnitudeType),
            place: description(record, layout.place) ?? "",
            eventType: description(record, layout.eventType) ?? "earthquake",
            network: decodesDescriptions ? network : nil,
            updated: updated,
            status: description(record, layout.status)
        ))
    }

    private func timeValue(_ record: CSVRecord) -> Result<Date, FeedRejection> {
        switch layout.time {
        case .single(let column):
            if record.isBlank(column) { return .failure(reject(record, column, nil, "is empty")) }
            guard let date = TimeParser.parse(record.field(column)) else {
                return .failure(reject(record, column, record.string(column),
                    "is not a time (expected ISO 8601, e.g. 2020-06-11T15:27:04.123Z)"))
            }
            return .success(date)
        case let .dateAndTime(dateColumn, timeColumn):
            for column in [dateColumn, timeColumn] where record.isBlank(column) {
                return .failure(reject(record, column, nil, "is empty"))
            }
            guard let date = TimeParser.parse(
                date: record.field(dateColumn),
                time: record.field(timeColumn)
            ) else {
                let shown = record.string(dateColumn) + " " + record.string(timeColumn)
                return .failure(reject(record, timeColumn, shown, "is not a date and time (expected 2010/11/02 06:39:55.6)"))
            }
            return .success(date)
        }
    }

    private func coordinate(_ record: CSVRecord, _ column: Int, limit: Double) -> Result<Double, FeedRejection> {
        switch number(record, column) {
        case .success(nil):
            return .failure(reject(record, column, nil, "is empty"))
        case .success(let value?):
            if let problem = CoordinateRange.problem(value, limit: limit) {
                return .failure(reject(record, column, record.trimmedString(column) ?? "", problem))
            }
            return .success(value)
        case .failure(let rejection):
            return .failure(rejection)
        }
    }

    private func optionalNumber(_ record: CSVRecord, _ column: Int?) -> Result<Double?, FeedRejection> {
        guard let column else { return .success(nil) }
        return number(record, column)
    }

    private func number(_ record: CSVRecord, _ column: Int) -> Result<Double?, FeedRejection> {
        switch DecimalParser.parse(record.field(column)) {
        case .value(let value): return .success(value)
        case .empty: return .success(nil)
        case .notANumber:
            return .failure(reject(record, column, record.string(column), "is not a number"))
        case .notFinite:
            return .failure(reject(record, column, record.string(column), "is not a finite number"))
        }
    }

    private func identifier(_ record: CSVRecord, network: String?) -> String {
        if let id = text(record, layout.id) { return id }
        if let code = text(record, layout.eventCode) { return (network ?? "") + code }
        return ""
    }

    /// A descriptive column's text, when descriptions are decoded.
    private func description(_ record: CSVRecord, _ column: Int?) -> String? {
        decodesDescriptions ? text(record, column) : nil
    }

    private func text(_ record: CSVRecord, _ column: Int?) -> String? {
        guard let column else { return nil }
        return record.trimmedString(column)
    }

    private func reject(_ record: CSVRecord, _ column: Int?, _ value: String?, _ reason: String) -> FeedRejection {
        FeedRejection(source: source, line: record.line, column: column.map(layout.name), value: value, reason: reason)
    }
}
