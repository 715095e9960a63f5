import Foundation
import QuakeKit

/// Writes an FDSN answer an event at a time, in its format: QuakeML 1.2 (the events as
/// ``QuakeMLEncoder`` writes them, which ``FeedReader`` and ObsPy read back to the same
/// fields), FDSN text (its columns, ``EventLineEncoder``), or GeoJSON (the items' features,
/// every field of the schema), with the document's opening and closing around them.
struct FDSNEncoder: Sendable {
    let format: FDSNEventQuery.Format
    private let lines = EventLineEncoder(format: .text)
    private let itemPrefix: [UInt8]

    init(format: FDSNEventQuery.Format, base: String) {
        self.format = format
        itemPrefix = FeatureBytes.itemPrefix(base: base)
    }

    func appendOpening(to out: inout [UInt8]) {
        switch format {
        case .xml: out.append(contentsOf: QuakeMLEncoder.header.utf8)
        case .text: lines.appendOpening(to: &out)
        case .geojson: out.append(contentsOf: #"{"type":"FeatureCollection","features":["#.utf8)
        }
    }

    func append(_ event: SeismicEvent, index: Int, to out: inout [UInt8]) {
        switch format {
        case .xml: QuakeMLEncoder().append(event, to: &out)
        case .text: lines.append(event, to: &out)
        case .geojson:
            if index > 0 { out.append(UInt8(ascii: ",")) }
            FeatureBytes.append(event, itemPrefix: itemPrefix, moreLinks: [], to: &out)
        }
    }

    /// The closing; GeoJSON's metadata (as the USGS writes it) comes last, when the count is known.
    func appendClosing(count: Int, url: String, to out: inout [UInt8]) {
        switch format {
        case .xml: out.append(contentsOf: QuakeMLEncoder.footer.utf8)
        case .text: break
        case .geojson:
            out.append(contentsOf: #"],"metadata":{"generated":"#.utf8)
            JSONBytes.appendInteger(Int((Date().timeIntervalSince1970 * 1000).rounded()), to: &out)
            out.append(contentsOf: #","url":"#.utf8)
            JSONBytes.appendString(url, to: &out)
            out.append(contentsOf: #","title":"quakemap FDSN event query","status":200,"api":"#.utf8)
            JSONBytes.appendString(Endpoints.fdsnVersion, to: &out)
            out.append(contentsOf: #","count":"#.utf8)
            JSONBytes.appendInteger(count, to: &out)
            out.append(contentsOf: "}}\n".utf8)
        }
    }
}
