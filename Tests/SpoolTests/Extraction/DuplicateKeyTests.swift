import Foundation
import Spool
import Testing

/// One rule everywhere: of duplicate keys, the first member counts, whatever the order of
/// lookups, the input, the chunk size, the object's width or the API.
@Suite("Duplicate keys")
struct DuplicateKeyTests {
    static let text = #"{"a": 1, "b": {"x": "first"}, "a": 2, "c": 3, "b": {"x": "second"}}"#

    static func options(_ chunkSize: Int) -> JSONParsingOptions {
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        return options
    }

    @Test(arguments: [1, 3, 65_536])
    func operatorsTakeTheFirstWhateverTheOrderOfLookups(_ chunkSize: Int) throws {
        struct InOrder: JSONDecodable {
            let a: Int, x: String, c: Int
            static func decode(_ e: Extractor) throws -> InOrder { try InOrder(a: e <| "a", x: e <| ["b", "x"], c: e <| "c") }
        }
        struct Reversed: JSONDecodable {
            let c: Int, x: String, a: Int
            static func decode(_ e: Extractor) throws -> Reversed { try Reversed(c: e <| "c", x: e <| ["b", "x"], a: e <| "a") }
        }
        struct AfterTheSecond: JSONDecodable {
            let c: Int, a: Int, a2: Int
            static func decode(_ e: Extractor) throws -> AfterTheSecond { try AfterTheSecond(c: e <| "c", a: e <| "a", a2: e <| "a") }
        }
        let options = Self.options(chunkSize)
        let inOrder = try InOrder.decodeValue(from: .string(Self.text), options: options)
        #expect(inOrder.a == 1 && inOrder.x == "first" && inOrder.c == 3)
        let reversed = try Reversed.decodeValue(from: .string(Self.text), options: options)
        #expect(reversed.a == 1 && reversed.x == "first")
        let after = try AfterTheSecond.decodeValue(from: .string(Self.text), options: options)
        #expect(after.a == 1 && after.a2 == 1)
    }

    @Test func dictionariesValuesAndCodableAgree() throws {
        #expect(try [String: JSONValue].decodeValue(from: .string(Self.text))["a"] == .number("1"))
        guard case .object(let members) = try JSONValue.decodeValue(from: .string(Self.text)) else {
            Issue.record("not an object")
            return
        }
        #expect(members["a"] == .number("1"))
        struct Model: Decodable { let a: Int; let c: Int }
        #expect(try StreamingJSONDecoder().decode(Model.self, from: .string(Self.text)).a == 1)
        #expect(try JSONDecoder().decode(Model.self, from: Data(Self.text.utf8)).a == 1)  // Foundation agrees
        #expect(try StreamingJSONDecoder().decode([String: JSONValueProbe].self, from: .string(#"{"a": 1, "c": 3, "a": 2}"#))["a"]?.text == "1")
    }

    @Test func streamedPathsTakeTheFirstToo() throws {
        let text = #"{"items": [1, 2], "items": [3]}"#
        var values: [Int] = []
        try JSONStream(.string(text)).elements(of: Int.self, at: "items").forEach { values.append($0) }
        #expect(values == [1, 2])
    }

    /// A wide object (its keys indexed by hash past 32), looked up in and out of order, whole
    /// on the tape (read in one chunk) and while it arrives (3-byte chunks).
    @Test(arguments: [false, true], [3, 65_536])
    func wideObjectsKeepTheRule(_ reversed: Bool, _ chunkSize: Int) throws {
        var members = (0..<200).map { #""k\#($0)": \#($0)"# }
        members.insert(#""k150": -1"#, at: 100)  // a first k150, before the original one
        let text = "{" + members.joined(separator: ", ") + "}"
        var options = Self.options(chunkSize)
        options.releasesDecodedElements = false
        let e = try Extractor.decodeValue(from: .string(text), options: options)
        var order = Array(0..<200)
        if reversed { order.reverse() }
        for key in order {
            let value: Int = try e <| .init(stringLiteral: "k\(key)")
            #expect(value == (key == 150 ? -1 : key), "k\(key)")
        }
    }

    /// Any JSON value's text, for the Codable dictionary check.
    struct JSONValueProbe: Decodable {
        let text: String
        init(from decoder: any Decoder) throws {
            text = "\(try decoder.singleValueContainer().decode(Int.self))"
        }
    }
}
