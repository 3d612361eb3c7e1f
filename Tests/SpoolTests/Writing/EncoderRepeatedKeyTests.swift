import Foundation
import Testing
@testable import Spool

/// A key written twice (issue 21, item 2), and a container asked for after a single value
/// (item 9): StreamingJSONEncoder writes what JSONEncoder writes, and never the same key twice
/// in an object. Sorted output is compared byte for byte; unsorted output (JSONEncoder orders
/// keys by hash) by its parsed value, and checked for keys written twice.
@Suite("StreamingJSONEncoder: keys written twice")
struct EncoderRepeatedKeyTests {
    func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// The keys that appear twice in an object of `data`.
    func keysWrittenTwice(in data: Data) throws -> [String] {
        let reader = JSONReader(.data(data))
        var open: [Set<String>?] = []
        var twice: [String] = []
        while let token = try reader.next() {
            switch token {
            case .objectStart: open.append([])
            case .arrayStart: open.append(nil)
            case .objectEnd, .arrayEnd: open.removeLast()
            case .key:
                let key = reader.text ?? ""
                if let keys = open.last, let seen = keys {
                    if seen.contains(key) { twice.append(key) }
                    open[open.count - 1] = seen.union([key])
                }
            default: break
            }
        }
        return twice
    }

    /// `data` parsed and written again with sorted keys, to compare values whose key order differs.
    func canonical(_ data: Data) throws -> String {
        let value = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        return text(try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]))
    }

    /// Unsorted, compact and pretty, to `Data`, to a memory writer and to a file writer: the
    /// same value as JSONEncoder's, no key twice.
    func expectSameValue<T: Encodable>(
        _ value: T, configure: (JSONEncoder, StreamingJSONEncoder) -> Void = { _, _ in },
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        for pretty in [false, true] {
            let foundation = JSONEncoder()
            let spool = StreamingJSONEncoder()
            if pretty {
                foundation.outputFormatting = .prettyPrinted
                spool.outputFormatting = .prettyPrinted
            }
            configure(foundation, spool)
            let expected = try canonical(foundation.encode(value))
            let format: JSONWriter.Format = pretty ? .pretty() : .compact
            let memory = JSONWriter(format: format)
            try spool.encode(value, to: memory)
            try memory.finish()
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-twice-\(UUID().uuidString).json").path
            defer { unlink(path) }
            let file = try JSONWriter(toFile: path, format: format)
            try spool.encode(value, to: file)
            try file.finish()
            let outputs = [
                ("Data", try spool.encode(value)), ("memory writer", memory.data),
                ("file writer", try Data(contentsOf: URL(fileURLWithPath: path))),
            ]
            for (name, data) in outputs {
                #expect(try keysWrittenTwice(in: data) == [], "\(name), pretty: \(pretty): \(text(data))", sourceLocation: sourceLocation)
                #expect(try canonical(data) == expected, "\(name), pretty: \(pretty): \(text(data))", sourceLocation: sourceLocation)
            }
            // The layout too: the pretty output is the compact one laid out by a pretty writer.
            if pretty {
                let compact = StreamingJSONEncoder()
                configure(JSONEncoder(), compact)
                let relaid = JSONWriter(format: .pretty())
                try relaid.copy(from: JSONReader(.data(try compact.encode(value))))
                try relaid.finish()
                #expect(text(try spool.encode(value)) == text(relaid.data), sourceLocation: sourceLocation)
            }
        }
    }

    // MARK: - As JSONEncoder

    @Test(arguments: Twice.allCases)
    func sortedOutputIsJSONEncoders(_ twice: Twice) {
        let comparison = EncoderComparisonTests()
        comparison.expectSameBytes(twice)
        comparison.expectSameBytes(TwiceEverywhere(twice: twice))
        // Under a key strategy, dictionaries are written without checking their keys.
        comparison.expectSameBytes(TwiceEverywhere(twice: twice)) {
            $0.keyEncodingStrategy = .convertToSnakeCase
            $1.keyEncodingStrategy = .convertToSnakeCase
        }
    }

    @Test(arguments: Twice.allCases)
    func unsortedOutputHoldsJSONEncodersValue(_ twice: Twice) throws {
        try expectSameValue(twice)
        try expectSameValue(TwiceEverywhere(twice: twice))
        try expectSameValue(TwiceEverywhere(twice: twice)) {
            $0.keyEncodingStrategy = .convertToSnakeCase
            $1.keyEncodingStrategy = .convertToSnakeCase
        }
    }

    @Test func aSingleValueFlushedAlreadyCannotBeContinued() throws {
        struct BigSingle: Encodable {
            func encode(to encoder: any Encoder) throws {
                var single = encoder.singleValueContainer()
                try single.encode(["text": String(repeating: "x", count: 100_000)])
                var keyed = encoder.container(keyedBy: NamedCodingKey.self)
                try keyed.encode(1, forKey: NamedCodingKey("more"))
            }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-single-\(UUID().uuidString).json").path
        defer { unlink(path) }
        let writer = try JSONWriter(toFile: path)
        let error = #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(BigSingle(), to: writer) }
        guard case .invalidValue(_, let context) = error else { return }
        #expect(context.debugDescription.contains("after a single value that was flushed to the output already"))
        #expect(text(try StreamingJSONEncoder().encode(BigSingle())).hasSuffix(#"xx","more":1}"#))
    }

    @Test func aSingleValueContinuedInAJSONLinesWriter() throws {
        let writer = JSONWriter(format: .lines)
        let encoder = StreamingJSONEncoder()
        try encoder.encode(Twice.keyedAfterASingleObject, to: writer)
        try encoder.encode(Twice.unkeyedAfterASingleArray, to: writer)
        try writer.finish()
        #expect(text(writer.data) == "{\"a\":1,\"b\":2}\n[1,2,\"Index 2\"]\n")
    }

    @Test func aValueThatFailsLeavesTheEarlierMember() throws {
        EncoderComparisonTests().expectSameBytes(FailingReplacement(failing: Double.nan))
        try expectSameValue(FailingReplacement(failing: Double.nan))
        let halfway = FailingReplacement(failing: [[1.5], [Double.nan]])
        #expect(text(try StreamingJSONEncoder().encode(halfway)) == #"{"top":1,"after":2,"other":[3]}"#)
        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        #expect(text(try encoder.encode(halfway)) == "{\n  \"after\" : 2,\n  \"other\" : [\n    3\n  ],\n  \"top\" : 1\n}")
    }

    @Test func theLastValueWinsAndTheOtherMembersStayInOrder() throws {
        let encoder = StreamingJSONEncoder()
        #expect(text(try encoder.encode(Twice.replaceFirst)) == #"{"other":1,"third":"x","top":42}"#)
        #expect(text(try encoder.encode(Twice.replaceMiddle)) == #"{"first":0,"last":2,"top":42}"#)
        #expect(text(try encoder.encode(Twice.replaceLast)) == #"{"first":0,"top":true}"#)
        #expect(text(try encoder.encode(Twice.continueKeyed)) == #"{"top":{"first":"1","second":"2"}}"#)
        #expect(text(try encoder.encode(Twice.continueUnkeyed)) == #"{"top":[1,2]}"#)
        #expect(text(try encoder.encode(Twice.keyedAfterASingleObject)) == #"{"a":1,"b":2}"#)
        encoder.outputFormatting = .prettyPrinted
        #expect(text(try encoder.encode(Twice.replaceFirst)) == "{\n  \"other\" : 1,\n  \"third\" : \"x\",\n  \"top\" : 42\n}")
        #expect(text(try encoder.encode(Twice.continueEmptyContainers)) == """
            {
              "top" : {

              },
              "list" : [

              ],
              "later" : {
                "a" : 1
              },
              "list2" : [
                1
              ]
            }
            """)
    }

    @Test func keyStrategiesThatMapTwoKeysToOne() throws {
        let comparison = EncoderComparisonTests()
        comparison.expectSameBytes(Colliding()) {
            $0.keyEncodingStrategy = .convertToSnakeCase
            $1.keyEncodingStrategy = .convertToSnakeCase
        }
        try expectSameValue(Colliding()) {
            $0.keyEncodingStrategy = .convertToSnakeCase
            $1.keyEncodingStrategy = .convertToSnakeCase
        }
        let lowercased: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            NamedCodingKey(path.last.map { $0.stringValue.lowercased() } ?? "")
        }
        comparison.expectSameBytes(Colliding()) {
            $0.keyEncodingStrategy = .custom(lowercased)
            $1.keyEncodingStrategy = .custom(lowercased)
        }
        try expectSameValue(Colliding()) {
            $0.keyEncodingStrategy = .custom(lowercased)
            $1.keyEncodingStrategy = .custom(lowercased)
        }
        let encoder = StreamingJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        #expect(text(try encoder.encode(Colliding())).hasPrefix(#"{"other":0,"foo_bar":2,"#))
    }

    // MARK: - What JSONEncoder does not allow

    @Test(arguments: NotAContainer.allCases)
    func aContainerForAKeyThatHoldsSomethingElseThrows(_ model: NotAContainer) throws {
        for formatting in [[], JSONEncoder.OutputFormatting.sortedKeys] {
            let encoder = StreamingJSONEncoder()
            encoder.outputFormatting = formatting
            let error = #expect(throws: EncodingError.self) { try encoder.encode(model) }
            guard case .invalidValue(_, let context) = error else { continue }
            switch model {
            case .keyedAfterASingleNumber:
                #expect(context.debugDescription.contains("single value that is not an object"))
            case .unkeyedAfterASingleObject:
                #expect(context.debugDescription.contains("single value that is not an array"))
            default:
                #expect(context.codingPath.map(\.stringValue) == ["top"])
                #expect(context.debugDescription.contains("for the key \"top\", which already holds"))
                #expect(context.debugDescription.contains("JSONEncoder stops the program here"))
            }
        }
    }

    @Test func aModelThatCatchesTheErrorWritesNoKeyTwice() throws {
        struct Caught: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: NamedCodingKey.self)
                try container.encode(5, forKey: NamedCodingKey("top"))
                var nested = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: NamedCodingKey("top"))
                #expect(throws: EncodingError.self) { try nested.encode(1, forKey: NamedCodingKey("x")) }
                try container.encode(6, forKey: NamedCodingKey("other"))
            }
        }
        #expect(text(try StreamingJSONEncoder().encode(Caught())) == #"{"top":5,"other":6}"#)
    }

    // MARK: - Streaming

    /// A first member bigger than a file writer's buffer, then keys written again.
    struct FlushedFirst: Encodable {
        enum Again: CaseIterable { case value, keyed, unkeyed, superEncoder, recentKey }
        var again: Again
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: NamedCodingKey.self)
            let big = NamedCodingKey("big")
            switch again {
            case .keyed:
                var nested = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: big)
                try nested.encode(String(repeating: "x", count: 100_000), forKey: NamedCodingKey("text"))
            case .unkeyed:
                var nested = container.nestedUnkeyedContainer(forKey: big)
                try nested.encode(String(repeating: "x", count: 100_000))
            default:
                try container.encode(String(repeating: "x", count: 100_000), forKey: big)
            }
            for index in 0..<5000 { try container.encode(index, forKey: NamedCodingKey("k\(index)")) }
            switch again {
            case .value:
                try container.encode(1, forKey: big)
            case .keyed:
                var nested = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: big)
                try nested.encode(1, forKey: NamedCodingKey("more"))
            case .unkeyed:
                var nested = container.nestedUnkeyedContainer(forKey: big)
                try nested.encode(1)
            case .superEncoder:
                try OneMember().encode(to: container.superEncoder(forKey: big))
            case .recentKey:
                // Written after the last flush: still in the buffer, replaced.
                try container.encode("again", forKey: NamedCodingKey("k4999"))
            }
        }
    }

    @Test(arguments: FlushedFirst.Again.allCases)
    func aMemberFlushedAlreadyCannotBeReplaced(_ again: FlushedFirst.Again) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-flushed-\(UUID().uuidString).json").path
        defer { unlink(path) }
        let writer = try JSONWriter(toFile: path)
        let encoder = StreamingJSONEncoder()
        if again == .recentKey {
            try encoder.encode(FlushedFirst(again: again), to: writer)
            try writer.finish()
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(try keysWrittenTwice(in: data) == [])
            #expect(text(data).hasSuffix(#""k4998":4998,"k4999":"again"}"#))
            return
        }
        let error = #expect(throws: EncodingError.self) { try encoder.encode(FlushedFirst(again: again), to: writer) }
        guard case .invalidValue(_, let context) = error else { return }
        #expect(context.codingPath.map(\.stringValue) == ["big"])
        #expect(context.debugDescription.contains("the key \"big\""))
        #expect(context.debugDescription.contains("flushed to the output already"))
        #expect(context.debugDescription.contains("StreamingJSONEncoder streams its output"))
        // Into Data nothing is flushed, and sorted objects are held until they end: both work.
        let data = try encoder.encode(FlushedFirst(again: again))
        #expect(try keysWrittenTwice(in: data) == [])
        let sorted = try JSONWriter(toFile: path)
        encoder.outputFormatting = .sortedKeys
        try encoder.encode(FlushedFirst(again: again), to: sorted)
        try sorted.finish()
        let expected = JSONEncoder()
        expected.outputFormatting = .sortedKeys
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == expected.encode(FlushedFirst(again: again)))
    }

    @Test func aSuperValueThatCannotBePlacedFailsTheEncodeCall() throws {
        // The super encoder's value is placed when `inner` ends: when the model asks for a
        // nested container, a call that cannot throw. Its error still fails the encode call.
        struct LateSuper: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: NamedCodingKey.self)
                var inner = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: NamedCodingKey("inner"))
                try inner.encode(String(repeating: "x", count: 100_000), forKey: NamedCodingKey("k"))
                try OneMember().encode(to: inner.superEncoder(forKey: NamedCodingKey("k")))
                _ = container.nestedUnkeyedContainer(forKey: NamedCodingKey("unused"))
            }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-late-\(UUID().uuidString).json").path
        defer { unlink(path) }
        let writer = try JSONWriter(toFile: path)
        let error = #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(LateSuper(), to: writer) }
        guard case .invalidValue(_, let context) = error else { return }
        #expect(context.codingPath.map(\.stringValue) == ["inner", "k"])
        #expect(context.debugDescription.contains("flushed to the output already"))
        #expect(text(try StreamingJSONEncoder().encode(LateSuper())) == #"{"inner":{"k":{"a":2}},"unused":[]}"#)
    }

    /// Keys at every offset of a small buffer: a flush never splits a key being recorded.
    @Test(arguments: [false, true])
    func keysAtEveryOffsetOfAFlushedBuffer(pretty: Bool) throws {
        struct Padded: Encodable {
            var padding: Int
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: NamedCodingKey.self)
                try container.encode(String(repeating: "p", count: padding), forKey: NamedCodingKey("padding"))
                for index in 0..<12 { try container.encode(index, forKey: NamedCodingKey("a/long\"key-\(index)")) }
                try container.encode("again", forKey: NamedCodingKey("a/long\"key-11"))
            }
        }
        for padding in 0..<80 {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-offsets-\(UUID().uuidString).json").path
            defer { unlink(path) }
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            let writer = JSONWriter(
                output: .descriptor(descriptor, name: path, closes: true), format: pretty ? .pretty() : .compact, initialCapacity: 64)
            do {
                try StreamingJSONEncoder().encode(Padded(padding: padding), to: writer)
                try writer.finish()
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(try keysWrittenTwice(in: data) == [], "\(padding)")
                #expect(try canonical(data) == canonical(JSONEncoder().encode(Padded(padding: padding))), "\(padding)")
            } catch let error as EncodingError {
                // The earlier member went out with a flush: refused, never written twice.
                #expect("\(error)".contains("flushed to the output already"), "\(padding)")
            }
        }
    }

    @Test func aBigValueReplacingAMemberIsHeldUntilItEnds() throws {
        struct BigReplacement: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: NamedCodingKey.self)
                try container.encode(1, forKey: NamedCodingKey("top"))
                try container.encode(Array(repeating: "text that fills the buffer", count: 10_000), forKey: NamedCodingKey("top"))
                try container.encode(2, forKey: NamedCodingKey("after"))
            }
        }
        try expectSameValue(BigReplacement())
    }
}
