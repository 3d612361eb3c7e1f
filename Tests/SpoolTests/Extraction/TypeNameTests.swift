import Testing
@testable import Spool

@Suite("Type names in messages")
struct TypeNameTests {
    @Test(arguments: [
        ("Optional<Int>", "Int?"),
        ("Array<String>", "[String]"),
        ("Dictionary<String, Int>", "[String: Int]"),
        ("Optional<Array<Dictionary<String, Optional<Band>>>>", "[[String: Band?]]?"),
        ("LossyArray<Band>", "LossyArray<Band>"),
        ("Swift.Optional<Swift.Int>", "Int?"),
        ("Int", "Int"),
        ("Optional<(Int, String)>", "Optional<(Int, String)>"),  // tuples stay as the runtime spells them
    ])
    func sugarAsSwiftSpellsIt(_ runtime: String, _ swift: String) {
        #expect(TypeName.sugared(runtime) == swift)
    }

    @Test func decodeErrorsNameTypesAsSwiftDoes() throws {
        let e = try Extractor.decodeValue(from: .string(#"{"n": "1", "list": 3, "map": [], "deep": {"a": "x"}}"#))
        let optional = #expect(throws: DecodeError.self) { let _: Int? = try e <| "absent" }
        #expect(optional?.message == #"missing key "absent" (expected Int?)"#)
        #expect(optional?.expected == "Int?")
        let array = #expect(throws: DecodeError.self) { let _: [String] = try e <| "list" }
        #expect(array?.message == "expected [String] at list, found number 3")
        let dictionary = #expect(throws: DecodeError.self) { let _: [String: Int] = try e <| "map" }
        #expect(dictionary?.message == "expected [String: Int] at map, found array")
        let missing = #expect(throws: DecodeError.self) { let _: [Int?] = try e <| "nope" }
        #expect(missing?.message == #"missing key "nope" (expected [Int?])"#)
    }
}
