import Foundation
import Spool
import Testing

/// A UTF-8 byte order mark at the start of the input is skipped by default, as `JSONDecoder`
/// and jq skip it (RFC 8259 §8.1 lets a parser ignore one), by every reader and in every
/// chunking; ``JSONParsingOptions/allowsByteOrderMark`` refuses it.
@Suite("Byte order mark")
struct ByteOrderMarkTests {
    static let mark: [UInt8] = [0xEF, 0xBB, 0xBF]

    static func options(chunkSize: Int, background: Bool = true, allowing: Bool = true) -> JSONParsingOptions {
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        options.parsesInBackground = background
        options.allowsByteOrderMark = allowing
        return options
    }

    @Test(arguments: [1, 2, 3, 4, 65_536])
    func everyReaderSkipsIt(_ chunkSize: Int) async throws {
        let json = Self.mark + Array(#"{"a": [1, 2], "b": "x"}"#.utf8)
        let decoder = StreamingJSONDecoder()
        decoder.options = Self.options(chunkSize: chunkSize)
        struct Doc: Decodable, Equatable { let a: [Int]; let b: String }
        #expect(try decoder.decode(Doc.self, from: Data(json)) == Doc(a: [1, 2], b: "x"))
        #expect(try JSONDecoder().decode(Doc.self, from: Data(json)) == Doc(a: [1, 2], b: "x"))

        let reader = JSONReader(.bytes(json), options: Self.options(chunkSize: chunkSize))
        #expect(try reader.next() == .objectStart)
        #expect(reader.location?.byteOffset == 3)  // (the mark's bytes are counted)

        let stream = JSONStream(.bytes(json), options: Self.options(chunkSize: chunkSize))
        var pulled: [Int] = []
        try stream.elements(of: Int.self, at: "a").forEach { pulled.append($0) }
        #expect(pulled == [1, 2])

        let push = PushJSONStream(options: Self.options(chunkSize: chunkSize))
        let elements = push.elements(of: Int.self, at: "a")
        var pushed: [Int] = []
        for start in stride(from: 0, to: json.count, by: chunkSize) {
            try push.append(json[start..<min(json.count, start + chunkSize)])
            while let value = try elements.next() { pushed.append(value) }
        }
        try push.finishInput()
        while let value = try elements.next() { pushed.append(value) }
        #expect(pushed == [1, 2])

        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: json.count, by: chunkSize) {
                continuation.yield(Array(json[start..<min(json.count, start + chunkSize)]))
            }
            continuation.finish()
        }
        var streamed: [Int] = []
        for try await value in AsyncJSONStream(.chunks(chunks), options: Self.options(chunkSize: chunkSize)).elements(of: Int.self, at: "a") {
            streamed.append(value)
        }
        #expect(streamed == [1, 2])
    }

    /// A large input, parsed on the background thread (its tokens cross from the logging side).
    @Test(arguments: [true, false])
    func aLargeInputInTheBackground(_ background: Bool) throws {
        let json = Self.mark + Array(("[" + (0..<50_000).map(String.init).joined(separator: ",") + "]").utf8)
        let decoder = StreamingJSONDecoder()
        decoder.options = Self.options(chunkSize: 4096, background: background)
        #expect(try decoder.decode([Int].self, from: Data(json)) == Array(0..<50_000))
        let reader = JSONReader(.bytes(json), options: Self.options(chunkSize: 4096, background: background))
        try reader.skipToEnd()
    }

    @Test func onlyAtTheStart() throws {
        let error = #expect(throws: ParseError.self) {
            try JSONReader(.bytes(Array("[1, ".utf8) + Self.mark + Array("2]".utf8))).skipToEnd()
        }
        #expect(error?.location.column == 5)
        var options = JSONParsingOptions()
        options.allowsMultipleValues = true
        let second = #expect(throws: ParseError.self) {
            try JSONReader(.bytes(Self.mark + Array("1\n".utf8) + Self.mark + Array("2".utf8)), options: options).skipToEnd()
        }
        #expect(second?.location.line == 2)
    }

    @Test func aMarkAloneHoldsNoValue() throws {
        let error = #expect(throws: ParseError.self) { try JSONReader(.bytes(Self.mark)).skipToEnd() }
        #expect(error?.message.hasPrefix("unexpected end of input: the input holds no JSON value") == true, "\(String(describing: error))")
        #expect(error?.location.byteOffset == 3)
    }

    @Test(arguments: [1, 65_536])
    func refusedWhenNotAllowed(_ chunkSize: Int) throws {
        let json = Self.mark + Array("[1]".utf8)
        let error = #expect(throws: ParseError.self) {
            try JSONReader(.bytes(json), options: Self.options(chunkSize: chunkSize, allowing: false)).skipToEnd()
        }
        #expect(error?.message.contains("byte order mark") == true, "\(String(describing: error))")
        #expect(error?.location.byteOffset == 0)
    }
}
