import QuakeModel

/// The two GeoJSON layouts quakemap writes, both of which its readers read back to the same
/// events with every field.
public enum GeoJSONLayout: String, Sendable, CaseIterable {
    /// The USGS summary feed's: coordinates `[longitude, latitude, depth km]`, times in
    /// milliseconds since 1970, the USGS properties always present (`null` when unknown).
    /// What `list --format geojson` writes.
    case usgsSummary
    /// OGC API – Features items': a two-dimensional point, `depth` a property, times in
    /// ISO 8601 UTC, the core fields always present. What the server's items are.
    case ogcItems

    /// The fields written as properties, sorted by name.
    package var propertyFields: [EventField] {
        switch self {
        case .usgsSummary: Self.usgsFields
        case .ogcItems: Self.ogcFields
        }
    }

    /// Whether `field` is written as `null` when the event has no value for it.
    package func alwaysWrites(_ field: EventField) -> Bool {
        switch self {
        case .usgsSummary: field.spec.geoJSONProperty != nil
        case .ogcItems: field.isCore
        }
    }

    private static let usgsFields = EventField.allCases
        .filter { ![.latitude, .longitude, .depth, .id].contains($0) }
        .sorted { $0.spec.name < $1.spec.name }
    private static let ogcFields = EventField.allCases
        .filter { ![.latitude, .longitude, .id].contains($0) }
        .sorted { $0.spec.name < $1.spec.name }
}
