import Foundation
import QuakeModel

extension QuakeMLDecoder {
    /// One `focalMechanism` while it is read: its values' text by field.
    package struct Mechanism {
        package var publicID: String
        package var preferredPlane: String?
        package var values: [Field: ArraySlice<UInt8>] = [:]

        /// Why a mechanism's value is refused: its element path, the value, the reason.
        package struct Problem: Error {
            package var element: String
            package var value: String?
            package var reason: String
        }

        /// The mechanism, from both nodal planes (or one), the moment tensor (all six
        /// components or none) and the scalar moment, all in N·m as QuakeML has them.
        package func focalMechanism() -> Result<FocalMechanism?, Problem> {
            do {
                var planes: [NodalPlane] = []
                for (index, fields) in [[Field.strike1, .dip1, .rake1], [.strike2, .dip2, .rake2]].enumerated() {
                    let element = "focalMechanism/nodalPlanes/nodalPlane\(index + 1)"
                    let ranges = [Mechanisms.strikes, Mechanisms.dips, Mechanisms.rakes]
                    let angles = try zip(zip(fields, ["strike", "dip", "rake"]), ranges).map { pair, range in
                        try number(pair.0, "\(element)/\(pair.1)/value", within: range)
                    }
                    if angles.allSatisfy({ $0 == nil }) { continue }
                    guard let strike = angles[0], let dip = angles[1], let rake = angles[2] else {
                        let missing = zip(["strike", "dip", "rake"], angles).first { $0.1 == nil }!.0
                        throw Problem(element: "\(element)/\(missing)/value", value: nil, reason: "is missing: a plane needs strike, dip and rake")
                    }
                    planes.append(NodalPlane(strike: strike, dip: dip, rake: rake))
                }
                let names = ["Mrr", "Mtt", "Mpp", "Mrt", "Mrp", "Mtp"]
                let components = try zip([Field.mrr, .mtt, .mpp, .mrt, .mrp, .mtp], names).map { field, name in
                    try number(field, "focalMechanism/momentTensor/tensor/\(name)/value")
                }
                var tensor: MomentTensor?
                if components.contains(where: { $0 != nil }) {
                    guard components.allSatisfy({ $0 != nil }) else {
                        let missing = zip(names, components).first { $0.1 == nil }!.0
                        throw Problem(element: "focalMechanism/momentTensor/tensor/\(missing)/value", value: nil,
                                      reason: "is missing: a tensor needs all six components")
                    }
                    let m = components.map { $0! }
                    tensor = MomentTensor(rr: m[0], tt: m[1], pp: m[2], rt: m[3], rp: m[4], tp: m[5])
                }
                let moment = try number(.scalarMoment, "focalMechanism/momentTensor/scalarMoment/value", positive: true)
                guard !planes.isEmpty || tensor != nil else { return .success(nil) }
                // `preferredPlane` is 1 or 2 (an integer in QuakeML); anything else is no preference.
                let preferred = preferredPlane.flatMap(Int.init).flatMap { (1...planes.count).contains($0) ? $0 : nil }
                return .success(FocalMechanism(nodalPlanes: planes, preferredPlane: preferred, tensor: tensor, scalarMoment: moment))
            } catch let problem as Problem {
                return .failure(problem)
            } catch {
                return .failure(Problem(element: "focalMechanism", value: nil, reason: "\(error)"))
            }
        }

        private func text(_ field: Field) -> String? {
            values[field].map { String(decoding: $0, as: UTF8.self) }
        }

        /// The field's number (within `range`), by the rules every reader shares; `nil` when absent.
        private func number(_ field: Field, _ element: String, within range: ClosedRange<Double>? = nil,
                            positive: Bool = false) throws -> Double? {
            guard let text = text(field) else { return nil }
            switch RowValidator.quantity(text, within: range, positive: positive) {
            case .success(let value): return value
            case .failure(let refusal): throw Problem(element: element, value: refusal.shown, reason: refusal.reason)
            }
        }
    }
}

extension QuakeMLDecoder.Field {
    /// The field of a value at `focalMechanism/<group>/<member>/<quantity>/value`.
    static func mechanism(_ group: QuakeMLDecoder.Tag, _ member: QuakeMLDecoder.Tag, _ quantity: QuakeMLDecoder.Tag) -> Self? {
        switch (group, member, quantity) {
        case (.nodalPlanes, .nodalPlane1, .strike): .strike1
        case (.nodalPlanes, .nodalPlane1, .dip): .dip1
        case (.nodalPlanes, .nodalPlane1, .rake): .rake1
        case (.nodalPlanes, .nodalPlane2, .strike): .strike2
        case (.nodalPlanes, .nodalPlane2, .dip): .dip2
        case (.nodalPlanes, .nodalPlane2, .rake): .rake2
        case (.momentTensor, .tensor, .Mrr): .mrr
        case (.momentTensor, .tensor, .Mtt): .mtt
        case (.momentTensor, .tensor, .Mpp): .mpp
        case (.momentTensor, .tensor, .Mrt): .mrt
        case (.momentTensor, .tensor, .Mrp): .mrp
        case (.momentTensor, .tensor, .Mtp): .mtp
        default: nil
        }
    }
}
