import Foundation
import QuakeKit

/// What the client needs of a response body before it is read: how many
/// events it holds (a full page means truncated), and one body made of many.
enum FDSNBody {
    /// The USGS CSV header alone: an empty catalogue every reader takes.
    static let emptyCatalogue = Data("time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type\n".utf8)

    /// The events in `body`, as the feed reader counts them (every record or
    /// `event` element, rejected ones too): the page is judged by the reader
    /// that will read it, so a quoted line break, a comment or a namespace
    /// prefix counts the same here as there. `nil` for a body the reader
    /// cannot take at all: reading it later says why.
    static func eventCount(_ body: Data) -> Int? {
        guard !body.isEmpty else { return 0 }
        let reader = FeedReader(options: FeedOptions(maximumReportedRejections: 0))
        return (try? reader.read(.bytes(body, name: "an FDSN page")) { _ in })?.rows
    }

    /// One body holding every event of `bodies` (empty ones skipped): the
    /// first whole, the rows of the others after it (their headers dropped),
    /// or for QuakeML their events moved into the first's `eventParameters`.
    static func merge(_ bodies: [Data], format: FDSNFormat) -> Data {
        // One answer goes through as it came: the readers judge it, whatever it holds.
        let answered = bodies.filter { !$0.isEmpty }
        if answered.count == 1 { return answered[0] }
        let counts = answered.map { eventCount($0) }
        // A page the reader cannot take is what the read must see, to say why.
        if let unreadable = counts.firstIndex(of: nil) { return answered[unreadable] }
        let nonEmpty = zip(answered, counts).filter { $0.1! > 0 }.map(\.0)
        guard var merged = nonEmpty.first else { return answered.first ?? emptyCatalogue }
        switch format {
        case .csv, .text:
            for body in nonEmpty.dropFirst() {
                if merged.last != UInt8(ascii: "\n") { merged.append(UInt8(ascii: "\n")) }
                if format == .csv {
                    // Only the header goes: rows may hold quoted line breaks, so copy bytes, not lines.
                    let afterHeader = body.firstIndex(of: UInt8(ascii: "\n")).map { body.index(after: $0) } ?? body.endIndex
                    merged.append(body[afterHeader...])
                } else {
                    for row in lines(body) where row.first != UInt8(ascii: "#") {
                        merged.append(contentsOf: row)
                        merged.append(UInt8(ascii: "\n"))
                    }
                }
            }
        case .geojson:
            // One collection: the first page's members (its metadata), every page's features.
            var features: [[UInt8]] = []
            var first: [String: [UInt8]] = [:]
            for (index, body) in nonEmpty.enumerated() {
                guard let parts = GeoJSONStream.parts(of: body) else { return body }
                features += parts.features
                if index == 0 { first = parts.members }
            }
            var document = Array("{".utf8)
            for (name, value) in first.sorted(by: { $0.key < $1.key }) {
                document += Array("\"\(name)\":".utf8) + value + Array(",".utf8)
            }
            document += Array("\"features\":[".utf8)
            for (index, feature) in features.enumerated() {
                if index > 0 { document.append(UInt8(ascii: ",")) }
                document += feature
            }
            merged = Data(document + Array("]}\n".utf8))
        case .xml:
            // The events of the others go before the first's closing tag, which may carry a prefix.
            guard let name = merged.range(of: Data("eventParameters>".utf8), options: .backwards),
                  let end = merged[..<name.lowerBound].lastIndex(of: UInt8(ascii: "<")),
                  merged[merged.index(after: end)] == UInt8(ascii: "/") else { return merged }
            var inserted = Data()
            for body in nonEmpty.dropFirst() {
                for range in eventRanges(body) { inserted.append(body[range]) }
            }
            merged.replaceSubrange(end..<end, with: inserted)
        }
        return merged
    }

    /// Non-empty lines, without their line ends.
    private static func lines(_ body: Data) -> [Data.SubSequence] {
        body.split(separator: UInt8(ascii: "\n")).map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
            .filter { !$0.allSatisfy { $0 == UInt8(ascii: " ") } }
    }

    /// The byte ranges of the `event` elements, `<event …>…</event>` or with a
    /// prefix (`<bed:event>…</bed:event>`); `eventParameters` and other names
    /// that merely begin with `event` are not events.
    private static func eventRanges(_ body: Data) -> [Range<Data.Index>] {
        var ranges: [Range<Data.Index>] = []
        var from = body.startIndex
        let word = Data("event".utf8)
        while let found = body.range(of: word, in: from..<body.endIndex) {
            from = found.upperBound
            // What stands before the name: '<', or '<' and a prefix with its ':'.
            var start = found.lowerBound
            var prefix = Data()
            if start > body.startIndex, body[body.index(before: start)] == UInt8(ascii: ":") {
                var cursor = body.index(before: start)
                while cursor > body.startIndex, isNameByte(body[body.index(before: cursor)]) { cursor = body.index(before: cursor) }
                prefix = body[cursor..<start]
                start = cursor
            }
            guard start > body.startIndex, body[body.index(before: start)] == UInt8(ascii: "<"),
                  found.upperBound < body.endIndex else { continue }
            let next = body[found.upperBound]
            guard next == UInt8(ascii: " ") || next == UInt8(ascii: ">") || next == UInt8(ascii: "\n")
                    || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\r") else { continue }
            let closing = Data("</".utf8) + prefix + word + Data(">".utf8)
            guard let close = body.range(of: closing, in: found.upperBound..<body.endIndex) else { break }
            ranges.append(body.index(before: start)..<close.upperBound)
            from = close.upperBound
        }
        return ranges
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
