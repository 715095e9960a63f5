import Foundation

/// Event types as USGS spells them today.
package enum EventType {
    /// Lowercased, `_` as a space, and the old spellings `quarry` and
    /// `quarry_blast` as today's `quarry blast`, so that filters and counts
    /// treat every era's feed alike.
    package static func normalized(_ type: String) -> String {
        let spelled = type.lowercased().replacingOccurrences(of: "_", with: " ")
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        switch spelled {
        case "", "eq": return "earthquake"
        case "quarry": return "quarry blast"
        default: return spelled
        }
    }

    /// The event types QuakeML 1.2 (BED) allows, its `EventType` enumeration.
    package static let quakeMLTypes: Set<String> = [
        "not existing", "not reported", "earthquake", "anthropogenic event", "collapse", "cavity collapse",
        "mine collapse", "building collapse", "explosion", "accidental explosion", "chemical explosion",
        "controlled explosion", "experimental explosion", "industrial explosion", "mining explosion",
        "quarry blast", "road cut", "blasting levee", "nuclear explosion", "induced or triggered event",
        "rock burst", "reservoir loading", "fluid injection", "fluid extraction", "crash", "plane crash",
        "train crash", "boat crash", "other event", "atmospheric event", "sonic boom", "sonic blast",
        "acoustic noise", "thunder", "avalanche", "snow avalanche", "debris avalanche", "hydroacoustic event",
        "ice quake", "slide", "landslide", "rockslide", "meteorite", "volcanic eruption",
    ]

    /// `type` as a QuakeML event type: itself or its normalized spelling
    /// (``normalized(_:)``) when QuakeML's list has it, else `other event`.
    package static func quakeML(_ type: String) -> String {
        if quakeMLTypes.contains(type) { return type }
        let normalized = EventType.normalized(type)
        return quakeMLTypes.contains(normalized) ? normalized : "other event"
    }

    /// Whether `type` normalizes to `earthquake` (``normalized(_:)``), without
    /// making strings: a map asks this of every event.
    package static func isEarthquake(_ type: String) -> Bool {
        if type == "earthquake" { return true }
        var type = type
        if let answer = type.withUTF8({ isEarthquake(ascii: UnsafeRawBufferPointer($0)) }) { return answer }
        return normalized(type) == "earthquake"
    }

    /// ``isEarthquake(_:)`` of ASCII bytes, read as they are: blank, `eq` or
    /// `earthquake` in any case, with spaces or `_` around it; `nil` when a
    /// byte is not ASCII (lowercasing is then Unicode's, so the string decides).
    package static func isEarthquake(ascii bytes: UnsafeRawBufferPointer) -> Bool? {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x5F { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x5F { end -= 1 }
        // Anything but the two words spelled whole is another type, once every byte is known to be ASCII.
        let word: StaticString
        switch end - start {
        case 0: return true
        case 2: word = "eq"
        case 10: word = "earthquake"
        default: return bytes.contains(where: { $0 >= 0x80 }) ? nil : false
        }
        var matches = true
        for offset in 0..<(end - start) {
            let byte = bytes[start + offset]
            if byte >= 0x80 { return nil }
            // ASCII letters differ from their capitals in bit 5 only.
            if byte | 0x20 != word.utf8Start[offset] { matches = false }
        }
        return matches
    }
}
