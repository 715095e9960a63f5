import Foundation

/// One field's value: text, a number, a whole number or a time, as the field holds.
public enum EventValue: Sendable, Hashable {
    /// Text, as the feed gave it (trimmed).
    case text(String)
    /// A real number, in the field's unit.
    case number(Double)
    /// A whole number.
    case integer(Int64)
    /// An instant.
    case time(Date)

    /// The value as a number: a number, a whole number, or a time in seconds since 1970.
    package var number: Double? {
        switch self {
        case .number(let value): value
        case .integer(let value): Double(value)
        case .time(let date): date.timeIntervalSince1970
        case .text: nil
        }
    }

    /// The value as text, when it is text.
    package var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}
