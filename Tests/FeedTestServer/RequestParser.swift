import Foundation

/// Parsing of the request head (request line + header fields). Bodies are ignored:
/// the feed fetcher only sends GET.
enum RequestParser {
    /// Largest request head accepted; anything longer is answered with 400.
    static let maxHeadBytes = 64 * 1024

    /// Index just past the blank line ending the head, if `buffer` has one.
    /// Accepts a bare `\n\n` as well as `\r\n\r\n`, to be lenient with hand-written raw requests.
    /// Scanning starts at `start` so repeated calls on a growing buffer stay linear.
    static func headEnd(in buffer: [UInt8], from start: Int = 0) -> Int? {
        var i = max(0, start)
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
        // Split on LF bytes, not on Characters: in Swift "\r\n" is a single Character and
        // would never match "\n". Lossy UTF-8 decoding: odd bytes make a line look odd,
        // they don't make the server fail.
        var lines = head.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
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
