// swift-tools-version: 6.0
import PackageDescription

// A libFuzzer target for Spool, kept out of the main package (it only links with
// `--sanitize=fuzzer`). Build and run it as Fuzz/README.md says.
let package = Package(
    name: "SpoolFuzz",
    dependencies: [.package(name: "Spool", path: "..")],
    targets: [
        .executableTarget(
            name: "SpoolFuzz",
            dependencies: [.product(name: "Spool", package: "Spool")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
