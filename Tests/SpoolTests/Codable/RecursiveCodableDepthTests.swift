import Foundation
import Testing
@testable import Spool

/// Recursive Codable models recurse once per level of nesting. The decoder keeps its frames
/// small, so that on a 512 KiB stack (Apple's secondary threads) models reach the default
/// `maxDepth` as `JSONDecoder`'s do, and checks the stack at every container, so that no
/// depth with any `maxDepth` overflows it: a value too deep for the stack left is refused,
/// located, with ``DecodeError/Code/tooDeep``.
@Suite("Recursive Codable models and the stack")
struct RecursiveCodableDepthTests {
    final class Node: Codable {
        let child: Node?
        var depth: Int { 1 + (child?.depth ?? 0) }
    }

    struct Tree: Codable {
        let children: [Tree]
        var depth: Int { 1 + (children.first?.depth ?? 0) }
    }

    indirect enum Expression: Codable {
        case leaf(Int)
        case list([Expression])
        var depth: Int {
            switch self {
            case .leaf: 1
            case .list(let items): 1 + (items.first?.depth ?? 0)
            }
        }
    }

    /// A model that recurses through `superDecoder(forKey:)`, not through the decoder's
    /// `decode`.
    struct Chain: Decodable {
        let depth: Int
        enum CodingKeys: String, CodingKey { case next }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard try container.decodeNil(forKey: .next) == false else {
                depth = 1
                return
            }
            depth = 1 + (try Chain(from: container.superDecoder(forKey: .next))).depth
        }
    }

    enum Shape: String, CaseIterable, CustomStringConvertible {
        case node, tree, expression, chain
        var description: String { rawValue }

        /// JSON levels per model level.
        var jsonLevelsPerModel: Int { [.node: 1, .tree: 2, .expression: 3, .chain: 1][self] ?? 1 }

        /// A document with `levels` model levels.
        func document(levels: Int) -> Data {
            let text = switch self {
            case .node:
                String(repeating: #"{"child":"#, count: levels - 1) + #"{"child":null}"# + String(repeating: "}", count: levels - 1)
            case .tree:
                String(repeating: #"{"children":["#, count: levels - 1) + #"{"children":[]}"# + String(repeating: "]}", count: levels - 1)
            case .expression:
                String(repeating: #"{"list":{"_0":["#, count: levels - 1) + #"{"leaf":{"_0":1}}"# + String(repeating: "]}}", count: levels - 1)
            case .chain:
                String(repeating: #"{"next":"#, count: levels - 1) + #"{"next":null}"# + String(repeating: "}", count: levels - 1)
            }
            return Data(text.utf8)
        }

        /// The model levels decoded from `data`.
        func depth(decoding data: Data, with decoder: StreamingJSONDecoder) throws -> Int {
            switch self {
            case .node: try decoder.decode(Node.self, from: data).depth
            case .tree: try decoder.decode(Tree.self, from: data).depth
            case .expression: try decoder.decode(Expression.self, from: data).depth
            case .chain: try decoder.decode(Chain.self, from: data).depth
            }
        }
    }

    /// The `.tooDeep` error underneath `error`, if that is what it is.
    static func tooDeep(_ error: any Error) -> DecodeError? {
        guard case .dataCorrupted(let context) = error as? DecodingError,
            let underlying = context.underlyingError as? DecodeError, underlying.code == .tooDeep
        else { return nil }
        return underlying
    }

    /// At the default `maxDepth` on a 512 KiB stack, an optimized build decodes each shape as
    /// deep as the limit allows, as `JSONDecoder` does. An unoptimized build takes about
    /// twice the stack per level, the models' own `init(from:)` included (`JSONDecoder`
    /// crashes here on them): there Spool may refuse, located, but never crashes. (`.ci/run`
    /// compares optimized builds of both decoders with `spool-stack-depth`.)
    @Test(arguments: Shape.allCases)
    func theDefaultDepthOnASmallStack(_ shape: Shape) throws {
        let levels = JSONParsingOptions().maxDepth / shape.jsonLevelsPerModel
        let data = shape.document(levels: levels)
        let spool = SmallStack.run { try shape.depth(decoding: data, with: StreamingJSONDecoder()) }
        switch spool.result {
        case .success(let depth):
            #expect(depth == levels)
        case .failure(let error):
            #if DEBUG
            let refusal = try #require(Self.tooDeep(error), "\(error)")
            #expect(refusal.location != nil)
            #else
            Issue.record("an optimized build refused \(levels) levels: \(error)")
            #endif
        }
    }

    /// With the largest `maxDepth`, documents 100,000 levels deep are refused where the stack
    /// runs out, on a small stack and on a main thread's 8 MiB, for every way of recursing.
    @Test(arguments: Shape.allCases, [512 * 1024, 8 << 20])
    func anyDepthIsRefusedNotACrash(_ shape: Shape, stackSize: Int) throws {
        let decoder = StreamingJSONDecoder()
        decoder.options.maxDepth = JSONParsingOptions.largestMaxDepth
        let levels = JSONParsingOptions.largestMaxDepth / shape.jsonLevelsPerModel
        let data = shape.document(levels: levels)
        let run = SmallStack.run(stackSize: stackSize) { try shape.depth(decoding: data, with: decoder) }
        #expect(throws: (any Error).self) { try run.result.get() }
        guard case .failure(let error) = run.result else { return }
        let refusal = try #require(Self.tooDeep(error), "\(error)")
        let location = try #require(refusal.location)
        // Refused where the stack ran out, deep into the document: past 100 levels on 512 KiB,
        // fewer under a sanitizer, whose instrumented frames are larger (its build still has to
        // refuse rather than crash).
        let deepInto = Sanitizers.address || Sanitizers.thread ? 25 : 100
        #expect(location.line == 1 && location.column > 10 * deepInto)
        #expect(refusal.keyPath.components.count > deepInto)
        #expect(refusal.message.hasPrefix("nesting too deep to decode on this thread's stack"))
        // The coding path is the key path's, as `JSONDecoder` users read it.
        guard case .dataCorrupted(let context) = error as? DecodingError else { return }
        #expect(context.codingPath.count == refusal.keyPath.components.count)
    }

    /// A stream of deep elements: each element's decode has a limit of its own, and an element
    /// too deep is refused at its own path.
    @Test func aStreamedElementTooDeepIsRefusedAtItsPath() throws {
        let element = String(decoding: Shape.node.document(levels: 20_000), as: UTF8.self)
        var options = JSONParsingOptions()
        options.maxDepth = JSONParsingOptions.largestMaxDepth
        let text = #"{"items":[{"child":null},"# + element + "]}"
        let run = SmallStack.run {
            let stream = JSONStream(.string(text), options: options)
            var depths: [Int] = []
            let nodes = stream.elements(of: Node.self, at: "items")
            while let node = try nodes.next() { depths.append(node.depth) }
            return depths
        }
        guard case .failure(let error) = run.result else {
            Issue.record("decoded \(run.result)")
            return
        }
        let refusal = try #require(Self.tooDeep(error), "\(error)")
        #expect(refusal.keyPath.components.prefix(2) == [.key("items"), .index(1)])
    }
}
