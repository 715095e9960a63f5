import Hummingbird

/// A request's query string read by the `application/x-www-form-urlencoded`
/// rules (WHATWG URL standard), which is how clients encode it: Python's
/// `requests` and OWSLib, `curl --data-urlencode`, HTML forms and the
/// browser's `URLSearchParams` all send a space as `+`. So `+` is a space,
/// `%2B` a plus, and percent-escapes are bytes of UTF-8.
///
/// Unlike browsers, which pass a malformed escape through as text, a bad
/// escape is refused: a filter that silently keeps `%zz` would match
/// something other than what the client meant.
enum FormQuery {
    /// The parameters in request order, names and values decoded.
    ///
    /// - Throws: ``Problem`` (400) naming the parameter whose name or value
    ///   has a `%` not followed by two hex digits, or escapes that are not UTF-8.
    static func parameters(_ query: Substring) throws(Problem) -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        for piece in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = piece.firstIndex(of: UInt8(ascii: "="))
            let rawName = equals.map { piece[..<$0] } ?? piece[...]
            let rawValue = equals.map { piece[piece.index(after: $0)...] } ?? piece[piece.endIndex...]
            // The name as sent, for messages, when the name itself cannot be decoded.
            let shown = String(decoding: rawName, as: UTF8.self)
            let name = try decode(rawName, parameter: shown, part: "name")
            parameters.append((name, try decode(rawValue, parameter: name, part: "value")))
        }
        return parameters
    }

    /// The parameters of `request`'s query string; see ``parameters(_:)``.
    static func parameters(of request: Request) throws(Problem) -> [(name: String, value: String)] {
        guard let query = request.uri.query else { return [] }
        return try parameters(Substring(query))
    }

    private static func decode(_ bytes: Substring.UTF8View.SubSequence, parameter: String, part: String) throws(Problem) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "+"):
                decoded.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let high = bytes.index(after: index)
                let low = high == bytes.endIndex ? high : bytes.index(after: high)
                guard low != bytes.endIndex, let h = hexValue(bytes[high]), let l = hexValue(bytes[low]) else {
                    let escape = String(decoding: bytes[index...].prefix(3), as: UTF8.self)
                    throw Problem.badParameter(parameter, "the \(part) has '\(escape)', which is not a percent-escape (% and two hex digits; a literal % is %25)")
                }
                decoded.append(h << 4 | l)
                index = low
            default:
                decoded.append(byte)
            }
            index = bytes.index(after: index)
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw Problem.badParameter(parameter, "the \(part)'s percent-escapes are not UTF-8")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
