// swift-tools-version: 6.0
// A program outside quakemap's package: it sees only QuakeKit's public API, as an embedding
// program does. Its sources are the DocC articles' code (copied in by
// scripts/article_examples.py) and main.swift, which runs each on the bundled sample.
import PackageDescription

let package = Package(
    name: "quakemap-outside",
    dependencies: [.package(name: "quakemap", path: "../..")],
    targets: [
        .executableTarget(
            name: "ArticleExamples",
            dependencies: [.product(name: "QuakeKit", package: "quakemap")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
