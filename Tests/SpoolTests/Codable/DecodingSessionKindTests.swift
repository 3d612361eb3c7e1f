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

    // Types no other test meets: what the process knows of their arrays is this test's. (So
    // these tests assume one run per process, as `swift test` makes.)
    struct Met: Decodable, Equatable { let a: Int }
    struct NeverFilled: Decodable { let a: Int }

    @Test func anArrayTypeIsKnownOnceItsElementTypeIsMet() {
        do {
            // Met before its element type: a model, read by `Array`'s own `init(from:)`, and
            // made an array in the same session when the element type is met.
            let first = Self.session()
            #expect(kind([Met].self, in: first) == "model")
            #expect(kind(Met.self, in: first) == "model")
            #expect(kind([Met].self, in: first) == "array")
            // An array type whose element type is never met (its arrays were all empty).
            #expect(kind([NeverFilled].self, in: first) == "model")
        }
        // Known to every session once the first has ended, without a cast.
        guard case .array? = KnownArrays.meet(ObjectIdentifier([Met].self)) else {
            Issue.record("[Met] is not known after the session that met Met ended")
            return
        }
        #expect(kind([Met].self) == "array")
        // Met again with its element type still unknown: found by the cast.
        guard case .model? = KnownArrays.meet(ObjectIdentifier([NeverFilled].self)) else {
            Issue.record("[NeverFilled] was not noted as met")
            return
        }
        #expect(kind([NeverFilled].self) == "array")
        guard case .array? = KnownArrays.meet(ObjectIdentifier([NeverFilled].self)) else {
            Issue.record("[NeverFilled] is not known after the cast found it")
            return
        }
    }

    struct Holder<Element: Decodable>: Decodable { let items: [Element] }

    /// An element type per case, so that each case meets its array type first.
    struct Tagged<Tag>: Decodable, Equatable { let a: Int }
    enum WholeFirst {}
    enum WhileParsing {}
    enum WhileParsingKept {}

    @Test func anArrayMetFirstDecodesAsItDoesOnceKnown() throws {
        try checkArrayMetFirst(Tagged<WholeFirst>.self, parsedFirst: true, releasing: true)
        try checkArrayMetFirst(Tagged<WhileParsing>.self, parsedFirst: false, releasing: true)
        try checkArrayMetFirst(Tagged<WhileParsingKept>.self, parsedFirst: false, releasing: false)
    }

    /// The first decode reads `[Element]` by `Array`'s own `init(from:)`, the second by the
    /// session's own array reading: the same values, the same error, in the same place.
    func checkArrayMetFirst<Element: Decodable & Equatable>(
        _ type: Element.Type, parsedFirst: Bool, releasing: Bool, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        typealias Box = Holder<Element>
        let decoder = StreamingJSONDecoder()
        decoder.options.releasesDecodedElements = releasing
        if !parsedFirst { decoder.options.parsesBeforeDecodingMaximum = 0 }
        let good = Data(#"{"items":[{"a":1},{"a":2}]}"#.utf8)
        let bad = Data(#"{"items":[{"a":1},{"a":"two"}]}"#.utf8)
        #expect(KnownArrays.meet(ObjectIdentifier([Element].self)) == nil, "met before", sourceLocation: sourceLocation)
        let firstError = #expect(throws: DecodingError.self, sourceLocation: sourceLocation) { try decoder.decode(Box.self, from: bad) }
        guard case .array? = KnownArrays.meet(ObjectIdentifier([Element].self)) else {
            Issue.record("not known after the first decode", sourceLocation: sourceLocation)
            return
        }
        let secondError = #expect(throws: DecodingError.self, sourceLocation: sourceLocation) { try decoder.decode(Box.self, from: bad) }
        #expect(firstError.map { "\($0)" } == secondError.map { "\($0)" }, sourceLocation: sourceLocation)
        #expect(firstError.map { "\($0)" }?.contains("1:24: expected Int at items[1].a") == true, sourceLocation: sourceLocation)
        let values = try decoder.decode(Box.self, from: good).items
        #expect(values == (try JSONDecoder().decode(Box.self, from: good).items), sourceLocation: sourceLocation)
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
