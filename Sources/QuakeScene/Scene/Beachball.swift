import Foundation
import QuakeModel
import QuakeParse
import QuakeGeo

/// How events are drawn, as `--symbol` and the server's `symbol` name it.
package enum EventSymbol: String, Sendable, Hashable, CaseIterable {
    /// Every event a circle (a diamond if not an earthquake).
    case circle
    /// Events with a focal mechanism as beachballs, the others as circles.
    case beachball
}

/// Which part of a mechanism a beachball shows.
package enum MechanismDrawing: String, Sendable, Hashable, CaseIterable {
    /// The double couple: of the nodal planes given, else the tensor's best (GMT `meca -Sd`).
    case doubleCouple = "dc"
    /// The whole tensor, its isotropic and CLVD parts shown (GMT `meca -Sm`); planes alone as their double couple.
    case full
}

/// How events with a focal mechanism are drawn: as beachballs, sized as their circles times `scale`.
package struct BeachballStyle: Sendable, Hashable {
    package var drawing: MechanismDrawing
    package var scale: Double

    package init(drawing: MechanismDrawing = .doubleCouple, scale: Double = 1) {
        self.drawing = drawing
        self.scale = scale
    }

    /// The smallest ball drawn, in pixels at scale 1: below it the quadrants cannot be told apart.
    package static let minimumDiameter = 10.0

    /// The largest ``scale``, as for circles (``MagnitudeStyle/maximumSymbolScale``).
    package static let maximumScale = MagnitudeStyle.maximumSymbolScale
}

/// A lower-hemisphere, equal-area (Schmidt) beachball at its place on the map:
/// compressional parts in the event's colour over a white ball, the nodal
/// planes' traces, an outline.
package struct SceneBeachball: Sendable, Hashable {
    package var center: PixelPoint
    package var diameter: Double
    package var fill: RGBA
    /// The compressional regions as rings in pixels, filled together (non-zero winding).
    package var compressional: [[PixelPoint]]
    /// The nodal planes' traces, for a double couple.
    package var nodalLines: [[PixelPoint]]
    package var eventID: String
    /// Where the event is, when the ball was moved off it to keep clear of others: a leader line joins them.
    package var epicentre: PixelPoint?
}

/// The geometry of beachballs in the unit disc (x east, y north), from the
/// radiation pattern's sign vᵀMv over the lower hemisphere: along each ray of
/// the projection (an azimuth φ), v(θ) = (sinθ cosφ, sinθ sinφ, cosθ) in
/// north–east–down, and vᵀMv = P + Q cos(2θ − α), whose zeros in θ are closed-form.
/// Rays a small angle apart bound quadrilaterals of the compressional parts;
/// where a ray gains or loses a part, the angle between rays is halved until
/// the change is pinned down.
package enum Beachball {
    /// The tensor (north–east–down) whose pattern is drawn, or `nil` when the mechanism gives none.
    package static func matrix(_ mechanism: FocalMechanism, drawing: MechanismDrawing) -> [[Double]]? {
        switch drawing {
        case .full:
            if let tensor = mechanism.tensor { return tensor.matrix }
            return mechanism.planes.first.map { $0.tensor(moment: 1).matrix }
        case .doubleCouple:
            if let plane = mechanism.planes.first { return plane.tensor(moment: 1).matrix }
            // An explosion or implosion has no double couple: drawn whole, as its sign says.
            return mechanism.tensor.map(\.matrix)
        }
    }

    /// The compressional intervals of radius (0…1, equal-area) along the ray at `azimuth`.
    static func intervals(_ m: [[Double]], azimuth: Double) -> [(Double, Double)] {
        let c = cos(azimuth), s = sin(azimuth)
        let a = m[0][0] * c * c + 2 * m[0][1] * c * s + m[1][1] * s * s
        let b = m[0][2] * c + m[1][2] * s
        let d = m[2][2]
        // f(θ) = a sin²θ + 2b sinθ cosθ + d cos²θ = p + q cos(2θ − α).
        let p = (a + d) / 2, half = (d - a) / 2
        let q = (half * half + b * b).squareRoot(), alpha = atan2(b, half)
        var breaks: [Double] = [0]
        let scale = max(abs(p), q)
        if scale > 0, q > 1e-12 * scale, abs(p) < q {
            let beta = acos(-p / q)
            for twice in [alpha + beta, alpha - beta, alpha + beta + 2 * .pi, alpha - beta + 2 * .pi,
                          alpha + beta - 2 * .pi, alpha - beta - 2 * .pi] where twice > 0 && twice < .pi {
                breaks.append(twice / 2)
            }
        }
        breaks.append(.pi / 2)
        breaks.sort()
        func f(_ theta: Double) -> Double { p + q * cos(2 * theta - alpha) }
        func radius(_ theta: Double) -> Double { 2.0.squareRoot() * sin(theta / 2) }
        var result: [(Double, Double)] = []
        for (low, high) in zip(breaks, breaks.dropFirst()) where high - low > 1e-12 {
            guard f((low + high) / 2) > 0 else { continue }
            if let last = result.last, abs(last.1 - radius(low)) < 1e-12 {
                result[result.count - 1].1 = radius(high)
            } else {
                result.append((radius(low), radius(high)))
            }
        }
        return result
    }

    /// Rings in the unit disc (x east, y north) covering the compressional parts, `steps` rays around.
    package static func compressional(_ m: [[Double]], steps: Int) -> [[(x: Double, y: Double)]] {
        var rings: [[(x: Double, y: Double)]] = []
        func point(_ r: Double, _ azimuth: Double) -> (x: Double, y: Double) { (r * sin(azimuth), r * cos(azimuth)) }
        func quad(_ a0: Double, _ i0: (Double, Double), _ a1: Double, _ i1: (Double, Double)) {
            // Every quadrilateral turns the same way (out along a0, back along a1): non-zero winding fills their union.
            rings.append([point(i0.0, a0), point(i0.1, a0), point(i1.1, a1), point(i1.0, a1)])
        }
        func span(_ a0: Double, _ s0: [(Double, Double)], _ a1: Double, _ s1: [(Double, Double)], depth: Int) {
            if s0.count == s1.count {
                for (i0, i1) in zip(s0, s1) { quad(a0, i0, a1, i1) }
                return
            }
            if depth == 0 {
                // Parts appear or vanish within a hair's angle: each joined to the nearest on the other ray.
                let fewFirst = s0.count < s1.count
                let few = fewFirst ? s0 : s1, many = fewFirst ? s1 : s0
                for interval in many {
                    let middle = (interval.0 + interval.1) / 2
                    let partner = few.min { abs(($0.0 + $0.1) / 2 - middle) < abs(($1.0 + $1.1) / 2 - middle) }
                        ?? (middle, middle)
                    if fewFirst { quad(a0, partner, a1, interval) } else { quad(a0, interval, a1, partner) }
                }
                return
            }
            let middle = (a0 + a1) / 2, sm = intervals(m, azimuth: middle)
            span(a0, s0, middle, sm, depth: depth - 1)
            span(middle, sm, a1, s1, depth: depth - 1)
        }
        let count = max(8, steps)
        var previous = intervals(m, azimuth: 0)
        for step in 1...count {
            let a0 = 2 * Double.pi * Double(step - 1) / Double(count), a1 = 2 * Double.pi * Double(step) / Double(count)
            let next = intervals(m, azimuth: a1)
            span(a0, previous, a1, next, depth: 8)
            previous = next
        }
        return rings
    }

    /// A nodal plane's trace on the lower hemisphere, strike to strike + 180°.
    package static func trace(of plane: NodalPlane, points: Int) -> [(x: Double, y: Double)] {
        let strike = plane.strike * .pi / 180, dip = plane.dip * .pi / 180
        let along = SourceVector(north: cos(strike), east: sin(strike), down: 0)
        let downDip = SourceVector(north: -sin(strike) * cos(dip), east: cos(strike) * cos(dip), down: sin(dip))
        return (0...max(2, points)).map { index in
            let psi = Double.pi * Double(index) / Double(max(2, points))
            let v = SourceVector(north: cos(psi) * along.north + sin(psi) * downDip.north,
                                 east: cos(psi) * along.east + sin(psi) * downDip.east,
                                 down: max(0, sin(psi) * downDip.down))
            let theta = acos(min(1, v.down)), azimuth = atan2(v.east, v.north)
            let r = 2.0.squareRoot() * sin(theta / 2)
            return (r * sin(azimuth), r * cos(azimuth))
        }
    }

    /// The ball of `mechanism` at `center`, `diameter` pixels wide; `nil` when it has nothing to draw.
    package static func ball(_ mechanism: FocalMechanism, drawing: MechanismDrawing, center: PixelPoint, diameter: Double,
                             fill: RGBA, eventID: String) -> SceneBeachball? {
        guard let m = matrix(mechanism, drawing: drawing) else { return nil }
        let radius = diameter / 2
        func pixel(_ point: (x: Double, y: Double)) -> PixelPoint {
            PixelPoint(x: center.x + point.x * radius, y: center.y - point.y * radius)
        }
        // About a ray per 1.5 px of the rim: the polygon stays within a tenth of a pixel of the curves.
        let steps = min(720, max(48, Int((Double.pi * diameter / 1.5).rounded(.up))))
        let rings = compressional(m, steps: steps).map { $0.map(pixel) }
        var lines: [[PixelPoint]] = []
        let showsPlanes = drawing == .doubleCouple || mechanism.tensor == nil
        if showsPlanes, mechanism.planes.count == 2 {
            lines = mechanism.planes.map { trace(of: $0, points: max(16, steps / 4)).map(pixel) }
        }
        return SceneBeachball(center: center, diameter: diameter, fill: fill.opaque, compressional: rings,
                              nodalLines: lines, eventID: eventID)
    }
}
