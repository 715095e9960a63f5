import Foundation
import Testing
import QuakeKit

/// Compares decoded pixels with a tolerance (never PNG bytes, which change
/// with encoder versions) and, on failure, writes an expected | diff | actual strip.
struct ImageComparison {
    /// A channel may differ by this much before the pixel counts as different.
    static let channelTolerance = 8
    /// At most this share of pixels may differ.
    static let maximumDifferingShare = 0.001
    /// The mean absolute channel difference may not exceed this (in 0…255 units).
    static let maximumMeanDifference = 0.5

    struct Result {
        var differingPixels: Int
        var meanDifference: Double
        var diff: RasterImage
        var total: Int

        var matches: Bool {
            Double(differingPixels) <= Double(total) * ImageComparison.maximumDifferingShare
                && meanDifference <= ImageComparison.maximumMeanDifference
        }
    }

    static func compare(_ expected: RasterImage, _ actual: RasterImage) -> Result? {
        guard expected.width == actual.width, expected.height == actual.height else { return nil }
        var differing = 0
        var sum = 0
        var diff = [UInt8](repeating: 255, count: expected.rgba.count)
        for pixel in 0..<(expected.width * expected.height) {
            var worst = 0
            for channel in 0..<4 {
                let delta = abs(Int(expected.rgba[pixel * 4 + channel]) - Int(actual.rgba[pixel * 4 + channel]))
                sum += delta
                worst = max(worst, delta)
            }
            if worst > channelTolerance {
                differing += 1
                diff[pixel * 4] = 255
                diff[pixel * 4 + 1] = 0
                diff[pixel * 4 + 2] = 255
            } else {
                let grey = UInt8(255 - min(255, worst * 16))
                diff[pixel * 4] = grey
                diff[pixel * 4 + 1] = grey
                diff[pixel * 4 + 2] = grey
            }
        }
        let total = expected.width * expected.height
        return Result(differingPixels: differing, meanDifference: Double(sum) / Double(total * 4),
                      diff: RasterImage(width: expected.width, height: expected.height, rgba: diff), total: total)
    }

    static func strip(_ images: [RasterImage]) -> RasterImage {
        let width = images.reduce(0) { $0 + $1.width }
        let height = images.map(\.height).max() ?? 0
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        var left = 0
        for image in images {
            for y in 0..<image.height {
                let source = y * image.width * 4
                let target = (y * width + left) * 4
                rgba.replaceSubrange(target..<(target + image.width * 4), with: image.rgba[source..<(source + image.width * 4)])
            }
            left += image.width
        }
        return RasterImage(width: width, height: height, rgba: rgba)
    }
}

/// Where references live, and the switch that re-records them.
enum GoldenFiles {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let references = root.appendingPathComponent("Tests/GoldenImageTests/References")
    static let failures = root.appendingPathComponent(".build/golden-failures")
    /// `QUAKEMAP_RECORD_GOLDEN=1 swift test --filter GoldenImageTests` rewrites the references (and fails, so it is never left on).
    static var recording: Bool { ProcessInfo.processInfo.environment["QUAKEMAP_RECORD_GOLDEN"] == "1" }

    static func check(_ actual: RasterImage, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let referenceURL = references.appendingPathComponent(name + ".png")
        if recording {
            try FileManager.default.createDirectory(at: references, withIntermediateDirectories: true)
            try actual.pngData().write(to: referenceURL)
            Issue.record("recorded \(referenceURL.path); run again without QUAKEMAP_RECORD_GOLDEN", sourceLocation: sourceLocation)
            return
        }
        let expected = try RasterImage(png: Data(contentsOf: referenceURL))
        guard let result = ImageComparison.compare(expected, actual) else {
            Issue.record("\(name): size \(actual.width)×\(actual.height), reference \(expected.width)×\(expected.height)",
                         sourceLocation: sourceLocation)
            return
        }
        if !result.matches {
            try FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
            let stripURL = failures.appendingPathComponent(name + "-expected-diff-actual.png")
            try ImageComparison.strip([expected, result.diff, actual]).pngData().write(to: stripURL)
            Issue.record("""
                \(name): \(result.differingPixels) of \(result.total) pixels differ by more than \
                \(ImageComparison.channelTolerance)/255, mean difference \(result.meanDifference); see \(stripURL.path)
                """, sourceLocation: sourceLocation)
        }
    }
}
