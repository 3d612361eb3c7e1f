import Foundation
import Testing
@testable import Spool

/// The library's own failures have codes of their own, not `.missingKey` or `.custom` (which
/// are a missing key and a model's own error).
@Suite("Failure codes")
struct FailureCodeTests {
    struct Band: JSONDecodable, Decodable {
        let name: String
        static func decode(_ e: Extractor) throws -> Band { try Band(name: e <| "name") }
    }

    /// An empty input is a ``ParseError`` (it is not JSON); an empty NDJSON input is valid,
    /// with no value to decode or keep.
    @Test func anInputWithNoValueIsNoValue() async {
        var lines = JSONParsingOptions()
        lines.allowsMultipleValues = true
        for text in ["", "  \n\t "] {
            #expect(throws: ParseError.self) { _ = try Band.decodeValue(from: .string(text)) }
            let decoded = #expect(throws: DecodeError.self) { _ = try Band.decodeValue(from: .string(text), options: lines) }
            #expect(decoded?.code == .noValue, "\(text.debugDescription)")
            let remainder = #expect(throws: DecodeError.self) { _ = try JSONStream(.string(text), options: lines).remainder() }
            #expect(remainder?.code == .noValue, "\(text.debugDescription)")
            let decoder = StreamingJSONDecoder()
            decoder.options = lines
            let codable = #expect(throws: DecodingError.self) { _ = try decoder.decode(Band.self, from: Data(text.utf8)) }
            guard case .dataCorrupted(let context)? = codable else { Issue.record("\(String(describing: codable))"); continue }
            #expect((context.underlyingError as? DecodeError)?.code == .noValue)
            let chunks = AsyncStream<[UInt8]> { $0.yield(Array(text.utf8)); $0.finish() }
            await #expect(throws: DecodeError.self) { _ = try await Band.decodeValue(from: .chunks(chunks), options: lines) }
        }
    }

    /// The `DecodeError` under a Codable `dataCorrupted` error for `json` decoded as `T`.
    func underlying<T: Decodable>(_ type: T.Type, _ json: String, _ decoder: StreamingJSONDecoder = .init()) -> DecodeError? {
        do {
            _ = try decoder.decode(T.self, from: Data(json.utf8))
        } catch DecodingError.dataCorrupted(let context) {
            return context.underlyingError as? DecodeError
        } catch {
            Issue.record("unexpected \(error)")
        }
        return nil
    }

    @Test func aValueTheTypeRefusesIsInvalidValue() {
        let iso = StreamingJSONDecoder()
        iso.dateDecodingStrategy = .iso8601
        #expect(underlying([Date].self, #"["17 May 2016"]"#, iso)?.code == .invalidValue)
        let base64 = StreamingJSONDecoder()
        base64.dataDecodingStrategy = .base64
        #expect(underlying([Data].self, #"["not base64!"]"#, base64)?.code == .invalidValue)
        let url = underlying([URL].self, #"["http://[::1"]"#)
        #expect(url?.code == .invalidValue)
        #expect(url?.keyPath.description == "[0]")
        let operators = #expect(throws: DecodeError.self) { _ = try [URL].decodeValue(from: .string(#"["http://[::1"]"#)) }
        #expect(operators?.code == .invalidValue)
        let direct = #expect(throws: DecodeError.self) { _ = try Transformer.pattern("yyyy-MM-dd").apply("1967-13-01") }
        #expect(direct?.code == .invalidValue)
        #expect(direct?.message == #"invalid date "1967-13-01" (expected yyyy-MM-dd)"#)
        struct Dated: JSONDecodable {
            let day: Date
            static func decode(_ e: Extractor) throws -> Dated { try Dated(day: e.value("day", .iso8601)) }
        }
        let field = #expect(throws: DecodeError.self) { _ = try [Dated].decodeValue(from: .string(#"[{"day": "soon"}]"#)) }
        #expect(field?.code == .invalidValue)
        #expect(field?.description == #"1:10: error: invalid date "soon" (expected ISO 8601) at [0].day"#)
        // A model's own error stays `.custom`.
        struct Picky: JSONDecodable {
            static func decode(_ e: Extractor) throws -> Picky { throw e.error("never") }
        }
        #expect(#expect(throws: DecodeError.self) { _ = try Picky.decodeValue(from: .string("{}")) }?.code == .custom)
    }

    @Test func anExtractorUsedAfterItsStreamMovedOnIsReleased() throws {
        // Small chunks and many elements, so that the stream drops the first one's tokens.
        let json = "[" + (0..<2_000).map { #"{"name": "band \#($0)"}"# }.joined(separator: ",") + "]"
        var options = JSONParsingOptions()
        options.chunkSize = 64
        let elements = JSONStream(.string(json), options: options).elements(of: Extractor.self)
        let first = try #require(try elements.next())
        #expect(try first.value("name") as String == "band 0")
        while try elements.next() != nil {}
        let error = #expect(throws: DecodeError.self) { _ = try first.value("name") as String }
        #expect(error?.code == .released)
    }
}
