import Foundation
import QuakeModel

/// Values no real event has, shared by every reader: a row carrying one is
/// rejected with the evidence rather than drawn as a monster circle.
package enum Plausibility {
    /// The largest earthquakes reach about M9.5; small local ones go below 0.
    package static let magnitude = -5.0...10.0
    /// Kilometres: above sea level up to the highest mountains, down past the deepest slabs (~700 km).
    package static let depth = -15.0...1000.0
    /// A feed cannot list events after it was written; a day's grace covers clocks that disagree.
    package static let futureGrace: TimeInterval = 86_400

    package static func magnitudeProblem(_ value: Double) -> String? {
        magnitude.contains(value) ? nil : "is outside -5…10"
    }

    package static func depthProblem(_ value: Double) -> String? {
        depth.contains(value) ? nil : "is outside -15…1000 km"
    }

    package static func timeProblem(_ time: Date, now: Date) -> String? {
        time.timeIntervalSince(now) > futureGrace ? "is in the future (after \(CivilTime.iso8601(now)) + 1 day)" : nil
    }
}
