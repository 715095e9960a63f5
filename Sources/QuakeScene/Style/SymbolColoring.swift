import Foundation
import QuakeModel
import QuakeParse

/// What a circle's colour tells; its size always tells the magnitude.
public enum SymbolColoring: Sendable, Hashable {
    /// Yellow for small events to red from about M8.2 (`fill(magnitude:)`).
    case magnitude
    /// Depth bands, shallow to deep: red, orange, yellow, green, blue, purple — the
    /// long-standing USGS convention.
    case depth
    /// Time before `reference` (default: the feed's generation time, else the
    /// latest event): past hour red, past day orange, past week yellow, older white,
    /// as the USGS real-time map shows it.
    case age(reference: Date?)
    /// The PAGER alert level in PAGER's colours (green, yellow, orange, red); events
    /// without one grey, as a class of their own ("none").
    case alert

    /// One band of a colour scale: what it covers, and its colour.
    package struct Band: Sendable, Hashable {
        /// The legend's text, e.g. `0–33 km` or `past hour`.
        package var label: String
        /// The fill.
        package var fill: RGBA
        /// The band holds values up to (not including) this bound.
        package var upperBound: Double
    }

    package static let opacity = 0.75

    /// The colouring a name gives, as `--color` and the server's `color` take it:
    /// `magnitude`, `depth`, or `age` (relative to the feed's own time, so a
    /// redraw gives the same picture); `nil` for any other name.
    package init?(named name: String) {
        switch name {
        case "magnitude": self = .magnitude
        case "depth": self = .depth
        case "age": self = .age(reference: nil)
        case "alert": self = .alert
        default: return nil
        }
    }

    /// The names ``init(named:)`` takes.
    package static let names = ["magnitude", "depth", "age", "alert"]

    /// The name ``init(named:)`` takes for this colouring.
    package var name: String {
        switch self {
        case .magnitude: "magnitude"
        case .depth: "depth"
        case .age: "age"
        case .alert: "alert"
        }
    }

    /// The colour scale a legend shows; none for magnitude (the size tells it too).
    package var bands: [Band] {
        switch self {
        case .magnitude: []
        case .depth: Self.depthBands
        case .age: Self.ageBands
        case .alert: Self.alertBands
        }
    }

    /// The heading over ``bands`` in a legend.
    package var legendHeading: String {
        switch self {
        case .magnitude: ""
        case .depth: "Depth"
        case .age: "Age"
        case .alert: "PAGER alert"
        }
    }

    /// Whether drawing needs fields beyond a map event's own position, time and magnitude (the
    /// alert level is a detail of the event, which a map's read otherwise skips).
    package var readsDetails: Bool {
        if case .alert = self { return true }
        return false
    }

    /// Depth bands in kilometres; a negative depth (above sea level) is shallow.
    package static let depthBands: [Band] = [
        Band(label: "0–33 km", fill: RGBA(hex: 0xE8402B, alpha: opacity), upperBound: 33),
        Band(label: "33–70 km", fill: RGBA(hex: 0xF39322, alpha: opacity), upperBound: 70),
        Band(label: "70–150 km", fill: RGBA(hex: 0xF5D63D, alpha: opacity), upperBound: 150),
        Band(label: "150–300 km", fill: RGBA(hex: 0x3DBE6B, alpha: opacity), upperBound: 300),
        Band(label: "300–500 km", fill: RGBA(hex: 0x3B8FE0, alpha: opacity), upperBound: 500),
        Band(label: "≥ 500 km", fill: RGBA(hex: 0xA15CD6, alpha: opacity), upperBound: .infinity),
    ]

    /// PAGER's alert levels by ``PagerAlert`` raw value (none, green, yellow, orange, red), in PAGER's colours.
    package static let alertBands: [Band] = [
        Band(label: "none", fill: RGBA(hex: 0xA0A0A0, alpha: opacity), upperBound: 1),
        Band(label: "green", fill: RGBA(hex: 0x00B04F, alpha: opacity), upperBound: 2),
        Band(label: "yellow", fill: RGBA(hex: 0xFFFF00, alpha: opacity), upperBound: 3),
        Band(label: "orange", fill: RGBA(hex: 0xFF9900, alpha: opacity), upperBound: 4),
        Band(label: "red", fill: RGBA(hex: 0xFF0000, alpha: opacity), upperBound: .infinity),
    ]

    /// Age bands in seconds before the reference time.
    package static let ageBands: [Band] = [
        Band(label: "past hour", fill: RGBA(hex: 0xE31A1C, alpha: opacity), upperBound: 3600),
        Band(label: "past day", fill: RGBA(hex: 0xFD8D3C, alpha: opacity), upperBound: 86_400),
        Band(label: "past week", fill: RGBA(hex: 0xFED976, alpha: opacity), upperBound: 7 * 86_400),
        Band(label: "older", fill: RGBA(hex: 0xF0F0F0, alpha: opacity), upperBound: .infinity),
    ]

    /// The fill of a drawn event; `reference` is the resolved "now" of `.age`.
    package func fill(for event: MapEvent, style: MagnitudeStyle, reference: Date) -> RGBA {
        switch self {
        case .magnitude:
            return style.fill(magnitude: event.magnitude)
        case .depth:
            return Self.band(Self.depthBands, event.depth ?? 0).fill
        case .age:
            return Self.band(Self.ageBands, reference.timeIntervalSince(event.time)).fill
        case .alert:
            return Self.alertBands[Int(event.alert.rawValue)].fill
        }
    }

    /// "Now" for `.age`: as given, else the feed's time, else the latest
    /// event. The other colourings use none, and get the epoch without a scan.
    package func referenceTime(for events: [MapEvent], feedGenerated: Date?) -> Date {
        guard case .age(let reference) = self else { return Date(timeIntervalSince1970: 0) }
        return reference ?? feedGenerated ?? events.lazy.map(\.time).max() ?? Date(timeIntervalSince1970: 0)
    }

    /// This colouring with `.age`'s reference fixed, for drawing the same
    /// events many times (a pyramid's zooms) with one reference worked out once.
    package func resolved(for events: [MapEvent], feedGenerated: Date?) -> SymbolColoring {
        guard case .age = self else { return self }
        return .age(reference: referenceTime(for: events, feedGenerated: feedGenerated))
    }

    package static func band(_ bands: [Band], _ value: Double) -> Band {
        bands.first { value < $0.upperBound } ?? bands[bands.count - 1]
    }
}
