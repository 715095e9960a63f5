import Foundation
import Logging

/// How the run's lines on standard error look.
package enum LogFormat: String, CaseIterable {
    /// `warning: …`, `quakemap: …` for errors, the summary as a plain line.
    case text
    /// One JSON object per line, for log collectors.
    case json
}

/// Writes swift-log records to standard error as text or JSON lines. The
/// project writes this handler itself because swift-log ships none for stderr
/// JSON; it stays small by serving only this CLI's one-line-per-event style.
package struct StderrLogHandler: LogHandler {
    package let format: LogFormat
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let line: String
        switch format {
        case .text:
            switch event.level {
            case .debug, .trace: line = "debug: \(event.message)"
            case .warning: line = "warning: \(event.message)"
            case .error, .critical: line = "quakemap: \(event.message)"
            default: line = "\(event.message)"
            }
        case .json:
            var object: [String: Any] = [
                "level": event.level.rawValue,
                "message": event.message.description,
                "time": ISO8601DateFormatter().string(from: Date()),
            ]
            for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
                object[key] = Self.plain(value)
            }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            line = String(decoding: data, as: UTF8.self)
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Numbers stay numbers in JSON (swift-log carries them as strings).
    private static func plain(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .string(let text): return text
        case .stringConvertible(let convertible):
            if let number = convertible as? Int { return number }
            if let number = convertible as? Double { return number }
            if let flag = convertible as? Bool { return flag }
            return convertible.description
        case .array(let values): return values.map(plain)
        case .dictionary(let entries): return entries.mapValues(plain)
        }
    }
}
