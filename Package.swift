// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "quakemap",
    products: [
        .library(name: "QuakeKit", targets: ["QuakeKit"]),
        .executable(name: "quakemap", targets: ["quakemap"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        .target(
            name: "QuakeKit",
            dependencies: [
                "CCairo",
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        .executableTarget(
            name: "quakemap",
            dependencies: [
                "QuakeKit",
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
            dependencies: ["QuakeKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
