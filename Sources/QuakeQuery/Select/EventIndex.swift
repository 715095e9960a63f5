import Foundation
import QuakeModel
import QuakeParse

/// Finds the events an ``EventFilter`` admits without testing every event
/// when what it implies (``FilterBounds``: its own fields and its CQL2
/// expression alike) is narrow: a coarse grid of longitude–latitude cells
/// holding event positions, the times in the events' own order for a binary
/// search, and the magnitudes and depths sorted. The narrowest of them gives
/// the candidates. Built once per list of events (a server builds it once per
/// catalogue).
///
/// The index only narrows the candidates: each is still tested with
/// ``EventFilter/matches(_:)``, so the answer is exactly a scan's, in the
/// same order (ascending positions).
package struct EventIndex: Sendable {
    /// Cells are this many degrees on a side: 180 × 90 cells, small enough
    /// that a regional box visits few events outside it, few enough that a
    /// continental one visits its cells quickly.
    package static let cellDegrees = 2.0
    package static let columns = 180
    package static let rows = 90

    /// The events indexed, in their given order.
    package let events: [SeismicEvent]
    /// Each event's time (seconds since the reference date, as `Date` compares them).
    private let times: [Double]
    /// Each event's latitude and longitude, side by side: a scan of a big box
    /// reads these, not whole events.
    private let coordinates: [(latitude: Double, longitude: Double)]
    /// Whether `times` never increases (events newest first): then a time
    /// window is a range of positions. Otherwise every position is a candidate.
    private let newestFirst: Bool
    /// The cells' positions one after another, row by row; each cell's in ascending order.
    private let entries: [Int32]
    /// Where each cell's positions start in `entries`, and one past the last cell's end.
    private let cellStarts: [Int32]
    /// Magnitudes and depths, sorted, with their positions.
    private let magnitudes: SortedColumn
    private let depths: SortedColumn

    /// Indexes `events`, which should be newest first (as a catalogue keeps
    /// them) for the time search to help; any order gives the right answers.
    package init(_ events: [SeismicEvent]) {
        self.events = events
        let times = events.map(\.time.timeIntervalSinceReferenceDate)
        self.times = times
        coordinates = events.map { ($0.latitude, $0.longitude) }
        var ordered = true
        for index in times.indices.dropFirst() where !(times[index - 1] >= times[index]) {
            ordered = false
            break
        }
        newestFirst = ordered && times.allSatisfy { !$0.isNaN }
        // Counting sort by cell: positions stay ascending within each cell.
        let cells = events.map { Self.cell(column: Self.column($0.longitude), row: Self.row($0.latitude)) }
        var starts = [Int32](repeating: 0, count: Self.columns * Self.rows + 1)
        for cell in cells { starts[cell + 1] += 1 }
        for cell in 0..<(Self.columns * Self.rows) { starts[cell + 1] += starts[cell] }
        var next = starts
        var entries = [Int32](repeating: 0, count: events.count)
        for (position, cell) in cells.enumerated() {
            entries[Int(next[cell])] = Int32(position)
            next[cell] += 1
        }
        self.entries = entries
        cellStarts = starts
        magnitudes = SortedColumn(events.map(\.magnitude))
        depths = SortedColumn(events.map(\.depth))
    }

    /// The positions of the events `filter` admits, ascending.
    package func positions(matching filter: EventFilter) -> [Int] {
        var positions: [Int] = []
        forEachMatch(filter) { positions.append($0) }
        return positions
    }

    /// One page of the events `filter` admits: how many match in all, and
    /// the positions of the `limit` after the first `offset`.
    package func page(matching filter: EventFilter, offset: Int, limit: Int) -> (matched: Int, positions: [Int]) {
        var matched = 0
        var positions: [Int] = []
        positions.reserveCapacity(min(limit, 1024))
        let end = offset.addingReportingOverflow(limit)
        let last = end.overflow ? Int.max : end.partialValue
        forEachMatch(filter) { position in
            if matched >= offset && matched < last { positions.append(position) }
            matched += 1
        }
        return (matched, positions)
    }

    /// Calls `body` with each admitted position, ascending.
    package func forEachMatch(_ filter: EventFilter, _ body: (Int) -> Void) {
        let bounds = FilterBounds(filter)
        let window = timeWindow(bounds.time)
        guard !window.isEmpty else { return }
        let numeric = NumericAdmission(filter)
        let plain = filter.isNumeric
        // A box and a time window alone (the usual page) are decided from the
        // index's own arrays, by `NumericAdmission` without the event.
        let placeAndTime = plain && filter.minimumMagnitude == nil && filter.maximumMagnitude == nil
            && filter.minimumDepth == nil && filter.maximumDepth == nil
        func admits(_ position: Int) -> Bool {
            if placeAndTime {
                let point = coordinates[position]
                return numeric.admits(latitude: point.latitude, longitude: point.longitude,
                                      time: Date(timeIntervalSinceReferenceDate: times[position]), magnitude: nil, depth: nil)
            }
            let event = events[position]
            return numeric.admits(event) && (plain || filter.matchesTypesAndExpression(event))
        }
        // The fewest candidates: the time window, the cells of a box group, or a magnitude or depth range.
        var best: (count: Int, gather: () -> [Int])?
        func consider(_ count: Int, _ gather: @escaping () -> [Int]) {
            // Gathering sorts them: worth it only well below a scan of the window.
            if count * 4 < window.count, count < best?.count ?? .max { best = (count, gather) }
        }
        for group in bounds.boxes {
            let cells = cellRuns(group)
            consider(cells.reduce(0) { $0 + $1.count }) { self.gather(cells, window: window) }
        }
        for (column, range) in [(magnitudes, bounds.magnitude), (depths, bounds.depth)] where !range.isOpen {
            let found = column.indices(range)
            consider(found.count) { column.positions(found, window: window) }
        }
        guard let best else {
            for position in window where admits(position) { body(position) }
            return
        }
        for position in best.gather() where admits(position) { body(position) }
    }

    /// Positions whose times may lie in the filter's window: all of them
    /// unless the events are newest first.
    private func timeWindow(_ time: FilterBounds.Range) -> Range<Int> {
        guard newestFirst else { return times.indices }
        // Newest first: the upper bound cuts the front (times after it), the lower the back.
        let offset = Date.timeIntervalBetween1970AndReferenceDate
        let first = time.upper.map { until in firstPosition { $0 <= until - offset } } ?? 0
        let end = time.lower.map { since in firstPosition { $0 < since - offset } } ?? times.count
        return first < end ? first..<end : first..<first
    }

    /// The first position whose time passes `test`, which once true stays true along the events.
    private func firstPosition(where test: (Double) -> Bool) -> Int {
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if test(times[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The runs of `entries` (each a span of columns of one row) the cells of `boxes` hold.
    private func cellRuns(_ boxes: [GeoBox]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        for box in boxes {
            var spans: [ClosedRange<Int>]
            if box.longitudeSpan >= 360 {
                spans = [0...(Self.columns - 1)]
            } else if box.crossesAntimeridian {
                spans = [Self.column(box.west)...(Self.columns - 1), 0...Self.column(box.east)]
            } else {
                spans = [Self.column(box.west)...Self.column(box.east)]
            }
            for row in Self.row(box.south)...Self.row(box.north) {
                for span in spans {
                    runs.append(Int(cellStarts[Self.cell(column: span.lowerBound, row: row)])
                                ..< Int(cellStarts[Self.cell(column: span.upperBound, row: row) + 1]))
                }
            }
        }
        return runs
    }

    /// The positions in `window` of the cells' runs, ascending, each once (boxes may share cells).
    private func gather(_ runs: [Range<Int>], window: Range<Int>) -> [Int] {
        var found: [Int] = []
        found.reserveCapacity(runs.reduce(0) { $0 + $1.count })
        let low = Int32(window.lowerBound), high = Int32(window.upperBound)
        entries.withUnsafeBufferPointer { entries in
            for run in runs {
                for entry in entries[run] where entry >= low && entry < high { found.append(Int(entry)) }
            }
        }
        found.sort()
        if runs.count > 1 { found = found.enumerated().compactMap { $0.offset > 0 && found[$0.offset - 1] == $0.element ? nil : $0.element } }
        return found
    }

    /// A longitude's column; out of range (or not a number) is clamped, which
    /// keeps the order of columns the order of longitudes.
    package static func column(_ longitude: Double) -> Int {
        let column = ((longitude + 180) / cellDegrees).rounded(.down)
        return column.isNaN ? 0 : Int(min(max(column, 0), Double(columns - 1)))
    }

    /// A latitude's row, clamped like ``column(_:)``.
    package static func row(_ latitude: Double) -> Int {
        let row = ((latitude + 90) / cellDegrees).rounded(.down)
        return row.isNaN ? 0 : Int(min(max(row, 0), Double(rows - 1)))
    }

    /// Row-major: a row's columns are neighbours in `entries`, so a span of columns is one run.
    package static func cell(column: Int, row: Int) -> Int {
        row * columns + column
    }
}

/// One field's values in ascending order, beside the positions of their events: a range of
/// values is a range of this array, found by binary search. Events without the value are left out.
private struct SortedColumn: Sendable {
    private let values: [Double]
    private let positions: [Int32]

    init(_ column: [Double?]) {
        let order = column.indices.filter { column[$0].map { !$0.isNaN } ?? false }.sorted { column[$0]! < column[$1]! }
        values = order.map { column[$0]! }
        positions = order.map(Int32.init)
    }

    /// The indices of the values in `range`.
    func indices(_ range: FilterBounds.Range) -> Range<Int> {
        let start = range.lower.map { lower in first { $0 >= lower } } ?? 0
        let end = range.upper.map { upper in first { $0 > upper } } ?? values.count
        return start < end ? start..<end : start..<start
    }

    /// Their positions in `window`, ascending.
    func positions(_ indices: Range<Int>, window: Range<Int>) -> [Int] {
        var found: [Int] = []
        found.reserveCapacity(indices.count)
        for index in indices where window.contains(Int(positions[index])) { found.append(Int(positions[index])) }
        found.sort()
        return found
    }

    private func first(where test: (Double) -> Bool) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if test(values[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
