// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for Spool, kept out of the main package (they only link with
// `--sanitize=fuzzer`). One executable per fuzz entry point, each with its own
// `LLVMFuzzerTestOneInput`; FuzzSupport holds what they share (input flags, chunk plans, the
// path to stream, the reference tree, reference number rules, tolerations). Build and run
// them as Fuzz/README.md says.
let spool = Target.Dependency.product(name: "Spool", package: "Spool")
let settings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "SpoolFuzz",
    dependencies: [.package(name: "Spool", path: "..")],
    targets: [
        // Cursor, chunking, incremental input, validation and round trip.
        .executableTarget(name: "SpoolFuzz", dependencies: [spool], swiftSettings: settings),
        // JSONStream elements / count / members / remainder, background vs one thread vs reference.
        .executableTarget(name: "SpoolFuzzStream", dependencies: ["FuzzSupport", spool], swiftSettings: settings),
        // decodeValue of JSONValue, collections and models vs a reference built from tokens.
        .executableTarget(name: "SpoolFuzzDecode", dependencies: ["FuzzSupport", spool], swiftSettings: settings),
        // Double and Float from number text (NumberConversion, a testing SPI) vs strtod/strtof.
        .executableTarget(name: "SpoolFuzzNumbers", dependencies: ["FuzzSupport", spool], swiftSettings: settings),
        // JSONWriter round trip vs a reference serializer; StreamingJSONEncoder vs JSONEncoder.
        .executableTarget(name: "SpoolFuzzWriter", dependencies: ["FuzzSupport", spool], swiftSettings: settings),
        // PushJSONStream fed random chunks vs JSONStream in one chunk.
        .executableTarget(name: "SpoolFuzzPush", dependencies: ["FuzzSupport", spool], swiftSettings: settings),
        // JSONStream/AsyncJSONStream elements and members of a Decodable vs of JSONValue.
        .executableTarget(name: "SpoolFuzzCodableStream", dependencies: ["FuzzSupport", spool], swiftSettings: settings),
        // The element pre-scan of the parallel pipeline (a testing SPI) vs the serial parser.
        .executableTarget(name: "SpoolFuzzScan", dependencies: ["FuzzSupport", spool], swiftSettings: settings),
        // Elements decoded on several threads (`parallelism:`) vs the serial stream.
        .executableTarget(name: "SpoolFuzzParallel", dependencies: ["FuzzSupport", spool], swiftSettings: settings),
        .target(name: "FuzzSupport", dependencies: [spool], swiftSettings: settings),
    ]
)
