import Foundation
import QuakeModel

/// Reads the USGS GeoJSON summary feed: a `FeatureCollection` whose features
/// carry `geometry.coordinates` = [lon, lat, depth] and `properties` with
/// `mag`, `time` and `updated` (epoch milliseconds), `place`, `type`…, any of
/// which may be `null`; `metadata.generated` is the feed's own time.
///
/// Foundation's `JSONSerialization` does the parsing; this type only checks the
/// structure and hands each feature's values to ``RowValidator``, the judge of
/// every reader: a string where a number is expected is judged as the same text in a CSV.
package struct GeoJSONFeedDecoder {
    package let source: String
    package let options: FeedOptions

    /// Largest GeoJSON document read into memory (USGS's largest feed is ~10 MB).
    package static let maximumBytes = 512 << 20

    package func decode(_ data: Data, into summary: inout FeedSummary, _ body: (SeismicEvent) throws -> Void) throws {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw FeedError.malformedGeoJSON(source: source, reason: "the JSON is not valid")
        }
        guard let collection = root as? [String: Any], collection["type"] as? String == "FeatureCollection" else {
            throw FeedError.malformedGeoJSON(source: source, reason: "the top level is not a FeatureCollection")
        }
        guard let features = collection["features"] as? [Any] else {
            throw FeedError.malformedGeoJSON(source: source, reason: "the FeatureCollection has no \"features\" array")
        }
        if let metadata = collection["metadata"] as? [String: Any] {
            if let generated = Self.number(metadata["generated"]) {
                summary.generated = Date(timeIntervalSince1970: generated / 1000)
            }
            summary.title = Self.title(metadata["title"])
        }
        // "Now" once per feed, as the CSV reader has it: rows are judged against one instant.
        let validator = RowValidator(now: options.now ?? Date())
        for (offset, feature) in features.enumerated() {
            summary.rows += 1
            switch decodeFeature(feature, index: offset + 1, validator: validator) {
            case .success(let event):
                if event.magnitude == nil { summary.withoutMagnitude += 1 } else { summary.events += 1 }
                try body(event)
            case .failure(let rejection):
                try summary.record(rejection, options: options)
            }
        }
    }

    private func decodeFeature(_ value: Any, index: Int, validator: RowValidator) -> Result<SeismicEvent, FeedRejection> {
        let feature = value as? [String: Any] ?? [:]
        let id = RowValidator.text(feature["id"] as? String)
        func reject(_ property: String?, _ shown: String?, _ reason: String) -> Result<SeismicEvent, FeedRejection> {
            .failure(FeedRejection(source: source, location: .feature(index, id: id), column: property,
                                   value: shown, reason: reason))
        }
        guard feature["type"] as? String == "Feature" else { return reject(nil, nil, "is not a GeoJSON Feature") }
        let properties = feature["properties"] as? [String: Any] ?? [:]
        let geometry = feature["geometry"] as? [String: Any]
        guard let coordinates = geometry?["coordinates"] as? [Any] else {
            return reject("geometry.coordinates", nil, "is missing")
        }
        // The values are judged by the rules every reader shares; a string is judged as the same text in a CSV.
        func coordinate(_ axis: Int) -> RowValidator.Value { axis < coordinates.count ? Self.value(coordinates[axis]) : .absent }
        let row: RowValidator.Checked
        switch validator.check(time: Self.value(properties["time"]), latitude: coordinate(1), longitude: coordinate(0),
                               depth: coordinate(2), magnitude: Self.value(properties["mag"]),
                               updated: Self.value(properties["updated"])) {
        case .success(let checked): row = checked
        case .failure(let problem): return reject(Self.property(problem.field), problem.shown, problem.reason)
        }
        let network = Self.text(properties["net"])
        return .success(SeismicEvent(
            id: RowValidator.identifier(id: id, network: network, code: Self.text(properties["code"])),
            time: row.time,
            latitude: row.latitude,
            longitude: row.longitude,
            depth: row.depth,
            magnitude: row.magnitude,
            magnitudeType: Self.text(properties["magType"]),
            place: Self.text(properties["place"]) ?? "",
            eventType: Self.text(properties["type"]) ?? "earthquake",
            network: network,
            updated: row.updated,
            status: Self.text(properties["status"])
        ))
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

