import Foundation

/// A longitude/latitude box, edges inclusive. When `west` > `east` the box
/// crosses the antimeridian: `GeoBox(west: 120, south: -60, east: -60, north: 60)`
/// is the Pacific.
public struct GeoBox: Sendable, Hashable {
    /// Western edge, −180…180.
    public let west: Double
    /// Southern edge, −90…90.
    public let south: Double
    /// Eastern edge, −180…180.
    public let east: Double
    /// Northern edge, −90…90, not below `south`.
    public let north: Double

    /// The whole world.
    package static let world = GeoBox(uncheckedWest: -180, south: -90, east: 180, north: 90)

    /// Creates a box, checking its edges.
    ///
    /// - Throws: ``GeoBoxError`` when an edge is out of range, `south` > `north`,
    ///   or `west` = `east` (a box with no width).
    public init(west: Double, south: Double, east: Double, north: Double) throws {
        for (name, value, limit) in [("west", west, 180.0), ("east", east, 180), ("south", south, 90), ("north", north, 90)] {
            guard value.isFinite, abs(value) <= limit else {
                throw GeoBoxError(message: "\(name) edge \(value) is outside -\(Int(limit))…\(Int(limit))")
            }
        }
        guard south < north else { throw GeoBoxError(message: "south \(south) must be below north \(north)") }
        guard west != east else { throw GeoBoxError(message: "west and east are both \(west): the box has no width") }
        // 180 and −180 are one meridian: such a box, however written, has no width either.
        guard !(west == 180 && east == -180) else {
            throw GeoBoxError(message: "west 180 and east -180 are the same meridian: the box has no width")
        }
        self.init(uncheckedWest: west, south: south, east: east, north: north)
    }

    package init(uncheckedWest west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// Reads `W,S,E,N`, as `--region` and `--bbox` take it.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 4 else {
            throw GeoBoxError(message: "'\(text)' is not W,S,E,N (four numbers separated by commas)")
        }
        var values: [Double] = []
        for (name, part) in zip(["W", "S", "E", "N"], parts) {
            guard let value = Double(part), value.isFinite, !part.lowercased().hasPrefix("0x") else {
                throw GeoBoxError(message: "\(name) '\(part)' is not a number")
            }
            values.append(value)
        }
        try self.init(west: values[0], south: values[1], east: values[2], north: values[3])
    }

    /// Whether the box crosses the antimeridian.
    package var crossesAntimeridian: Bool { west > east }

    /// Degrees of longitude covered, 0…360.
    package var longitudeSpan: Double { crossesAntimeridian ? east - west + 360 : east - west }

    /// Degrees of latitude covered.
    package var latitudeSpan: Double { north - south }

    /// Whether a position lies inside (edges included).
    package func contains(latitude: Double, longitude: Double) -> Bool {
        guard latitude >= south, latitude <= north else { return false }
        if longitudeSpan >= 360 { return true }
        return crossesAntimeridian ? (longitude >= west || longitude <= east) : (longitude >= west && longitude <= east)
    }
}

/// Why a box is not valid.
public struct GeoBoxError: QuakeKitError, Equatable {
    /// The message.
    public let message: String
}
