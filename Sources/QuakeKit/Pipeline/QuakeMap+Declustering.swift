import Foundation
import QuakeModel
import QuakeQuery

/// An event declustering can take: whole events and map events alike.
package protocol DeclusterableEvent {
    /// What declustering needs of it.
    var declusteringEvent: DeclusteringEvent { get }
}

extension SeismicEvent: DeclusterableEvent {
    package var declusteringEvent: DeclusteringEvent { DeclusteringEvent(self) }
}

extension MapEvent: DeclusterableEvent {
    package var declusteringEvent: DeclusteringEvent { DeclusteringEvent(self) }
}

/// `--decluster`: how a selection is declustered, and what it keeps.
package struct SelectionDeclustering: Sendable, Hashable {
    /// The method.
    package var method: DeclusteringMethod
    /// Whether only mainshocks stay (`stats`, `chart`, `report`, a `render` of mainshocks),
    /// or every event with its cluster (`decluster`, a `render` coloured by cluster).
    package var mainshocksOnly: Bool

    package init(method: DeclusteringMethod, mainshocksOnly: Bool) {
        self.method = method
        self.mainshocksOnly = mainshocksOnly
    }
}

extension SelectedEvents where Event: DeclusterableEvent {
    /// The one rule every command follows: declustering sees every event the filters pass
    /// (this selection, read without a limit), and only then are the `limit` most recent kept
    /// (of the mainshocks, when only they stay), so a map of 300 shows 300 mainshocks.
    ///
    /// - Returns: the selection, most recent first when `limit` cuts it (equal times in their
    ///   order here), and each kept event's cluster, in the same order.
    package func declustered(_ declustering: SelectionDeclustering, limit: Int?) throws(DeclusteringError)
        -> (selection: Self, clusters: [ClusterAssignment]) {
        let assignments = try declustering.method.clusters(of: events.map(\.declusteringEvent))
        var kept = events.indices.filter { !declustering.mainshocksOnly || assignments[$0].isMainshock }
        if let limit, kept.count > limit {
            // Stable: equal times keep their order (a whole selection's is the feed's, most recent first).
            let times = events.map(\.declusteringEvent.time)
            kept = kept.enumerated().sorted { a, b in
                times[a.element] != times[b.element] ? times[a.element] > times[b.element] : a.offset < b.offset
            }.prefix(limit).map(\.element)
        }
        var selection = self
        selection.events = kept.map { events[$0] }
        return (selection, kept.map { assignments[$0] })
    }
}

extension SeismicEvent {
    /// This event with its cluster in `clusterId` and `mainshock` (1 or 0), as `decluster` lists it.
    package func annotated(with assignment: ClusterAssignment) -> SeismicEvent {
        var event = self
        event.details[.clusterId] = .integer(Int64(assignment.clusterID))
        event.details[.mainshock] = .integer(assignment.isMainshock ? 1 : 0)
        return event
    }
}

/// A declustering method with its published parameters (``QuakeMap/decluster(_:method:mainshocksOnly:)``).
public enum Declustering: String, Sendable, Hashable, CaseIterable {
    /// Gardner & Knopoff (1974) windows, SeismoStats's `GardnerKnopoffType1` semantics: the largest
    /// event first, earliest on a tie; fore- and aftershock windows of the same length.
    case gardnerKnopoff = "gk"
    /// The Gardner–Knopoff method with Uhrhammer's (1986) windows.
    case uhrhammer = "gk-uhrhammer"
    /// The Gardner–Knopoff method with Grünthal's (1985) windows.
    case gruenthal = "gk-gruenthal"
    /// Zaliapin & Ben-Zion's (2013) nearest-neighbour clusters: b = 1, fractal dimension 1.6,
    /// q = 0.5, links below log₁₀ η₀ = −5.
    case nearestNeighbour = "nearest-neighbour"

    /// The method and its parameters.
    package var method: DeclusteringMethod {
        switch self {
        case .gardnerKnopoff: .gardnerKnopoff(window: .gardnerKnopoff, foreshockFraction: 1, timeCutoffDays: nil)
        case .uhrhammer: .gardnerKnopoff(window: .uhrhammer, foreshockFraction: 1, timeCutoffDays: nil)
        case .gruenthal: .gardnerKnopoff(window: .gruenthal, foreshockFraction: 1, timeCutoffDays: nil)
        case .nearestNeighbour: .nearestNeighbour(NearestNeighbourParameters())
        }
    }
}

extension QuakeMap {
    /// Declusters a selection: each event gets its cluster's number (`clusterId`) and whether
    /// it is the cluster's mainshock (`mainshock`, 1 or 0), fields every list format writes;
    /// with `mainshocksOnly`, only the mainshocks stay. Select every event of the region and
    /// period first (`EventSelection(limit: nil)`): declustering a few misses their clusters.
    ///
    /// - Throws: an error naming the parameter were a method's parameters out of range (the
    ///   published ones are not), as `quakemap decluster` reports its options.
    public static func decluster(_ selection: FeedSelection, method: Declustering = .gardnerKnopoff,
                                 mainshocksOnly: Bool = false) throws -> FeedSelection {
        let declustering = SelectionDeclustering(method: method.method, mainshocksOnly: mainshocksOnly)
        let (declustered, clusters) = try selection.declustered(declustering, limit: nil)
        var annotated = declustered
        annotated.events = zip(declustered.events, clusters).map { $0.annotated(with: $1) }
        return annotated
    }
}
