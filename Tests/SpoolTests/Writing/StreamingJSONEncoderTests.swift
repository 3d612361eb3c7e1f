import Foundation
import Testing
@testable import Spool

@Suite("StreamingJSONEncoder")
struct StreamingJSONEncoderTests {
    func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func keysComeInTheOrderTheyAreEncoded() throws {
        let data = try StreamingJSONEncoder().encode(AllScalars())
        #expect(text(data).hasPrefix(#"{"bool":true,"string":"plain","int":-42,"int8":-128,"#))
        #expect(text(data).hasSuffix(#""url":"https:\/\/www.example.com\/band?id=1&x=a%20b","some":"here"}"#))
    }

    @Test func optionalsEncodedIfPresentAreOmitted() throws {
        struct Model: Encodable {
            var a: Int? = nil
            var b: Int? = 2
        }
        #expect(text(try StreamingJSONEncoder().encode(Model())) == #"{"b":2}"#)
    }

    // MARK: - Errors

    @Test func nanThrowsWithItsCodingPath() throws {
        let error = #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(NonConforming()) }
        guard case .invalidValue(let value, let context) = error else {
            Issue.record("not invalidValue: \(String(describing: error))")
            return
        }
        #expect((value as? Double)?.isInfinite == true)
        #expect(context.codingPath.map(\.stringValue) == ["values", "Index 1"])
        #expect(context.codingPath.last?.intValue == 1)
        #expect(context.debugDescription == "Unable to encode Double.inf directly in JSON.")
    }

    @Test func nanInAKeyedMemberNamesTheKey() throws {
        struct Model: Encodable { var inner = ["x": Float.nan] }
        let error = #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(Model()) }
        guard case .invalidValue(_, let context) = error else { return }
        #expect(context.codingPath.map(\.stringValue) == ["inner", "x"])
    }

    @Test func decimalNaNIsRefused() throws {
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode([Decimal.nan]) }
    }

    @Test func aFailedValueIsTakenBackOutOfTheWriter() throws {
        let writer = JSONWriter(format: .lines)
        let encoder = StreamingJSONEncoder()
        try encoder.encode(Inner(), to: writer)
        #expect(throws: EncodingError.self) { try encoder.encode(NonConforming(), to: writer) }
        try encoder.encode(["after"], to: writer)
        try writer.finish()
        #expect(text(writer.data) == "{\"name\":\"inner\",\"numbers\":[1,2,3],\"emptyArray\":[],\"emptyObject\":{}}\n[\"after\"]\n")
    }

    @Test func aFailureAfterAFlushBlocksTheWriterAtATokenBoundary() throws {
        struct Huge: Encodable {
            var strings = Array(repeating: String(repeating: "x", count: 1000), count: 200)
            var bad = Double.nan
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-encoder-\(getpid()).jsonl").path
        defer { unlink(path) }
        let writer = try JSONWriter(toFile: path, format: .lines)
        let encoder = StreamingJSONEncoder()
        try encoder.encode(["first"], to: writer)
        #expect(throws: EncodingError.self) { try encoder.encode(Huge(), to: writer) }
        let blocked = #expect(throws: WriteError.self) { try encoder.encode(["more"], to: writer) }
        #expect(blocked?.code == .closed)
        #expect(blocked?.message.hasPrefix("the output ends inside a value that could not be written") == true)
        try? writer.flush()
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.hasPrefix("[\"first\"]\n{\"strings\":[\"xxx"))
        #expect(written.hasSuffix("\"") || written.hasSuffix(",") || written.hasSuffix("["))
    }

    @Test func aTopLevelValueThatEncodesNothing() throws {
        let error = #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(EncodesNothing()) }
        guard case .invalidValue(_, let context) = error else { return }
        #expect(context.debugDescription == "Top-level EncodesNothing did not encode any values.")
    }

    @Test func aContainerUsedAfterItsParentMovedOnThrows() throws {
        struct Interleaved: Encodable {
            enum Keys: String, CodingKey { case a, b, c }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try nested.encode(1, forKey: .a)
                try container.encode(2, forKey: .b)
                try nested.encode(3, forKey: .c)
            }
        }
        let error = #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(Interleaved()) }
        guard case .invalidValue(_, let context) = error else { return }
        #expect(context.debugDescription.hasPrefix("a container was used after it ended"))
    }

    @Test func aSecondKindOfContainerThrows() throws {
        struct Confused: Encodable {
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: NamedCodingKey.self)
                try keyed.encode(1, forKey: NamedCodingKey("a"))
                var unkeyed = encoder.unkeyedContainer()
                try unkeyed.encode(2)
            }
        }
        let error = #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(Confused()) }
        guard case .invalidValue(_, let context) = error else { return }
        #expect(context.debugDescription == "unkeyedContainer() for a value that already encoded a keyed container")
    }

    @Test func aSecondSingleValueThrows() throws {
        struct Twice: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(1)
                try container.encode(2)
            }
        }
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode([Twice()]) }
    }

    @Test func anErrorCaughtByTheModelLeavesNoTrace() throws {
        struct Forgiving: Encodable {
            enum Keys: String, CodingKey { case a, bad, b }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(1, forKey: .a)
                try? container.encode(NonConforming(), forKey: .bad)
                try container.encode(2, forKey: .b)
            }
        }
        #expect(text(try StreamingJSONEncoder().encode(Forgiving())) == #"{"a":1,"b":2}"#)
    }

    // MARK: - Coding paths

    /// Records the coding path its encoder and containers report.
    final class PathLog: @unchecked Sendable {
        var paths: [String] = []
    }

    struct Probe: Encodable {
        let log: PathLog
        let depth: Int
        enum Keys: String, CodingKey { case child, list, leaf }
        func encode(to encoder: any Encoder) throws {
            log.paths.append("encoder " + encoder.codingPath.map(\.stringValue).joined(separator: "."))
            var container = encoder.container(keyedBy: Keys.self)
            log.paths.append("keyed " + container.codingPath.map(\.stringValue).joined(separator: "."))
            try container.encode(depth, forKey: .leaf)
            guard depth < 2 else { return }
            try container.encode(Probe(log: log, depth: depth + 1), forKey: .child)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            log.paths.append("unkeyed " + list.codingPath.map(\.stringValue).joined(separator: "."))
            try list.encode(Probe(log: log, depth: depth + 1))
            var nested = list.nestedContainer(keyedBy: Keys.self)
            log.paths.append("nested " + nested.codingPath.map(\.stringValue).joined(separator: "."))
            try nested.encode(Probe(log: log, depth: 2), forKey: .child)
        }
    }

    /// Records the paths of plain synthesized models, through arrays and optionals.
    struct PlainProbe: Encodable {
        let log: PathLog
        let depth: Int
        func encode(to encoder: any Encoder) throws {
            log.paths.append(encoder.codingPath.map(\.stringValue).joined(separator: "."))
            var container = encoder.container(keyedBy: Probe.Keys.self)
            try container.encode(depth, forKey: .leaf)
            guard depth < 3 else { return }
            try container.encode([PlainProbe(log: log, depth: depth + 1), PlainProbe(log: log, depth: 3)], forKey: .list)
            try container.encodeIfPresent(Optional(PlainProbe(log: log, depth: depth + 1)), forKey: .child)
        }
    }

    @Test func codingPathsAreJSONEncodersThroughSynthesizedCode() throws {
        let foundation = PathLog()
        _ = try JSONEncoder().encode([PlainProbe(log: foundation, depth: 0)])
        let spool = PathLog()
        _ = try StreamingJSONEncoder().encode([PlainProbe(log: spool, depth: 0)])
        #expect(spool.paths == foundation.paths)
        #expect(spool.paths.count == 22)
    }

    /// Through nested containers, the path includes the nested container's key, where
    /// JSONEncoder's encoder drops it (`list` below).
    @Test func codingPathsThroughNestedContainersIncludeTheirKeys() throws {
        let spool = PathLog()
        _ = try StreamingJSONEncoder().encode([Probe(log: spool, depth: 1)])
        #expect(spool.paths == [
            "encoder Index 0", "keyed Index 0",
            "encoder Index 0.child", "keyed Index 0.child",
            "unkeyed Index 0.list",
            "encoder Index 0.list.Index 0", "keyed Index 0.list.Index 0",
            "nested Index 0.list.Index 1",
            "encoder Index 0.list.Index 1.child", "keyed Index 0.list.Index 1.child",
        ])
    }

    // MARK: - Into a writer

    @Test func encodingIntoAWriterUsesItsFormatAndKeepsSortedKeys() throws {
        let writer = JSONWriter(format: .pretty())
        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]  // the writer's format wins for layout
        try writer.beginObject()
        try writer.key("first")
        try encoder.encode(["b": 1, "a": 2], to: writer)
        try writer.key("second")
        try writer.beginArray()
        try encoder.encode("a/b", to: writer)
        try encoder.encode(EncodesNothing(), to: writer)  // not top-level: {}
        try writer.endArray()
        try writer.endObject()
        try writer.finish()
        #expect(text(writer.data) == """
            {
              "first" : {
                "a" : 2,
                "b" : 1
              },
              "second" : [
                "a\\/b",
                {

                }
              ]
            }
            """)
    }

    @Test func superEncoderUsedAfterItsContainerEnded() throws {
        final class Leaky: Encodable {
            var kept: (any Encoder)?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: NamedCodingKey.self)
                kept = container.superEncoder()
            }
        }
        let leaky = Leaky()
        let writer = JSONWriter(format: .lines)
        try StreamingJSONEncoder().encode(leaky, to: writer)
        #expect(text(writer.data) == "{\"super\":{}}\n")
        let kept = try #require(leaky.kept)
        // An EncodingError that says why, as every other misuse of the encoder (issue 21: it was
        // the writer's WriteError, saying the container had ended).
        var late = kept.singleValueContainer()
        let single = #expect(throws: EncodingError.self) { try late.encode(1) }
        #expect("\(String(describing: single))".contains("superEncoder() was used after its container moved on"))
        var keyed = kept.container(keyedBy: NamedCodingKey.self)
        let member = #expect(throws: EncodingError.self) { try keyed.encode(1, forKey: NamedCodingKey("a")) }
        #expect("\(String(describing: member))".contains("superEncoder() was used after its container moved on"))
        var unkeyed = kept.unkeyedContainer()
        #expect(throws: EncodingError.self) { try unkeyed.encode(1) }
    }

    @Test func snakeCaseLeavesStringKeyedDictionariesAlone() throws {
        enum Mood: String, Codable, CodingKeyRepresentable { case reallyHappy }
        struct Model: Encodable {
            var someThing = ["keyInDict": 1]
            var moods: [Mood: Int] = [.reallyHappy: 1]
        }
        let encoder = StreamingJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = .convertToSnakeCase
        foundation.outputFormatting = .sortedKeys
        #expect(try encoder.encode(Model()) == foundation.encode(Model()))
        #expect(text(try encoder.encode(Model())) == #"{"moods":{"really_happy":1},"some_thing":{"keyInDict":1}}"#)
    }
}
