import Foundation
import Testing
@testable import Spool

/// Tokens keep only their byte offset; lines live in a table beside the tape. These tests
/// check every token's line and column against a count made independently from the bytes.
@Suite("Token locations")
struct TokenLocationTests {
    /// Line and column of `offset` in `prettyPrinted`, from a table of its line starts.
    static func expected(_ offset: Int) -> Spool.SourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {  // the last line start <= offset
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let line = low
        return Spool.SourceLocation(byteOffset: offset, line: line + 1, column: offset - lineStarts[line] + 1)
    }

    static let lineStarts: [Int] = [0] + prettyPrinted.indices.filter { prettyPrinted[$0] == 0x0A }.map { $0 + 1 }

    static let prettyPrinted: [UInt8] = {
        var text = "{\n  \"objects\": [\n"
        for i in 0..<3000 {
            text += "    {\n      \"id\": \(i),\n\n      \"name\": \"band \\u00e9 \(i)\",\n      \"tags\": [\"a\",\n \"b\"], \"ok\": true\n    }"
            text += i < 2999 ? ",\n" : "\n"
        }
        text += "  ],\r\n  \"last_updated\": \"2016-04-01\"\n}\n"
        return Array(text.utf8)
    }()

    @Test(arguments: [(7, false), (64, false), (64, true), (1000, true), (65_536, true)])
    func everyTokenHasTheLineAndColumnOfItsOffset(_ chunkSize: Int, _ inBackground: Bool) throws {
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        options.parsesInBackground = inBackground
        let bytes = Self.prettyPrinted
        let reader = JSONReader(.bytes(bytes), options: options)
        var count = 0
        var lines = Set<Int>()
        while try reader.next() != nil {
            let location = try #require(reader.location)
            #expect(location == Self.expected(location.byteOffset))
            lines.insert(location.line)
            count += 1
        }
        #expect(count == 2 + 2 + 3000 * 13 + 2 + 1)
        #expect(lines.count > 15_000)
        #expect(reader.isParsingInBackground == (inBackground && bytes.count > 4 * chunkSize))
    }

    @Test func wholeDocumentDecodingKeepsEveryLine() throws {
        struct Tags: JSONDecodable {
            static func decode(_ e: Extractor) throws -> Tags {
                let location = try #require(e.location)
                #expect(location == TokenLocationTests.expected(location.byteOffset))
                return Tags()
            }
        }
        struct Band: JSONDecodable {
            var id: Int
            static func decode(_ e: Extractor) throws -> Band {
                let _: Tags = try e <| "tags"
                return try Band(id: e <| "id")
            }
        }
        var options = JSONParsingOptions()
        options.chunkSize = 512
        let bands: [Band] = try [Band].decodeValue(
            from: .bytes(Self.prettyPrinted), rootKeyPath: "objects", options: options)
        #expect(bands.count == 3000)
        let error = #expect(throws: DecodeError.self) {
            let _: [String: [[String: Int]]] = try .decodeValue(from: .bytes(Self.prettyPrinted), rootKeyPath: .root, options: options)
        }
        // The first mismatch: objects[0].name is a string, on line 6 of the document.
        let location = try #require(error?.location)
        #expect(location.line == 6)
        #expect(location == Self.expected(location.byteOffset))
        #expect(Self.prettyPrinted[location.byteOffset...].starts(with: Array("\"band".utf8)))
    }

    @Test func theRemainderOfAStreamKeepsItsLines() throws {
        var options = JSONParsingOptions()
        options.chunkSize = 256
        let stream = JSONStream(.bytes(Self.prettyPrinted), options: options)
        let elements = stream.elements(of: Extractor.self, at: "objects")
        var count = 0
        while try elements.next() != nil { count += 1 }
        #expect(count == 3000)
        let rest = try stream.remainder()
        let date: Extractor = try rest <| "last_updated"
        let location = try #require(date.location)
        #expect(location.line == 2 + 3000 * 7 + 2)  // seven lines per band
        #expect(location == Self.expected(location.byteOffset))
    }

    @Test func tokensPackIntoSixteenBytes() {
        #expect(MemoryLayout<RawToken>.stride == 16)
        var token = RawToken(offset: (1 << 47) + 5, payload: -1, length: .max, kind: .arrayStart)
        #expect(token.offset == (1 << 47) + 5)
        #expect(token.payload == -1)
        #expect(token.length == .max)
        #expect(token.kind == .arrayStart)
        token.payload = RawToken.maxPayload
        #expect(token.payload == RawToken.maxPayload)
        token.payload = 0
        #expect(token.payload == 0)
        #expect(token.offset == (1 << 47) + 5)
    }
}
