import Foundation
import QuakeModel

/// Reads the USGS GeoJSON summary feed: a `FeatureCollection` whose features
/// carry `geometry.coordinates` = [lon, lat, depth] and `properties` with
/// `mag`, `time` and `updated` (epoch milliseconds), `place`, `type`…, any of
/// which may be `null`; `metadata.generated` is the feed's own time. Every other field
/// (``EventField/detailFields``) is read from its property, so that `alert`, `felt` or `url`
/// survive a round trip. OGC API items (``GeoJSONLayout``'s other layout, the server's) read
/// too: their point has two coordinates and `depth` is a property, their times ISO 8601 text.
///
/// ``GeoJSONStream`` follows the document a window at a time and hands each feature to
/// this type whole; Foundation's `JSONSerialization` parses the feature, and this type
/// checks its structure and hands its values to ``RowValidator``, the judge of every
/// reader: a string where a number is expected is judged as the same text in a CSV.
package struct GeoJSONFeedDecoder {
    package let source: String
    package let options: FeedOptions
    /// Whether events get their detail fields: a map reads none of them, and need not pay for them.
    package let decodesDetails: Bool

    package init(source: String, options: FeedOptions, decodesDetails: Bool = true) {
        self.source = source
        self.options = options
        self.decodesDetails = decodesDetails
    }

    /// One feature (its parsed JSON, its 1-based position in `features`) as an event, or why not.
    package func outcome(ofFeature value: Any, index: Int, validator: RowValidator) -> QuakeMLDecoder.Outcome {
        switch decodeFeature(value, index: index, validator: validator) {
        case .success(let event): .event(event)
        case .failure(let rejection): .rejected(rejection)
        }
    }

    /// `metadata.generated` (epoch milliseconds) as a date.
    package static func generated(_ metadata: [String: Any]) -> Date? {
        number(metadata["generated"]).map { Date(timeIntervalSince1970: $0 / 1000) }
    }

    /// One feature read by ``GeoJSONFeatureReader`` from `bytes`, as an event or why not.
    /// Short repeated words (network, types, status) are made once, through `texts`.
    func outcome(of feature: GeoJSONFeatureReader.Feature, in bytes: UnsafeRawBufferPointer, index: Int,
                 validator: RowValidator, texts cache: inout ShortTextCache) -> QuakeMLDecoder.Outcome {
        func string(_ scalar: GeoJSONFeatureReader.Scalar) -> String? {
            RowValidator.text(GeoJSONFeatureReader.string(scalar, in: bytes))
        }
        func word(_ scalar: GeoJSONFeatureReader.Scalar) -> String? {
            guard case .text(let range) = scalar else { return string(scalar) }
            var start = range.lowerBound, end = range.upperBound
            while start < end, bytes[start] == ASCII.space || bytes[start] == ASCII.tab { start += 1 }
            while end > start, bytes[end - 1] == ASCII.space || bytes[end - 1] == ASCII.tab { end -= 1 }
            guard start < end else { return nil }
            return cache.string(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) ?? string(scalar)
        }
        // Numbers and plain strings are lent to the validator as they lie in the bytes, as a CSV's fields are.
        func lent(_ scalar: GeoJSONFeatureReader.Scalar) -> RowValidator.Text? {
            switch scalar {
            case .absent: .absent
            case .number(let value): .number(value)
            case .text(let range): .bytes(UnsafeRawBufferPointer(rebasing: bytes[range]))
            case .escaped: nil
            }
        }
        func held(_ scalar: GeoJSONFeatureReader.Scalar) -> RowValidator.Value {
            switch scalar {
            case .absent: .absent
            case .number(let value): .number(value)
            case .text, .escaped: .string(GeoJSONFeatureReader.string(scalar, in: bytes) ?? "")
            }
        }
        func coordinate(_ axis: Int) -> GeoJSONFeatureReader.Scalar {
            guard axis < feature.coordinateCount else { return axis == 2 ? feature.depth : .absent }
            switch axis {
            case 0: return feature.coordinates.0
            case 1: return feature.coordinates.1
            default: return feature.coordinates.2
            }
        }
        let id = string(feature.id)
        let result = event(
            index: index, id: id, isFeature: feature.isFeature, hasCoordinates: feature.hasCoordinates,
            check: {
                if let time = lent(feature.time), let latitude = lent(coordinate(1)), let longitude = lent(coordinate(0)),
                   let depth = lent(coordinate(2)), let magnitude = lent(feature.magnitude), let updated = lent(feature.updated) {
                    let fields = RowValidator.Fields(time: time, latitude: latitude, longitude: longitude, depth: depth,
                                                     magnitude: magnitude, updated: updated, depthUnit: .kilometres)
                    return validator.check(fields).mapError { validator.problem($0, in: fields) }
                }
                return validator.check(time: held(feature.time), latitude: held(coordinate(1)), longitude: held(coordinate(0)),
                                       depth: held(coordinate(2)), magnitude: held(feature.magnitude),
                                       updated: held(feature.updated))
            },
            texts: {
                // The code names an event only when it has no id.
                Texts(network: word(feature.network), code: id == nil ? string(feature.code) : nil,
                      magnitudeType: word(feature.magnitudeType), place: string(feature.place),
                      eventType: word(feature.eventType), status: word(feature.status))
            },
            details: {
                guard decodesDetails else { return .success(EventDetails()) }
                return Self.details { field in
                    switch feature.detail(field) {
                    case .absent: .success(nil)
                    case .number(let number): FieldText.value(field, number: number)
                    case .text(let range): FieldText.value(field, bytes: UnsafeRawBufferPointer(rebasing: bytes[range]))
                    case .escaped(let text): FieldText.value(field, text: text)
                    }
                }
            },
            // The reader leaves a feature with products to the plain path.
            mechanism: { .success(nil) })
        switch result {
        case .success(let event): return .event(event)
        case .failure(let rejection): return .rejected(rejection)
        }
    }

    /// A feature's descriptive properties, each kept by the rule every reader shares.
    private struct Texts {
        var network, code, magnitudeType, place, eventType, status: String?
    }

    /// The plain path: a feature parsed by `JSONSerialization`.
    private func decodeFeature(_ value: Any, index: Int, validator: RowValidator) -> Result<SeismicEvent, FeedRejection> {
        let feature = value as? [String: Any] ?? [:]
        let properties = feature["properties"] as? [String: Any] ?? [:]
        let coordinates = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Any]
        // The values are judged by the rules every reader shares; a string is judged as the same text in a CSV.
        // OGC items' point has two coordinates, the depth a property.
        func coordinate(_ axis: Int) -> RowValidator.Value {
            guard let coordinates, axis < coordinates.count else { return axis == 2 ? Self.value(properties["depth"]) : .absent }
            return Self.value(coordinates[axis])
        }
        return event(
            index: index, id: Self.text(feature["id"]), isFeature: feature["type"] as? String == "Feature",
            hasCoordinates: coordinates != nil,
            check: {
                validator.check(time: Self.value(properties["time"]), latitude: coordinate(1), longitude: coordinate(0),
                                depth: coordinate(2), magnitude: Self.value(properties["mag"]),
                                updated: Self.value(properties["updated"]))
            },
            texts: {
                Texts(network: Self.text(properties["net"]), code: Self.text(properties["code"]),
                      magnitudeType: Self.text(properties["magType"]), place: Self.text(properties["place"]),
                      eventType: Self.text(properties["type"]), status: Self.text(properties["status"]))
            },
            details: {
                guard decodesDetails else { return .success(EventDetails()) }
                return Self.details { field in Self.detailValue(field, properties[Self.propertyNames[Int(field.rawValue)]]) }
            },
            mechanism: { Self.mechanism(properties["products"]) })
    }

    /// A feature as an event, or the first thing wrong with it, judged in one order however it was read:
    /// its type, its coordinates, the validator's fields, its details in schema order, then its mechanism.
    private func event(index: Int, id: String?, isFeature: Bool, hasCoordinates: Bool,
                       check: () -> Result<RowValidator.Checked, RowValidator.Problem>,
                       texts: () -> Texts,
                       details: () -> Result<EventDetails, PropertyProblem>,
                       mechanism: () -> Result<FocalMechanism?, PropertyProblem>) -> Result<SeismicEvent, FeedRejection> {
        func reject(_ property: String?, _ shown: String?, _ reason: String) -> Result<SeismicEvent, FeedRejection> {
            .failure(FeedRejection(source: source, location: .feature(index, id: id), column: property,
                                   value: shown, reason: reason))
        }
        guard isFeature else { return reject(nil, nil, "is not a GeoJSON Feature") }
        guard hasCoordinates else { return reject("geometry.coordinates", nil, "is missing") }
        let row: RowValidator.Checked
        switch check() {
        case .success(let checked): row = checked
        case .failure(let problem): return reject(Self.property(problem.field), problem.shown, problem.reason)
        }
        let texts = texts()
        let eventDetails: EventDetails
        switch details() {
        case .success(let value): eventDetails = value
        case .failure(let problem): return reject(problem.property, problem.value, problem.reason)
        }
        let focalMechanism: FocalMechanism?
        switch mechanism() {
        case .success(let value): focalMechanism = value
        case .failure(let problem): return reject(problem.property, problem.value, problem.reason)
        }
        return .success(SeismicEvent(
            id: RowValidator.identifier(id: id, network: texts.network, code: texts.code),
            time: row.time,
            latitude: row.latitude,
            longitude: row.longitude,
            depth: row.depth,
            magnitude: row.magnitude,
            magnitudeType: texts.magnitudeType,
            place: texts.place ?? "",
            eventType: texts.eventType ?? "earthquake",
            network: texts.network,
            updated: row.updated,
            status: texts.status,
            mechanism: focalMechanism,
            details: eventDetails
        ))
    }

    /// The details of a feature whose property of each field `value` gives, judged by ``FieldText``
    /// in schema order (the order ``EventDetails`` appends in), or the first one refused.
    private static func details(
        _ value: (EventField) -> Result<EventValue?, RowValidator.QuantityRefusal>
    ) -> Result<EventDetails, PropertyProblem> {
        var details = EventDetails()
        for field in EventField.detailFields {
            switch value(field) {
            case .success(let value?): details.append(field, value)
            case .success(nil): continue
            case .failure(let refusal):
                return .failure(PropertyProblem(property: propertyNames[Int(field.rawValue)], value: refusal.shown,
                                                reason: refusal.reason))
            }
        }
        // At their exact size: a server keeps every event's (the CSV decoder's rule).
        return .success(details.compacted())
    }

    /// A detail's JSON value as the in-place reader reads it: a string as its text, a number as
    /// its value (a text field's as its text). Values that reader leaves to this path: for a text
    /// field anything else (`true`, an array) is nothing, as for a core one; for another field
    /// it is judged as a core number's is (`true` as 1, an array as its text, refused).
    private static func detailValue(_ field: EventField, _ value: Any?) -> Result<EventValue?, RowValidator.QuantityRefusal> {
        switch value {
        case nil, is NSNull: return .success(nil)
        case let string as String: return FieldText.value(field, text: string)
        case let other?:
            let isText = field.kind == .text
            if let number = number(other), !(isText && ObjectIdentifier(type(of: other)) == booleanType) {
                return FieldText.value(field, number: number)
            }
            return isText ? .success(nil) : FieldText.value(field, text: "\(other)")
        }
    }

    /// The type of Foundation's JSON `true` and `false`: a number too, but not a text's.
    private static let booleanType = ObjectIdentifier(type(of: NSNumber(value: true) as Any))

    /// Each field's property in a feature, by `rawValue`: its USGS name, else its canonical one.
    private static let propertyNames = EventField.allCases.map { $0.spec.geoJSONProperty ?? $0.spec.name }

    /// Why a property (a detail, or a product's) is refused.
    private struct PropertyProblem: Error {
        let property: String
        let value: String?
        let reason: String
    }

    /// The mechanism of a detail document's `products`: of its `moment-tensor` products the one
    /// with the highest `preferredWeight` (ComCat's own choice), else of its `focal-mechanism`
    /// products; their properties are strings (`"tensor-mrr": "1.2e+18"`, N·m), a plane's rake
    /// `nodal-plane-1-rake` or, in older products, `nodal-plane-1-slip`.
    private static func mechanism(_ value: Any?) -> Result<FocalMechanism?, PropertyProblem> {
        guard let products = value as? [String: Any] else { return .success(nil) }
        for type in ["moment-tensor", "focal-mechanism"] {
            let list = (products[type] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
            guard let (index, product) = list.enumerated().max(by: { lhs, rhs in
                (number(lhs.element["preferredWeight"]) ?? 0) < (number(rhs.element["preferredWeight"]) ?? 0)
            }) else { continue }
            let properties = product["properties"] as? [String: Any] ?? [:]
            let path = "products.\(type)[\(index)].properties."
            func read(_ key: String, within range: ClosedRange<Double>? = nil) throws -> Double? {
                guard let raw = properties[key], !(raw is NSNull) else { return nil }
                let text = (raw as? String) ?? number(raw).map(RowValidator.numberText) ?? "\(raw)"
                switch RowValidator.quantity(text, within: range) {
                case .success(let value): return value
                case .failure(let refusal): throw PropertyProblem(property: path + key, value: refusal.shown, reason: refusal.reason)
                }
            }
            do {
                var planes: [NodalPlane] = []
                for plane in 1...2 {
                    let prefix = "nodal-plane-\(plane)-"
                    let strike = try read(prefix + "strike", within: Mechanisms.strikes)
                    let dip = try read(prefix + "dip", within: Mechanisms.dips)
                    let rake = try read(prefix + "rake", within: Mechanisms.rakes)
                        ?? (try read(prefix + "slip", within: Mechanisms.rakes))
                    guard let strike, let dip, let rake else { continue }
                    planes.append(NodalPlane(strike: strike, dip: dip, rake: rake))
                }
                let components = try ["mrr", "mtt", "mpp", "mrt", "mrp", "mtp"].map { try read("tensor-" + $0) }
                let tensor = components.allSatisfy({ $0 != nil })
                    ? MomentTensor(rr: components[0]!, tt: components[1]!, pp: components[2]!, rt: components[3]!,
                                   rp: components[4]!, tp: components[5]!) : nil
                let moment = try read("scalar-moment").flatMap { $0 > 0 ? $0 : nil }
                guard !planes.isEmpty || tensor != nil else { continue }
                return .success(FocalMechanism(nodalPlanes: planes, tensor: tensor, scalarMoment: moment))
            } catch let problem as PropertyProblem {
                return .failure(problem)
            } catch {
                return .failure(PropertyProblem(property: path, value: nil, reason: "\(error)"))
            }
        }
        return .success(nil)
    }

    /// Where a field the validator refused is, as messages name it.
    private static func property(_ field: RowValidator.Field) -> String {
        switch field {
        case .time, .date: "time"
        case .latitude: "latitude"
        case .longitude: "longitude"
        case .depth: "depth"
        case .magnitude: "mag"
        case .updated: "updated"
        }
    }

    /// A JSON value as the validator takes it: a number as its value, anything else but `null` as its text.
    private static func value(_ value: Any?) -> RowValidator.Value {
        switch value {
        case nil, is NSNull: return .absent
        case let string as String: return .string(string)
        case let other?: return number(other).map(RowValidator.Value.number) ?? .string("\(other)")
        }
    }

    /// A JSON number, however Foundation hands it over.
    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let number as NSNumber: return number.doubleValue
        case let double as Double: return double
        case let integer as Int: return Double(integer)
        default: return nil
        }
    }

    /// `metadata.title` as one line of at most ``FeedSummary/maximumTitleLength`` characters, or `nil`.
    package static func title(_ value: Any?) -> String? {
        guard let text = value as? String else { return nil }
        let words = text.withoutByteOrderMarks
            .split(whereSeparator: { $0.isWhitespace || $0.unicodeScalars.allSatisfy { $0.properties.generalCategory == .control } })
        let line = words.joined(separator: " ")
        guard !line.isEmpty else { return nil }
        let limit = FeedSummary.maximumTitleLength
        return line.count <= limit ? line : String(line.prefix(limit - 1)) + "…"
    }

    /// A descriptive property's text, kept by the rule every reader shares.
    private static func text(_ value: Any?) -> String? {
        RowValidator.text(value as? String)
    }
}

