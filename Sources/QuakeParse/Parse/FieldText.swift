import Foundation
import QuakeModel

/// How every reader turns a detail field's text or JSON number into its value
/// (``EventField/Kind``), judged and worded by ``RowValidator/quantity(_:within:required:positive:)``'s
/// rules, so that one bad value gets one verdict whatever the format.
package enum FieldText {
    /// The value of `field` written as `bytes`; `nil` when blank.
    package static func value(_ field: EventField, bytes: UnsafeRawBufferPointer) -> Result<EventValue?, RowValidator.QuantityRefusal> {
        switch field.spec.kind {
        case .text:
            var start = 0, end = bytes.count
            while start < end, bytes[start] == ASCII.space || bytes[start] == ASCII.tab { start += 1 }
            while end > start, bytes[end - 1] == ASCII.space || bytes[end - 1] == ASCII.tab { end -= 1 }
            guard start < end else { return .success(nil) }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            return .success(RowValidator.text(text).map(EventValue.text))
        case .number, .integer:
            switch DecimalParser.parse(bytes) {
            case .empty: return .success(nil)
            case .value(let parsed): return number(field, parsed, shown: { String(decoding: bytes, as: UTF8.self) })
            case .notANumber:
                return .failure(.init(shown: String(decoding: bytes, as: UTF8.self).trimmingBlanks(), reason: "is not a number"))
            case .notFinite:
                return .failure(.init(shown: String(decoding: bytes, as: UTF8.self).trimmingBlanks(), reason: "is not a finite number"))
            }
        case .time:
            var start = 0, end = bytes.count
            while start < end, bytes[start] == ASCII.space || bytes[start] == ASCII.tab { start += 1 }
            while end > start, bytes[end - 1] == ASCII.space || bytes[end - 1] == ASCII.tab { end -= 1 }
            guard start < end else { return .success(nil) }
            let trimmed = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            guard let date = TimeParser.parse(trimmed) else {
                return .failure(.init(shown: String(decoding: trimmed, as: UTF8.self),
                                      reason: "is not a time (expected ISO 8601, e.g. 2020-06-11T15:27:04.123Z)"))
            }
            return .success(.time(date))
        }
    }

    /// The value of `field` written as `text`; `nil` when blank.
    package static func value(_ field: EventField, text: String) -> Result<EventValue?, RowValidator.QuantityRefusal> {
        var text = text
        return text.withUTF8 { value(field, bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The value of `field` given as a number (a JSON number, milliseconds for a time).
    package static func value(_ field: EventField, number: Double) -> Result<EventValue?, RowValidator.QuantityRefusal> {
        guard number.isFinite else { return .failure(.init(shown: "\(number)", reason: "is not a finite number")) }
        switch field.spec.kind {
        case .text: return .success(.text(RowValidator.numberText(number)))
        case .time: return .success(.time(Date(timeIntervalSince1970: number / 1000)))
        case .number, .integer: return self.number(field, number, shown: { RowValidator.numberText(number) })
        }
    }

    private static func number(_ field: EventField, _ number: Double,
                               shown: () -> String) -> Result<EventValue?, RowValidator.QuantityRefusal> {
        guard field.spec.kind == .integer else { return .success(.number(number)) }
        guard number.rounded() == number, abs(number) < 9e15 else {
            return .failure(.init(shown: shown().trimmingBlanks(), reason: "is not a whole number"))
        }
        return .success(.integer(Int64(number)))
    }
}
