import Foundation

// The geometry of a focal mechanism, in the source's local frame north–east–down
// (Aki & Richards, box 4.4): planes from their normal and slip vectors, principal
// axes from a tensor's eigenvectors, the best double couple from the T and P axes.
// No listed Swift package does 3×3 symmetric eigenproblems; the Jacobi method here
// is exact to rounding for any scale (1e16 or 1e26 N·m alike).

/// A direction in the source's frame: north, east, down.
package struct SourceVector: Sendable, Hashable {
    package var north: Double
    package var east: Double
    package var down: Double

    package init(north: Double, east: Double, down: Double) {
        self.north = north
        self.east = east
        self.down = down
    }

    package static func + (lhs: SourceVector, rhs: SourceVector) -> SourceVector {
        SourceVector(north: lhs.north + rhs.north, east: lhs.east + rhs.east, down: lhs.down + rhs.down)
    }

    package static func - (lhs: SourceVector, rhs: SourceVector) -> SourceVector {
        SourceVector(north: lhs.north - rhs.north, east: lhs.east - rhs.east, down: lhs.down - rhs.down)
    }

    package static prefix func - (vector: SourceVector) -> SourceVector {
        SourceVector(north: -vector.north, east: -vector.east, down: -vector.down)
    }

    package func dot(_ other: SourceVector) -> Double { north * other.north + east * other.east + down * other.down }

    package func cross(_ other: SourceVector) -> SourceVector {
        SourceVector(north: east * other.down - down * other.east, east: down * other.north - north * other.down,
                     down: north * other.east - east * other.north)
    }

    package var length: Double { dot(self).squareRoot() }

    package var unit: SourceVector {
        let length = self.length
        return length > 0 ? SourceVector(north: north / length, east: east / length, down: down / length) : self
    }
}

/// A principal axis of a mechanism: where it points (downward, as plotted on the
/// lower hemisphere) and, from a tensor, its eigenvalue.
package struct PrincipalAxis: Sendable, Hashable {
    /// Degrees clockwise from north, 0 ≤ azimuth < 360.
    package var azimuth: Double
    /// Degrees down from the horizontal, 0…90.
    package var plunge: Double
    /// The eigenvalue, N·m; `nil` for axes of nodal planes without a moment.
    package var value: Double?

    /// The axis along `direction` (either sense).
    package init(_ direction: SourceVector, value: Double?) {
        let down = direction.down < 0 ? -direction.unit : direction.unit
        plunge = asin(min(1, max(-1, down.down))) * 180 / .pi
        azimuth = Mechanisms.degrees0to360(atan2(down.east, down.north) * 180 / .pi)
        self.value = value
    }
}

/// The tension, null and pressure axes.
package struct PrincipalAxes: Sendable, Hashable {
    package var t: PrincipalAxis
    package var n: PrincipalAxis
    package var p: PrincipalAxis
}

/// A tensor's parts (Vavryčuk 2015): signed isotropic and CLVD fractions and the
/// double-couple fraction, their magnitudes summing to 1.
package struct TensorParts: Sendable, Hashable {
    package var isotropic: Double
    package var clvd: Double
    package var doubleCouple: Double
}

package enum Mechanisms {
    /// The angles a catalogue may write: strike 360 is 0, and a rake a full turn off (ObsPy
    /// writes rakes up to 360) is brought back by ``FocalMechanism``.
    package static let strikes = 0.0...360.0
    package static let dips = 0.0...90.0
    package static let rakes = -360.0...360.0

    /// Degrees brought into 0 ≤ value < 360.
    package static func degrees0to360(_ degrees: Double) -> Double {
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value >= 360 ? 0 : value
    }

    /// Degrees brought into −180 < value ≤ 180.
    package static func degreesAround0(_ degrees: Double) -> Double {
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value <= -180 { value += 360 }
        if value > 180 { value -= 360 }
        return value
    }

    /// Moment magnitude from M₀ in N·m (IASPEI 2013: Mw = ⅔ (log₁₀ M₀ − 9.1)).
    package static func momentMagnitude(_ scalarMoment: Double) -> Double? {
        scalarMoment > 0 && scalarMoment.isFinite ? 2.0 / 3.0 * (log10(scalarMoment) - 9.1) : nil
    }

    /// Eigenvalues ascending and their unit eigenvectors of a symmetric 3×3
    /// matrix, by cyclic Jacobi rotations.
    package static func symmetricEigen(_ matrix: [[Double]]) -> (values: [Double], vectors: [SourceVector]) {
        var a = matrix
        var v: [[Double]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        let scale = a.joined().reduce(0) { $0 + $1 * $1 }
        for _ in 0..<64 {
            let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2]
            if off <= scale * 1e-30 || off == 0 { break }
            for (p, q) in [(0, 1), (0, 2), (1, 2)] where a[p][q] != 0 {
                let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot(), s = t * c
                for k in 0..<3 {
                    let kp = a[k][p], kq = a[k][q]
                    a[k][p] = c * kp - s * kq
                    a[k][q] = s * kp + c * kq
                }
                for k in 0..<3 {
                    let pk = a[p][k], qk = a[q][k]
                    a[p][k] = c * pk - s * qk
                    a[q][k] = s * pk + c * qk
                }
                for k in 0..<3 {
                    let kp = v[k][p], kq = v[k][q]
                    v[k][p] = c * kp - s * kq
                    v[k][q] = s * kp + c * kq
                }
            }
        }
        let order = [0, 1, 2].sorted { a[$0][$0] < a[$1][$1] }
        return (order.map { a[$0][$0] },
                order.map { SourceVector(north: v[0][$0], east: v[1][$0], down: v[2][$0]).unit })
    }
}

extension NodalPlane {
    /// The plane with strike in 0…360 (exclusive) and rake in −180…180 (−180 excluded).
    package static func normalized(_ plane: NodalPlane) -> NodalPlane {
        NodalPlane(strike: Mechanisms.degrees0to360(plane.strike), dip: plane.dip,
                   rake: Mechanisms.degreesAround0(plane.rake))
    }

    /// The unit normal, pointing up into the hanging wall.
    package var normal: SourceVector {
        let strike = self.strike * .pi / 180, dip = self.dip * .pi / 180
        return SourceVector(north: -sin(dip) * sin(strike), east: sin(dip) * cos(strike), down: -cos(dip))
    }

    /// The unit slip of the hanging wall relative to the footwall.
    package var slip: SourceVector {
        let strike = self.strike * .pi / 180, dip = self.dip * .pi / 180, rake = self.rake * .pi / 180
        return SourceVector(north: cos(rake) * cos(strike) + sin(rake) * cos(dip) * sin(strike),
                            east: cos(rake) * sin(strike) - sin(rake) * cos(dip) * cos(strike),
                            down: -sin(rake) * sin(dip))
    }

    /// The plane with this normal and slip (either sense of the pair).
    package init(normal: SourceVector, slip: SourceVector) {
        var normal = normal.unit, slip = slip.unit
        if normal.down > 0 {
            normal = -normal
            slip = -slip
        }
        let dip = acos(min(1, max(-1, -normal.down)))
        // A horizontal plane has no strike of its own: north, and the rake from the slip's azimuth.
        let strike = normal.north == 0 && normal.east == 0 ? 0 : atan2(-normal.north, normal.east)
        let along = slip.north * cos(strike) + slip.east * sin(strike)
        // sin(rake) from the slip's dip component, or, on a gentle plane, from its horizontal part.
        let across = sin(dip) >= abs(cos(dip)) ? -slip.down / sin(dip)
                                                : (slip.north * sin(strike) - slip.east * cos(strike)) / cos(dip)
        self = .normalized(NodalPlane(strike: strike * 180 / .pi, dip: dip * 180 / .pi,
                                      rake: atan2(across, along) * 180 / .pi))
    }

    /// The other nodal plane of the same double couple: its normal is this slip.
    package var auxiliary: NodalPlane { NodalPlane(normal: slip, slip: normal) }

    /// The double couple's axes: T along normal + slip, P along normal − slip;
    /// eigenvalues ±M₀ when `moment` is known.
    package func axes(moment: Double?) -> PrincipalAxes {
        let normal = self.normal, slip = self.slip
        return PrincipalAxes(t: PrincipalAxis(normal + slip, value: moment),
                             n: PrincipalAxis(normal.cross(slip), value: moment.map { _ in 0 }),
                             p: PrincipalAxis(normal - slip, value: moment.map { -$0 }))
    }

    /// The double-couple tensor of scalar moment `moment` (N·m) on this plane.
    package func tensor(moment: Double) -> MomentTensor {
        let n = normal, d = slip
        func m(_ a: KeyPath<SourceVector, Double>, _ b: KeyPath<SourceVector, Double>) -> Double {
            moment * (n[keyPath: a] * d[keyPath: b] + n[keyPath: b] * d[keyPath: a])
        }
        return MomentTensor(rr: m(\.down, \.down), tt: m(\.north, \.north), pp: m(\.east, \.east),
                            rt: m(\.north, \.down), rp: -m(\.east, \.down), tp: -m(\.north, \.east))
    }
}

extension MomentTensor {
    /// The tensor in north–east–down (θ is south, r up).
    package var matrix: [[Double]] {
        [[tt, -tp, rt], [-tp, pp, -rp], [rt, -rp, rr]]
    }

    /// Scalar moment, N·m (Silver & Jordan 1982: √(ΣMᵢⱼ²/2)); M₀ for a double couple of M₀.
    package var scalarMoment: Double {
        ((rr * rr + tt * tt + pp * pp) / 2 + rt * rt + rp * rp + tp * tp).squareRoot()
    }

    /// The T (largest eigenvalue), N and P (smallest) axes.
    package var axes: PrincipalAxes {
        let (values, vectors) = Mechanisms.symmetricEigen(matrix)
        return PrincipalAxes(t: PrincipalAxis(vectors[2], value: values[2]), n: PrincipalAxis(vectors[1], value: values[1]),
                             p: PrincipalAxis(vectors[0], value: values[0]))
    }

    /// The nodal planes of the best double couple, from the T and P eigenvectors;
    /// none for a tensor without a deviatoric part (an explosion or implosion).
    package var bestDoubleCouple: [NodalPlane] {
        let (values, vectors) = Mechanisms.symmetricEigen(matrix)
        guard values[2] - values[0] > 1e-12 * max(abs(values[0]), abs(values[2])) else { return [] }
        let t = vectors[2], p = vectors[0]
        let first = NodalPlane(normal: t + p, slip: t - p)
        return [first, first.auxiliary]
    }

    /// The isotropic, CLVD and double-couple parts.
    package var parts: TensorParts {
        let values = Mechanisms.symmetricEigen(matrix).values
        let isotropic = values.reduce(0, +) / 3
        let deviatoric = values.map { $0 - isotropic }.sorted { abs($0) < abs($1) }
        let largest = abs(deviatoric[2])
        let epsilon = largest > 0 ? -deviatoric[0] / largest : 0
        let iso = abs(isotropic) + largest > 0 ? isotropic / (abs(isotropic) + largest) : 0
        let clvd = 2 * epsilon * (1 - abs(iso))
        return TensorParts(isotropic: iso, clvd: clvd, doubleCouple: max(0, 1 - abs(iso) - abs(clvd)))
    }
}

extension FocalMechanism {
    /// Both nodal planes: as given, the auxiliary of one given, or the tensor's best double couple.
    package var planes: [NodalPlane] {
        switch nodalPlanes.count {
        case 2...: return Array(nodalPlanes.prefix(2))
        case 1: return [nodalPlanes[0], nodalPlanes[0].auxiliary]
        default: return tensor?.bestDoubleCouple ?? []
        }
    }

    /// The principal axes: the tensor's, else the double couple's of the (preferred) plane.
    package var axes: PrincipalAxes? {
        if let tensor { return tensor.axes }
        let plane = preferredPlane.map { nodalPlanes[$0 - 1] } ?? nodalPlanes.first
        return plane?.axes(moment: scalarMoment)
    }

    /// Mw from the scalar moment.
    package var momentMagnitude: Double? { scalarMoment.flatMap(Mechanisms.momentMagnitude) }

    /// How the fault moved, by the plunges of the principal axes (Frohlich 1992, *Physics of
    /// the Earth and Planetary Interiors* 75: T plunging 50° or more is a thrust, P 60° or more
    /// a normal fault, N 60° or more strike-slip; the rest oblique); `nil` without axes.
    package var faultingStyle: FaultingStyle? {
        guard let axes else { return nil }
        if axes.t.plunge >= 50 { return .thrust }
        if axes.p.plunge >= 60 { return .normal }
        if axes.n.plunge >= 60 { return .strikeSlip }
        return .oblique
    }
}

/// Frohlich's classes of focal mechanisms (``FocalMechanism/faultingStyle``).
package enum FaultingStyle: String, Sendable, Hashable {
    case thrust, normal, strikeSlip = "strike-slip", oblique
}
