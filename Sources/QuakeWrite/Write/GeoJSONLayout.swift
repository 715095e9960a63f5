import QuakeModel

/// The two GeoJSON layouts quakemap writes, both of which its readers read back to the same
/// events with every field.
package enum GeoJSONLayout: String, Sendable, CaseIterable {
    /// The USGS summary feed's: coordinates `[longitude, latitude, depth km]`, times in
    /// milliseconds since 1970, the USGS properties always present (`null` when unknown).
    /// What `list --format geojson` writes.
    case usgsSummary
    /// OGC API – Features items': a two-dimensional point, `depth` a property, times in
    /// ISO 8601 UTC, the core fields always present. What the server's items are.
    case ogcItems

    /// The properties' keys, sorted: every field but the position (and the depth, in the USGS
    /// layout's coordinates) and the id; the USGS layout writes its own properties as `null` when
    /// absent, the OGC layout the core fields.
    package var keys: [EventLineEncoder.MemberKey] {
        switch self {
        case .usgsSummary: Self.usgsKeys
        case .ogcItems: Self.ogcKeys
        }
    }

    private static let usgsKeys = EventLineEncoder.memberKeys(
        EventField.allCases.filter { ![.latitude, .longitude, .depth, .id].contains($0) }) { $0.spec.geoJSONProperty != nil }
    private static let ogcKeys = EventLineEncoder.memberKeys(
        EventField.allCases.filter { ![.latitude, .longitude, .id].contains($0) }) { $0.isCore }
}
