import Foundation

/// The space–time window of a mainshock of magnitude M: aftershocks within L km and T days.
///
/// The formulas are SeismoStats 1.0.1's (`distance_time_windows.py`, from openquake.hmtk):
///
/// | window | L (km) | T (days) |
/// |---|---|---|
/// | Gardner & Knopoff (1974) | 10^(0.1238 M + 0.983) | 10^(0.5409 M − 0.547), M < 6.5; 10^(0.032 M + 2.7389), M ≥ 6.5 |
/// | Uhrhammer (1986) | e^(−1.024 + 0.804 M) | e^(−2.87 + 1.235 M) |
/// | Grünthal (1985) | e^(1.77 + √(0.037 + 1.02 M)) | \|e^(−3.95 + √(0.62 + 17.32 M))\|, M < 6.5; 10^(2.8 + 0.024 M), M ≥ 6.5 |
package enum GardnerKnopoffWindow: String, Sendable, Hashable, CaseIterable {
    /// Gardner & Knopoff (1974), fitted to southern California.
    case gardnerKnopoff
    /// Uhrhammer (1986), northern and central California: smaller windows.
    case uhrhammer
    /// Grünthal (1985), central Europe (as given by van Stiphout et al. 2012).
    case gruenthal

    /// How reports name it.
    package var name: String {
        switch self {
        case .gardnerKnopoff: "Gardner–Knopoff"
        case .uhrhammer: "Uhrhammer"
        case .gruenthal: "Grünthal"
        }
    }

    /// The distance window L in km for `magnitude` (NaN for a Grünthal magnitude below −0.036, as in SeismoStats).
    package func distance(_ magnitude: Double) -> Double {
        switch self {
        case .gardnerKnopoff: pow(10.0, 0.1238 * magnitude + 0.983)
        case .uhrhammer: exp(-1.024 + 0.804 * magnitude)
        case .gruenthal: exp(1.77 + (0.037 + 1.02 * magnitude).squareRoot())
        }
    }

    /// The time window T in days for `magnitude`.
    package func days(_ magnitude: Double) -> Double {
        switch self {
        case .gardnerKnopoff:
            magnitude < 6.5 ? pow(10.0, 0.5409 * magnitude - 0.547) : pow(10.0, 0.032 * magnitude + 2.7389)
        case .uhrhammer:
            exp(-2.87 + 1.235 * magnitude)
        case .gruenthal:
            magnitude >= 6.5 ? pow(10.0, 2.8 + 0.024 * magnitude) : abs(exp(-3.95 + (0.62 + 17.32 * magnitude).squareRoot()))
        }
    }
}

/// Gardner–Knopoff declustering with SeismoStats 1.0.1's `GardnerKnopoffType1` semantics:
///
/// - Events are taken by magnitude, largest first, then by time, earliest first (then in input
///   order: SeismoStats's sort is stable). One already in a cluster is passed over.
/// - Each other founds a cluster (a background event founds one of its own) of every event not
///   yet in a cluster, itself included, within its distance window L (haversine, R = 6371.227 km,
///   `≤`) and its time window: −T·`foreshockFraction` ≤ Δt ≤ T, with times cut to whole seconds
///   and T in whole nanoseconds (`pd.Timedelta`). It is the cluster's mainshock; the rest are not.
/// - `timeCutoffDays` caps T (SeismoStats's `time_cutoff`).
///
/// SeismoStats compares each founder with every event (O(n × clusters)). Here events sit in a
/// latitude–longitude grid, each cell's sorted by time, and a founder visits only the cells its
/// distance window can reach and, in each, the time span of its window, stepping over events
/// already in a cluster by a skip list (a union–find over positions): a million events take seconds.
package struct GardnerKnopoff: Sendable, Hashable {
    package var window: GardnerKnopoffWindow
    package var foreshockFraction: Double
    package var timeCutoffDays: Double?

    package init(window: GardnerKnopoffWindow, foreshockFraction: Double = 1, timeCutoffDays: Double? = nil) {
        self.window = window
        self.foreshockFraction = foreshockFraction
        self.timeCutoffDays = timeCutoffDays
    }

    /// Each event's cluster and mainshock flag (see ``DeclusteringMethod/clusters(of:)``).
    package func clusters(of events: [DeclusteringEvent]) -> [ClusterAssignment] {
        var assignments = [ClusterAssignment?](repeating: nil, count: events.count)
        let measured = events.indices.filter { events[$0].magnitude.map { !$0.isNaN } ?? false }
        let grid = EventGrid(events: events, positions: measured, cellDegrees: cellDegrees(events, measured))

        // Largest first, then earliest, then input order.
        let seeds = measured.sorted { a, b in
            let ma = events[a].magnitude!, mb = events[b].magnitude!
            if ma != mb { return ma > mb }
            if events[a].time != events[b].time { return events[a].time < events[b].time }
            return a < b
        }
        var next = 1
        for seed in seeds where assignments[seed] == nil {
            let cluster = next
            next += 1
            let magnitude = events[seed].magnitude!
            let distance = window.distance(magnitude)
            guard let span = timeSpan(days: window.days(magnitude)), distance.isFinite || distance == .infinity else {
                // A NaN window takes nothing, not even its founder, which stays a mainshock (as in SeismoStats).
                assignments[seed] = ClusterAssignment(clusterID: cluster, isMainshock: true)
                continue
            }
            let time = grid.seconds[seed]
            grid.take(around: seed, radius: distance, from: time - span.before, through: time + span.after) { member in
                assignments[member] = ClusterAssignment(clusterID: cluster, isMainshock: member == seed)
            }
            // Only a window of negative size misses its founder; it is the cluster's mainshock all the same.
            if assignments[seed] == nil { assignments[seed] = ClusterAssignment(clusterID: cluster, isMainshock: true) }
        }
        assignUnmeasured(events, to: &assignments, from: next)
        return assignments.map { $0! }
    }

    /// Whole seconds before and after a founder that its window reaches, for a window of `days`:
    /// T as `pd.Timedelta(days=T)` makes it (nanoseconds, truncated), the foreshock side as
    /// `-T * fraction` (truncated toward zero); Δt in whole seconds is inside when
    /// `Δt·10⁹ ≥ −T·f` and `Δt·10⁹ ≤ T`. `nil` for a NaN window.
    private func timeSpan(days: Double) -> (before: Int64, after: Int64)? {
        var days = days
        if let timeCutoffDays, timeCutoffDays > 0 { days = min(max(days, 0), timeCutoffDays) }
        guard !days.isNaN else { return nil }
        // Beyond ±9.2·10¹⁸ ns (292 years) a window reaches every event of any real catalogue.
        let limit = 9.2e18
        let nanoseconds = Int64(max(-limit, min(limit, days * 86_400e9)))
        let before = Int64(max(-limit, min(limit, (-Double(nanoseconds) * foreshockFraction).rounded(.towardZero))))
        // Δt ≥ before/1e9 (before ≤ 0) ⇔ Δt ≥ −⌊−before / 1e9⌋; Δt ≤ T/1e9 ⇔ Δt ≤ ⌊T / 1e9⌋.
        let after = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : -((-nanoseconds + 999_999_999) / 1_000_000_000)
        let foreshocks = before <= 0 ? (-before) / 1_000_000_000 : -((before + 999_999_999) / 1_000_000_000)
        return (foreshocks, after)
    }

    /// Cells about half the distance window of the median magnitude: small windows visit a few
    /// cells, and the rare large ones a few hundred.
    private func cellDegrees(_ events: [DeclusteringEvent], _ measured: [Int]) -> Double {
        guard !measured.isEmpty else { return 1 }
        var magnitudes = measured.map { events[$0].magnitude! }
        let middle = magnitudes.count / 2
        magnitudes.withUnsafeMutableBufferPointer { buffer in
            buffer.sort()
        }
        let distance = window.distance(magnitudes[middle])
        guard distance.isFinite, distance > 0 else { return 1 }
        return min(2, max(0.02, distance / EventGrid.kilometresPerDegree / 2))
    }
}

/// Events in a latitude–longitude grid of square cells (in degrees), each cell's in time order,
/// with a skip list over the positions so that events taken into a cluster are never visited again.
final class EventGrid {
    /// Kilometres per degree of a great circle on SeismoStats's sphere.
    static let kilometresPerDegree = Haversine.earthRadius * Double.pi / 180

    /// Each event's time in whole seconds since 1970 (`datetime64[s]`: truncated toward −∞).
    let seconds: [Int64]
    private let latitudes: [Double]
    private let longitudes: [Double]
    private let cellDegrees: Double
    private let rows: Int
    private let columns: Int
    /// The nonempty cells' keys (`row * columns + column`), ascending, and where each starts in `order`.
    private let keys: [Int]
    private let starts: [Int]
    /// Event indices by cell, then time, then index.
    private let order: [Int32]
    private let orderSeconds: [Int64]
    /// The next position at or after each not yet taken (`next[p] == p`: untaken); `order.count` ends it.
    private var next: [Int32]

    init(events: [DeclusteringEvent], positions: [Int], cellDegrees: Double) {
        seconds = events.map { event in
            // Through microseconds: 12:00:00.000 must not become 11:59:59.999999 in binary.
            let micro = Int64((event.time.timeIntervalSince1970 * 1e6).rounded())
            return micro >= 0 ? micro / 1_000_000 : -((-micro + 999_999) / 1_000_000)
        }
        latitudes = events.map { Haversine.radians($0.latitude) }
        longitudes = events.map { Haversine.radians($0.longitude) }
        self.cellDegrees = cellDegrees
        rows = Int((180 / cellDegrees).rounded(.up))
        columns = Int((360 / cellDegrees).rounded(.up))
        let rows = rows, columns = columns
        func key(_ event: DeclusteringEvent) -> Int {
            let row = min(rows - 1, max(0, Int(((event.latitude + 90) / cellDegrees).rounded(.down))))
            return row * columns + EventGrid.column(event.longitude, cellDegrees: cellDegrees, columns: columns)
        }
        let cellKeys = positions.map { key(events[$0]) }
        let seconds = seconds
        var sorted = Array(positions.indices)
        sorted.sort { a, b in
            if cellKeys[a] != cellKeys[b] { return cellKeys[a] < cellKeys[b] }
            let ta = seconds[positions[a]], tb = seconds[positions[b]]
            if ta != tb { return ta < tb }
            return positions[a] < positions[b]
        }
        order = sorted.map { Int32(positions[$0]) }
        orderSeconds = sorted.map { seconds[positions[$0]] }
        var keys: [Int] = [], starts: [Int] = []
        for (position, index) in sorted.enumerated() where keys.last != cellKeys[index] {
            keys.append(cellKeys[index])
            starts.append(position)
        }
        starts.append(sorted.count)
        self.keys = keys
        self.starts = starts
        next = (0...Int32(sorted.count)).map { $0 }
    }

    static func column(_ longitude: Double, cellDegrees: Double, columns: Int) -> Int {
        var wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
        if wrapped < 0 { wrapped += 360 }
        return min(columns - 1, max(0, Int((wrapped / cellDegrees).rounded(.down))))
    }

    /// Takes every event not yet taken within `radius` km of event `centre` with a time in
    /// `from...through` seconds, calling `body` with each (in no particular order).
    func take(around centre: Int, radius: Double, from: Int64, through: Int64, _ body: (Int) -> Void) {
        guard from <= through, radius >= 0 else { return }
        let latitude = latitudes[centre], longitude = longitudes[centre]
        // Angular radius with a margin of a millionth: the haversine decides, the grid only must not miss.
        let angle = radius / Haversine.earthRadius * (1 + 1e-6) + 1e-12
        let latitudeDegrees = latitude * 180 / Double.pi
        let angleDegrees = angle * 180 / Double.pi
        let firstRow = max(0, Int(((latitudeDegrees - angleDegrees + 90) / cellDegrees).rounded(.down)))
        let lastRow = min(rows - 1, Int(((latitudeDegrees + angleDegrees + 90) / cellDegrees).rounded(.down)))
        guard firstRow <= lastRow else { return }
        // The longitudes a spherical cap reaches: asin(sin δ / cos φ), unless it holds a pole.
        var span = 360.0
        if angle < Double.pi / 2, abs(latitude) + angle < Double.pi / 2 {
            let ratio = sin(angle) / cos(latitude)
            if ratio < 1 { span = asin(ratio) * 180 / Double.pi * (1 + 1e-9) + 1e-9 }
        }
        var columnRanges: [(Int, Int)] = []
        if 2 * span + cellDegrees >= 360 {
            columnRanges = [(0, columns - 1)]
        } else {
            let centreLongitude = longitude * 180 / Double.pi
            let first = EventGrid.column(centreLongitude - span, cellDegrees: cellDegrees, columns: columns)
            let last = EventGrid.column(centreLongitude + span, cellDegrees: cellDegrees, columns: columns)
            // Across the antimeridian the span is two runs of columns.
            columnRanges = first <= last ? [(first, last)] : [(first, columns - 1), (0, last)]
        }
        for row in firstRow...lastRow {
            for (first, last) in columnRanges {
                var cell = lowerBound(keys, row * columns + first)
                while cell < keys.count, keys[cell] <= row * columns + last {
                    takeInCell(cell, latitude: latitude, longitude: longitude, radius: radius, from: from,
                               through: through, body)
                    cell += 1
                }
            }
        }
    }

    private func takeInCell(_ cell: Int, latitude: Double, longitude: Double, radius: Double, from: Int64,
                            through: Int64, _ body: (Int) -> Void) {
        let end = starts[cell + 1]
        var low = starts[cell], high = end
        while low < high {
            let middle = (low + high) / 2
            if orderSeconds[middle] < from { low = middle + 1 } else { high = middle }
        }
        var position = find(low)
        while position < end, orderSeconds[position] <= through {
            let event = Int(order[position])
            let distance = Haversine.distance(latitude1: latitudes[event], longitude1: longitudes[event],
                                              latitude2: latitude, longitude2: longitude)
            if distance <= radius {
                next[position] = Int32(position + 1)
                body(event)
            }
            position = find(position + 1)
        }
    }

    /// The first untaken position at or after `position`, halving the paths it walks.
    private func find(_ position: Int) -> Int {
        var current = position
        while Int(next[current]) != current {
            let parent = Int(next[current])
            next[current] = next[parent]
            current = parent
        }
        return current
    }
}

/// The first index of `sorted` whose element is not below `value`.
func lowerBound(_ sorted: [Int], _ value: Int) -> Int {
    var low = 0, high = sorted.count
    while low < high {
        let middle = (low + high) / 2
        if sorted[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
}
