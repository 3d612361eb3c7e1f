// swift-tools-version: 6.0
import PackageDescription

// Benchmarks for Spool, kept out of the main package so its tests never time anything.
// Run them with `python3 Benchmarks/bench.py` (see Benchmarks/README.md).
let package = Package(
    name: "SpoolBenchmarks",
    dependencies: [
        .package(name: "Spool", path: ".."),
    ],
    targets: [
        // The peer: raw yajl 2.1 with callbacks that only count, fed by 64 KiB read(2) calls.
        .target(
            name: "RawYajl",
            linkerSettings: [.linkedLibrary("yajl")]
        ),
        // A deterministic band catalog of the Himotoki tutorial's schema, of any size.
        .executableTarget(
            name: "GenerateCatalog",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // One process per measurement: `spool-bench MODE FILE`.
        .executableTarget(
            name: "SpoolBench",
            dependencies: [
                "RawYajl", .product(name: "Spool", package: "Spool"),
                .product(name: "BandCatalog", package: "Spool"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // How deep recursive Codable models decode on a 512 KiB stack, against JSONDecoder.
        .executableTarget(
            name: "SpoolStackDepth",
            dependencies: [.product(name: "Spool", package: "Spool")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
