import Foundation
import QuakeModel

/// The columns of a GMT `meca` (psmeca) text file: the three conventions of focal
/// mechanisms that catalogues hand around, as GMT's `-S` option names them.
public enum MecaConvention: String, Sendable, Hashable, CaseIterable {
    /// `-Sa`, Aki & Richards: `lon lat depth strike dip rake magnitude`.
    case akiRichards = "a"
    /// `-Sc`, Global CMT: `lon lat depth strike1 dip1 rake1 strike2 dip2 rake2 mantissa exponent`
    /// (the scalar moment is mantissa × 10^exponent dyn·cm).
    case globalCMT = "c"
    /// `-Sm`, the moment tensor: `lon lat depth mrr mtt mff mrt mrf mtf exponent` (each
    /// component × 10^exponent dyn·cm).
    case momentTensor = "m"

    /// The numbers a row starts with.
    var fieldNames: [String] {
        switch self {
        case .akiRichards: ["longitude", "latitude", "depth", "strike", "dip", "rake", "magnitude"]
        case .globalCMT: ["longitude", "latitude", "depth", "strike1", "dip1", "rake1", "strike2", "dip2", "rake2",
                          "mantissa", "exponent"]
        case .momentTensor: ["longitude", "latitude", "depth", "mrr", "mtt", "mff", "mrt", "mrf", "mtf", "exponent"]
        }
    }
}

/// Reads GMT `meca` text, a row an event: whitespace- or comma-separated numbers in one of
/// the ``MecaConvention``s, then optionally the two coordinates GMT would plot the ball at
/// instead (read and not used: quakemap moves crowded balls itself) and a title.
///
/// The format has no origin time, which an event needs; a row's time is, in order: the
/// title's first word when it is an ISO 8601 time (`2011-03-11T05:46:24Z`) or date, or a Global CMT
/// event name (`C201103110546A`, to the minute), else `defaultTime` (the command line's
/// `--meca-time`), else the row is refused and says so. The event's id is that CMT name,
/// else `<source>:<line>`; the rest of the title is its place. Lines starting with `#` and GMT's segment headers (`>`) are
/// passed over. Streamed a window at a time.
final class GMTMecaDecoder {
    let source: String
    let convention: MecaConvention
    let defaultTime: Date?
    private let validator: RowValidator
    private var pending: [UInt8] = []
    private var lineNumber = 0

    init(source: String, convention: MecaConvention, defaultTime: Date?, now: Date) {
        self.source = source
        self.convention = convention
        self.defaultTime = defaultTime
        validator = RowValidator(now: now)
    }

    /// The longest line read: a row is a dozen numbers and a title.
    static let maximumLineLength = 4096

    /// Reads `window`, handing each row's event or rejection to `body`.
    func parse(_ window: UnsafeRawBufferPointer, isLast: Bool, _ body: (QuakeMLDecoder.Outcome) throws -> Void) throws {
        var start = 0
        for index in window.indices where window[index] == ASCII.lf {
            pending.append(contentsOf: window[start..<index])
            try take(body)
            start = index + 1
        }
        pending.append(contentsOf: window[start...])
        if pending.count > Self.maximumLineLength {
            throw FeedError.recordTooLong(source: source, line: lineNumber + 1, limit: Self.maximumLineLength)
        }
        if isLast, !pending.isEmpty { try take(body) }
    }

    private func take(_ body: (QuakeMLDecoder.Outcome) throws -> Void) throws {
        lineNumber += 1
        defer { pending.removeAll(keepingCapacity: true) }
        if pending.count > Self.maximumLineLength {
            throw FeedError.recordTooLong(source: source, line: lineNumber, limit: Self.maximumLineLength)
        }
        let text = String(decoding: pending, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, !text.hasPrefix("#"), !text.hasPrefix(">") else { return }
        do {
            try body(.event(try event(text)))
        } catch let refused as Refused {
            try body(.rejected(FeedRejection(source: source, line: lineNumber, column: refused.column,
                                             value: refused.value, reason: refused.reason)))
        }
    }

    private struct Refused: Error {
        let column: String?
        let value: String?
        let reason: String
    }

    private func event(_ line: String) throws -> SeismicEvent {
        let names = convention.fieldNames
        // GMT reads blanks, tabs or commas between fields; the title is the rest of the line.
        var rest = Substring(line)
        var words: [Substring] = []
        while words.count < names.count + 2, !rest.isEmpty {
            let end = rest.firstIndex { $0 == " " || $0 == "\t" || $0 == "," } ?? rest.endIndex
            words.append(rest[..<end])
            rest = rest[end...].drop { $0 == " " || $0 == "\t" || $0 == "," }
        }
        guard words.count >= names.count else {
            throw Refused(column: nil, value: nil,
                          reason: "has \(words.count) fields where GMT meca -S\(convention.rawValue) rows have \(names.count) (\(names.joined(separator: " ")))")
        }
        func column(_ index: Int) -> String { "\(names[index]) (field \(index + 1))" }
        func number(_ index: Int, within bounds: ClosedRange<Double>? = nil, positive: Bool = false) throws -> Double {
            switch RowValidator.quantity(String(words[index]), within: bounds, required: true, positive: positive) {
            case .success(let value?): return value
            case .success(nil): preconditionFailure("a required quantity is never absent")
            case .failure(let refusal): throw Refused(column: column(index), value: refusal.shown, reason: refusal.reason)
            }
        }
        // GMT's optional plotting position: two numbers after the fields; anything else is the title.
        var extra = Array(words.dropFirst(names.count))
        if extra.count == 2, Double(extra[0]) != nil, Double(extra[1]) != nil { extra = [] }
        let title = (extra + (rest.isEmpty ? [] : [rest])).joined(separator: " ")

        let mechanism: FocalMechanism, magnitudeText: String
        func plane(_ first: Int) throws -> NodalPlane {
            NodalPlane(strike: try number(first, within: Mechanisms.strikes), dip: try number(first + 1, within: Mechanisms.dips),
                       rake: try number(first + 2, within: Mechanisms.rakes))
        }
        func exponent(_ index: Int) throws -> Int {
            guard let value = Int(words[index]), (-30...60).contains(value) else {
                throw Refused(column: column(index), value: String(words[index]),
                              reason: "is not a whole exponent of ten within −30…60 (the values are × 10^exponent dyn·cm)")
            }
            return value
        }
        // `mantissa` × 10^`power` read as one decimal, so that it is the double nearest the value written.
        func scaled(_ index: Int, power: Int, positive: Bool = false) throws -> Double {
            let value = try number(index, positive: positive)
            return Double(words[index] + "e\(power)") ?? value * pow(10, Double(power))
        }
        switch convention {
        case .akiRichards:
            mechanism = FocalMechanism(nodalPlanes: [try plane(3)])
            // Judged here too, so that a row short of its magnitude says so, not that it lacks a time.
            _ = try number(6, within: RowValidator.magnitudes)
            magnitudeText = String(words[6])
        case .globalCMT:
            let moment = try scaled(9, power: try exponent(10) - 7, positive: true)
            mechanism = FocalMechanism(nodalPlanes: [try plane(3), try plane(6)], scalarMoment: moment)
            magnitudeText = Self.momentMagnitude(moment)
        case .momentTensor:
            let power = try exponent(9) - 7
            let values = try (3..<9).map { try scaled($0, power: power) }
            let tensor = MomentTensor(rr: values[0], tt: values[1], pp: values[2], rt: values[3], rp: values[4], tp: values[5])
            guard tensor.scalarMoment > 0 else {
                throw Refused(column: "mrr…mtf (fields 4–9)", value: nil, reason: "are all zero: no moment tensor")
            }
            mechanism = FocalMechanism(tensor: tensor)
            magnitudeText = Self.momentMagnitude(tensor.scalarMoment)
        }

        // The time: the title's first word, else the one given for every row.
        var titleParts = title.split(separator: " ", maxSplits: 1).map(String.init)
        var time: RowValidator.Value = defaultTime.map { .number($0.timeIntervalSince1970 * 1000) } ?? .absent
        var name: String?
        if let first = titleParts.first {
            if let cmt = Self.cmtNameTime(first) {
                time = .number(cmt.timeIntervalSince1970 * 1000)
                name = first
                titleParts.removeFirst()
            } else if let date = TimeParser.parse(dateOrInstant: first) {
                time = .number(date.timeIntervalSince1970 * 1000)
                titleParts.removeFirst()
            }
        }
        if case .absent = time {
            throw Refused(column: "title", value: title.isEmpty ? nil : title,
                          reason: "gives no origin time: GMT meca text has no time column; start each row's title with one (2011-03-11T05:46:24Z, or a Global CMT name such as C201103110546A), or give one for every row with --meca-time")
        }
        let place = titleParts.joined(separator: " ")

        let checked = validator.check(time: time, latitude: .string(String(words[1])), longitude: .string(String(words[0])),
                                      depth: .string(String(words[2])), magnitude: .string(magnitudeText))
        let row: RowValidator.Checked
        switch checked {
        case .success(let value): row = value
        case .failure(let problem):
            let where_: String = switch problem.field {
            case .time, .date, .updated: "title"
            case .longitude: column(0)
            case .latitude: column(1)
            case .depth: column(2)
            case .magnitude: convention == .akiRichards ? column(6) : "moment magnitude"
            }
            throw Refused(column: where_, value: problem.shown, reason: problem.reason)
        }
        return SeismicEvent(id: name ?? "\(source):\(lineNumber)", time: row.time, latitude: row.latitude,
                            longitude: row.longitude, depth: row.depth, magnitude: row.magnitude, magnitudeType: "Mw", place: place,
                            eventType: "earthquake", mechanism: mechanism)
    }

    /// Mw of a scalar moment in N·m, to 0.01, as text for the validator.
    private static func momentMagnitude(_ moment: Double) -> String {
        Mechanisms.momentMagnitude(moment).map { String(($0 * 100).rounded() / 100) } ?? ""
    }

    /// The origin time, to the minute, of a Global CMT event name: `C201103110546A`
    /// (B, C, M or S, year, month, day, hour, minute, a letter).
    static func cmtNameTime(_ word: String) -> Date? {
        let bytes = Array(word.utf8)
        guard bytes.count == 14, "BCMS".utf8.contains(bytes[0]), (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[13]),
              bytes[1..<13].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        func number(_ range: Range<Int>) -> Int { bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } }
        let (year, month, day, hour, minute) = (number(1..<5), number(5..<7), number(7..<9), number(9..<11), number(11..<13))
        guard (1...12).contains(month), (1...CivilTime.daysInMonth(year: year, month: month)).contains(day),
              hour < 24, minute < 60 else { return nil }
        let seconds = CivilTime.daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
