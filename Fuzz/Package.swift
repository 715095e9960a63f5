// swift-tools-version: 6.0
// Coverage-guided fuzzers (libFuzzer) for QuakeKit's parsers. A package of its
// own, so that the main package's `swift build` and `swift test` never build
// them: they link only with `-sanitize=fuzzer`. Build and run with ./run.sh.
import PackageDescription

let package = Package(
    name: "QuakeKitFuzz",
    dependencies: [
        .package(name: "quakemap", path: ".."),
    ],
    targets: [
        // Declares libFuzzer's LLVMFuzzerRunDriver, so that a Swift `main`
        // (SwiftPM's own) can hand control to libFuzzer.
        .target(name: "FuzzerDriver"),
        // The feed checks shared by fuzz-csv, fuzz-geojson and fuzz-fdsntext.
        .target(name: "FuzzSupport", dependencies: [.product(name: "QuakeKit", package: "quakemap")]),
        .executableTarget(name: "fuzz-csv", dependencies: ["FuzzerDriver", "FuzzSupport"]),
        .executableTarget(name: "fuzz-geojson", dependencies: ["FuzzerDriver", "FuzzSupport"]),
        .executableTarget(name: "fuzz-quakeml",
                          dependencies: ["FuzzerDriver", "FuzzSupport", .product(name: "QuakeKit", package: "quakemap")]),
        .executableTarget(name: "fuzz-fdsntext", dependencies: ["FuzzerDriver", "FuzzSupport"]),
        .executableTarget(name: "fuzz-cql", dependencies: ["FuzzerDriver", .product(name: "QuakeKit", package: "quakemap")]),
        .executableTarget(name: "fuzz-arguments", dependencies: ["FuzzerDriver", .product(name: "QuakeKit", package: "quakemap")]),
    ],
    swiftLanguageModes: [.v6]
)
