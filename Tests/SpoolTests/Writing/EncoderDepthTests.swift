import Foundation
import Testing
@testable import Spool

/// Issue 22, item 12: `StreamingJSONEncoder` refuses nesting deeper than its `maxDepth` (the
/// decoder's default, 512) and nesting too deep for the thread's stack, with
/// `EncodingError.invalidValue`, instead of writing JSON its decoder refuses or crashing.
@Suite("StreamingJSONEncoder nesting limits")
struct EncoderDepthTests {
    /// `levels` arrays inside each other, made as they are encoded (no data structure to free).
    struct Arrays: Encodable {
        let levels: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            if levels > 1 { try container.encode(Arrays(levels: levels - 1)) } else { try container.encode(1) }
        }
    }

    /// `{"child": {"child": ... {}}}`, `levels` objects deep: a recursive model's shape.
    struct Objects: Encodable {
        let levels: Int
        enum CodingKeys: CodingKey { case child }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if levels > 1 { try container.encode(Objects(levels: levels - 1), forKey: .child) }
        }
    }

    /// Recursion through nested containers of the caller's own, with no `encode(to:)` between.
    /// (A container refused hands back one that throws on use, but asking for a nested
    /// container cannot throw: each level writes a member, so that the refusal ends the
    /// caller's recursion.)
    struct NestedContainers: Encodable {
        let levels: Int
        enum CodingKeys: CodingKey { case a, level }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try Self.nest(&container, levels - 1)
        }
        static func nest(_ container: inout any UnkeyedEncodingContainer, _ levels: Int) throws {
            guard levels > 0 else { return try container.encode(true) }
            var keyed = container.nestedContainer(keyedBy: CodingKeys.self)
            try keyed.encode(levels, forKey: .level)
            var inner = keyed.nestedUnkeyedContainer(forKey: .a)
            try nest(&inner, levels - 2)
        }
    }

    /// Values inside each other through single value containers: deep recursion, no nesting.
    struct Wrapped: Encodable {
        let levels: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if levels > 1 { try container.encode(Wrapped(levels: levels - 1)) } else { try container.encode(1) }
        }
    }

    /// Recursion through `superEncoder(forKey:)`, each level a writer of its own (and a
    /// member written first, as for ``NestedContainers``).
    struct Chain: Encodable {
        let levels: Int
        enum CodingKeys: CodingKey { case next, level }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(levels, forKey: .level)
            if levels > 1 { try Chain(levels: levels - 1).encode(to: container.superEncoder(forKey: .next)) }
        }
    }

    /// A model whose `encode(to:)` keeps 512 bytes on the stack while its child encodes: a few
    /// hundred levels, well within `maxDepth`, are more than a 512 KiB stack holds.
    struct Heavy: Encodable {
        let levels: Int
        enum CodingKeys: CodingKey { case child, sum }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var scratch = (SIMD64<UInt8>(), SIMD64<UInt8>(), SIMD64<UInt8>(), SIMD64<UInt8>(),
                           SIMD64<UInt8>(), SIMD64<UInt8>(), SIMD64<UInt8>(), SIMD64<UInt8>())
            try withUnsafeMutableBytes(of: &scratch) { bytes in
                for index in stride(from: levels % 64, to: bytes.count, by: 64) { bytes[index] = UInt8(truncatingIfNeeded: index) }
                if levels > 1 { try container.encode(Heavy(levels: levels - 1), forKey: .child) }
                try container.encode(bytes.reduce(0) { $0 &+ Int($1) }, forKey: .sum)
            }
            try container.encode(Int(scratch.7[63]), forKey: .sum)
        }
    }

    static let defaultDepth = JSONParsingOptions().maxDepth
    static let bigStack = 16 << 20

    /// The message and coding path of the `EncodingError.invalidValue` that `error` is.
    static func refusal(_ error: any Error) -> (message: String, path: [any CodingKey])? {
        guard case .invalidValue(_, let context) = error as? EncodingError else { return nil }
        return (context.debugDescription, context.codingPath)
    }

    @Test func theDecodersDefaultDepthIsWrittenAndDecodes() throws {
        #expect(StreamingJSONEncoder().maxDepth == 512)
        let run = SmallStack.run(stackSize: Self.bigStack) { () -> (Data, Data) in
            let encoder = StreamingJSONEncoder()
            return (try encoder.encode(Arrays(levels: Self.defaultDepth)), try encoder.encode(Objects(levels: Self.defaultDepth)))
        }
        let (arrays, objects) = try run.result.get()
        #expect(throws: Never.self) { try JSONReader(.data(arrays)).skipToEnd() }
        #expect(throws: Never.self) { try JSONReader(.data(objects)).skipToEnd() }
        #expect(arrays.count == 2 * Self.defaultDepth + 1)
    }

    @Test func oneLevelMoreIsRefusedWithItsPathAndTheLimit() throws {
        for value in [Arrays(levels: Self.defaultDepth + 1), Objects(levels: Self.defaultDepth + 1)] as [any Encodable] {
            let run = SmallStack.run(stackSize: Self.bigStack) { try StreamingJSONEncoder().encode(value) }
            #expect(throws: EncodingError.self) { try run.result.get() }
            guard case .failure(let error) = run.result else { continue }
            let refusal = try #require(Self.refusal(error), "\(error)")
            #expect(refusal.message.contains("maximum depth of 512"), "\(refusal.message)")
            #expect(refusal.message.contains("StreamingJSONEncoder.maxDepth"))
            // The path of the value whose container would be the 513th.
            #expect(refusal.path.count == Self.defaultDepth)
        }
    }

    @Test func nestedContainersAndDictionariesCountToo() throws {
        let levels = Self.defaultDepth + 1
        let run = SmallStack.run(stackSize: Self.bigStack) { try StreamingJSONEncoder().encode(NestedContainers(levels: levels)) }
        #expect(throws: EncodingError.self) { try run.result.get() }
        var nested: [String: Any] = [:]
        var value: any Encodable = [String: Int]()
        for _ in 1..<levels { value = ["a": AnyEncodable(value)] }
        nested["x"] = value
        let encoder = StreamingJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase  // [String: T] keeps its keys: its own path
        let dictionaries = SmallStack.run(stackSize: Self.bigStack) { try encoder.encode(AnyEncodable(value)) }
        #expect(throws: EncodingError.self) { try dictionaries.result.get() }
        encoder.maxDepth = levels
        #expect(throws: Never.self) { try SmallStack.run(stackSize: Self.bigStack) { try encoder.encode(AnyEncodable(value)) }.result.get() }
    }

    @Test func theWritersOwnContainersCount() throws {
        let writer = JSONWriter()
        try writer.beginArray()
        let encoder = StreamingJSONEncoder()
        let run = SmallStack.run(stackSize: Self.bigStack) { try encoder.encode(Arrays(levels: Self.defaultDepth), to: writer) }
        #expect(throws: EncodingError.self) { try run.result.get() }
        try encoder.encode(Arrays(levels: Self.defaultDepth - 1), to: writer)
        try writer.endArray()
        try writer.finish()
        #expect(throws: Never.self) { try JSONReader(.data(writer.data)).skipToEnd() }
    }

    @Test func raisingMaxDepthWritesDeeper() throws {
        let encoder = StreamingJSONEncoder()
        encoder.maxDepth = 2000
        let run = SmallStack.run(stackSize: Self.bigStack) { try encoder.encode(Objects(levels: 1000)) }
        let data = try run.result.get()
        var options = JSONParsingOptions()
        options.maxDepth = 1000
        #expect(throws: Never.self) { try JSONReader(.data(data), options: options).skipToEnd() }
        encoder.maxDepth = 0  // as 1
        #expect(try encoder.encode([1]) == Data("[1]".utf8))
        #expect(throws: EncodingError.self) { try encoder.encode([[1]]) }
    }

    /// On a 512 KiB stack, values nested without end are refused, at the depth limit or where
    /// the stack runs out, never a crash; with no depth limit, every way of recursing stops at
    /// the stack.
    @Test(arguments: [512 * 1024, 8 << 20])
    func aDeepValueIsRefusedNotACrash(stackSize: Int) throws {
        let values: [(String, any Encodable)] = [
            ("arrays", Arrays(levels: 1_000_000)), ("objects", Objects(levels: 1_000_000)),
            ("nested containers", NestedContainers(levels: 1_000_000)), ("wrapped", Wrapped(levels: 1_000_000)),
            ("chain", Chain(levels: 1_000_000)),
        ]
        for (name, value) in values {
            for maxDepth in [Self.defaultDepth, Int.max] {
                let encoder = StreamingJSONEncoder()
                encoder.maxDepth = maxDepth
                // (Each super encoder copies its coding path: the tens of thousands of levels an
                // 8 MiB stack holds would take seconds.)
                if name == "chain" && maxDepth == Int.max && stackSize > SmallStack.appleSecondaryThread { continue }
                let run = SmallStack.run(stackSize: stackSize) { try encoder.encode(value) }
                guard case .failure(let error) = run.result else {
                    Issue.record("\(name), maxDepth \(maxDepth): encoded")
                    continue
                }
                let refusal = try #require(Self.refusal(error), "\(name): \(error)")
                if maxDepth == Int.max || name == "wrapped" {
                    #expect(refusal.message.hasPrefix("nesting too deep to encode on this thread's stack"), "\(name): \(refusal.message)")
                } else {
                    #expect(refusal.message.hasPrefix("nesting"), "\(name): \(refusal.message)")
                }
            }
        }
    }

    /// Super values are placed when their container ends, each placing the ones inside it
    /// first: a recursion of its own, after the value's, also checked against the stack. (An
    /// unoptimized build encodes 1000 levels of this chain on 512 KiB, and refuses to place them.)
    @Test func placingDeepSuperValuesIsRefusedNotACrash() throws {
        let encoder = StreamingJSONEncoder()
        encoder.maxDepth = Int.max
        let run = SmallStack.run { try encoder.encode(Chain(levels: 1000)) }
        if case .failure(let error) = run.result {
            let refusal = try #require(Self.refusal(error), "\(error)")
            #expect(refusal.message.hasPrefix("nesting too deep to encode on this thread's stack"), "\(refusal.message)")
        }
    }

    /// Within `maxDepth`, a model with large frames is refused where the stack runs out.
    @Test func aValueWithinTheLimitThatTheStackCannotHoldIsRefused() throws {
        let run = SmallStack.run { try StreamingJSONEncoder().encode(Heavy(levels: 500)) }
        guard case .failure(let error) = run.result else {
            Issue.record("encoded 500 levels of frames of 512 bytes and more on a 512 KiB stack")
            return
        }
        let refusal = try #require(Self.refusal(error), "\(error)")
        #expect(refusal.message.hasPrefix("nesting too deep to encode on this thread's stack"), "\(refusal.message)")
        #expect(refusal.path.count > 50)
        #expect(run.stackUsed < SmallStack.appleSecondaryThread)
    }
}

/// Stack used per nesting level by the encoder, measured on a large stack as
/// ``StackPerLevelTests`` measures the decoder's. Release x86-64 (Swift 6.3.1): 1,096 bytes a
/// level for a `final class Node: Encodable { let child: Node? }`, 960 for a keyed model made as
/// it encodes, 776 for arrays and 680 through single values; `JSONEncoder` takes 1,426, 1,296,
/// 1,048 and 1,000. (Before its frames were trimmed: 1,832, 1,696, 1,304 and 1,240.)
@Suite("Encoder stack per nesting level")
struct EncoderStackPerLevelTests {
    @Test func encodingTakesLittleStackPerLevel() {
        let objects = StackPerLevelTests.perLevel { depth in _ = try StreamingJSONEncoder().encode(EncoderDepthTests.Objects(levels: depth)) }
        let arrays = StackPerLevelTests.perLevel { depth in _ = try StreamingJSONEncoder().encode(EncoderDepthTests.Arrays(levels: depth)) }
        let wrapped = StackPerLevelTests.perLevel { depth in _ = try StreamingJSONEncoder().encode(EncoderDepthTests.Wrapped(levels: depth)) }
        print("encoder stack per level: keyed \(objects) bytes, unkeyed \(arrays) bytes, single values \(wrapped) bytes")
        // (An unoptimized build takes about twice what an optimized one does.)
        #expect(objects < 3 * 1024)
        #expect(arrays < 3 * 1024)
    }
}

/// Any `Encodable`, for building values of nested dictionaries.
struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
