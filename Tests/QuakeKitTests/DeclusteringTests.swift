import Foundation
import Testing
import QuakeKit

/// Declustering on small hand-made catalogues with known answers, and both methods' indexes
/// held to plain all-pairs versions on random catalogues.
@Suite("Declustering", .timeLimit(.minutes(10)))
struct DeclusteringTests {
    static let start = Date(timeIntervalSince1970: 1_600_000_000)
    static let kilometresPerDegree = Haversine.earthRadius * Double.pi / 180

    static func event(_ days: Double, _ latitude: Double, _ longitude: Double, _ magnitude: Double?) -> DeclusteringEvent {
        DeclusteringEvent(time: start.addingTimeInterval(days * 86_400), latitude: latitude, longitude: longitude,
                          magnitude: magnitude)
    }

    /// A point `kilometres` east of (latitude, 0) along the parallel (close enough for tests away from the poles).
    static func east(_ kilometres: Double, at latitude: Double = 0) -> Double {
        kilometres / (Self.kilometresPerDegree * cos(latitude * Double.pi / 180))
    }

    static func gk(_ events: [DeclusteringEvent], window: GardnerKnopoffWindow = .gardnerKnopoff, fraction: Double = 1,
                   cutoff: Double? = nil) throws -> [ClusterAssignment] {
        try DeclusteringMethod.gardnerKnopoff(window: window, foreshockFraction: fraction, timeCutoffDays: cutoff)
            .clusters(of: events)
    }

    @Test func windowsFollowThePublishedFormulas() {
        // M 5: GK L = 10^(0.1238·5 + 0.983) = 40.0 km, T = 10^(0.5409·5 − 0.547) = 143.7 days.
        #expect(abs(GardnerKnopoffWindow.gardnerKnopoff.distance(5) - 40.0) < 0.1)
        #expect(abs(GardnerKnopoffWindow.gardnerKnopoff.days(5) - 143.7) < 0.1)
        // M ≥ 6.5 switches to the long-time branch: 10^(0.032·7 + 2.7389) = 918.1 days.
        #expect(abs(GardnerKnopoffWindow.gardnerKnopoff.days(7) - 918.1) < 0.1)
        #expect(abs(GardnerKnopoffWindow.uhrhammer.distance(5) - exp(2.996)) < 1e-9)
        #expect(abs(GardnerKnopoffWindow.uhrhammer.days(5) - exp(3.305)) < 1e-9)
        #expect(abs(GardnerKnopoffWindow.gruenthal.distance(5) - exp(1.77 + (5.137).squareRoot())) < 1e-9)
        #expect(abs(GardnerKnopoffWindow.gruenthal.days(7) - pow(10, 2.968)) < 1e-9)
    }

    @Test func aftershocksInsideTheWindowJoinTheMainshock() throws {
        let events = [
            Self.event(0, 0, 0, 5),
            Self.event(1, 0, Self.east(10), 3),      // inside: 10 km, 1 day
            Self.event(2, 0, Self.east(60), 3),      // outside L = 40 km
            Self.event(200, 0, Self.east(5), 3),     // outside T = 143.7 days
            Self.event(-1, 0, Self.east(5), 3.5),    // a foreshock inside the window
        ]
        let result = try Self.gk(events)
        #expect(result[0] == ClusterAssignment(clusterID: 1, isMainshock: true))
        #expect(result[1] == ClusterAssignment(clusterID: 1, isMainshock: false))
        #expect(result[4] == ClusterAssignment(clusterID: 1, isMainshock: false))
        #expect(result[2].isMainshock && result[2].clusterID != 1)
        #expect(result[3].isMainshock && result[3].clusterID != 1)
        // Without a foreshock window, the foreshock founds its own cluster (and takes what is near it).
        let noForeshocks = try Self.gk(events, fraction: 0)
        #expect(noForeshocks[4].isMainshock && noForeshocks[4].clusterID != 1)
        #expect(noForeshocks[1].clusterID == 1)
        // Half the window: a foreshock 100 days before is outside (T/2 = 71.9), 60 days before inside.
        let half = try Self.gk([Self.event(0, 0, 0, 5), Self.event(-100, 0, 0, 3), Self.event(-60, 0, 0, 3)], fraction: 0.5)
        #expect(half.map(\.isMainshock) == [true, true, false])
    }

    @Test func windowsDiffer() throws {
        // 30 km: inside Gardner–Knopoff's 40 km, outside Uhrhammer's 20 km.
        let events = [Self.event(0, 10, 0, 5), Self.event(0.5, 10, Self.east(30, at: 10), 3)]
        #expect(try Self.gk(events, window: .gardnerKnopoff).map(\.isMainshock) == [true, false])
        #expect(try Self.gk(events, window: .uhrhammer).map(\.isMainshock) == [true, true])
        #expect(try Self.gk(events, window: .gruenthal).map(\.isMainshock) == [true, false])
    }

    @Test func timeCutoffCapsTheWindow() throws {
        let events = [Self.event(0, 0, 0, 5), Self.event(20, 0, 0, 3)]
        #expect(try Self.gk(events).map(\.isMainshock) == [true, false])
        #expect(try Self.gk(events, cutoff: 10).map(\.isMainshock) == [true, true])
    }

    @Test func tiesGoToTheEarliestThenTheFirstListed() throws {
        let later = try Self.gk([Self.event(1, 0, 0, 4), Self.event(0, 0, 0, 4)])
        #expect(later.map(\.isMainshock) == [false, true])
        let same = try Self.gk([Self.event(0, 0, 0, 4), Self.event(0, 0, 0.01, 4)])
        #expect(same.map(\.isMainshock) == [true, false])
        #expect(same[0].clusterID == same[1].clusterID)
    }

    @Test func anEventInAClusterFoundsNone() throws {
        // B is inside A's window and C inside B's but not A's: C is a mainshock, not B's aftershock.
        let events = [Self.event(0, 0, 0, 5), Self.event(1, 0, Self.east(35), 4.9), Self.event(2, 0, Self.east(70), 3)]
        let result = try Self.gk(events)
        #expect(result.map(\.isMainshock) == [true, false, true])
    }

    @Test func windowsReachAcrossTheAntimeridianAndThePoles() throws {
        let antimeridian = [Self.event(0, 0, 179.95, 5), Self.event(1, 0, -179.9, 3), Self.event(1, 0, 180.1, 3)]
        #expect(try Self.gk(antimeridian).map(\.isMainshock) == [true, false, false])
        // 89.9° N at opposite longitudes: 22 km apart across the pole.
        let pole = [Self.event(0, 89.9, 0, 5), Self.event(1, 89.9, 180, 3), Self.event(1, 89.9, -90, 3)]
        #expect(try Self.gk(pole).map(\.isMainshock) == [true, false, false])
    }

    @Test func eventsWithoutMagnitudeStandAlone() throws {
        let events = [Self.event(0, 0, 0, nil), Self.event(0, 0, 0, 5), Self.event(1, 0, 0, .nan), Self.event(1, 0, 0, 3)]
        for method in [DeclusteringMethod.standard, .nearestNeighbour(NearestNeighbourParameters())] {
            let result = try method.clusters(of: events)
            #expect(result[0].isMainshock && result[2].isMainshock)
            #expect(Set(result.map(\.clusterID)).count == 3, "\(method)")
            #expect(result[3] == ClusterAssignment(clusterID: result[1].clusterID, isMainshock: false))
        }
    }

    @Test func parametersOutOfRangeAreRefused() {
        #expect(throws: DeclusteringError.self) {
            try DeclusteringMethod.gardnerKnopoff(window: .uhrhammer, foreshockFraction: 1.5, timeCutoffDays: nil).clusters(of: [])
        }
        #expect(throws: DeclusteringError.self) {
            try DeclusteringMethod.gardnerKnopoff(window: .uhrhammer, foreshockFraction: 1, timeCutoffDays: -1).clusters(of: [])
        }
        #expect(throws: DeclusteringError.self) {
            try DeclusteringMethod.nearestNeighbour(NearestNeighbourParameters(fractalDimension: 0)).clusters(of: [])
        }
    }

    /// The grid index gives what a founder-against-every-event loop gives, on a clustered catalogue
    /// spread over the antimeridian and a polar cap.
    @Test(arguments: GardnerKnopoffWindow.allCases)
    func gridAgreesWithAPlainLoop(window: GardnerKnopoffWindow) throws {
        let events = Self.clustered(count: 1500, seed: 7)
        for fraction in [1.0, 0.3] {
            let fast = try Self.gk(events, window: window, fraction: fraction)
            let plain = Self.plainGardnerKnopoff(events, window: window, fraction: fraction)
            #expect(fast == plain)
        }
    }

    /// SeismoStats's loop, written out.
    static func plainGardnerKnopoff(_ events: [DeclusteringEvent], window: GardnerKnopoffWindow,
                                    fraction: Double) -> [ClusterAssignment] {
        let seconds = events.map { Int64(($0.time.timeIntervalSince1970 * 1e6).rounded() / 1e6) }
        let order = events.indices.sorted {
            events[$0].magnitude! != events[$1].magnitude! ? events[$0].magnitude! > events[$1].magnitude!
                : events[$0].time != events[$1].time ? events[$0].time < events[$1].time : $0 < $1
        }
        var cluster = [Int](repeating: 0, count: events.count)
        var mainshock = [Bool](repeating: true, count: events.count)
        var next = 1
        for seed in order where cluster[seed] == 0 {
            let m = events[seed].magnitude!
            let t = Double(Int64(window.days(m) * 86_400e9))
            for other in events.indices where cluster[other] == 0 {
                let dt = Double(seconds[other] - seconds[seed]) * 1e9
                guard dt >= (-t * fraction).rounded(.towardZero), dt <= t else { continue }
                let d = Haversine.distance(latitude1: Haversine.radians(events[other].latitude),
                                           longitude1: Haversine.radians(events[other].longitude),
                                           latitude2: Haversine.radians(events[seed].latitude),
                                           longitude2: Haversine.radians(events[seed].longitude))
                if d <= window.distance(m) {
                    cluster[other] = next
                    mainshock[other] = false
                }
            }
            mainshock[seed] = true
            next += 1
        }
        return events.indices.map { ClusterAssignment(clusterID: cluster[$0], isMainshock: mainshock[$0]) }
    }

    /// A deterministic generator (SplitMix64).
    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        mutating func magnitude(_ minimum: Double) -> Double {
            ((minimum - log10(1 - next())) * 10).rounded() / 10
        }
    }

    /// Background events in three regions (one astride the antimeridian, one near the North
    /// Pole), a third of them followed by a few aftershocks near them.
    static func clustered(count: Int, seed: UInt64) -> [DeclusteringEvent] {
        var random = Random(state: seed)
        let regions: [(Double, Double, Double, Double)] = [(-25, -10, 170, 190), (80, 89.5, -180, 180), (30, 40, -125, -115)]
        var events: [DeclusteringEvent] = []
        while events.count < count {
            let (s, n, w, e) = regions[Int(random.next() * 3)]
            let latitude = s + (n - s) * random.next(), longitude = w + (e - w) * random.next()
            let magnitude = random.magnitude(2)
            let days = random.next() * 3650
            events.append(event(days, latitude, longitude > 180 ? longitude - 360 : longitude, magnitude))
            guard random.next() < 0.3 else { continue }
            for _ in 0..<Int(random.next() * 8) {
                let offset = GardnerKnopoffWindow.gardnerKnopoff.distance(magnitude) / Self.kilometresPerDegree
                var lon = longitude + (random.next() - 0.5) * 2 * offset * 2
                if lon > 180 { lon -= 360 }
                events.append(event(days + (random.next() - 0.2) * GardnerKnopoffWindow.gardnerKnopoff.days(magnitude),
                                    min(89.99, latitude + (random.next() - 0.5) * 2 * offset), lon,
                                    min(magnitude, random.magnitude(2))))
            }
        }
        return events
    }

    // MARK: Nearest neighbour

    @Test func aPoissonCatalogueStaysWhole() throws {
        var random = Random(state: 42)
        // 300 events over 20 years in 20° × 20°: nearest neighbours are weeks and tens of km apart.
        let events = (0..<300).map { _ in
            Self.event(random.next() * 7300, -10 + 20 * random.next(), 100 + 20 * random.next(), random.magnitude(2))
        }
        let result = try DeclusteringMethod.nearestNeighbour(NearestNeighbourParameters()).clusters(of: events)
        let mainshocks = result.filter(\.isMainshock).count
        #expect(mainshocks >= 297, "\(mainshocks) of 300 background events are mainshocks")
    }

    @Test func aPlantedSequenceIsFound() throws {
        var random = Random(state: 9)
        var events = (0..<300).map { _ in
            Self.event(random.next() * 7300, -10 + 20 * random.next(), 100 + 20 * random.next(), random.magnitude(2))
        }
        let mainshock = events.count
        events.append(Self.event(3000, 0, 110, 6.2))
        // Omori-like: aftershocks crowd the first days, within 15 km.
        for index in 0..<60 {
            let days = 0.01 * pow(1.12, Double(index))
            events.append(Self.event(3000 + days, (random.next() - 0.5) * 0.25, 110 + (random.next() - 0.5) * 0.25,
                                     min(5.5, random.magnitude(2))))
        }
        let result = try DeclusteringMethod.nearestNeighbour(NearestNeighbourParameters()).clusters(of: events)
        let cluster = result[mainshock].clusterID
        #expect(result[mainshock].isMainshock)
        let members = result.indices.filter { result[$0].clusterID == cluster }
        #expect(Set(mainshock...(mainshock + 60)).isSubset(of: Set(members)))
        #expect(members.count <= 64, "few background events join: \(members.count)")
    }

    /// The cell search finds the parent an all-pairs search finds.
    @Test func nearestNeighbourSearchAgreesWithAllPairs() {
        let events = Self.clustered(count: 800, seed: 3)
        let parameters = NearestNeighbourParameters()
        let links = NearestNeighbourClusters(parameters: parameters).links(of: events)
        for j in events.indices {
            var best = Double.infinity
            for i in events.indices where events[i].time < events[j].time {
                let t = events[j].time.timeIntervalSince(events[i].time) / (365.25 * 86_400)
                let r = Haversine.distance(latitude1: Haversine.radians(events[j].latitude),
                                           longitude1: Haversine.radians(events[j].longitude),
                                           latitude2: Haversine.radians(events[i].latitude),
                                           longitude2: Haversine.radians(events[i].longitude))
                best = min(best, t * pow(r, 1.6) * pow(10, -events[i].magnitude!))
            }
            #expect(abs(links[j].eta - best) <= 1e-9 * best || links[j].eta == best, "event \(j)")
        }
        // η = T·R whatever q.
        for link in links where link.parent != nil {
            #expect(abs(link.rescaledTime * link.rescaledDistance - link.eta) <= 1e-9 * link.eta)
        }
    }

    @Test func clusterColoursLeaveBackgroundEventsAlone() {
        let fills = ClusterPalette.fills(ids: ["a", "b", "c", "", "d"], clusters: [1, 1, 2, 3, 3])
        #expect(Set(fills.keys) == ["a", "b", "d"], "c is alone in its cluster; the event without an id cannot be coloured")
        #expect(fills["a"] == fills["b"] && fills["a"] != fills["d"])
    }

    @Test func gaussianMixtureFindsTheValley() throws {
        var random = Random(state: 5)
        // Two modes at −8 and −2 (σ 1): the valley is near −5.
        let values = (0..<2000).map { index -> Double in
            let u1 = max(random.next(), 1e-12), u2 = random.next()
            let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            return (index % 2 == 0 ? -8 : -2) + normal
        }
        let mixture = try #require(GaussianMixture2(values))
        #expect(abs(mixture.threshold + 5) < 0.3)
    }
}
