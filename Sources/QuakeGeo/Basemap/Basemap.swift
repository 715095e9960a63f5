// Basemap/ — the land drawn under the events: the built-in Natural Earth outlines, or a GeoJSON file.

import Foundation
import QuakeModel

/// A polygon: the first ring is the outline, any further rings are holes.
public struct GeoPolygon: Sendable, Hashable {
    /// Closed rings of positions.
    package var rings: [[GeoPoint]]

    /// Creates a polygon from its rings.
    public init(rings: [[GeoPoint]]) {
        self.rings = rings
    }
}

/// The land drawn under the events.
public struct Basemap: Sendable, Hashable {
    /// Land polygons in longitude/latitude.
    package var land: [GeoPolygon]

    /// Creates a basemap from land polygons.
    public init(land: [GeoPolygon]) {
        self.land = land
    }

    /// Natural Earth's 1:110m land (public domain), built into the library so
    /// that no file needs to be found at run time.
    package static let naturalEarth110m = Basemap(builtIn: EmbeddedLand.land110m, name: "1:110m")

    /// Natural Earth's 1:10m land, simplified to 0.05° (public domain): the
    /// detail for regions and large images, also built into the library.
    package static let naturalEarthDetailed = Basemap(builtIn: EmbeddedLand.land10m, name: "1:10m")

    /// Decodes compiled-in land. Damaged bytes mean a broken build, not bad input:
    /// stop with the reason instead of quietly drawing a map without land.
    private init(builtIn bytes: UnsafeBufferPointer<UInt8>, name: String) {
        do {
            self.init(land: try EmbeddedLand.decode(bytes))
        } catch {
            fatalError("the built-in \(name) land is damaged: \(error)")
        }
    }

    /// The built-in land at the detail a map of `pixelsPerDegree` (along the
    /// equator) needs: 1:110m below 10 pixels a degree, the simplified 1:10m from there.
    package static func naturalEarth(pixelsPerDegree: Double) -> Basemap {
        needsDetail(pixelsPerDegree: pixelsPerDegree) ? naturalEarthDetailed : naturalEarth110m
    }

    /// Whether a map of `pixelsPerDegree` draws the detailed land.
    package static func needsDetail(pixelsPerDegree: Double) -> Bool { pixelsPerDegree >= 10 }

    /// Reads the `Polygon` and `MultiPolygon` geometries of a GeoJSON
    /// `FeatureCollection`, `Feature` or bare geometry; other geometries are ignored.
    ///
    /// - Parameter name: how messages name the input (a path, say).
    /// - Throws: ``BasemapError`` when the text is not GeoJSON with polygons.
    public init(geoJSON: Data, name: String) throws {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: geoJSON)
        } catch {
            throw BasemapError.notGeoJSON(source: name, reason: "not valid JSON")
        }
        var polygons: [GeoPolygon] = []
        try Self.collect(object, into: &polygons, source: name)
        self.init(land: polygons)
    }

    private static func collect(_ object: Any, into polygons: inout [GeoPolygon], source: String) throws {
        guard let dictionary = object as? [String: Any], let type = dictionary["type"] as? String else {
            throw BasemapError.notGeoJSON(source: source, reason: "an object without a \"type\"")
        }
        switch type {
        case "FeatureCollection":
            for feature in dictionary["features"] as? [Any] ?? [] {
                try collect(feature, into: &polygons, source: source)
            }
        case "Feature":
            if let geometry = dictionary["geometry"], !(geometry is NSNull) {
                try collect(geometry, into: &polygons, source: source)
            }
        case "Polygon":
            polygons.append(try polygon(dictionary["coordinates"], source: source))
        case "MultiPolygon":
            guard let parts = dictionary["coordinates"] as? [Any] else {
                throw BasemapError.notGeoJSON(source: source, reason: "a MultiPolygon without coordinates")
            }
            for part in parts { polygons.append(try polygon(part, source: source)) }
        default:
            break
        }
    }

    private static func polygon(_ coordinates: Any?, source: String) throws -> GeoPolygon {
        guard let rings = coordinates as? [[[Double]]] else {
            throw BasemapError.notGeoJSON(source: source, reason: "polygon coordinates are not arrays of [lon, lat]")
        }
        return GeoPolygon(rings: try rings.map { ring in
            try ring.map { position in
                guard position.count >= 2, position[0].isFinite, position[1].isFinite else {
                    throw BasemapError.notGeoJSON(source: source, reason: "a position without two finite numbers")
                }
                // Longitudes past ±180 are kept (some data run 0…360); a latitude past a pole is no place.
                guard abs(position[1]) <= 90, abs(position[0]) <= 540 else {
                    throw BasemapError.notGeoJSON(source: source,
                                                  reason: "position [\(position[0]), \(position[1])] is off the globe (latitude −90…90, longitude −540…540)")
                }
                return GeoPoint(longitude: position[0], latitude: position[1])
            }
        })
    }
}

/// Why a basemap could not be read.
public enum BasemapError: QuakeKitError, Equatable {
    /// The input is not GeoJSON polygons.
    case notGeoJSON(source: String, reason: String)

    /// The message.
    public var message: String {
        switch self {
        case let .notGeoJSON(source, reason): return "\(source): not a GeoJSON basemap: \(reason)"
        }
    }
}
