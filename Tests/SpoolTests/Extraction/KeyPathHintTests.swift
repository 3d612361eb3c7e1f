import Testing
import Spool

/// A string literal is one key; a missing key that reads like a dotted path gets a hint.
@Suite("Key path hints")
struct KeyPathHintTests {
    static let catalog = #"{"objects": [{"members": [1, 2]}], "first.name": "Ann"}"#

    @Test func aMissingKeyThatReadsLikeAPathSuggestsTheArrayLiteral() throws {
        let e = try Extractor.decodeValue(from: .string(Self.catalog))
        let error = #expect(throws: DecodeError.self) { let _: [Int] = try e <| "objects[0].members" }
        #expect(
            error?.message == #"missing key "objects[0].members" (expected [Int]); did you mean ["objects", 0, "members"]? "#
                + "(a string literal is one key; JSONKeyPath(parsing:) reads the dotted notation)")
        #expect(try (e <| ["objects", 0, "members"]) as [Int] == [1, 2])
        #expect(try (e <| (try JSONKeyPath(parsing: "objects[0].members"))) as [Int] == [1, 2])
    }

    @Test func aKeyWithDotsThatExistsIsStillOneKey() throws {
        let e = try Extractor.decodeValue(from: .string(Self.catalog))
        #expect(try (e <| "first.name") as String == "Ann")
        let plain = #expect(throws: DecodeError.self) { let _: String = try e <| "last" }
        #expect(plain?.message == #"missing key "last" (expected String)"#)  // no hint for a plain key
    }

    @Test func streamsGiveTheSameHint() throws {
        let stream = JSONStream(.string(Self.catalog))
        let error = #expect(throws: DecodeError.self) {
            _ = try stream.elements(of: Int.self, at: "objects[0].members").next()
        }
        #expect(error?.message.hasSuffix(#"; did you mean ["objects", 0, "members"]? (a string literal is one key; JSONKeyPath(parsing:) reads the dotted notation)"#) == true)
    }

    @Test func parsingTheDottedNotation() throws {
        #expect(try JSONKeyPath(parsing: "objects[0].members") == ["objects", 0, "members"])
        #expect(try JSONKeyPath(parsing: #"objects[0]["first.name"]"#) == ["objects", 0, "first.name"])
        #expect(try JSONKeyPath(parsing: ".") == .root)
        #expect(throws: JSONKeyPath.SyntaxError.self) { try JSONKeyPath(parsing: "a..b") }
    }
}
