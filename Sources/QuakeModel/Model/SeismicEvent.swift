import Foundation

/// One earthquake (or other seismic event) read from a feed.
///
/// Values are resolved: coordinates are finite and in range, an empty event
/// type has become `earthquake`, and text fields are trimmed.
public struct SeismicEvent: Sendable, Hashable, Codable {
    /// The event id: network code plus event code in today's feeds
    /// (`us70008jr5`), `Src` + `Eqid` in the pre-2013 layout, and empty when the
    /// layout has no id at all.
    public var id: String
    /// The origin time, UTC.
    public var time: Date
    /// Latitude in degrees, −90…90.
    public var latitude: Double
    /// Longitude in degrees, −180…180.
    public var longitude: Double
    /// Depth in kilometres below sea level; negative above it; `nil` when the feed has none.
    public var depth: Double?
    /// The magnitude; `nil` when the feed leaves it empty (such an event cannot be drawn).
    public var magnitude: Double?
    /// The magnitude type as the feed spells it (`ml`, `mww`, `Md`…), or `nil`.
    public var magnitudeType: String?
    /// A human-readable place, e.g. `12 km NNE of Ridgecrest, CA`; empty when unknown.
    public var place: String
    /// The event type (`earthquake`, `quarry blast`, `explosion`…); never empty.
    public var eventType: String
    /// The contributing network (`us`, `ci`, `ak`…), or `nil`.
    public var network: String?
    /// When the feed last updated this event, or `nil`.
    public var updated: Date?
    /// Review status (`automatic`, `reviewed`…), or `nil`.
    public var status: String?
    /// How the fault moved, when the catalogue gives a focal mechanism or moment tensor.
    public var mechanism: FocalMechanism?
    /// Every other field the feed gave (`gap`, `rms`, `alert`, `felt`…), which programs read and
    /// set through ``subscript(_:)``.
    package var details = EventDetails()

    /// Creates an event. An empty `eventType` becomes `earthquake`.
    public init(
        id: String,
        time: Date,
        latitude: Double,
        longitude: Double,
        depth: Double? = nil,
        magnitude: Double? = nil,
        magnitudeType: String? = nil,
        place: String = "",
        eventType: String = "earthquake",
        network: String? = nil,
        updated: Date? = nil,
        status: String? = nil,
        mechanism: FocalMechanism? = nil
    ) {
        self.id = id
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.depth = depth
        self.magnitude = magnitude
        self.magnitudeType = magnitudeType
        self.place = place
        self.eventType = eventType.isEmpty ? "earthquake" : eventType
        self.network = network
        self.updated = updated
        self.status = status
        self.mechanism = mechanism
    }

    /// An event with its other fields already read (the readers' and the catalogue's).
    package init(id: String, time: Date, latitude: Double, longitude: Double, depth: Double? = nil, magnitude: Double? = nil,
                 magnitudeType: String? = nil, place: String = "", eventType: String = "earthquake", network: String? = nil,
                 updated: Date? = nil, status: String? = nil, mechanism: FocalMechanism? = nil, details: EventDetails) {
        self.init(id: id, time: time, latitude: latitude, longitude: longitude, depth: depth, magnitude: magnitude,
                  magnitudeType: magnitudeType, place: place, eventType: eventType, network: network, updated: updated,
                  status: status, mechanism: mechanism)
        self.details = details
    }

    /// The value of any field of ``EventField``, stored property or detail; `nil` when absent.
    /// Setting a stored property's field to `nil` clears it where it may be absent, and is
    /// ignored for time, latitude and longitude; an empty place is absent.
    public subscript(field: EventField) -> EventValue? {
        get {
            switch field {
            case .time: .time(time)
            case .latitude: .number(latitude)
            case .longitude: .number(longitude)
            case .depth: depth.map(EventValue.number)
            case .mag: magnitude.map(EventValue.number)
            case .magType: magnitudeType.map(EventValue.text)
            case .net: network.map(EventValue.text)
            case .id: id.isEmpty ? nil : .text(id)
            case .updated: updated.map(EventValue.time)
            case .place: place.isEmpty ? nil : .text(place)
            case .type: .text(eventType)
            case .status: status.map(EventValue.text)
            default: details[field]
            }
        }
        set {
            switch field {
            case .time: if case .time(let value) = newValue { time = value }
            case .latitude: if let value = newValue?.number { latitude = value }
            case .longitude: if let value = newValue?.number { longitude = value }
            case .depth: depth = newValue?.number
            case .mag: magnitude = newValue?.number
            case .magType: magnitudeType = newValue?.text
            case .net: network = newValue?.text
            case .id: id = newValue?.text ?? ""
            case .updated: if case .time(let value) = newValue { updated = value } else { updated = nil }
            case .place: place = newValue?.text ?? ""
            case .type: eventType = newValue?.text ?? "earthquake"
            case .status: status = newValue?.text
            default: details[field] = newValue
            }
        }
    }
}
