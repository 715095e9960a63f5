import Foundation
import QuakeModel
import QuakeParse

/// Evaluates a ``CQLExpression`` on an event with CQL2's three-valued logic:
/// a comparison with a missing value (a `NULL` magnitude, say) is unknown,
/// `NOT` unknown is unknown, and only events for which the filter is true are kept.
package enum CQLEvaluator {
    package enum Scalar: Equatable {
        case number(Double), string(String), timestamp(Date), boolean(Bool), null
    }

    package static func evaluate(_ expression: CQLExpression, _ event: SeismicEvent) -> Bool? {
        switch expression {
        case let .and(left, right):
            let a = evaluate(left, event)
            if a == false { return false }
            let b = evaluate(right, event)
            if b == false { return false }
            return a == true && b == true ? true : nil
        case let .or(left, right):
            let a = evaluate(left, event)
            if a == true { return true }
            let b = evaluate(right, event)
            if b == true { return true }
            return a == false && b == false ? false : nil
        case .not(let inner):
            return evaluate(inner, event).map { !$0 }
        case .constant(let value):
            return value
        case let .comparison(symbol, left, right):
            return compare(value(left, event), value(right, event)).map { order in
                switch symbol {
                case "=": return order == 0
                case "<>": return order != 0
                case "<": return order < 0
                case "<=": return order <= 0
                case ">": return order > 0
                default: return order >= 0
                }
            }
        case let .like(subject, pattern, negated):
            guard case .string(let text) = value(subject, event), case .string(let wildcard) = value(pattern, event) else { return nil }
            return matchesLike(Array(text), Array(wildcard)) != negated
        case let .between(subject, low, high, negated):
            let scalar = value(subject, event)
            guard let fromLow = compare(scalar, value(low, event)), let toHigh = compare(scalar, value(high, event)) else { return nil }
            return (fromLow >= 0 && toHigh <= 0) != negated
        case let .inList(subject, values, negated):
            let scalar = value(subject, event)
            if scalar == .null { return nil }
            var sawUnknown = false
            for candidate in values {
                switch compare(scalar, value(candidate, event)) {
                case 0?: return !negated
                case nil: sawUnknown = true
                default: continue
                }
            }
            return sawUnknown ? nil : negated
        case let .isNull(subject, negated):
            return (value(subject, event) == .null) != negated
        case let .spatial(spatial, geometry):
            let inside = geometry.contains(latitude: event.latitude, longitude: event.longitude)
            return spatial == .disjoint ? !inside : inside
        }
    }

    package static func value(_ value: CQLValue, _ event: SeismicEvent) -> Scalar {
        switch value {
        case .property(let property):
            // Types compare as the type filters do: `eq` and an empty type are earthquakes.
            if property == .type { return .string(EventType.normalized(event.eventType)) }
            switch event[property] {
            case nil: return .null
            case .number(let number)?: return .number(number)
            case .integer(let integer)?: return .number(Double(integer))
            case .text(let text)?: return .string(text)
            case .time(let date)?: return .timestamp(date)
            }
        case .number(let number): return .number(number)
        case .string(let text): return .string(text)
        case .timestamp(let date): return .timestamp(date)
        case .boolean(let flag): return .boolean(flag)
        case let .arithmetic(symbol, left, right):
            guard case .number(let a) = self.value(left, event), case .number(let b) = self.value(right, event) else { return .null }
            let result: Double
            switch symbol {
            case "+": result = a + b
            case "-": result = a - b
            case "*": result = a * b
            case "/": result = a / b
            default: result = a.truncatingRemainder(dividingBy: b)
            }
            return result.isFinite ? .number(result) : .null
        case .negated(let inner):
            guard case .number(let number) = self.value(inner, event) else { return .null }
            return .number(-number)
        case .caseInsensitive(let inner):
            guard case .string(let text) = self.value(inner, event) else { return .null }
            return .string(text.lowercased())
        case .accentInsensitive(let inner):
            guard case .string(let text) = self.value(inner, event) else { return .null }
            return .string(text.folding(options: .diacriticInsensitive, locale: nil))
        }
    }

    /// −1, 0 or 1; `nil` when either side is missing (types were checked when parsing).
    package static func compare(_ left: Scalar, _ right: Scalar) -> Int? {
        switch (left, right) {
        case let (.number(a), .number(b)): return a < b ? -1 : (a > b ? 1 : 0)
        case let (.string(a), .string(b)): return a < b ? -1 : (a > b ? 1 : 0)
        case let (.timestamp(a), .timestamp(b)): return a < b ? -1 : (a > b ? 1 : 0)
        case let (.boolean(a), .boolean(b)): return a == b ? 0 : (a ? 1 : -1)
        default: return nil
        }
    }

    /// `%` any run, `_` one character, `\` makes the next character literal.
    package static func matchesLike(_ text: [Character], _ pattern: [Character]) -> Bool {
        // Tokens: (character, isWildcardRun, isSingle)
        var tokens: [(Character?, Bool)] = []  // (literal, isPercent); literal nil + false = '_'
        var index = 0
        while index < pattern.count {
            let character = pattern[index]
            if character == "\\", index + 1 < pattern.count {
                tokens.append((pattern[index + 1], false))
                index += 2
                continue
            }
            switch character {
            case "%": tokens.append((nil, true))
            case "_": tokens.append((nil, false))
            default: tokens.append((character, false))
            }
            index += 1
        }
        // Dynamic programming over (text position, token position): linear memory, no backtracking blow-up.
        var reachable = [Bool](repeating: false, count: text.count + 1)
        reachable[0] = true
        for (literal, isPercent) in tokens {
            var next = [Bool](repeating: false, count: text.count + 1)
            if isPercent {
                var any = false
                for position in 0...text.count {
                    any = any || reachable[position]
                    next[position] = any
                }
            } else {
                for position in 0..<text.count where reachable[position] {
                    if literal == nil || literal == text[position] { next[position + 1] = true }
                }
            }
            reachable = next
        }
        return reachable[text.count]
    }
}
