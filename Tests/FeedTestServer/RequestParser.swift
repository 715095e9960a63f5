import Foundation

/// Parsing of the request head (request line + header fields). Bodies are ignored:
/// the feed fetcher only sends GET.
enum RequestParser {
    /// Largest request head accepted; anything longer is answered with 400.
    static let maxHeadBytes = 64 * 1024

    /// Index just past the blank line ending the head, if `buffer` has one.
    /// Accepts a bare `\n\n` as well as `\r\n\r\n`, to be lenient with hand-written raw requests.
    static func headEnd(in buffer: [UInt8]) -> Int? {
        var i = 0
        while i < buffer.count {
            if buffer[i] == 0x0A {  // \n
                if i + 1 < buffer.count, buffer[i + 1] == 0x0A { return i + 2 }
                if i + 2 < buffer.count, buffer[i + 1] == 0x0D, buffer[i + 2] == 0x0A { return i + 3 }
            }
            i += 1
        }
        return nil
    }

    /// Parses a request head; nil if the request line is malformed.
    static func parse(_ head: [UInt8]) -> RecordedRequest? {
        // Lossy UTF-8 decoding: odd bytes must not make the server fail, only look odd.
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        // Tolerate stray empty lines before the request line (RFC 9112 section 2.2).
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        guard let requestLine = lines.first else { return nil }

        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/") else { return nil }

        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }  // skip junk lines
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { continue }
            if let existing = headers[name] {
                headers[name] = existing + ", " + value
            } else {
                headers[name] = value
            }
        }
        return RecordedRequest(method: String(parts[0]), path: String(parts[1]), headers: headers)
    }

    /// The part of a request target used for routing: no query string or fragment.
    static func routePath(_ target: String) -> String {
        var path = Substring(target)
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            path = path[..<cut]
        }
        return String(path)
    }
}
