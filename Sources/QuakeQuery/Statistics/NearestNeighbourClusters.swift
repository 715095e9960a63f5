import Foundation
import QuakeModel

/// Where the strong links of nearest-neighbour clustering end: η₀, as log₁₀ η₀.
package enum NearestNeighbourThreshold: Sendable, Hashable {
    /// A fixed log₁₀ η₀; Zaliapin & Ben-Zion (2013) use −5 for southern California
    /// (times in years, distances in km, b = 1, df = 1.6), the default.
    case fixed(Double)
    /// Where a two-component Gaussian mixture fitted to log₁₀ η (by expectation–maximization)
    /// has equal weighted densities between its means: the valley between the clustered and
    /// the background mode (the 1-D form of Zaliapin & Ben-Zion 2013's mixture). A catalogue
    /// without two modes splits anyway, so it is for catalogues known to be clustered.
    case gaussianMixture

    /// The paper's −5.
    package static let standard = NearestNeighbourThreshold.fixed(-5)
}

/// The parameters of Zaliapin & Ben-Zion (2013) nearest-neighbour clustering.
package struct NearestNeighbourParameters: Sendable, Hashable {
    /// The b-value weighting the parent's magnitude (the paper's 1).
    package var b: Double
    /// The fractal dimension of epicentres (the paper's 1.6).
    package var fractalDimension: Double
    /// How η splits into rescaled time T = t·10^(−q·b·m) and distance R = r^df·10^(−(1−q)·b·m)
    /// (the paper's 0.5). η = T·R whatever q is, so it changes neither links nor clusters.
    package var q: Double
    /// η₀.
    package var threshold: NearestNeighbourThreshold

    package init(b: Double = 1, fractalDimension: Double = 1.6, q: Double = 0.5,
                 threshold: NearestNeighbourThreshold = .standard) {
        self.b = b
        self.fractalDimension = fractalDimension
        self.q = q
        self.threshold = threshold
    }

    func validate() throws(DeclusteringError) {
        guard b.isFinite, b > 0 else { throw .invalidParameter("b", "\(b) is not a positive number") }
        guard fractalDimension.isFinite, fractalDimension > 0 else {
            throw .invalidParameter("fractal dimension", "\(fractalDimension) is not a positive number")
        }
        guard q.isFinite, q >= 0, q <= 1 else { throw .invalidParameter("q", "\(q) is outside 0…1") }
        if case .fixed(let value) = threshold, !value.isFinite {
            throw .invalidParameter("threshold", "log10 η0 \(value) is not a number")
        }
    }
}

/// Zaliapin & Ben-Zion (2013, JGR 118, "Earthquake clusters in southern California I")
/// nearest-neighbour clusters.
///
/// The distance of event j from an earlier event i is η = t·r^df·10^(−b·mᵢ): t the time
/// between them in years (365.25 days), r the epicentral distance in km (haversine), mᵢ the
/// earlier one's magnitude; events at the same time are not each other's parents. Each event's
/// parent is the earlier event nearest by η; the link is strong when η < η₀. Clusters are the
/// trees of strong links; the mainshock of each is its largest event (the earliest on ties,
/// then the first in input order). Events without a parent or with a weak link are roots.
///
/// The search is exact. Events sit in 10° cells split into 1° cells, each cell's in time
/// order; for an event, a cell is skipped when no event in it could be nearer than the nearest
/// found so far: the time to the cell's latest earlier event, times the cell's least distance
/// raised to df, times 10^(−b·the cell's largest magnitude), bounds η from below.
package struct NearestNeighbourClusters: Sendable, Hashable {
    package var parameters: NearestNeighbourParameters

    package init(parameters: NearestNeighbourParameters = NearestNeighbourParameters()) {
        self.parameters = parameters
    }

    /// An event's nearest earlier neighbour.
    package struct Link: Sendable, Hashable {
        /// The parent's index in the events, `nil` for an event with none (the first, or a
        /// magnitude missing).
        package var parent: Int?
        /// η (∞ without a parent).
        package var eta: Double
        /// Rescaled time T = t·10^(−q·b·m).
        package var rescaledTime: Double
        /// Rescaled distance R = r^df·10^(−(1−q)·b·m).
        package var rescaledDistance: Double
    }

    /// Each event's cluster and mainshock flag (see ``DeclusteringMethod/clusters(of:)``).
    package func clusters(of events: [DeclusteringEvent]) throws(DeclusteringError) -> [ClusterAssignment] {
        try parameters.validate()
        let links = self.links(of: events)
        let logThreshold = threshold(links)
        let years = events.map { $0.time.timeIntervalSince1970 }
        // Roots and members in time order: a parent always comes before its children.
        let measured = events.indices.filter { events[$0].magnitude.map { !$0.isNaN } ?? false }
            .sorted { years[$0] != years[$1] ? years[$0] < years[$1] : $0 < $1 }
        var cluster = [Int](repeating: 0, count: events.count)
        var mainshock: [Int] = [0]
        for index in measured {
            let link = links[index]
            if let parent = link.parent, log10(link.eta) < logThreshold {
                cluster[index] = cluster[parent]
                let current = mainshock[cluster[index]]
                // Later events win only by being larger: the earliest of the largest stays.
                if events[index].magnitude! > events[current].magnitude! { mainshock[cluster[index]] = index }
            } else {
                cluster[index] = mainshock.count
                mainshock.append(index)
            }
        }
        var assignments = [ClusterAssignment?](repeating: nil, count: events.count)
        for index in measured {
            assignments[index] = ClusterAssignment(clusterID: cluster[index], isMainshock: mainshock[cluster[index]] == index)
        }
        assignUnmeasured(events, to: &assignments, from: mainshock.count)
        return assignments.map { $0! }
    }

    /// log₁₀ η₀ for these links.
    package func threshold(_ links: [Link]) -> Double {
        switch parameters.threshold {
        case .fixed(let value): return value
        case .gaussianMixture:
            let values = links.compactMap { $0.eta > 0 && $0.eta.isFinite ? log10($0.eta) : nil }
            return GaussianMixture2(values)?.threshold ?? -5
        }
    }

    /// Each event's nearest earlier neighbour by η.
    package func links(of events: [DeclusteringEvent]) -> [Link] {
        let measured = events.indices.filter { events[$0].magnitude.map { !$0.isNaN } ?? false }
        var links = [Link](repeating: Link(parent: nil, eta: .infinity, rescaledTime: .infinity,
                                           rescaledDistance: .infinity), count: events.count)
        guard measured.count > 1 else { return links }
        let index = NeighbourIndex(events: events, positions: measured, b: parameters.b,
                                   fractalDimension: parameters.fractalDimension)
        let b = parameters.b, q = parameters.q, df = parameters.fractalDimension
        // Each event's search stands alone: the two halves run side by side.
        let parts = 8
        let found = Locked([Int: [(Int, Int?, Double)]]())
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var local: [(Int, Int?, Double)] = []
            var slot = part
            while slot < measured.count {
                let event = measured[slot]
                let (parent, eta) = index.nearest(to: event)
                local.append((event, parent, eta))
                slot += parts
            }
            found.withLock { $0[part] = local }
        }
        let seconds = index.seconds
        for (_, part) in found.withLock({ $0 }) {
            for (event, parent, eta) in part {
                guard let parent else { continue }
                let magnitude = events[parent].magnitude!
                let t = (seconds[event] - seconds[parent]) / NeighbourIndex.secondsPerYear
                let r = Haversine.distance(latitude1: index.latitudes[event], longitude1: index.longitudes[event],
                                           latitude2: index.latitudes[parent], longitude2: index.longitudes[parent])
                links[event] = Link(parent: parent, eta: eta, rescaledTime: t * pow(10, -q * b * magnitude),
                                    rescaledDistance: pow(r, df) * pow(10, -(1 - q) * b * magnitude))
            }
        }
        return links
    }
}

/// Events in 10° cells split into 1° cells, each cell's events in time order, for the
/// nearest-neighbour search.
private struct NeighbourIndex: @unchecked Sendable {
    static let secondsPerYear = 365.25 * 86_400
    static let fineDegrees = 1.0
    static let finePerCoarse = 10

    struct Cell {
        var south: Double, north: Double, west: Double, east: Double
        /// The cell's events in `order` (fine cells) or `coarseOrder` (coarse cells).
        var range: Range<Int>
        /// 10^(−b·largest magnitude): the least magnitude weight of its events.
        var weight: Double
        /// Fine cells: the range of a coarse cell's fine cells in `fine`.
        var children: Range<Int>
    }

    let seconds: [Double]
    let latitudes: [Double]
    let longitudes: [Double]
    let weights: [Double]
    let fractalDimension: Double
    var fine: [Cell] = []
    var coarse: [Cell] = []
    var order: [Int] = []
    var orderSeconds: [Double] = []
    var coarseOrder: [Int] = []
    var coarseSeconds: [Double] = []

    init(events: [DeclusteringEvent], positions: [Int], b: Double, fractalDimension: Double) {
        seconds = events.map { $0.time.timeIntervalSince1970 }
        latitudes = events.map { Haversine.radians($0.latitude) }
        longitudes = events.map { Haversine.radians($0.longitude) }
        weights = events.map { pow(10, -b * ($0.magnitude ?? 0)) }
        self.fractalDimension = fractalDimension
        let rows = Int(180 / Self.fineDegrees), columns = Int(360 / Self.fineDegrees)
        func cell(_ event: DeclusteringEvent) -> (row: Int, column: Int) {
            (min(rows - 1, max(0, Int(((event.latitude + 90) / Self.fineDegrees).rounded(.down)))),
             EventGrid.column(event.longitude, cellDegrees: Self.fineDegrees, columns: columns))
        }
        let cells = positions.map { cell(events[$0]) }
        let per = Self.finePerCoarse
        let coarseColumns = columns / per
        let coarseKeys = cells.map { ($0.row / per) * coarseColumns + $0.column / per }
        let fineKeys = cells.map { $0.row * columns + $0.column }
        let seconds = seconds
        let byFine = positions.indices.sorted { a, b in
            if coarseKeys[a] != coarseKeys[b] { return coarseKeys[a] < coarseKeys[b] }
            if fineKeys[a] != fineKeys[b] { return fineKeys[a] < fineKeys[b] }
            return seconds[positions[a]] < seconds[positions[b]]
        }
        let byCoarse = positions.indices.sorted { a, b in
            if coarseKeys[a] != coarseKeys[b] { return coarseKeys[a] < coarseKeys[b] }
            return seconds[positions[a]] < seconds[positions[b]]
        }
        order = byFine.map { positions[$0] }
        orderSeconds = order.map { seconds[$0] }
        coarseOrder = byCoarse.map { positions[$0] }
        coarseSeconds = coarseOrder.map { seconds[$0] }
        let degrees = Self.fineDegrees
        func box(row: Int, column: Int, size: Double) -> (Double, Double, Double, Double) {
            (Double(row) * size - 90, Double(row + 1) * size - 90, Double(column) * size - 180, Double(column + 1) * size - 180)
        }
        var start = 0
        while start < byFine.count {
            var end = start
            while end < byFine.count, fineKeys[byFine[end]] == fineKeys[byFine[start]] { end += 1 }
            let (row, column) = cells[byFine[start]]
            let (s, n, w, e) = box(row: row, column: column, size: degrees)
            let weight = order[start..<end].map { weights[$0] }.min()!
            fine.append(Cell(south: s, north: n, west: w, east: e, range: start..<end, weight: weight, children: 0..<0))
            start = end
        }
        var fineStart = 0
        start = 0
        while start < byCoarse.count {
            var end = start
            while end < byCoarse.count, coarseKeys[byCoarse[end]] == coarseKeys[byCoarse[start]] { end += 1 }
            let key = coarseKeys[byCoarse[start]]
            let (s, n, w, e) = box(row: key / coarseColumns, column: key % coarseColumns, size: degrees * Double(per))
            let weight = coarseOrder[start..<end].map { weights[$0] }.min()!
            var fineEnd = fineStart
            while fineEnd < fine.count, fine[fineEnd].range.lowerBound < fine[fineStart].range.lowerBound + (end - start) {
                fineEnd += 1
            }
            coarse.append(Cell(south: s, north: n, west: w, east: e, range: start..<end, weight: weight,
                               children: fineStart..<fineEnd))
            fineStart = fineEnd
            start = end
        }
    }

    /// The nearest earlier event to `event` by η, and η; `(nil, ∞)` when none is earlier.
    func nearest(to event: Int) -> (Int?, Double) {
        let time = seconds[event], latitude = latitudes[event], longitude = longitudes[event]
        var best: Int?, bestEta = Double.infinity
        var candidates: [(bound: Double, cell: Int)] = []
        for (number, cell) in coarse.enumerated() {
            guard let latest = latestBefore(time, in: coarseSeconds, cell.range) else { continue }
            let bound = lowerBound(cell, latest: latest, time: time, latitude: latitude, longitude: longitude)
            if bound < bestEta { candidates.append((bound, number)) }
        }
        candidates.sort { $0.bound < $1.bound }
        var fineCandidates: [(bound: Double, cell: Int)] = []
        for (bound, number) in candidates where bound < bestEta {
            fineCandidates.removeAll(keepingCapacity: true)
            for child in coarse[number].children {
                let cell = fine[child]
                guard let latest = latestBefore(time, in: orderSeconds, cell.range) else { continue }
                let bound = lowerBound(cell, latest: latest, time: time, latitude: latitude, longitude: longitude)
                if bound < bestEta { fineCandidates.append((bound, child)) }
            }
            fineCandidates.sort { $0.bound < $1.bound }
            for (bound, child) in fineCandidates where bound < bestEta {
                let cell = fine[child]
                let distanceFactor = pow(distanceBound(cell, latitude: latitude, longitude: longitude), fractalDimension)
                // Back in time from the latest earlier event, until even the cell's largest magnitude at its least distance loses.
                var position = latestBefore(time, in: orderSeconds, cell.range)!
                while position >= cell.range.lowerBound {
                    let t = (time - orderSeconds[position]) / Self.secondsPerYear
                    if t * distanceFactor * cell.weight >= bestEta { break }
                    let other = order[position]
                    let r = Haversine.distance(latitude1: latitude, longitude1: longitude,
                                               latitude2: latitudes[other], longitude2: longitudes[other])
                    let eta = t * pow(r, fractalDimension) * weights[other]
                    // Ties go to the later parent, then the earlier index: one answer whatever the cell order.
                    if eta < bestEta || (eta == bestEta && best.map { isBetterTie(other, than: $0) } ?? true) {
                        bestEta = eta
                        best = other
                    }
                    position -= 1
                }
            }
        }
        return (best, bestEta)
    }

    private func isBetterTie(_ candidate: Int, than current: Int) -> Bool {
        seconds[candidate] != seconds[current] ? seconds[candidate] > seconds[current] : candidate < current
    }

    /// The position in `range` of the last time strictly before `time`.
    private func latestBefore(_ time: Double, in times: [Double], _ range: Range<Int>) -> Int? {
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < time { low = middle + 1 } else { high = middle }
        }
        return low > range.lowerBound ? low - 1 : nil
    }

    private func lowerBound(_ cell: Cell, latest: Int, time: Double, latitude: Double, longitude: Double) -> Double {
        let times = cell.children.isEmpty ? orderSeconds : coarseSeconds
        let t = (time - times[latest]) / Self.secondsPerYear
        return t * pow(distanceBound(cell, latitude: latitude, longitude: longitude), fractalDimension) * cell.weight
    }

    /// A lower bound, in km, of the distance from a point (radians) to any point of `cell`: the
    /// larger of the latitude gap and the distance to the great circle of the nearer edge meridian
    /// (asin(cos φ · sin Δλ)), which a path to the cell must cross; a hair less, against rounding.
    private func distanceBound(_ cell: Cell, latitude: Double, longitude: Double) -> Double {
        let degrees = latitude * 180 / Double.pi
        let latitudeGap = max(0, cell.south - degrees, degrees - cell.north)
        var lon = longitude * 180 / Double.pi - cell.west
        lon = lon.truncatingRemainder(dividingBy: 360)
        if lon < 0 { lon += 360 }
        let width = cell.east - cell.west
        var longitudeGap = 0.0
        if lon > width { longitudeGap = min(lon - width, 360 - lon) }
        let meridian = longitudeGap > 0 ? asin(min(1, cos(latitude) * sin(Haversine.radians(min(longitudeGap, 90))))) : 0
        let angle = max(Haversine.radians(latitudeGap), meridian)
        return max(0, angle * Haversine.earthRadius * (1 - 1e-9) - 1e-9)
    }
}

/// Two Gaussians fitted to values by expectation–maximization, and where their weighted
/// densities meet between the means.
package struct GaussianMixture2 {
    package var weights: (Double, Double)
    package var means: (Double, Double)
    package var deviations: (Double, Double)

    /// Fits `values`; `nil` for fewer than 10 or when a component empties.
    package init?(_ values: [Double]) {
        guard values.count >= 10 else { return nil }
        let sorted = values.sorted()
        let half = sorted.count / 2
        func stats(_ part: ArraySlice<Double>) -> (Double, Double) {
            let mean = part.reduce(0, +) / Double(part.count)
            let variance = part.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(part.count)
            return (mean, max(variance.squareRoot(), 1e-3))
        }
        // Started from the lower and upper halves.
        var (m1, s1) = stats(sorted[..<half]), (m2, s2) = stats(sorted[half...])
        var w1 = 0.5, w2 = 0.5
        for _ in 0..<500 {
            var n1 = 0.0, sum1 = 0.0, squares1 = 0.0, n2 = 0.0, sum2 = 0.0, squares2 = 0.0
            for value in sorted {
                let p1 = w1 * Self.density(value, m1, s1), p2 = w2 * Self.density(value, m2, s2)
                let total = p1 + p2
                let r1 = total > 0 ? p1 / total : 0.5
                n1 += r1; sum1 += r1 * value; squares1 += r1 * value * value
                n2 += 1 - r1; sum2 += (1 - r1) * value; squares2 += (1 - r1) * value * value
            }
            guard n1 > 1, n2 > 1 else { return nil }
            let (old1, old2) = (m1, m2)
            m1 = sum1 / n1; m2 = sum2 / n2
            s1 = max((squares1 / n1 - m1 * m1).squareRoot(), 1e-3)
            s2 = max((squares2 / n2 - m2 * m2).squareRoot(), 1e-3)
            w1 = n1 / Double(sorted.count); w2 = n2 / Double(sorted.count)
            if abs(m1 - old1) < 1e-9, abs(m2 - old2) < 1e-9 { break }
        }
        guard s1.isFinite, s2.isFinite else { return nil }
        weights = m1 <= m2 ? (w1, w2) : (w2, w1)
        means = m1 <= m2 ? (m1, m2) : (m2, m1)
        deviations = m1 <= m2 ? (s1, s2) : (s2, s1)
    }

    static func density(_ x: Double, _ mean: Double, _ deviation: Double) -> Double {
        let z = (x - mean) / deviation
        return exp(-z * z / 2) / (deviation * (2 * Double.pi).squareRoot())
    }

    /// Where w₁N₁ = w₂N₂ between the means (found by bisection on the difference), else the midpoint.
    package var threshold: Double {
        func difference(_ x: Double) -> Double {
            weights.0 * Self.density(x, means.0, deviations.0) - weights.1 * Self.density(x, means.1, deviations.1)
        }
        var low = means.0, high = means.1
        guard difference(low) > 0, difference(high) < 0 else { return (low + high) / 2 }
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if difference(middle) > 0 { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}
