import Foundation
import QuakeModel

/// Reads the Global CMT project's NDK format: five fixed-column lines an
/// event, read by column position as the format defines them, not by
/// splitting at blanks (neighbouring fields touch when a value fills its
/// columns, e.g. a centroid time offset of `-100.0`). Streamed a window at a time.
///
/// An event is where the GCMT catalogue puts it, as ObsPy reads it: the
/// centroid (reference time plus the centroid's time shift — a clock of 60.0 s, which old
/// records carry, is the next minute, as ``TimeParser`` reads every feed's — its latitude,
/// longitude and depth), magnitude Mwc from the scalar moment rounded to 0.01;
/// the tensor and moments, written in dyn·cm × 10^exponent, become N·m.
final class NDKDecoder {
    let source: String
    private let validator: RowValidator
    /// Bytes of a line not yet ended by a window.
    private var pending: [UInt8] = []
    /// The record's lines so far, with their line numbers.
    private var lines: [(number: Int, bytes: [UInt8])] = []
    private var lineNumber = 0

    init(source: String, now: Date) {
        self.source = source
        validator = RowValidator(now: now)
    }

    /// Whether `window` opens with an NDK record's first line: a four-letter
    /// hypocentre catalogue, a blank, then `YYYY/MM/DD HH:MM:SS`.
    static func opensDocument(_ window: UnsafeRawBufferPointer) -> Bool {
        guard let start = window.firstIndex(where: { $0 != ASCII.lf && $0 != ASCII.cr }) else { return false }
        let line = Array(window[start..<min(window.count, start + 24)])
        guard line.count == 24, line[4] == ASCII.space else { return false }
        let pattern = Array("dddd/dd/dd dd:dd:".utf8)
        for (offset, expected) in pattern.enumerated() {
            let byte = line[5 + offset]
            if expected == UInt8(ascii: "d") ? !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte != expected { return false }
        }
        return true
    }

    /// Reads `window`, handing each record's event or rejection to `body`.
    func parse(_ window: UnsafeRawBufferPointer, isLast: Bool, _ body: (QuakeMLDecoder.Outcome) throws -> Void) throws {
        var start = 0
        for index in window.indices where window[index] == ASCII.lf {
            pending.append(contentsOf: window[start..<index])
            try take(body)
            start = index + 1
        }
        pending.append(contentsOf: window[start...])
        if isLast {
            if !pending.isEmpty { try take(body) }
            if let first = lines.first {
                try body(.rejected(FeedRejection(source: source, line: first.number, column: nil, value: nil,
                                                 reason: "the record ends after \(lines.count) of its 5 lines")))
            }
        }
    }

    private func take(_ body: (QuakeMLDecoder.Outcome) throws -> Void) throws {
        lineNumber += 1
        if pending.last == ASCII.cr { pending.removeLast() }
        defer { pending.removeAll(keepingCapacity: true) }
        guard pending.contains(where: { $0 != ASCII.space && $0 != ASCII.tab }) else { return }
        if pending.count > 200 {
            throw FeedError.recordTooLong(source: source, line: lineNumber, limit: 200)
        }
        lines.append((lineNumber, pending))
        guard lines.count == 5 else { return }
        let record = lines
        lines.removeAll()
        try body(decode(record))
    }

    private struct Refused: Error {
        let line: Int
        let column: String?
        let value: String?
        let reason: String
    }

    private func decode(_ record: [(number: Int, bytes: [UInt8])]) -> QuakeMLDecoder.Outcome {
        do {
            return .event(try event(record))
        } catch let refused as Refused {
            return .rejected(FeedRejection(source: source, line: refused.line, column: refused.column,
                                           value: refused.value, reason: refused.reason))
        } catch {
            return .rejected(FeedRejection(source: source, line: record[0].number, column: nil, value: nil,
                                           reason: "\(error)"))
        }
    }

    /// One line of a record: its number in the file, its bytes, its fields by column (0-based, end excluded).
    private struct Line {
        let number: Int
        let bytes: [UInt8]

        func field(_ range: Range<Int>) -> ArraySlice<UInt8> {
            let end = min(range.upperBound, bytes.count)
            return range.lowerBound < end ? bytes[range.lowerBound..<end] : []
        }

        func text(_ range: Range<Int>) -> String {
            String(decoding: field(range), as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }

        /// `what`, in columns `range`, read as a decimal number (within `bounds`), by the rules every reader shares.
        func number(_ range: Range<Int>, _ what: String, within bounds: ClosedRange<Double>? = nil,
                    positive: Bool = false) throws -> Double {
            switch RowValidator.quantity(text(range), within: bounds, required: true, positive: positive) {
            case .success(let value?): return value
            case .success(nil): preconditionFailure("a required quantity is never absent")
            case .failure(let refusal):
                throw Refused(line: number, column: Line.column(what, range), value: refusal.shown, reason: refusal.reason)
            }
        }

        /// ``number(_:_:within:positive:)`` times 10^`exponent`, read as one decimal (`4.020e18`) so that it is
        /// the double nearest the value written, not a product's rounding.
        func number(_ range: Range<Int>, _ what: String, exponent: Int, positive: Bool = false) throws -> Double {
            let value = try number(range, what, positive: positive)
            return Double(text(range) + "e\(exponent)") ?? value * pow(10, Double(exponent))
        }

        static func column(_ what: String, _ range: Range<Int>) -> String {
            "\(what) (columns \(range.lowerBound + 1)–\(range.upperBound))"
        }
    }

    private func event(_ record: [(number: Int, bytes: [UInt8])]) throws -> SeismicEvent {
        let line = record.map { Line(number: $0.number, bytes: $0.bytes) }
        let (first, second, third, fourth, fifth) = (line[0], line[1], line[2], line[3], line[4])
        let name = second.text(0..<16)
        guard !name.isEmpty else {
            throw Refused(line: second.number, column: Line.column("CMT event name", 0..<16), value: nil,
                          reason: "is blank: every NDK record names its event")
        }
        guard third.text(0..<9) == "CENTROID:" else {
            throw Refused(line: third.number, column: nil, value: third.text(0..<9),
                          reason: "is not a centroid line (CENTROID: in columns 1–9): the record's lines are out of step")
        }
        let shift = try third.number(9..<18, "centroid time shift")
        // The fields the event is not made of are still the format's: a record where they are not
        // what it defines is out of step or damaged, and is refused as ObsPy refuses it.
        _ = try first.number(27..<33, "hypocentre latitude", within: RowValidator.latitudes)
        _ = try first.number(34..<41, "hypocentre longitude", within: RowValidator.longitudes)
        _ = try first.number(42..<47, "hypocentre depth", within: RowValidator.depths)
        let data = second.text(17..<61)
        if !data.isEmpty, !data.allSatisfy({ "BSM: 0123456789.".contains($0) }) {
            throw Refused(line: second.number, column: Line.column("data used", 17..<61), value: data,
                          reason: "is not body (B:), surface (S:) and mantle (M:) wave counts")
        }
        let inversion = second.text(62..<68).replacingOccurrences(of: " ", with: "")
        guard ["CMT:0", "CMT:1", "CMT:2"].contains(inversion) else {
            throw Refused(line: second.number, column: Line.column("source inversion", 62..<68), value: second.text(62..<68),
                          reason: "is none of CMT: 0, CMT: 1, CMT: 2")
        }
        let rate = second.text(69..<80)
        guard rate.hasPrefix("TRIHD") || rate.hasPrefix("BOXHD") else {
            throw Refused(line: second.number, column: Line.column("moment rate function", 69..<80), value: rate,
                          reason: "is neither TRIHD nor BOXHD")
        }
        guard ["FREE", "FIX", "BDY"].contains(third.text(59..<63)) else {
            throw Refused(line: third.number, column: Line.column("centroid depth type", 59..<63), value: third.text(59..<63),
                          reason: "is none of FREE, FIX, BDY")
        }
        let stamp = third.text(64..<80)
        guard ["S-", "Q-", "O-"].contains(String(stamp.prefix(2))) else {
            throw Refused(line: third.number, column: Line.column("CMT timestamp", 64..<80), value: stamp,
                          reason: "is no S-, Q- or O- timestamp")
        }

        // The dyn·cm exponent; N·m are 10⁻⁷ of them.
        let exponentText = fourth.text(0..<2)
        guard let exponent = Int(exponentText) else {
            throw Refused(line: fourth.number, column: Line.column("exponent", 0..<2), value: exponentText, reason: "is not an integer")
        }
        let names6 = ["Mrr", "Mtt", "Mpp", "Mrt", "Mrp", "Mtp"]
        let components = try (0..<6).map { try fourth.number((2 + 13 * $0)..<(9 + 13 * $0), names6[$0], exponent: exponent - 7) }
        let tensor = MomentTensor(rr: components[0], tt: components[1], pp: components[2],
                                  rt: components[3], rp: components[4], tp: components[5])
        let moment = try fifth.number(48..<56, "scalar moment", exponent: exponent - 7, positive: true)
        func plane(_ start: Int, _ label: String) throws -> NodalPlane {
            let strike = try fifth.number(start..<(start + 4), "\(label) strike", within: Mechanisms.strikes)
            let dip = try fifth.number((start + 4)..<(start + 7), "\(label) dip", within: Mechanisms.dips)
            let rake = try fifth.number((start + 7)..<(start + 12), "\(label) rake", within: Mechanisms.rakes)
            return NodalPlane(strike: strike, dip: dip, rake: rake)
        }
        let mechanism = FocalMechanism(nodalPlanes: [try plane(56, "plane 1"), try plane(68, "plane 2")], tensor: tensor,
                                       scalarMoment: moment)
        let magnitude = (Mechanisms.momentMagnitude(moment).map { ($0 * 100).rounded() / 100 })

        // The reference date and time with the centroid's position, judged by the rules every reader shares.
        let date = first.field(5..<15), clock = first.field(16..<26)
        let latitude = third.field(22..<29), longitude = third.field(34..<42), depth = third.field(47..<53)
        let checked = date.withUnsafeBytes { date in
            clock.withUnsafeBytes { clock in
                latitude.withUnsafeBytes { latitude in
                    longitude.withUnsafeBytes { longitude in
                        depth.withUnsafeBytes { depth in
                            let fields = RowValidator.Fields(
                                time: .dateAndTime(date: date, time: clock), latitude: .bytes(latitude),
                                longitude: .bytes(longitude), depth: .bytes(depth),
                                magnitude: magnitude.map(RowValidator.Text.number) ?? .absent)
                            return validator.check(fields).mapError { validator.problem($0, in: fields) }
                        }
                    }
                }
            }
        }
        let row: RowValidator.Checked
        switch checked {
        case .success(let value): row = value
        case .failure(let problem):
            let (where_, range): (Line, Range<Int>) = switch problem.field {
            case .date: (first, 5..<15)
            case .time: (first, 16..<26)
            case .latitude: (third, 22..<29)
            case .longitude: (third, 34..<42)
            case .depth: (third, 47..<53)
            case .magnitude, .updated: (fifth, 48..<56)
            }
            let words: [RowValidator.Field: String] = [.date: "reference date", .time: "reference time",
                                                       .latitude: "centroid latitude", .longitude: "centroid longitude",
                                                       .depth: "centroid depth", .magnitude: "scalar moment",
                                                       .updated: "timestamp"]
            throw Refused(line: where_.number, column: Line.column(words[problem.field] ?? "", range),
                          value: problem.shown, reason: problem.reason)
        }
        let timestamp = third.text(64..<80)
        return SeismicEvent(id: name, time: row.time.addingTimeInterval(shift), latitude: row.latitude,
                            longitude: row.longitude, depth: row.depth, magnitude: row.magnitude, magnitudeType: "Mwc",
                            place: first.text(56..<80), eventType: "earthquake", network: "gcmt",
                            updated: Self.timestamp(timestamp),
                            status: timestamp.hasPrefix("S-") ? "reviewed" : timestamp.hasPrefix("Q-") ? "automatic" : nil,
                            mechanism: mechanism)
    }

    /// `S-20130603104822` (or `Q-`, `O-`): when GCMT computed the solution.
    private static func timestamp(_ text: String) -> Date? {
        let digits = Array(text.utf8.dropFirst(2))
        guard digits.count == 14, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } }
        let (year, month, day) = (number(0..<4), number(4..<6), number(6..<8))
        guard (1...12).contains(month), (1...CivilTime.daysInMonth(year: year, month: month)).contains(day),
              number(8..<10) < 24, number(10..<12) < 60, number(12..<14) < 61 else { return nil }
        let days = CivilTime.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + number(8..<10) * 3600 + number(10..<12) * 60 + number(12..<14)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
