import Foundation

/// Reads a GeoJSON feed a window at a time: the top level's skeleton (its keys, and the
/// `features` array's elements) is followed byte by byte, and each feature, once its bytes are
/// whole, is read on its own: by ``GeoJSONFeatureReader`` in place, or where that reader
/// declines, parsed by Foundation's `JSONSerialization` for ``GeoJSONFeedDecoder``. Memory
/// holds one window and one feature, however long the file; the other top-level values
/// (`type`, `metadata`, or a lone `Feature`'s members) are kept as their bytes and parsed at
/// the end.
///
/// What this scanner checks is the skeleton: an object at the top, string keys, `:` and
/// `,` where they belong, balanced brackets and strings, nothing after the end. Everything
/// inside a value is `JSONSerialization`'s to judge. A broken document says where (line
/// and column); features before the break have been handed over by then, as the rows of a
/// CSV before a bad one are, and the run still fails.
package final class GeoJSONStream {
    private let decoder: GeoJSONFeedDecoder
    private let validator: RowValidator
    private var texts = ShortTextCache()
    /// The feature being captured was declined by the in-place reader, which is not asked again.
    private var declinedInPlace = false
    /// The most bytes one feature or top-level value may take.
    static let maximumValueBytes = 64 << 20

    /// Where the skeleton is.
    private enum Expect {
        case root, key, colon, value, afterValue, element, afterElement, end
    }
    private var expect = Expect.root
    /// Brackets open inside the value being captured (0: not in a container).
    private var nesting = 0
    private var inString = false, escaped = false
    /// Capturing a value's bytes: since `captureStart` in the current window, and those of earlier windows.
    private var capturing = false
    private var captureStart = 0
    private var captured: [UInt8] = []
    /// A scalar value (number, true, false, null) being captured: it ends at a delimiter.
    private var inScalar = false
    /// The key being read, and the last one read at the top level.
    private var readingKey = false
    private var key: [UInt8] = []
    private var currentKey = ""
    private var inFeatures = false, sawFeatures = false
    private var members: [String: [UInt8]] = [:]
    private var featureIndex = 0
    private var line = 1, column = 0
    /// Keeps each feature's bytes instead of decoding them (``parts(of:)``).
    private var keepsFeatures = false
    private var keptFeatures: [[UInt8]] = []

    init(decoder: GeoJSONFeedDecoder) {
        self.decoder = decoder
        validator = RowValidator(now: decoder.options.now ?? Date())
    }

    /// When the feed says it was generated, and what it calls itself (from `metadata`), once read.
    private(set) var generated: Date?
    private(set) var title: String?

    /// Reads `window`, handing each feature's event or rejection to `body` as soon as it is whole.
    func parse(_ window: UnsafeRawBufferPointer, isLast: Bool, _ body: (QuakeMLDecoder.Outcome) throws -> Void) throws {
        var index = 0
        let count = window.count
        while index < count {
            let byte = window[index]
            if byte == ASCII.lf {
                line += 1
                column = 0
            } else {
                column += 1
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if readingKey {
                        readingKey = false
                        currentKey = String(decoding: key, as: UTF8.self)
                        expect = .colon
                    } else if nesting == 0 {
                        try finishValue(window, upTo: index + 1, body)
                    }
                } else if readingKey {
                    key.append(byte)
                }
                index += 1
                continue
            }
            if inScalar {
                if Self.endsScalar(byte) {
                    try finishValue(window, upTo: index, body)
                    // The delimiter is read below as the skeleton's.
                } else {
                    index += 1
                    continue
                }
            }
            if nesting > 0 {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): nesting += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    nesting -= 1
                    if nesting == 0 { try finishValue(window, upTo: index + 1, body) }
                default: break
                }
                index += 1
                continue
            }
            if Self.isBlank(byte) {
                index += 1
                continue
            }
            if expect == .element, byte == UInt8(ascii: "{"), !keepsFeatures {
                switch GeoJSONFeatureReader.read(window, from: index, readsDetails: decoder.decodesDetails) {
                case .feature(let feature, let end):
                    // The feature lies whole in this window and was read in place.
                    advancePosition(over: UnsafeRawBufferPointer(rebasing: window[(index + 1)..<end]))
                    featureIndex += 1
                    expect = .afterElement
                    try body(decoder.outcome(of: feature, in: window, index: featureIndex, validator: validator, texts: &texts))
                    index = end
                    continue
                case .unsupported: declinedInPlace = true
                case .incomplete: break
                }
            }
            try skeleton(byte, at: index, window, body)
            index += 1
        }
        if capturing {
            captured.append(contentsOf: UnsafeRawBufferPointer(rebasing: window[captureStart..<count]))
            captureStart = 0
            if captured.count > Self.maximumValueBytes {
                throw malformed("a value longer than \(Self.maximumValueBytes >> 20) MiB")
            }
        }
        if isLast { try finish(body) }
    }

    /// A byte of the skeleton (outside any captured value).
    private func skeleton(_ byte: UInt8, at index: Int, _ window: UnsafeRawBufferPointer,
                          _ body: (QuakeMLDecoder.Outcome) throws -> Void) throws {
        switch expect {
        case .root:
            guard byte == UInt8(ascii: "{") else { throw malformed("the top level is not an object") }
            expect = .key
        case .key:
            if byte == UInt8(ascii: "}") && members.isEmpty && !sawFeatures { expect = .end; return }
            guard byte == UInt8(ascii: "\"") else { throw malformed("a key is not a string") }
            inString = true
            readingKey = true
            key.removeAll(keepingCapacity: true)
        case .colon:
            guard byte == UInt8(ascii: ":") else { throw malformed("no ':' after the key \"\(currentKey)\"") }
            expect = .value
        case .value:
            if currentKey == "features" && byte == UInt8(ascii: "[") {
                inFeatures = true
                sawFeatures = true
                expect = .element
                return
            }
            startValue(byte, at: index)
        case .afterValue:
            if byte == UInt8(ascii: ",") { expect = .key; return }
            guard byte == UInt8(ascii: "}") else { throw malformed("no ',' or '}' after the value of \"\(currentKey)\"") }
            expect = .end
        case .element:
            if byte == UInt8(ascii: "]") && featureIndex == 0 {
                inFeatures = false
                expect = .afterValue
                return
            }
            startValue(byte, at: index)
        case .afterElement:
            if byte == UInt8(ascii: ",") { expect = .element; return }
            guard byte == UInt8(ascii: "]") else { throw malformed("no ',' or ']' after feature \(featureIndex)") }
            inFeatures = false
            expect = .afterValue
        case .end:
            throw malformed("more after the end of the document")
        }
    }

    /// A value begins at `index`: a container, a string or a scalar, captured until it ends.
    private func startValue(_ byte: UInt8, at index: Int) {
        capturing = true
        captureStart = index
        captured.removeAll(keepingCapacity: true)
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["): nesting = 1
        case UInt8(ascii: "\""): inString = true
        default: inScalar = true
        }
    }

    /// The value being captured ends before `end` in this window: a feature is decoded now, a top-level member kept.
    private func finishValue(_ window: UnsafeRawBufferPointer, upTo end: Int,
                             _ body: (QuakeMLDecoder.Outcome) throws -> Void) throws {
        captured.append(contentsOf: UnsafeRawBufferPointer(rebasing: window[captureStart..<end]))
        capturing = false
        inScalar = false
        guard captured.count <= Self.maximumValueBytes else { throw malformed("a value longer than \(Self.maximumValueBytes >> 20) MiB") }
        if inFeatures {
            featureIndex += 1
            expect = .afterElement
            if keepsFeatures { return keptFeatures.append(captured) }
            // One that spanned windows, read as one that did not; the plain path for one that reader declined.
            let declined = declinedInPlace
            declinedInPlace = false
            let read = declined ? nil : captured.withUnsafeBytes { bytes -> QuakeMLDecoder.Outcome? in
                guard case .feature(let feature, let end) = GeoJSONFeatureReader.read(bytes, from: 0, readsDetails: decoder.decodesDetails),
                      end == bytes.count
                else { return nil }
                return decoder.outcome(of: feature, in: bytes, index: featureIndex, validator: validator, texts: &texts)
            }
            if let read { return try body(read) }
            let value: Any
            do {
                value = try JSONSerialization.jsonObject(with: Data(captured), options: .fragmentsAllowed)
            } catch {
                throw malformed("feature \(featureIndex) is not valid JSON")
            }
            try body(decoder.outcome(ofFeature: value, index: featureIndex, validator: validator))
        } else {
            expect = .afterValue
            members[currentKey] = captured
        }
    }

    /// The document has ended: its kind checked, its metadata read, a lone Feature decoded.
    private func finish(_ body: (QuakeMLDecoder.Outcome) throws -> Void) throws {
        guard expect == .end else {
            throw FeedError.malformedGeoJSON(source: decoder.source, reason: expect == .root && members.isEmpty
                ? "the JSON is not valid: the document is empty" : "the JSON is not valid: it ends before the document does")
        }
        func member(_ name: String) throws -> Any? {
            guard let bytes = members[name] else { return nil }
            do {
                return try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
            } catch {
                throw FeedError.malformedGeoJSON(source: decoder.source, reason: "the JSON is not valid: \"\(name)\" is not a JSON value")
            }
        }
        let type = try member("type") as? String
        if type == "Feature" && !sawFeatures {
            // A detail document (one event, its products): read as a collection of one.
            var feature: [String: Any] = [:]
            for name in members.keys { feature[name] = try member(name) }
            try body(decoder.outcome(ofFeature: feature, index: 1, validator: validator))
            return
        }
        guard type == "FeatureCollection" else {
            throw FeedError.malformedGeoJSON(source: decoder.source, reason: "the top level is not a FeatureCollection or a Feature")
        }
        guard sawFeatures else {
            throw FeedError.malformedGeoJSON(source: decoder.source, reason: "the FeatureCollection has no \"features\" array")
        }
        if let metadata = try member("metadata") as? [String: Any] {
            generated = GeoJSONFeedDecoder.generated(metadata)
            title = GeoJSONFeedDecoder.title(metadata["title"])
        }
    }

    /// A FeatureCollection's features and other top-level members as their bytes, unparsed (for
    /// joining pages into one document); `nil` when it is not one the reader would take.
    package static func parts(of document: Data) -> (features: [[UInt8]], members: [String: [UInt8]])? {
        let stream = GeoJSONStream(decoder: GeoJSONFeedDecoder(source: "", options: FeedOptions()))
        stream.keepsFeatures = true
        do {
            try document.withUnsafeBytes { try stream.parse($0, isLast: true) { _ in } }
        } catch {
            return nil
        }
        guard stream.sawFeatures else { return nil }
        return (stream.keptFeatures, stream.members.filter { $0.key != "features" })
    }

    /// Counts the lines and columns of bytes read past the byte-by-byte loop (memchr: most features hold no line break).
    private func advancePosition(over bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let end = base + bytes.count
        var from = base, lastBreak: UnsafeRawPointer?
        while from < end, let found = memchr(from, Int32(ASCII.lf), end - from) {
            line += 1
            lastBreak = UnsafeRawPointer(found)
            from = UnsafeRawPointer(found) + 1
        }
        column = lastBreak.map { end - $0 - 1 } ?? column + bytes.count
    }

    private func malformed(_ what: String) -> FeedError {
        .malformedGeoJSON(source: decoder.source, reason: "the JSON is not valid at line \(line), column \(column): \(what)")
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == ASCII.space || byte == ASCII.lf || byte == ASCII.cr || byte == ASCII.tab
    }

    /// Whether `byte` ends a number, `true`, `false` or `null`.
    private static func endsScalar(_ byte: UInt8) -> Bool {
        isBlank(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
    }
}
