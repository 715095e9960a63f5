import Foundation
import QuakeModel

/// Which valid rows a map's read keeps (``FeedReader/readMapRows(_:admitting:_:)``),
/// decided on the decoding threads. The selection stage builds it from its
/// filter and hands it in, so reading never names a selection.
package struct RowAdmission: Sendable {
    /// The bounds alone, when they decide (the filter reads no text): such
    /// rows become map rows straight from their numbers, with no event in
    /// between and no call of `admits`. A row without a magnitude is never kept.
    package let numeric: NumericAdmission?
    /// Whether a decoded event is kept; asked for every valid row when
    /// `numeric` is `nil`, and for GeoJSON features.
    package let admits: @Sendable (SeismicEvent) -> Bool

    package init(numeric: NumericAdmission?, admits: @escaping @Sendable (SeismicEvent) -> Bool) {
        self.numeric = numeric
        self.admits = admits
    }
}

/// Numeric bounds on a row: a region and a box, a time window, magnitude and
/// depth ranges, all inclusive. Plain values, so decoding threads share it
/// without a reference count to contend for.
package struct NumericAdmission: Sendable {
    private let region: GeoBox?
    private let bbox: GeoBox?
    private let since: Date?
    private let until: Date?
    private let magnitudes: (low: Double?, high: Double?)
    private let depths: (low: Double?, high: Double?)

    /// Bounds; `nil` leaves a value free. `region` and `bbox` must both hold.
    package init(region: GeoBox? = nil, bbox: GeoBox? = nil, since: Date? = nil, until: Date? = nil,
         minimumMagnitude: Double? = nil, maximumMagnitude: Double? = nil,
         minimumDepth: Double? = nil, maximumDepth: Double? = nil) {
        self.region = region
        self.bbox = bbox
        self.since = since
        self.until = until
        magnitudes = (minimumMagnitude, maximumMagnitude)
        depths = (minimumDepth, maximumDepth)
    }

    /// Whether `event`'s numbers pass.
    package func admits(_ event: SeismicEvent) -> Bool {
        admits(latitude: event.latitude, longitude: event.longitude, time: event.time, magnitude: event.magnitude,
               depth: event.depth)
    }

    /// Whether an event with these values passes; a bound on a value the
    /// event lacks (no magnitude, no depth) is not passed.
    package func admits(latitude: Double, longitude: Double, time: Date, magnitude: Double?, depth: Double?) -> Bool {
        if let region, !region.contains(latitude: latitude, longitude: longitude) { return false }
        if let bbox, !bbox.contains(latitude: latitude, longitude: longitude) { return false }
        if let since, time < since { return false }
        if let until, time > until { return false }
        return Self.within(magnitude, magnitudes) && Self.within(depth, depths)
    }

    private static func within(_ value: Double?, _ bounds: (low: Double?, high: Double?)) -> Bool {
        guard bounds.low != nil || bounds.high != nil else { return true }
        guard let value else { return false }
        if let low = bounds.low, value < low { return false }
        if let high = bounds.high, value > high { return false }
        return true
    }
}
