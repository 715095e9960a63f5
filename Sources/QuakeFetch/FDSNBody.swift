import Foundation

/// What the client needs of a response body without parsing it: how many
/// events it holds (a full page means truncated), and one body made of many.
enum FDSNBody {
    /// The USGS CSV header alone: an empty catalogue every reader takes.
    static let emptyCatalogue = Data("time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type\n".utf8)

    /// The events in `body`: CSV records after the header (quotes may hold
    /// line breaks), text lines not starting with `#`, or QuakeML `<event` elements.
    static func eventCount(_ body: Data, format: FDSNFormat) -> Int {
        switch format {
        case .csv: return records(body) - (body.isEmpty ? 0 : 1)
        case .text: return lines(body).filter { $0.first != UInt8(ascii: "#") }.count
        case .xml: return eventRanges(body).count
        }
    }

    /// One body holding every event of `bodies` (empty ones skipped): the
    /// first whole, the rows of the others after it (their headers dropped),
    /// or for QuakeML their events moved into the first's `eventParameters`.
    static func merge(_ bodies: [Data], format: FDSNFormat) -> Data {
        let nonEmpty = bodies.filter { eventCount($0, format: format) > 0 }
        guard var merged = nonEmpty.first else { return emptyCatalogue }
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
        case .xml:
            let closing = Data("</eventParameters>".utf8)
            guard let end = merged.range(of: closing, options: .backwards) else { return merged }
            var inserted = Data()
            for body in nonEmpty.dropFirst() {
                for range in eventRanges(body) { inserted.append(body[range]) }
            }
            merged.replaceSubrange(end.lowerBound..<end.lowerBound, with: inserted)
        }
        return merged
    }

    /// Non-empty lines, without their line ends.
    private static func lines(_ body: Data) -> [Data.SubSequence] {
        body.split(separator: UInt8(ascii: "\n")).map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
            .filter { !$0.allSatisfy { $0 == UInt8(ascii: " ") } }
    }

    /// Non-empty CSV records, quotes respected.
    private static func records(_ body: Data) -> Int {
        var count = 0
        var quoted = false
        var filled = false
        for byte in body {
            switch byte {
            case UInt8(ascii: "\""): quoted.toggle(); filled = true
            case UInt8(ascii: "\n") where !quoted:
                if filled { count += 1 }
                filled = false
            case UInt8(ascii: "\r"), UInt8(ascii: " "): break
            default: filled = true
            }
        }
        return count + (filled ? 1 : 0)
    }

    /// The byte ranges of the `<event …>…</event>` elements (BED's default namespace).
    private static func eventRanges(_ body: Data) -> [Range<Data.Index>] {
        var ranges: [Range<Data.Index>] = []
        var from = body.startIndex
        let closing = Data("</event>".utf8)
        while let open = body.range(of: Data("<event".utf8), in: from..<body.endIndex) {
            let next = open.upperBound < body.endIndex ? body[open.upperBound] : 0
            guard next == UInt8(ascii: " ") || next == UInt8(ascii: ">") || next == UInt8(ascii: "\n")
                    || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\r") else {
                from = open.upperBound
                continue
            }
            guard let close = body.range(of: closing, in: open.upperBound..<body.endIndex) else { break }
            ranges.append(open.lowerBound..<close.upperBound)
            from = close.upperBound
        }
        return ranges
    }
}
