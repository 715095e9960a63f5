/// A place on the Earth: longitude and latitude in degrees.
public struct GeoPoint: Sendable, Hashable, Codable {
    /// Degrees east, −180…180.
    public var longitude: Double
    /// Degrees north, −90…90.
    public var latitude: Double

    /// Creates a point (not checked: a profile or a polygon checks what it needs).
    public init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }
}
