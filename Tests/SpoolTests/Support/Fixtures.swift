import Foundation
@testable import Spool

/// Test data shipped in `Tests/SpoolTests/Fixtures`.
enum Fixtures {
    static let root: URL = {
        if let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) { return url }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
    }()

    static var parsingDirectory: URL { root.appendingPathComponent("JSONTestSuite/test_parsing") }
    static var transformDirectory: URL { root.appendingPathComponent("JSONTestSuite/test_transform") }

    static func names(in directory: URL, prefix: String = "") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    static func bytes(_ name: String, in directory: URL = parsingDirectory) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))) ?? []
    }

    static func path(_ name: String, in directory: URL = root) -> String {
        directory.appendingPathComponent(name).path
    }

    /// A decoder for the band catalog's `Decodable` models: snake-case keys, `yyyy-MM-dd`
    /// dates. A new one on each call, since a decoder is a class.
    static var catalogDecoder: StreamingJSONDecoder {
        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .pattern("yyyy-MM-dd")
        return decoder
    }
}
