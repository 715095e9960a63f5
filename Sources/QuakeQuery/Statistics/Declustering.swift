import Foundation
import QuakeModel

/// What declustering needs of an event: when, where and how large.
package struct DeclusteringEvent: Sendable, Hashable {
    /// Origin time.
    package var time: Date
    /// Latitude of the epicentre, in degrees.
    package var latitude: Double
    /// Longitude of the epicentre, in degrees (any multiple of 360° away is the same place).
    package var longitude: Double
    /// Magnitude; `nil` (or NaN) leaves the event out (see ``DeclusteringMethod/clusters(of:)``).
    package var magnitude: Double?
    /// Depth in km; neither method uses it (both measure epicentral distance, as published).
    package var depth: Double?

    package init(time: Date, latitude: Double, longitude: Double, magnitude: Double?, depth: Double? = nil) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.magnitude = magnitude
        self.depth = depth
    }

    package init(_ event: SeismicEvent) {
        self.init(time: event.time, latitude: event.latitude, longitude: event.longitude, magnitude: event.magnitude,
                  depth: event.depth)
    }

    package init(_ event: MapEvent) {
        self.init(time: event.time, latitude: event.latitude, longitude: event.longitude, magnitude: event.magnitude,
                  depth: event.depth)
    }
}

/// The cluster an event was put in, and whether it is that cluster's mainshock.
package struct ClusterAssignment: Sendable, Hashable {
    /// The cluster, numbered from 1 in the order the method founds clusters; a background
    /// event is a cluster of its own.
    package var clusterID: Int
    /// Whether the event stays in a declustered catalogue.
    package var isMainshock: Bool

    package init(clusterID: Int, isMainshock: Bool) {
        self.clusterID = clusterID
        self.isMainshock = isMainshock
    }
}

/// How a catalogue is split into mainshocks and the events that depend on them.
package enum DeclusteringMethod: Sendable, Hashable {
    /// Gardner & Knopoff (1974) space–time windows (``GardnerKnopoff``), with SeismoStats 1.0.1's
    /// `GardnerKnopoffType1` semantics: `foreshockFraction` (0…1) of the time window is searched
    /// before each mainshock; `timeCutoffDays` caps every time window.
    case gardnerKnopoff(window: GardnerKnopoffWindow, foreshockFraction: Double, timeCutoffDays: Double?)
    /// Zaliapin & Ben-Zion (2013) nearest-neighbour clusters (``NearestNeighbourClusters``).
    case nearestNeighbour(NearestNeighbourParameters)

    /// Gardner–Knopoff with its own window, the whole window for foreshocks and no cutoff:
    /// SeismoStats's defaults.
    package static let standard = DeclusteringMethod.gardnerKnopoff(window: .gardnerKnopoff, foreshockFraction: 1,
                                                                    timeCutoffDays: nil)

    /// How reports name it: `Gardner–Knopoff (Uhrhammer window)`, `nearest neighbour (Zaliapin–Ben-Zion)`.
    package var name: String {
        switch self {
        case .gardnerKnopoff(let window, _, _): "Gardner–Knopoff (\(window.name) window)"
        case .nearestNeighbour: "nearest neighbour (Zaliapin–Ben-Zion)"
        }
    }

    /// Checks the parameters.
    ///
    /// - Throws: ``DeclusteringError/invalidParameter(_:_:)`` naming the first one out of range.
    package func validate() throws(DeclusteringError) {
        switch self {
        case let .gardnerKnopoff(_, fraction, cutoff):
            guard fraction.isFinite, fraction >= 0, fraction <= 1 else {
                throw .invalidParameter("foreshock fraction", "\(fraction) is outside 0…1")
            }
            if let cutoff, !(cutoff.isFinite && cutoff > 0) {
                throw .invalidParameter("time cutoff", "\(cutoff) days is not a positive number")
            }
        case .nearestNeighbour(let parameters):
            try parameters.validate()
        }
    }

    /// Each event's cluster and whether it is the mainshock, in the order of `events`.
    ///
    /// Events without a magnitude (or with NaN) are left out of the method: each is a cluster
    /// of its own and its mainshock, numbered after the others. SeismoStats refuses NaN
    /// magnitudes, and a nearest-neighbour distance needs the parent's magnitude.
    ///
    /// - Throws: ``DeclusteringError`` for parameters out of range.
    package func clusters(of events: [DeclusteringEvent]) throws(DeclusteringError) -> [ClusterAssignment] {
        try validate()
        switch self {
        case let .gardnerKnopoff(window, fraction, cutoff):
            return GardnerKnopoff(window: window, foreshockFraction: fraction, timeCutoffDays: cutoff).clusters(of: events)
        case .nearestNeighbour(let parameters):
            return try NearestNeighbourClusters(parameters: parameters).clusters(of: events)
        }
    }

    /// The positions in `events` of the mainshocks, in order.
    package func mainshocks(of events: [DeclusteringEvent]) throws(DeclusteringError) -> [Int] {
        let assignments = try clusters(of: events)
        return assignments.indices.filter { assignments[$0].isMainshock }
    }
}

/// Why events could not be declustered.
package enum DeclusteringError: QuakeKitError, Hashable {
    /// A parameter out of its range: its name and why.
    case invalidParameter(String, String)

    /// The message.
    package var message: String {
        switch self {
        case let .invalidParameter(name, reason): "declustering: \(name): \(reason)"
        }
    }
}

/// Great-circle distances as SeismoStats measures them (`seismostats.analysis.declustering.utils.haversine`),
/// operation for operation, so that an event on a window's edge falls on the same side in both.
package enum Haversine {
    /// SeismoStats's Earth radius, in km.
    package static let earthRadius = 6371.227

    /// The distance in km between two points given in radians.
    @inline(__always)
    package static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let dlat = latitude1 - latitude2
        let dlon = longitude1 - longitude2
        let sinLat = sin(dlat / 2), sinLon = sin(dlon / 2)
        let a = sinLat * sinLat + cos(latitude1) * cos(latitude2) * (sinLon * sinLon)
        return 2 * earthRadius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// Degrees to radians as numpy's `pi / 180 * x` does.
    @inline(__always)
    package static func radians(_ degrees: Double) -> Double { Double.pi / 180 * degrees }
}

/// Events without a usable magnitude, appended as clusters of their own after `next` - 1.
func assignUnmeasured(_ events: [DeclusteringEvent], to assignments: inout [ClusterAssignment?], from next: Int) {
    var next = next
    for index in events.indices where assignments[index] == nil {
        assignments[index] = ClusterAssignment(clusterID: next, isMainshock: true)
        next += 1
    }
}
