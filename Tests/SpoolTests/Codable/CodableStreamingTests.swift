import Foundation
import Spool
import Testing

/// `Decodable` models streamed per element, sync, async and pushed.
@Suite("Codable streaming")
struct CodableStreamingTests {
    struct Member: Decodable, Equatable {
        let name: String
        let birthDate: Date
    }

    struct Band: Decodable {
        let name: String
        let members: [Member]
    }

    @Test func streamsTheCatalogsBandsWithCodableModels() throws {
        let stream = JSONStream(.file(SeedModelTests.bandsPath))
        var names: [String] = []
        try stream.elements(of: Band.self, at: "objects", decoder: Fixtures.catalogDecoder).forEach { names.append($0.name) }
        #expect(names == SeedModelTests.sampleNames)
        #expect(try stream.remainder().value("last_updated", .iso8601) == SeedModelTests.sampleLastUpdated)
    }

    @Test func anErrorsCodingPathStartsAtTheDocumentRoot() throws {
        let text = #"{"objects": [{"name": "A", "members": []}, {"name": "B", "members": [{"name": "M", "birth_date": "1970-13-01"}]}]}"#
        let bands = JSONStream(.string(text)).elements(of: Band.self, at: "objects", decoder: Fixtures.catalogDecoder)
        #expect(try bands.next()?.name == "A")
        let error = #expect(throws: DecodingError.self) { try bands.next() }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue } == ["objects", "[1]", "members", "[0]", "birthDate"])
        #expect(context.debugDescription == #"1:98: invalid date "1970-13-01" (expected yyyy-MM-dd)"#)
        #expect(context.underlyingError is DecodeError)
    }

    @Test func skippedElementsAreReportedWithTheirLocatedError() throws {
        struct Score: Decodable { let points: Int }
        let text = #"[{"points": 1}, {"points": "two"}, {"nope": 3}, {"points": 4}]"#
        var skipped: [(Int, String)] = []
        let scores = JSONStream(.string(text)).elements(of: Score.self, onError: .skip { skipped.append(($0.index, $0.error.description)) })
        var points: [Int] = []
        try scores.forEach { points.append($0.points) }
        #expect(points == [1, 4])
        #expect(skipped.map(\.0) == [1, 2])
        #expect(skipped[0].1 == #"1:28: error: expected Int at [1].points, found string "two""#)
        #expect(skipped[1].1.hasPrefix(#"1:36: error: No value associated with key "points""#))
    }

    /// Both conformances: the JSONDecodable one is used, and the call is not ambiguous.
    struct Both: JSONDecodable, Decodable {
        let via: String
        static func decode(_ e: Extractor) throws -> Both { Both(via: "JSONDecodable") }
        init(via: String) { self.via = via }
        init(from decoder: any Decoder) throws { via = "Decodable" }
    }

    @Test func aTypeWithBothConformancesUsesJSONDecodable() throws {
        let stream = JSONStream(.string("[{}, {}]"))
        #expect(try stream.elements(of: Both.self).next()?.via == "JSONDecodable")
        let explicit = JSONStream(.string("[{}]"))
        #expect(try explicit.elements(of: Both.self, decoder: StreamingJSONDecoder()).next()?.via == "Decodable")
        #expect(try StreamingJSONDecoder().decode(Both.self, from: .string("{}")).via == "Decodable")
    }

    @Test func asyncAndPushStreamsTakeDecodableModelsToo() async throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: SeedModelTests.bandsPath)))
        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: bytes.count, by: 97) {
                continuation.yield(Array(bytes[start..<min(bytes.count, start + 97)]))
            }
            continuation.finish()
        }
        var names: [String] = []
        for try await band in AsyncJSONStream(.chunks(chunks)).elements(of: Band.self, at: "objects", decoder: Fixtures.catalogDecoder) {
            names.append(band.name)
        }
        #expect(names == SeedModelTests.sampleNames)

        let push = PushJSONStream()
        let bands = push.elements(of: Band.self, at: "objects", decoder: Fixtures.catalogDecoder)
        var pushed: [String] = []
        for start in stride(from: 0, to: bytes.count, by: 50) {
            try push.append(bytes[start..<min(bytes.count, start + 50)])
            while let band = try bands.next() { pushed.append(band.name) }
        }
        try push.finishInput()
        while let band = try bands.next() { pushed.append(band.name) }
        #expect(pushed == SeedModelTests.sampleNames)

        let members = JSONStream(.string(#"{"a": {"name": "X", "birth_date": "2000-01-02"}}"#)).members(of: Member.self, decoder: Fixtures.catalogDecoder)
        #expect(try members.next()?.value.name == "X")
    }
}
