import QuakeModel

/// Where in a feed a record stands.
package enum FeedLocation: Sendable, Hashable {
    /// A CSV row, by the physical line (1-based; the header is line 1) on which it starts.
    case line(Int)
    /// A GeoJSON feature, by its 1-based position in `features`, with its id if it has one.
    case feature(Int, id: String?)
    /// A QuakeML `event`, by the line and column (1-based) where its start tag
    /// begins, with its id if it has one.
    case element(line: Int, column: Int, id: String?)
}

/// A data row that could not become an event, with the evidence.
public struct FeedRejection: Sendable, Hashable, QuakeKitError {
    /// The source's display name (a path, `<stdin>`…).
    public var source: String
    /// Where the record is.
    package var location: FeedLocation
    /// The column (CSV), property (GeoJSON) or element path (QuakeML) the problem is in; `nil` for a whole-record problem.
    public var column: String?
    /// The offending value as written, if any.
    public var value: String?
    /// Why the row was rejected, e.g. `is outside -90…90`.
    public var reason: String

    /// Creates a rejection.
    package init(source: String, location: FeedLocation, column: String?, value: String?, reason: String) {
        self.source = source
        self.location = location
        self.column = column
        self.value = value
        self.reason = reason
    }

    /// Creates the rejection of a CSV row starting on `line`.
    package init(source: String, line: Int, column: String?, value: String?, reason: String) {
        self.init(source: source, location: .line(line), column: column, value: value, reason: reason)
    }

    /// The CSV line or the QuakeML event's line, or `nil` for a GeoJSON feature.
    public var line: Int? {
        switch location {
        case .line(let line), .element(let line, _, _): return line
        case .feature: return nil
        }
    }

    /// `FILE:LINE: column 'latitude': '95.2' is outside -90…90`, for GeoJSON
    /// `FILE: feature 17 (us7000abcd): property 'mag': 'big' is not a number`,
    /// for QuakeML `FILE:LINE:COLUMN: event (us7000abcd): element 'origin/latitude': '95.2' is outside -90…90`.
    public var message: String {
        var text: String
        let noun: String
        switch location {
        case .line(let line):
            text = "\(source):\(line): "
            noun = "column"
        case .feature(let index, let id):
            text = "\(source): feature \(index)" + (id.map { " (\(Self.shown($0)))" } ?? "") + ": "
            noun = "property"
        case .element(let line, let column, let id):
            text = "\(source):\(line):\(column): event" + (id.map { " (\(Self.shown($0)))" } ?? "") + ": "
            noun = "element"
        }
        if let column { text += "\(noun) '\(column)'" + (value == nil ? " " : ": ") }
        if let value { text += "'\(Self.shown(value))' " }
        return text + reason
    }

    /// Keeps messages one short line whatever the input holds.
    package static func shown(_ value: String, limit: Int = 40) -> String {
        var text = String(value.unicodeScalars.map { scalar -> Character in
            scalar.properties.generalCategory == .control ? "\u{FFFD}" : Character(scalar)
        })
        if text.count > limit { text = text.prefix(limit) + "…" }
        return text
    }
}
