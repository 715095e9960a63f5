import Foundation
import QuakeModel

/// Reads the USGS GeoJSON summary feed: a `FeatureCollection` whose features
/// carry `geometry.coordinates` = [lon, lat, depth] and `properties` with
/// `mag`, `time` and `updated` (epoch milliseconds), `place`, `type`…, any of
/// which may be `null`; `metadata.generated` is the feed's own time.
///
/// Foundation's `JSONSerialization` does the parsing; this type only maps and
/// checks values, with the same rules and messages as the CSV reader.
package struct GeoJSONFeedDecoder {
    package let source: String
    package let options: FeedOptions

    /// Largest GeoJSON document read into memory (USGS's largest feed is ~10 MB).
    package static let maximumBytes = 512 << 20

    /// Epoch milliseconds of the years 0001–9999, the times ISO 8601 can write.
    package static let representableMilliseconds = -62_135_596_800_000.0...253_402_300_799_999.0

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
        let now = options.now ?? Date()
        for (offset, feature) in features.enumerated() {
            summary.rows += 1
            switch decodeFeature(feature, index: offset + 1, now: now) {
            case .success(let event):
                if event.magnitude == nil { summary.withoutMagnitude += 1 } else { summary.events += 1 }
                try body(event)
            case .failure(let rejection):
                try summary.record(rejection, options: options)
            }
        }
    }

    private func decodeFeature(_ value: Any, index: Int, now: Date) -> Result<SeismicEvent, FeedRejection> {
        let feature = value as? [String: Any] ?? [:]
        let id = feature["id"] as? String
        func reject(_ property: String?, _ shown: Any?, _ reason: String) -> Result<SeismicEvent, FeedRejection> {
            .failure(FeedRejection(source: source, location: .feature(index, id: id), column: property,
                                   value: shown.map { "\($0)" }, reason: reason))
        }
        guard feature["type"] as? String == "Feature" else { return reject(nil, nil, "is not a GeoJSON Feature") }
        let properties = feature["properties"] as? [String: Any] ?? [:]
        let geometry = feature["geometry"] as? [String: Any]
        guard let coordinates = geometry?["coordinates"] as? [Any] else {
            return reject("geometry.coordinates", nil, "is missing")
        }

        let time: Date
        switch Self.time(properties["time"]) {
        case .success(nil): return reject("time", nil, "is missing")
        case .success(let parsed?): time = parsed
        case .failure(let problem): return reject("time", problem.shown, problem.reason)
        }

        var position: [Double] = []
        for (axis, name) in ["longitude", "latitude"].enumerated() {
            guard axis < coordinates.count, !(coordinates[axis] is NSNull) else { return reject(name, nil, "is missing") }
            guard let value = Self.number(coordinates[axis]) else { return reject(name, coordinates[axis], "is not a number") }
            if let problem = CoordinateRange.problem(value, limit: axis == 0 ? 180 : 90) {
                return reject(name, value, problem)
            }
            position.append(value)
        }
        var depth: Double?
        if coordinates.count > 2, !(coordinates[2] is NSNull) {
            guard let value = Self.number(coordinates[2]), value.isFinite else { return reject("depth", coordinates[2], "is not a number") }
            depth = value
        }
        var magnitude: Double?
        if let raw = properties["mag"], !(raw is NSNull) {
            guard let value = Self.number(raw), value.isFinite else { return reject("mag", raw, "is not a number") }
            magnitude = value
        }
        if let depth, let problem = Plausibility.depthProblem(depth) { return reject("depth", depth, problem) }
        if let magnitude, let problem = Plausibility.magnitudeProblem(magnitude) { return reject("mag", magnitude, problem) }
        if let problem = Plausibility.timeProblem(time, now: now) {
            return reject("time", CivilTime.iso8601(time), problem)
        }
        // As in the CSV and QuakeML readers: absent or empty is no update; anything else must be a time.
        let updated: Date?
        switch Self.time(properties["updated"]) {
        case .success(let parsed): updated = parsed
        case .failure(let problem): return reject("updated", problem.shown, problem.reason)
        }
        return .success(SeismicEvent(
            id: id ?? (properties["code"] as? String).map { (properties["net"] as? String ?? "") + $0 } ?? "",
            time: time,
            latitude: position[1],
            longitude: position[0],
            depth: depth,
            magnitude: magnitude,
            magnitudeType: Self.text(properties["magType"]),
            place: Self.text(properties["place"]) ?? "",
            eventType: Self.text(properties["type"]) ?? "earthquake",
            network: Self.text(properties["net"]),
            updated: updated,
            status: Self.text(properties["status"])
        ))
    }

    /// Why a property's value is not a time, and the value as shown.
    private struct TimeProblem: Error {
        let shown: String
        let reason: String
    }

    /// A time property: ISO 8601 text or epoch milliseconds; `nil` when absent, `null` or blank.
    private static func time(_ value: Any?) -> Result<Date?, TimeProblem> {
        switch value {
        case nil, is NSNull:
            return .success(nil)
        case let text as String:
            if let parsed = TimeParser.parse(ArraySlice(text.utf8)) { return .success(parsed) }
            return text.trimmingBlanks().isEmpty ? .success(nil) : .failure(TimeProblem(shown: text, reason: "is not a time"))
        case let other?:
            guard let milliseconds = number(other), milliseconds.isFinite else {
                return .failure(TimeProblem(shown: "\(other)", reason: "is not a time in epoch milliseconds"))
            }
            // The years 0001…9999, as ISO 8601 writes them; anything else is garbage, not a date.
            guard representableMilliseconds.contains(milliseconds) else {
                return .failure(TimeProblem(shown: "\(other)", reason: "is outside the years 0001…9999"))
            }
            return .success(Date(timeIntervalSince1970: milliseconds / 1000))
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

    private static func text(_ value: Any?) -> String? {
        guard let text = value as? String else { return nil }
        let trimmed = text.withoutByteOrderMarks.trimmingBlanks()
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// The range check shared by every reader.
package enum CoordinateRange {
    /// Why `value` cannot be a latitude (`limit` 90) or longitude (`limit` 180), or `nil`.
    package static func problem(_ value: Double, limit: Double) -> String? {
        guard value.isFinite else { return "is not a finite number" }
        return abs(value) <= limit ? nil : "is outside -\(Int(limit))…\(Int(limit))"
    }
}
