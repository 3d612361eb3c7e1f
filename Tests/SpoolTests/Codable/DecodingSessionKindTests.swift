import Foundation
import Testing
@testable import Spool

/// How a session reads each type (``DecodingSession/ValueKind``): the standard scalars and
/// Foundation's types by identity, arrays and string-keyed dictionaries by their conformance
/// (tried only for `Array` and `Dictionary`, told apart by their type descriptor), and every
/// other type through its own `init(from:)`.
@Suite("Decoding session: value kinds")
struct DecodingSessionKindTests {
    struct Model: Decodable { let a: Int }
    final class ClassModel: Decodable { let a: Int }
    enum Choice: String, Decodable { case x }
    /// A struct generic like `Array`, which must not be taken for one.
    struct Box<Element: Decodable>: Decodable { let element: Element }

    func kind<T: Decodable>(_ type: T.Type) -> String {
        switch DecodingSession(StreamingJSONDecoder.Configuration(), dateParser: nil).kind(of: T.self) {
        case .model: "model"
        case .array: "array"
        case .stringKeyedDictionary: "dictionary"
        case .int: "int"
        case .string: "string"
        case .url: "url"
        default: "other scalar"
        }
    }

    @Test func everyTypeGetsItsKind() {
        #expect(kind([Int].self) == "array")
        #expect(kind([Model].self) == "array")
        #expect(kind([[String]].self) == "array")
        #expect(kind([String: Int].self) == "dictionary")
        #expect(kind([String: [Model]].self) == "dictionary")
        #expect(kind([Int: String].self) == "model")  // (Dictionary's own init(from:), as JSONDecoder)
        #expect(kind(Model.self) == "model")
        #expect(kind(ClassModel.self) == "model")
        #expect(kind(Choice.self) == "model")
        #expect(kind(Box<Int>.self) == "model")
        #expect(kind(Int?.self) == "model")
        #expect(kind(Set<Int>.self) == "model")
        #expect(kind(ContiguousArray<Int>.self) == "model")
        #expect(kind(Int.self) == "int")
        #expect(kind(String.self) == "string")
        #expect(kind(URL.self) == "url")
    }

    @Test func theKindsDecodeAsJSONDecoderDecodes() throws {
        struct All: Decodable, Equatable {
            let list: [Int]
            let map: [String: Int]
            let byNumber: [Int: String]
            let set: Set<Int>
            let box: Box<Int>
            let choice: Choice
        }
        let json = Data(#"{"list":[1,2],"map":{"a":1},"byNumber":{"7":"seven"},"set":[3],"box":{"element":4},"choice":"x"}"#.utf8)
        #expect(try StreamingJSONDecoder().decode(All.self, from: json) == JSONDecoder().decode(All.self, from: json))
    }
}

extension DecodingSessionKindTests.Box: Equatable where Element: Equatable {}
