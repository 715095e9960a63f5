// swift-tools-version: 6.0
// The in-process stage benchmark (`quakemap-bench`): a package of its own, so that
// the main package's `swift build` and `swift test` never build it. `make bench`
// builds it in release mode and runs it; see run.sh.
import PackageDescription

let package = Package(
    name: "QuakeKitBenchmarks",
    dependencies: [
        .package(name: "quakemap", path: ".."),
    ],
    targets: [
        .executableTarget(name: "quakemap-bench", dependencies: [.product(name: "QuakeKit", package: "quakemap")]),
    ],
    swiftLanguageModes: [.v6]
)
