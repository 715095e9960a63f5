// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "quakemap",
    products: [
        .library(name: "QuakeKit", targets: ["QuakeKit"]),
        .library(name: "QuakeFetch", targets: ["QuakeFetch"]),
        .library(name: "QuakeMBTiles", targets: ["QuakeMBTiles"]),
        .executable(name: "quakemap", targets: ["quakemap"]),
        .executable(name: "quakemap-server", targets: ["quakemap-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
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
        // The CSV scanner's 64-byte block test (SSE2 compares to a bit mask).
        .target(name: "CByteScan"),
        // The built-in land as compact bytes, generated from Data/basemap by
        // scripts/embed_basemap.py: compiled C, since a Swift array literal this size takes
        // minutes to type-check and a resource bundle must be found beside the binary.
        .target(name: "CBasemapData"),
        .target(
            name: "QuakeKit",
            dependencies: [
                "CCairo",
                "CByteScan",
                "CPNGEncoder",
                "CBasemapData",
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        // Networking lives apart, so that embedding QuakeKit pulls in no HTTP stack.
        .target(
            name: "QuakeFetch",
            dependencies: ["QuakeKit"]
        ),
        // MBTiles (SQLite) apart, so that embedding QuakeKit pulls in no database.
        .target(
            name: "QuakeMBTiles",
            dependencies: ["QuakeKit", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // What both executables share: input, fetch and filter options, loading, logging, exit codes.
        .target(
            name: "QuakeCommand",
            dependencies: [
                "QuakeKit",
                "QuakeFetch",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "quakemap",
            dependencies: [
                "QuakeKit",
                "QuakeFetch",
                "QuakeMBTiles",
                "QuakeCommand",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The HTTP service; its framework is compiled only for the server, never for `quakemap`.
        .target(
            name: "QuakeServer",
            dependencies: [
                "QuakeKit",
                "QuakeFetch",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The web map's page, script and style, copied beside the executable.
            resources: [.copy("Web")]
        ),
        .executableTarget(
            name: "quakemap-server",
            dependencies: [
                "QuakeKit",
                "QuakeServer",
                "QuakeCommand",
                .product(name: "Hummingbird", package: "hummingbird"),
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
            dependencies: ["QuakeKit", "FeedTestServer", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: ["QuakeServer", "QuakeKit", "QuakeFetch", "FeedTestServer", .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "QuakeFetchTests",
            dependencies: ["QuakeFetch", "QuakeKit", "FeedTestServer"]
        ),
        // A loopback HTTP server with byte-level fault injection, for tests only.
        .target(
            name: "FeedTestServer",
            path: "Tests/FeedTestServer"
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The AddressSanitizer pass of `make test-sanitize` leaves the HTTP server out
// (QUAKEMAP_CORE_ONLY=1): the server is Swift without unsafe code, so ASan has
// little to find there, while building Hummingbird and SwiftNIO once more
// costs minutes of every CI run. ThreadSanitizer keeps it (actors, the render
// gate and the cache are where races would be).
if Context.environment["QUAKEMAP_CORE_ONLY"] == "1" {
    let server: Set<String> = ["QuakeServer", "quakemap-server", "ServerTests"]
    package.targets.removeAll { server.contains($0.name) }
    package.products.removeAll { server.contains($0.name) }
    package.dependencies.removeAll { dependency in
        if case let .sourceControl(_, location, _) = dependency.kind { return location.hasSuffix("/hummingbird") }
        return false
    }
}
