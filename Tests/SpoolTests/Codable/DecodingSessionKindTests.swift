import Foundation
import Testing
@testable import Spool

/// How a session reads each type (``DecodingSession/ValueKind``): the standard scalars and
/// Foundation's types by identity, arrays once their element type was met (``KnownArrays``),
/// string-keyed dictionaries by their conformance (tried only for `Dictionary`, told apart by
/// its type descriptor), and every other type through its own `init(from:)`.
@Suite("Decoding session: value kinds")
struct DecodingSessionKindTests {
    struct Model: Decodable { let a: Int }
    final class ClassModel: Decodable { let a: Int }
    enum Choice: String, Decodable { case x }
    /// A struct generic like `Array`, which must not be taken for one.
    struct Box<Element: Decodable>: Decodable { let element: Element }

    func kind<T: Decodable>(_ type: T.Type, in session: DecodingSession = session()) -> String {
        switch session.kind(of: T.self) {
        case .model: "model"
        case .array: "array"
        case .stringKeyedDictionary: "dictionary"
        case .int: "int"
        case .string: "string"
        case .url: "url"
        default: "other scalar"
        }
    }

    static func session() -> DecodingSession {
        DecodingSession(StreamingJSONDecoder.Configuration(), dateParser: nil)
    }

    @Test func everyTypeGetsItsKind() {
        // (Each element type met first: the next test follows an array type met before it.)
        _ = (kind(Int.self), kind(Model.self), kind([String].self))
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

    // Types no other test meets: what the process knows of their arrays is this test's.
    struct Met: Decodable, Equatable { let a: Int }
    struct NeverFilled: Decodable { let a: Int }
    struct Checked: Decodable, Equatable { let a: Int }

    @Test func anArrayTypeIsKnownOnceItsElementTypeIsMet() {
        // Met before its element type: a model, read by `Array`'s own `init(from:)`, and made
        // an array in the same session when the element type is met.
        let first = Self.session()
        #expect(kind([Met].self, in: first) == "model")
        #expect(kind(Met.self, in: first) == "model")
        #expect(kind([Met].self, in: first) == "array")
        // Known to every session from then on, without a cast.
        #expect(kind([Met].self) == "array")
        // An array type whose element type is never met (its arrays were all empty): a model
        // the first time, then found by the cast.
        #expect(kind([NeverFilled].self) == "model")
        #expect(kind([NeverFilled].self) == "array")
    }

    @Test func anArrayMetFirstDecodesAsItDoesOnceKnown() throws {
        // The first decode reads `[Checked]` by `Array`'s own `init(from:)`, the second by the
        // session's own array reading: the same values, the same error, in the same place.
        let good = Data(#"[{"a":1},{"a":2}]"#.utf8)
        let bad = Data(#"[{"a":1},{"a":"two"}]"#.utf8)
        let firstError = #expect(throws: DecodingError.self) { try StreamingJSONDecoder().decode([Checked].self, from: bad) }
        #expect(try StreamingJSONDecoder().decode([Checked].self, from: good) == [Checked(a: 1), Checked(a: 2)])
        #expect(kind([Checked].self) == "array")
        let secondError = #expect(throws: DecodingError.self) { try StreamingJSONDecoder().decode([Checked].self, from: bad) }
        #expect(firstError.map { "\($0)" } == secondError.map { "\($0)" })
        #expect(try StreamingJSONDecoder().decode([Checked].self, from: good) == [Checked(a: 1), Checked(a: 2)])
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
