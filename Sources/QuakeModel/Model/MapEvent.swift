import Foundation

/// What a map needs of an event, and nothing more: a quarter of the memory of
/// a ``SeismicEvent``, so a million of them fit in about 56 MB. ``SceneBuilder``
/// draws these (``SceneBuilder`` (`scene(for:)` takes either kind of event)); ``QuakeMap/select(from:feed:selection:as:)`` collects them
/// straight from a feed.
public struct MapEvent: Sendable, Hashable {
    /// The event id (empty when the feed has none).
    public var id: String
    /// Origin time.
    public var time: Date
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// The magnitude; an event without one is not drawn, so it has no `MapEvent`.
    public var magnitude: Double
    // Depth in km as a Float, NaN when unknown: depths are given to a metre at best.
    private var storedDepth: Float
    /// Whether the feed calls it an earthquake (``EventType/normalized(_:)``
    /// gives `earthquake`: an empty type or `eq` too); quarry blasts,
    /// explosions, ice quakes and the like are not, and are drawn with their
    /// own symbol. Kept in the padding after the depth.
    package var isEarthquake: Bool
    /// The PAGER alert level, for `--color alert`; kept in the padding too.
    package var alert: PagerAlert
    /// The focal mechanism, for a beachball (one pointer: the stride is 64 bytes).
    package var mechanism: FocalMechanism?

    /// Depth in km, if known (kept to Float precision: far finer than any feed gives it).
    public var depth: Double? {
        get { storedDepth.isNaN ? nil : Double(storedDepth) }
        set { storedDepth = newValue.map(Float.init) ?? .nan }
    }

    /// Creates a map event; an earthquake unless `isEarthquake` says otherwise.
    package init(id: String, time: Date, latitude: Double, longitude: Double, magnitude: Double, depth: Double? = nil,
                isEarthquake: Bool = true, mechanism: FocalMechanism? = nil, alert: PagerAlert = .none) {
        self.id = id
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.magnitude = magnitude
        self.storedDepth = depth.map(Float.init) ?? .nan
        self.isEarthquake = isEarthquake
        self.mechanism = mechanism
        self.alert = alert
    }

    /// The drawable part of `event`; `nil` when it has no magnitude.
    public init?(_ event: SeismicEvent) {
        guard let magnitude = event.magnitude else { return nil }
        self.init(id: event.id, time: event.time, latitude: event.latitude, longitude: event.longitude,
                  magnitude: magnitude, depth: event.depth,
                  isEarthquake: EventType.isEarthquake(event.eventType), mechanism: event.mechanism,
                  alert: PagerAlert(event.details[.alert]?.text))
    }

    public static func == (lhs: MapEvent, rhs: MapEvent) -> Bool {
        lhs.id == rhs.id && lhs.time == rhs.time && lhs.latitude == rhs.latitude && lhs.longitude == rhs.longitude
            && lhs.magnitude == rhs.magnitude && lhs.depth == rhs.depth && lhs.isEarthquake == rhs.isEarthquake
            && lhs.mechanism == rhs.mechanism && lhs.alert == rhs.alert
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(time)
        hasher.combine(latitude)
        hasher.combine(longitude)
        hasher.combine(magnitude)
        hasher.combine(depth)
        hasher.combine(isEarthquake)
        hasher.combine(mechanism)
        hasher.combine(alert)
    }
}

/// The USGS PAGER alert levels, in rising order; `none` for an event without one.
package enum PagerAlert: UInt8, Sendable, Hashable, CaseIterable {
    case none, green, yellow, orange, red

    /// The level a feed's `alert` text names (any case); `none` for no text or another word.
    package init(_ text: String?) {
        switch text?.lowercased() {
        case "green": self = .green
        case "yellow": self = .yellow
        case "orange": self = .orange
        case "red": self = .red
        default: self = .none
        }
    }
}
