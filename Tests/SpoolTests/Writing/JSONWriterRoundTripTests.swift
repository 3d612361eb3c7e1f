import Foundation
import Testing
@testable import Spool

/// Every JSONTestSuite `y_` file, read with the cursor and written back with the writer, reads
/// back as the same tokens: kinds, decoded string values, and numbers' exact text.
@Suite("JSONWriter round trip")
struct JSONWriterRoundTripTests {
    static let accepted = Fixtures.names(in: Fixtures.parsingDirectory, prefix: "y_")

    /// What the cursor reads: each token's kind and text.
    struct Token: Equatable, CustomStringConvertible {
        var token: JSONToken
        var text: [UInt8]
        var description: String { "\(token) \(String(decoding: text, as: UTF8.self).debugDescription)" }
    }

    static func tokens(of bytes: [UInt8]) throws -> [Token] {
        let reader = JSONReader(.bytes(bytes))
        var tokens: [Token] = []
        while let token = try reader.next() {
            tokens.append(Token(token: token, text: reader.withUTF8 { span in (0..<span.count).map { span[$0] } }))
        }
        return tokens
    }

    /// Writes `tokens` through `writer`, one call per token.
    static func write(_ tokens: [Token], to writer: JSONWriter) throws {
        for token in tokens {
            switch token.token {
            case .objectStart: try writer.beginObject()
            case .objectEnd: try writer.endObject()
            case .arrayStart: try writer.beginArray()
            case .arrayEnd: try writer.endArray()
            case .key: try writer.key(utf8: token.text)
            case .string: try writer.string(utf8: token.text)
            case .number: try writer.number(utf8: token.text)
            case .bool(let value): try writer.bool(value)
            case .null: try writer.null()
            }
        }
        try writer.finish()
    }

    @Test func theSuiteIsThere() {
        #expect(Self.accepted.count == 95)
    }

    @Test(arguments: accepted)
    func everyYFileRoundTrips(_ name: String) throws {
        let original = try Self.tokens(of: Fixtures.bytes(name))
        for format in [JSONWriter.Format.compact, .pretty(), .lines, JSONWriter.Format(.compact, escapesSlashes: false)] {
            let writer = JSONWriter(format: format)
            try Self.write(original, to: writer)
            let rewritten = try Self.tokens(of: writer.bytes)
            #expect(rewritten == original, "\(name) \(format)")
        }
    }

    @Test(arguments: accepted)
    func everyYFileRoundTripsThroughAnExtractor(_ name: String) throws {
        let original = try Self.tokens(of: Fixtures.bytes(name))
        let extractor = try Extractor.decodeValue(from: .bytes(Fixtures.bytes(name)))
        let writer = JSONWriter()
        try writer.value(extractor)
        try writer.finish()
        #expect(try Self.tokens(of: writer.bytes) == original, "\(name)")
    }

    @Test func anExtractorKeepsNumbersExactlyAndWritesInsideOtherValues() throws {
        let e = try Extractor.decodeValue(from: .string(#"{"band": {"name": "Sigur R\u00f3s", "rating": 4.50, "big": 1E400, "tags": ["a/b"]}, "x": 1}"#))
        let band: Extractor = try e.value("band")
        let writer = JSONWriter(format: .lines)
        try writer.value(band)
        try writer.beginArray()
        try writer.value(try e.value("x") as Extractor)
        try writer.value(band)
        try writer.endArray()
        try writer.finish()
        let line = #"{"name":"Sigur Rós","rating":4.50,"big":1E400,"tags":["a\/b"]}"#
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "\(line)\n[1,\(line)]\n")
    }

    @Test func anExtractorWhereAKeyIsDueWritesNothing() throws {
        let e = try Extractor.decodeValue(from: .string(#"[{"a": [1, 2]}]"#))
        let writer = JSONWriter()
        try writer.beginObject()
        #expect(throws: WriteError.self) { try writer.value(e) }
        try writer.key("k")
        try writer.value(e)
        try writer.endObject()
        try writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"k":[{"a":[1,2]}]}"#)
    }
}
