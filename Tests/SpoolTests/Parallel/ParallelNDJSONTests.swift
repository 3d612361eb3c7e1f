import Foundation
import Testing
@_spi(Testing) @testable import Spool

/// Issue 25: the top-level values of NDJSON (and concatenated JSON) decoded on several threads
/// (`elements(..., parallelism:)` with `allowsMultipleValues` and the empty path): the serial
/// stream's values, errors, counts, `finish()` and remainder, for every number of workers and
/// batch size, with the values cut where they end, whatever the layout.
@Suite("Parallel NDJSON")
struct ParallelNDJSONTests {
    static var options: JSONParsingOptions {
        var options = JSONParsingOptions()
        options.allowsMultipleValues = true
        return options
    }

    /// Any value, as its compact JSON: what the serial and parallel streams are compared by.
    struct Compact: JSONDecodable, Equatable {
        let text: String
        static func decode(_ e: Extractor) throws -> Compact { Compact(text: try e.compactJSON()) }
    }

    static func compact(_ stream: JSONStream, _ parallelism: Parallelism) -> JSONElements<Compact> {
        stream.elements(of: Compact.self, parallelism: parallelism)
    }
    static func items(_ stream: JSONStream, _ parallelism: Parallelism) -> JSONElements<ParallelInputs.Item> {
        stream.elements(of: ParallelInputs.Item.self, decoder: StreamingJSONDecoder(), parallelism: parallelism)
    }

    /// `count` generated items, one a line (some spread over several lines, as concatenated
    /// JSON may be), with blank lines and CRLF here and there; `replacing` swaps items.
    static func lines(count: Int, replacing: [Int: String] = [:]) -> String {
        var text = ""
        for index in 0..<count {
            text += replacing[index] ?? ParallelInputs.element(index)
            text += index % 11 == 3 ? "\r\n\n" : index % 13 == 5 ? "  " : "\n"
        }
        return text
    }

    static func expectSame<Value: Equatable>(
        _ text: String, batchSizes: [Int?] = [nil, 300, 1], inParallel: Bool = true, quickRest: Bool = true,
        _ make: (JSONStream, Parallelism) -> JSONElements<Value>, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        for input in [JSONInput.string(text), .data(Data(text.utf8))] {
            ParallelStreamTests.expectSameAsSerial(
                input, options: options, batchSizes: batchSizes, inParallel: inParallel, quickRest: quickRest, make,
                sourceLocation: sourceLocation)
        }
    }

    @Test func generatedLinesAreTheSameOnEveryNumberOfWorkers() throws {
        let text = Self.lines(count: 600)
        Self.expectSame(text, Self.items)
        Self.expectSame(text, Self.compact)
        let serial = ParallelStreamTests.run(.string(text), options: Self.options, .serial, Self.items).run
        #expect(serial.elements.values.count == 600 && serial.elements.error == nil && serial.finish == "ok")
        #expect(serial.elements.values[599].id == 599)
        // The serial stream records no remainder for the values themselves.
        #expect(serial.lastUpdated.contains("holds no JSON value"), "\(serial.lastUpdated)")

        let path = try ParallelInputs.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        ParallelStreamTests.expectSameAsSerial(.file(path), options: Self.options, batchSizes: [nil, 500], inParallel: true, Self.items)
        // The values really were decoded by the workers, in batches.
        let stream = JSONStream(.file(path), options: Self.options)
        stream.parallelBatchBytes = 2048
        let elements = Self.items(stream, .workers(2))
        var ids: [Int] = []
        while let item = try elements.next() { ids.append(item.id) }
        #expect(ids == Array(0..<600))
        #expect((elements.parallel?.engine.batchesTaken ?? 0) > 10)
        #expect(elements.parallel?.engine.readSerially == false)
    }

    @Test func valuesOfEveryKindAndLayout() {
        for text in [
            "1 2 3\n\"a\" \"b\"\ntrue false null\n-0.5e3 [] {} [1,[2]] {\"a\":{}}",
            "{\"a\":1}{\"b\":2}[3][4]\"x\"\"y\"{}[]",
            "\u{FEFF}{\"bom\": true}\n{\"n\": 2}\n",
            "", "\n\n  \n", "42", "[1]\n", " \"s\" ",
            Array(repeating: "[\"]\", \"\\\\\", \"\\\"{\"]", count: 50).joined(separator: "\n"),
        ] {
            Self.expectSame(text, Self.compact)
        }
    }

    @Test func decodingErrorInTheMiddle() {
        let text = Self.lines(count: 300, replacing: [217: #"{"id": "two hundred", "name": "x", "tags": []}"#])
        Self.expectSame(text, Self.items)
        let serial = ParallelStreamTests.run(.string(text), options: Self.options, .serial, Self.items).run
        #expect(serial.elements.values.count == 217 && serial.count == 218)
        #expect(serial.elements.codingPath == "Index 217.id", "\(serial.elements)")
    }

    @Test func syntaxErrorsInTheMiddle() {
        for broken in [
            #"{"id": 1, "name": "x" "tags": []}"#, #"{"id": 1, "name": "x", "tags": [}"#, #"{"id": tru, "name": "x"}"#,
            #"{"id": 1, "name": "unterminated}"#, "]", "}", ",", "1,2", "1\"a\"", "1[2]", "true{}", "nul",
            "{\"id\": 1, \"name\": \"\u{0B}\"}",
        ] {
            let text = Self.lines(count: 300, replacing: [150: broken])
            Self.expectSame(text, batchSizes: [nil, 300], Self.items)
            Self.expectSame(text, batchSizes: [nil, 300], Self.compact)
            let serial = ParallelStreamTests.run(.string(text), options: Self.options, .serial, Self.compact).run
            #expect(serial.elements.error != nil && serial.elements.values.count >= 149, "\(broken): \(serial.elements)")
        }
    }

    @Test func truncatedAndDeepInput() {
        let text = Self.lines(count: 200)
        for cut in [text.count - 2, text.count / 2, 7] {
            Self.expectSame(String(text.prefix(cut)), batchSizes: [nil, 300], Self.compact)
        }
        let bomb = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        Self.expectSame(Self.lines(count: 100, replacing: [60: bomb]), batchSizes: [nil, 300], Self.compact)
        Self.expectSame(Self.lines(count: 100) + "\"open", batchSizes: [nil, 300], Self.compact)
    }

    @Test func invalidUTF8InTheMiddle() {
        var bytes = Array(Self.lines(count: 200).utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "p"))! + bytes.count / 2
        bytes[at] = 0xFF
        for input in [JSONInput.bytes(bytes), .data(Data(bytes))] {
            ParallelStreamTests.expectSameAsSerial(input, options: Self.options, batchSizes: [nil, 300], inParallel: true, Self.compact)
        }
    }

    @Test func aPathIntoTheValuesIsReadSerially() {
        let text = (0..<50).map { "{\"objects\": [\($0), \($0 + 1)]}" }.joined(separator: "\n")
        let ints: (JSONStream, Parallelism) -> JSONElements<Int> = { $0.elements(of: Int.self, at: "objects", parallelism: $1) }
        Self.expectSame(text, inParallel: false, ints)
    }
}
