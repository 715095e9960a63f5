import Foundation
// Internal: no client of QuakeWrite loads ZIPFoundation (and the CoreFoundation it imports) through it.
internal import ZIPFoundation

/// KMZ: a KML document as `doc.kml`, the first (here the only) entry of a zip archive, deflated,
/// which is what Google Earth opens. The zip is ZIPFoundation's, in memory.
package enum KMZArchive {
    /// The name Google Earth looks for first.
    package static let entryName = "doc.kml"

    /// `kml` packed as a KMZ archive; `modified` is the entry's time (the newest event's, say,
    /// so that the same selection packs to the same bytes).
    ///
    /// - Throws: ``WriteError/encodingFailed(format:status:)`` when ZIPFoundation fails (out of memory).
    package static func pack(_ kml: [UInt8], modified: Date = Date()) throws -> Data {
        do {
            let archive = try Archive(accessMode: .create)
            try archive.addEntry(with: entryName, type: .file, uncompressedSize: Int64(kml.count), modificationDate: modified,
                                 compressionMethod: .deflate) { position, size in
                Data(kml[Int(position)..<Int(position) + size])
            }
            guard let data = archive.data else { throw WriteError.encodingFailed(format: "KMZ", status: -1) }
            return data
        } catch let error as WriteError {
            throw error
        } catch {
            throw WriteError.encodingFailed(format: "KMZ", status: -1)
        }
    }
}
