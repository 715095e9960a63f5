import Foundation

/// The executables SwiftPM built next to the running test bundle, for tests
/// that run them as a user would.
public enum BuiltExecutable {
    /// The built program `name` (`quakemap`, `quakemap-server`).
    public static func url(named name: String) -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL.appendingPathComponent(name)
    }
}
