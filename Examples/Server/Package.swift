// swift-tools-version: 6.0
import PackageDescription

// A Hummingbird server that stores band catalogs of any size, streamed in as they are uploaded,
// and an AsyncHTTPClient client: Spool over HTTP. Its own package, so that the library itself
// depends on nothing. See Sources/Spool/Spool.docc/StreamingOverHTTP.md.
let package = Package(
    name: "BandServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "band-server", targets: ["band-server"]),
        .executable(name: "band-client", targets: ["band-client"]),
    ],
    dependencies: [
        .package(name: "Spool", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // The store, the routes and the upload/download pipelines.
        .target(
            name: "BandServer",
            dependencies: [
                .product(name: "Spool", package: "Spool"),
                .product(name: "BandCatalog", package: "Spool"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Uploads a file and downloads the catalog back as a stream of models.
        .target(
            name: "BandClient",
            dependencies: [
                .product(name: "Spool", package: "Spool"),
                .product(name: "BandCatalog", package: "Spool"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(name: "band-server", dependencies: ["BandServer"]),
        .executableTarget(name: "band-client", dependencies: ["BandClient"]),
        .testTarget(
            name: "BandServerTests",
            dependencies: [
                "BandServer", "BandClient",
                .product(name: "Spool", package: "Spool"),
                .product(name: "BandCatalog", package: "Spool"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ]
)
