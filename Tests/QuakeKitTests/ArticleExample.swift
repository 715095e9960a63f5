import Foundation
import Testing

/// A DocC article's code, checked to be exactly the code a test file compiles and runs,
/// so the documentation cannot drift from what builds.
enum ArticleExample {
    /// Whether the first Swift block of `article` (a path under the catalog), less its
    /// imports, is what stands between `// BEGIN EXAMPLE` and `// END EXAMPLE` in `testFile`.
    static func check(article: String, testFile: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = try String(contentsOf: GettingStartedExampleTests.root.appendingPathComponent(
            "Sources/QuakeKit/QuakeKit.docc/" + article), encoding: .utf8)
        let block = try #require(text.components(separatedBy: "```swift\n").dropFirst().first, sourceLocation: sourceLocation)
            .components(separatedBy: "```")[0]
        let source = try String(contentsOf: URL(fileURLWithPath: testFile), encoding: .utf8)
        let example = source.components(separatedBy: "// BEGIN EXAMPLE\n")[1].components(separatedBy: "// END EXAMPLE")[0]
        let code = block.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0.hasPrefix("import") || $0.isEmpty }.joined(separator: "\n")
        #expect(code == example, sourceLocation: sourceLocation)
    }
}
