import CBasemapData
import QuakeModel

/// The built-in land: Natural Earth polygons compiled in as compact bytes (module
/// `CBasemapData`, generated from `Data/basemap/*.geojson` by `scripts/embed_basemap.py`,
/// which describes the format), so no file has to be found and no JSON parsed at run time.
package enum EmbeddedLand {
    /// Natural Earth 1:110m land, as bytes.
    package static var land110m: UnsafeBufferPointer<UInt8> {
        var count = 0
        return UnsafeBufferPointer(start: qm_land_110m(&count), count: count)
    }

    /// Natural Earth 1:10m land simplified to 0.05°, as bytes.
    package static var land10m: UnsafeBufferPointer<UInt8> {
        var count = 0
        return UnsafeBufferPointer(start: qm_land_10m(&count), count: count)
    }

    /// The polygons in `bytes`: the magic, then varint counts and zig-zag varint
    /// deltas of milli-degrees. `Double(milli) / 1000` is the very `Double` the GeoJSON's
    /// text gives (the generator checks this for every number; a test compares the result).
    ///
    /// - Throws: ``EmbeddedLandError`` where the bytes are damaged; nothing is guessed.
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(EmbeddedLandError) -> [GeoPolygon] {
        var reader = Reader(bytes: bytes)
        guard bytes.starts(with: magic) else { throw EmbeddedLandError(offset: 0, reason: "not QMLAND1 data") }
        reader.offset = magic.count
        var longitude: Int32 = 0, latitude: Int32 = 0
        var polygons: [GeoPolygon] = []
        for _ in 0..<(try reader.count()) {
            var rings: [[GeoPoint]] = []
            for _ in 0..<(try reader.count()) {
                let points = try reader.count()
                var ring: [GeoPoint] = []
                ring.reserveCapacity(points)
                for _ in 0..<points {
                    longitude = try reader.step(longitude, limit: 180_000)
                    latitude = try reader.step(latitude, limit: 90_000)
                    ring.append(GeoPoint(longitude: Double(longitude) / 1000, latitude: Double(latitude) / 1000))
                }
                rings.append(ring)
            }
            polygons.append(GeoPolygon(rings: rings))
        }
        guard reader.offset == bytes.count else { throw EmbeddedLandError(offset: reader.offset, reason: "bytes after the last polygon") }
        return polygons
    }

    private static let magic = Array("QMLAND1".utf8)

    private struct Reader {
        package let bytes: UnsafeBufferPointer<UInt8>
        package var offset = 0

        /// An unsigned LEB128 number of at most 32 bits.
        package mutating func varint() throws(EmbeddedLandError) -> UInt32 {
            let start = offset
            var value: UInt32 = 0
            for shift in stride(from: 0, through: 28, by: 7) {
                guard offset < bytes.count else { throw EmbeddedLandError(offset: start, reason: "cut short") }
                let byte = bytes[offset]
                offset += 1
                guard shift < 28 || byte < 0x10 else { break }
                value |= UInt32(byte & 0x7F) << UInt32(shift)
                if byte < 0x80 { return value }
            }
            throw EmbeddedLandError(offset: start, reason: "a number over 32 bits")
        }

        /// A count, bounded by the bytes left (every item takes at least one), so damage
        /// cannot ask for a huge allocation.
        package mutating func count() throws(EmbeddedLandError) -> Int {
            let start = offset
            let value = Int(try varint())
            guard value <= bytes.count - offset else { throw EmbeddedLandError(offset: start, reason: "a count of \(value) with \(bytes.count - offset) bytes left") }
            return value
        }

        /// `previous` moved by the next zig-zag delta, kept within ±`limit` milli-degrees.
        package mutating func step(_ previous: Int32, limit: Int32) throws(EmbeddedLandError) -> Int32 {
            let start = offset
            let zigzag = try varint()
            let delta = Int64(Int32(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1))))
            let value = Int64(previous) + delta
            guard abs(value) <= Int64(limit) else { throw EmbeddedLandError(offset: start, reason: "a coordinate of \(value) milli-degrees") }
            return Int32(value)
        }
    }
}

/// Where and why the built-in land's bytes could not be decoded: a build that went wrong,
/// never a user's input, so ``Basemap`` stops the program rather than draw an empty map.
package struct EmbeddedLandError: Error, Equatable, CustomStringConvertible {
    /// The byte at which the damaged item starts.
    package let offset: Int
    /// What is wrong there.
    package let reason: String

    /// The place and the reason, for the message the program stops with.
    package var description: String { "byte \(offset): \(reason)" }
}
