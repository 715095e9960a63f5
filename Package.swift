// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "quakemap",
    products: [
        .library(name: "QuakeKit", targets: ["QuakeKit"]),
        .library(name: "QuakeFetch", targets: ["QuakeFetch"]),
        .executable(name: "quakemap", targets: ["quakemap"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        // A small PNG writer over zlib: faster settings than Cairo's PNG writer allows,
        // and stripes deflated on every core.
        .target(
            name: "CPNGEncoder",
            linkerSettings: [.linkedLibrary("z"), .linkedLibrary("pthread")]
        ),
        .target(
            name: "QuakeKit",
            dependencies: [
                "CCairo",
                "CPNGEncoder",
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        // Networking lives apart, so that embedding QuakeKit pulls in no HTTP stack.
        .target(
            name: "QuakeFetch",
            dependencies: ["QuakeKit"]
        ),
        .executableTarget(
            name: "quakemap",
            dependencies: [
                "QuakeKit",
                "QuakeFetch",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "QuakeKitTests",
            dependencies: ["QuakeKit"]
        ),
        .testTarget(
            name: "GoldenImageTests",
            dependencies: ["QuakeKit"],
            exclude: ["References"]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["QuakeKit", "FeedTestServer"]
        ),
        .testTarget(
            name: "QuakeFetchTests",
            dependencies: ["QuakeFetch", "FeedTestServer"]
        ),
        // A loopback HTTP server with byte-level fault injection, for tests only.
        .target(
            name: "FeedTestServer",
            path: "Tests/FeedTestServer"
        ),
    ],
    swiftLanguageModes: [.v6]
)
