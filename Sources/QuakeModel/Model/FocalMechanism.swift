import Foundation

/// A fault plane and the slip on it, in degrees, as Aki & Richards define them:
/// strike clockwise from north with the plane dipping to the right of it,
/// dip down from the horizontal, rake in the plane from the strike direction
/// to the hanging wall's slip (positive up: thrust; negative: normal).
public struct NodalPlane: Sendable, Hashable, Codable {
    /// Degrees clockwise from north, 0 ≤ strike < 360.
    public var strike: Double
    /// Degrees down from the horizontal, 0…90.
    public var dip: Double
    /// Degrees, −180 < rake ≤ 180.
    public var rake: Double

    /// A plane as given; ``FocalMechanism`` puts the angles in their ranges.
    public init(strike: Double, dip: Double, rake: Double) {
        self.strike = strike
        self.dip = dip
        self.rake = rake
    }
}

/// A seismic moment tensor in newton-metres, in the Harvard/GCMT order and
/// frame: r up, θ south, φ east (`Mrr`, `Mtt`, `Mpp`, `Mrt`, `Mrp`, `Mtp`).
public struct MomentTensor: Sendable, Hashable, Codable {
    /// `Mrr`, N·m.
    public var rr: Double
    /// `Mθθ`, N·m.
    public var tt: Double
    /// `Mφφ`, N·m.
    public var pp: Double
    /// `Mrθ`, N·m.
    public var rt: Double
    /// `Mrφ`, N·m.
    public var rp: Double
    /// `Mθφ`, N·m.
    public var tp: Double

    /// A tensor from its six components in N·m (multiply dyn·cm by 10⁻⁷).
    public init(rr: Double, tt: Double, pp: Double, rt: Double, rp: Double, tp: Double) {
        self.rr = rr
        self.tt = tt
        self.pp = pp
        self.rt = rt
        self.rp = rp
        self.tp = tp
    }
}

/// How an earthquake's fault moved: its two nodal planes, its moment tensor,
/// or both, as a catalogue gives them (QuakeML `focalMechanism`, a GCMT NDK
/// record). The principal axes, the best double couple and the tensor's
/// parts follow from what is given (`docs/mechanisms.md`).
///
/// Held behind one reference, so that events without a mechanism, the vast
/// majority, pay a pointer for the field.
public struct FocalMechanism: Sendable, Hashable, Codable {
    private struct Fields: Sendable, Hashable, Codable {
        var nodalPlanes: [NodalPlane]
        var preferredPlane: Int?
        var tensor: MomentTensor?
        var scalarMoment: Double?
    }

    private indirect enum Box: Sendable, Hashable {
        case fields(Fields)
    }

    private var box: Box

    private var fields: Fields {
        get { switch box { case .fields(let fields): return fields } }
        set { box = .fields(newValue) }
    }

    /// A mechanism from what a catalogue gives. Angles are brought into their
    /// ranges (strike 360 is 0, rake −180 is 180); `preferredPlane` is 1 or 2.
    public init(nodalPlanes: [NodalPlane] = [], preferredPlane: Int? = nil, tensor: MomentTensor? = nil,
                scalarMoment: Double? = nil) {
        box = .fields(Fields(nodalPlanes: nodalPlanes.map(NodalPlane.normalized),
                             preferredPlane: preferredPlane.flatMap { (1...nodalPlanes.count).contains($0) ? $0 : nil },
                             tensor: tensor, scalarMoment: scalarMoment))
    }

    /// The nodal planes given: none, one or both.
    public var nodalPlanes: [NodalPlane] { fields.nodalPlanes }
    /// Which of ``nodalPlanes`` is the fault (1 or 2), when the catalogue says.
    public var preferredPlane: Int? { fields.preferredPlane }
    /// The moment tensor, N·m, when given.
    public var tensor: MomentTensor? { fields.tensor }
    /// The scalar moment M₀ in N·m as given, else from the tensor.
    public var scalarMoment: Double? { fields.scalarMoment ?? fields.tensor.map(\.scalarMoment) }

    /// Encodes the given values (planes, preferred plane, tensor, scalar moment), not what follows from them.
    public func encode(to encoder: Encoder) throws { try fields.encode(to: encoder) }

    /// Decodes what ``encode(to:)`` wrote.
    public init(from decoder: Decoder) throws { box = .fields(try Fields(from: decoder)) }
}
