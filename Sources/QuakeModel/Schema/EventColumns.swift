import Foundation

/// Which fields a column list writes (CSV, JSON), in order: by default the USGS CSV's 22
/// columns in USGS's order, so that filtering a USGS CSV gives USGS CSV back.
public struct EventColumns: Sendable, Hashable {
    /// The fields, in the order they are written.
    public var fields: [EventField]

    /// Columns of `fields`, in that order.
    package init(_ fields: [EventField]) {
        self.fields = fields
    }

    /// The USGS CSV's 22 columns, in USGS's order.
    public static let usgs = EventColumns(EventField.usgsCSVColumns)

    /// The USGS CSV's columns, then every other field of the schema in schema order.
    public static let all = EventColumns(EventField.usgsCSVColumns
        + EventField.allCases.filter { !EventField.usgsCSVColumns.contains($0) })

    /// The columns `text` names: `usgs`, `all`, or canonical field names separated by commas
    /// (`time,mag,gap`); `all` and `usgs` may stand among the names to mean their fields.
    ///
    /// - Throws: a ``QuakeKitError`` naming an unknown field and the known ones.
    public init(parsing text: String) throws {
        var fields: [EventField] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = word.trimmingCharacters(in: .whitespaces)
            let named: [EventField]
            switch name {
            case "all": named = Self.all.fields
            case "usgs": named = Self.usgs.fields
            default:
                guard let field = EventField(name: name) else {
                    let known = EventField.allCases.map(\.spec.name).joined(separator: ", ")
                    throw EventColumnsError(message: "unknown column '\(name)' (known: usgs, all, \(known))")
                }
                named = [field]
            }
            for field in named where !fields.contains(field) { fields.append(field) }
        }
        guard !fields.isEmpty else { throw EventColumnsError(message: "no columns named") }
        self.fields = fields
    }
}

/// A column list that names no field or an unknown one.
package struct EventColumnsError: QuakeKitError, Equatable {
    /// What is wrong, with the known names.
    package let message: String
}
