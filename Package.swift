// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Spool",
    // AsyncIteratorProtocol.next(isolation:) is new in the Swift 6 runtime.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Spool", targets: ["Spool"]),
        .executable(name: "spool", targets: ["SpoolCLI"]),
        // The Himotoki tutorial's band models, shared by the demo, the tests and the benchmarks.
        .library(name: "BandCatalog", targets: ["BandCatalog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C: the system yajl 2.1 (Debian/Ubuntu: libyajl-dev, macOS: brew install yajl).
        .systemLibrary(
            name: "CYajl",
            path: "CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"]), .brew(["yajl"])]
        ),

        // Library
        .target(
            name: "Spool",
            dependencies: ["CYajl"],
            swiftSettings: [
                .swiftLanguageMode(.v6),
                // Async API runs on its caller's actor, so main-actor code can use a stream
                // and hand it a non-Sendable AsyncSequence (Swift 6.2 and later).
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
            ]
        ),

        // Examples: the band catalog of the Himotoki tutorial, as models.
        .target(
            name: "BandCatalog",
            dependencies: ["Spool"],
            path: "Examples/BandCatalog",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // Tool
        .executableTarget(
            name: "SpoolCLI",
            dependencies: [
                "Spool",
                "BandCatalog",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // Tests
        .testTarget(
            name: "SpoolTests",
            dependencies: ["Spool", "BandCatalog"],
            resources: [.copy("Fixtures")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "SpoolCLITests",
            dependencies: ["SpoolCLI"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
