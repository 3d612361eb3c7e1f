import Foundation
import Testing
@testable import Spool

/// Documents nested as deep as the default `maxDepth` (512) decode on a 512 KiB thread stack
/// (Apple's default for secondary threads): the untyped paths walk values with a stack of
/// their own, not by recursion.
@Suite("Deep nesting on a small stack")
struct DeepNestingTests {
    enum Shape: String, CaseIterable, CustomStringConvertible {
        case arrays, objects, mixed
        var description: String { rawValue }
    }

    static let maxDepth = JSONParsingOptions().maxDepth

    /// A document `depth` containers deep, `1` innermost: `[[1]]`, `{"a":{"a":1}}`, or
    /// alternating `[{"a":[1]}]`.
    static func document(_ shape: Shape, depth: Int) -> String {
        var open = ""
        var close = ""
        for level in 0..<depth {
            let isArray = shape == .arrays || (shape == .mixed && level % 2 == 0)
            open += isArray ? "[" : #"{"a":"#
            close += isArray ? "]" : "}"
        }
        return open + "1" + String(close.reversed())
    }

    /// The nesting depth of `value`, walked without recursion.
    static func depth(of value: JSONValue) -> Int {
        var deepest = 0
        var pending: [(JSONValue, Int)] = [(value, 0)]
        while let (value, level) = pending.popLast() {
            switch value {
            case .array(let elements):
                deepest = max(deepest, level + 1)
                pending += elements.map { ($0, level + 1) }
            case .object(let members):
                deepest = max(deepest, level + 1)
                pending += members.values.map { ($0, level + 1) }
            default:
                break
            }
        }
        return deepest
    }

    /// Runs `body` on a 512 KiB stack and returns its result, recording its error.
    static func onSmallStack<T>(
        _ body: @escaping () throws -> T, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> (value: T?, stackUsed: Int) {
        let run = SmallStack.run(body)
        switch run.result {
        case .success(let value): return (value, run.stackUsed)
        case .failure(let error):
            Issue.record("\(error)", sourceLocation: sourceLocation)
            return (nil, run.stackUsed)
        }
    }

    @Test func theDefaultDepthIsAcceptedAndOneMoreIsNot() throws {
        for shape in Shape.allCases {
            #expect(throws: Never.self) { try JSONReader(.string(Self.document(shape, depth: Self.maxDepth))).skipToEnd() }
            #expect(throws: ParseError.self) { try JSONReader(.string(Self.document(shape, depth: Self.maxDepth + 1))).skipToEnd() }
        }
    }

    @Test(arguments: Shape.allCases)
    func jsonValue(_ shape: Shape) {
        let text = Self.document(shape, depth: Self.maxDepth)
        let run = Self.onSmallStack { Self.depth(of: try JSONValue.decodeValue(from: .string(text))) }
        #expect(run.value == Self.maxDepth)
    }

    @Test(arguments: Shape.allCases)
    func jsonValueElementsAndMembers(_ shape: Shape) {
        let text = Self.document(shape, depth: Self.maxDepth)
        let run = Self.onSmallStack { () -> Int in
            if shape == .objects {
                let members = try [String: JSONValue].decodeValue(from: .string(text))
                return 1 + (members["a"].map(Self.depth(of:)) ?? 0)
            }
            let elements = try [JSONValue].decodeValue(from: .string(text))
            return 1 + (elements.first.map(Self.depth(of:)) ?? 0)
        }
        #expect(run.value == Self.maxDepth)
    }

    @Test(arguments: Shape.allCases)
    func compactJSON(_ shape: Shape) {
        let text = Self.document(shape, depth: Self.maxDepth)
        let run = Self.onSmallStack { try Extractor.decodeValue(from: .string(text)).compactJSON() }
        #expect(run.value == text)
    }

    @Test(arguments: Shape.allCases)
    func streamedElements(_ shape: Shape) {
        // The stream's root array is the first level; each element is one level less deep.
        let element = Self.document(shape, depth: Self.maxDepth - 1)
        let text = "[\(element),\(element)]"
        let run = Self.onSmallStack { () -> [Int] in
            let stream = JSONStream(.string(text))
            var depths: [Int] = []
            let values = stream.elements(of: JSONValue.self)
            while let value = try values.next() { depths.append(Self.depth(of: value)) }
            let extractors = JSONStream(.string(text)).elements(of: Extractor.self)
            while let extractor = try extractors.next() { depths.append(try extractor.compactJSON() == element ? -1 : 0) }
            return depths
        }
        #expect(run.value == [Self.maxDepth - 1, Self.maxDepth - 1, -1, -1])
    }

    @Test(arguments: Shape.allCases)
    func comparingAndHashingDeepValues(_ shape: Shape) {
        let text = Self.document(shape, depth: Self.maxDepth)
        let run = Self.onSmallStack { () -> Bool in
            let a = try JSONValue.decodeValue(from: .string(text))
            let b = try JSONValue.decodeValue(from: .string(text))
            return a == b && Set([a, b]).count == 1
        }
        #expect(run.value == true)
    }

    @Test func anErrorAtTheBottomNamesTheWholePath() {
        let text = Self.document(.objects, depth: Self.maxDepth)
        let path = JSONKeyPath(Array(repeating: .key("a"), count: Self.maxDepth))
        let run = Self.onSmallStack { () -> DecodeError? in
            let e = try Extractor.decodeValue(from: .string(text))
            do {
                let _: String = try e.value(path)
                return nil
            } catch let error as DecodeError {
                _ = error.description
                return error
            }
        }
        #expect(run.value??.keyPath == path)  // the whole path; the message clips it in the middle
        #expect(run.value??.message == "expected String at \(path.clippedDescription), found number 1")
    }
}

/// Recursive models recurse, one `decode` per level, but keep the library's frames small: at
/// the depths ``JSONParsingOptions/maxDepth`` recommends for debug builds (about 300 levels),
/// they fit a 512 KiB stack even unoptimized.
@Suite("Recursive models on a small stack")
struct RecursiveModelStackTests {
    @Test func nestedThroughAnOptionalMember() {
        let depth = 300
        let run = SmallStack.run {
            var node = try StackPerLevelTests.Node.decodeValue(from: .string(StackPerLevelTests.nodes(depth: depth)))
            var levels = 1
            while let child = node.child.first {
                node = child
                levels += 1
            }
            return levels
        }
        #expect((try? run.result.get()) == depth)
    }

    @Test(.disabled(if: Sanitizers.address, "AddressSanitizer's frames are larger: 140 levels do not fit 512 KiB, and are refused"))
    func nestedThroughAnArray() {
        let depth = 140  // 280 levels of JSON: an object and an array each
        let run = SmallStack.run {
            var tree = try StackPerLevelTests.Tree.decodeValue(from: .string(StackPerLevelTests.trees(depth: depth)))
            var levels = 1
            while let child = tree.children.first {
                tree = child
                levels += 1
            }
            return levels
        }
        #expect((try? run.result.get()) == depth)
    }
}

/// Stack used per nesting level, measured on a large stack.
@Suite("Stack per nesting level")
struct StackPerLevelTests {
    /// A model that nests itself: `{"child": {"child": ... null}}`.
    struct Node: JSONDecodable {
        var child: [Node]
        static func decode(_ e: Extractor) throws -> Node {
            let child: Node? = try e <|? "child"
            return Node(child: child.map { [$0] } ?? [])
        }
    }

    /// A model that nests itself through an array: `[[[]]]` as `{"children": [...]}`.
    struct Tree: JSONDecodable {
        var children: [Tree]
        static func decode(_ e: Extractor) throws -> Tree { try Tree(children: e <|| "children") }
    }

    static func trees(depth: Int) -> String {
        String(repeating: #"{"children":["#, count: depth) + String(repeating: "]}", count: depth)
    }

    static func nodes(depth: Int) -> String {
        String(repeating: #"{"child":"#, count: depth) + "null" + String(repeating: "}", count: depth)
    }

    /// Bytes of stack per level: the difference between decoding `deep` and `shallow` levels.
    static func perLevel(shallow: Int = 64, deep: Int = 448, _ decode: @escaping (Int) throws -> Void) -> Int {
        let big = 16 << 20
        let low = SmallStack.run(stackSize: big) { try decode(shallow) }
        let high = SmallStack.run(stackSize: big) { try decode(deep) }
        if case .failure(let error) = low.result { Issue.record("\(error)") }
        if case .failure(let error) = high.result { Issue.record("\(error)") }
        return (high.stackUsed - low.stackUsed) / (deep - shallow)
    }

    /// Decoding `JSONValue` builds with a stack of its own: what is left per level is the
    /// runtime's (releasing nested arrays). Before, about 1.6 KiB (release) or 3 KiB (debug).
    /// The recursive models' figures are printed for ``JSONParsingOptions/maxDepth``'s note.
    @Test func jsonValueUsesLittleStackPerLevel() {
        let jsonValue = Self.perLevel { depth in
            _ = try JSONValue.decodeValue(from: .string(DeepNestingTests.document(.mixed, depth: depth)))
        }
        let model = Self.perLevel { depth in _ = try Node.decodeValue(from: .string(Self.nodes(depth: depth))) }
        let tree = Self.perLevel(deep: 224) { depth in _ = try Tree.decodeValue(from: .string(Self.trees(depth: depth))) }
        print("stack per level: JSONValue \(jsonValue) bytes, recursive model \(model) bytes, through arrays \(tree) bytes")
        #expect(jsonValue < 512)
    }
}

/// With the largest `maxDepth`, recursive operator models are refused where the stack runs
/// out (``DecodeError/Code/tooDeep``), located, never a crash.
@Suite("Recursive models past the stack")
struct RecursiveModelStackLimitTests {
    @Test(arguments: [512 * 1024, 8 << 20])
    func aNodeTooDeepForTheStackIsRefused(stackSize: Int) throws {
        var options = JSONParsingOptions()
        options.maxDepth = JSONParsingOptions.largestMaxDepth
        let text = StackPerLevelTests.nodes(depth: JSONParsingOptions.largestMaxDepth - 1)
        let run = SmallStack.run(stackSize: stackSize) {
            try StackPerLevelTests.Node.decodeValue(from: .string(text), options: options)
        }
        guard case .failure(let failure) = run.result else {
            Issue.record("decoded \(JSONParsingOptions.largestMaxDepth) levels on \(stackSize) bytes of stack")
            return
        }
        let error = try #require(failure as? DecodeError, "\(failure)")
        #expect(error.code == .tooDeep)
        #expect(error.keyPath.components.count > 100)
        #expect(error.location.map { $0.line == 1 && $0.column > 1000 } == true)
        #expect(error.message.hasPrefix("nesting too deep to decode on this thread's stack"))
    }

    @Test func aTreeTooDeepForTheStackIsRefused() throws {
        var options = JSONParsingOptions()
        options.maxDepth = JSONParsingOptions.largestMaxDepth
        let text = StackPerLevelTests.trees(depth: JSONParsingOptions.largestMaxDepth / 2)
        let run = SmallStack.run { try StackPerLevelTests.Tree.decodeValue(from: .string(text), options: options) }
        let failure = try #require(throws: DecodeError.self) { try run.result.get() }
        #expect(failure.code == .tooDeep)
    }
}
