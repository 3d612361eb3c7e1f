#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import Spool

/// Differential fuzzing of Spool's whole-document decoding (see Fuzz/README.md). The first
/// byte holds the options, a small chunk size (1-7) and the root key path (bits 5-6); the
/// rest is JSON.
///
/// The input is decoded with `decodeValue(from:rootKeyPath:options:)` as `JSONValue`,
/// `[JSONValue]`, `[String: JSONValue]`, a recursive model (`Tree`, and `[Tree]`,
/// `[String: Tree]`), a model with required fields (`[Pair]`) and a probe that converts every
/// number to Int, Int8, UInt64, Double, Float and Decimal (`Probe`); four ways: one thread in
/// one chunk, with and without `releasesDecodedElements`, and on the background thread in
/// small chunks, with and without it. The four must agree exactly (values and error
/// descriptions), and the first must agree with a reference decoder written here over the
/// tree the token cursor gives (`RefDocument`): the same value, or the same error code at the
/// same key path, or the reader's parse error. Number leaves follow the reference number rules
/// of `NumberOracle` (the new semantics); duplicate keys resolve to their last occurrence.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let input = FuzzInput(data, size) else { return 0 }
    let reference = RefDocument(bytes: input.bytes, options: input.oneThread)
    if reference.error != nil && reference.parseError == nil {
        fail("the reader threw something else than a ParseError", input, reference.errorDescription ?? "")
    }
    let oracle = NumberOracle(input: input)
    oracle.checkAll(reference.numberTexts)
    let check = Checker(input: input, reference: reference, oracle: oracle, rootKeyPath: rootKeyPath(input.selector, reference.first))

    check(JSONValue.self) { _, node, _ in node.jsonValue }
    check([JSONValue].self) { r, node, path in try r.array(node, path) { node, _ in node.jsonValue } }
    check([String: JSONValue].self) { r, node, path in try r.dictionary(node, path) { node, _ in node.jsonValue } }
    check(Tree.self) { r, node, path in try r.tree(node, path) }
    check([Tree].self) { r, node, path in try r.array(node, path, r.tree) }
    check([String: Tree].self) { r, node, path in try r.dictionary(node, path, r.tree) }
    check([Pair].self) { r, node, path in try r.array(node, path, r.pair) }
    check(Probe.self) { r, node, path in try r.probe(node, path) }
    check.checkCodable()
    return 0
}

/// The root key path: 0 none; 1 the first key of a root object ("a" otherwise); 2 `[0]`; 3 `c[0]`.
func rootKeyPath(_ selector: Int, _ root: RefNode?) -> JSONKeyPath {
    switch (selector, root) {
    case (0, _): return .root
    case (1, .object(let members, _)?) where !members.isEmpty: return JSONKeyPath([.key(members[0].key)])
    case (1, _): return "a"
    case (2, _): return [0]
    default: return ["c", 0]
    }
}

// MARK: - Models

/// A recursive model with optional fields of every number type, nested arrays and objects.
struct Tree: JSONDecodable, Equatable {
    init(
        k: String? = nil, i: Int? = nil, d: Double? = nil, m: Decimal? = nil, s: Int8? = nil, u: UInt64? = nil,
        f: Float? = nil, b: Bool? = nil, c: [Tree]? = nil, l: [Int?]? = nil, p: String? = nil, t: [String: Double]? = nil
    ) {
        (self.k, self.i, self.d, self.m, self.s, self.u, self.f, self.b) = (k, i, d, m, s, u, f, b)
        (self.c, self.l, self.p, self.t) = (c, l, p, t)
    }

    var k: String?
    var i: Int?
    var d: Double?
    var m: Decimal?
    var s: Int8?
    var u: UInt64?
    var f: Float?
    var b: Bool?
    var c: [Tree]?
    var l: [Int?]?
    var p: String?
    var t: [String: Double]?

    static func decode(_ e: Extractor) throws -> Tree {
        try Tree(
            k: e <|? "k", i: e <|? "i", d: e <|? "d", m: e <|? "m", s: e <|? "s", u: e <|? "u", f: e <|? "f",
            b: e <|? "b", c: e <||? "c", l: e <||? "l", p: e <|? ["o", "p"], t: e <|-|? "t")
    }
}

/// A model with required fields: missing keys and nulls are errors.
struct Pair: JSONDecodable, Equatable {
    var a: Int
    var b: [Int8]
    var c: Bool?

    static func decode(_ e: Extractor) throws -> Pair {
        try Pair(a: e <| "a", b: e <|| "b", c: e <|? "c")
    }
}

/// Any value, every number converted to every number type (nil where it does not convert).
indirect enum Probe: JSONDecodable, Equatable {
    case number(String, Int?, Int8?, UInt64?, Double?, Float?, Decimal?)
    case scalar(JSONValue)
    case array([Probe])
    case object([String: Probe])

    static func decode(_ e: Extractor) throws -> Probe {
        switch e.token {
        case .number?:
            return .number(
                try e.numberText(), try? Int.decode(e), try? Int8.decode(e), try? UInt64.decode(e), try? Double.decode(e),
                try? Float.decode(e), try? Decimal.decode(e))
        case .arrayStart?: return .array(try [Probe].decode(e))
        case .objectStart?: return .object(try [String: Probe].decode(e))
        default: return .scalar(try JSONValue.decode(e))
        }
    }
}

// MARK: - The reference decoder

typealias Components = [JSONKeyPath.Component]

/// A decoding error as the reference predicts it: its code and key path.
struct RefError: Error, Equatable {
    var code: String
    var path: String
    init(_ code: String, _ path: Components) {
        self.code = code
        self.path = JSONKeyPath(path).description
    }

    init(_ error: DecodeError) {
        code = "\(error.code)"
        path = error.keyPath.description
    }
}

/// Decodes reference trees into the same models, following Spool's documented semantics:
/// `<|` a missing key or null is an error; `<|?` nil for a missing key or null (a null on the
/// way too), an error for a value of another type; arrays and dictionaries decode their
/// children in document order and stop at the first error; with duplicate keys the last
/// member wins (or, to recognise the old behaviour, the first).
struct Reference {
    let oracle: NumberOracle
    let firstOccurrence: Bool

    func mismatch(_ node: RefNode, _ path: Components) -> RefError {
        RefError(node.isNull ? "null" : "type mismatch", path)
    }

    func member(_ node: RefNode, _ key: String) -> RefNode? { node.member(key, first: firstOccurrence) }

    func string(_ node: RefNode, _ path: Components) throws -> String {
        guard case .string(let text) = node else { throw mismatch(node, path) }
        return text
    }

    func bool(_ node: RefNode, _ path: Components) throws -> Bool {
        guard case .bool(let value) = node else { throw mismatch(node, path) }
        return value
    }

    func number<T>(_ node: RefNode, _ path: Components, _ convert: (String) -> Converted<T>) throws -> T {
        guard case .number(let text) = node, case .value(let value) = convert(text) else { throw mismatch(node, path) }
        return value
    }

    func optional<T>(_ node: RefNode, _ path: Components, _ decode: (RefNode, Components) throws -> T) throws -> T? {
        node.isNull ? nil : try decode(node, path)
    }

    func array<T>(_ node: RefNode, _ path: Components, _ element: (RefNode, Components) throws -> T) throws -> [T] {
        guard case .array(let items, _) = node else { throw mismatch(node, path) }
        return try items.enumerated().map { try element($1, path + [.index($0)]) }
    }

    func dictionary<T>(_ node: RefNode, _ path: Components, _ value: (RefNode, Components) throws -> T) throws -> [String: T] {
        guard case .object(let members, _) = node else { throw mismatch(node, path) }
        var result: [String: T] = [:]
        // Of duplicate keys, the first counts.
        for member in members where result[member.key] == nil { result[member.key] = try value(member.value, path + [.key(member.key)]) }
        return result
    }

    /// `e.valueOptional(keys)`: the value and its path, or nil.
    func lookupOptional(_ node: RefNode, _ path: Components, _ keys: [String]) throws -> (RefNode, Components)? {
        var node = node
        var path = path
        for key in keys {
            switch node {
            case .object:
                guard let next = member(node, key) else { return nil }
                node = next
                path.append(.key(key))
            case .null:
                return nil
            default:
                throw RefError("type mismatch", path)
            }
        }
        return node.isNull ? nil : (node, path)
    }

    /// `e.value(components)`: the value and its path.
    func lookupRequired(_ node: RefNode, _ path: Components, _ components: Components) throws -> (RefNode, Components) {
        var node = node
        var current = path
        for (position, component) in components.enumerated() {
            switch (component, node) {
            case (.key(let key), .object):
                guard let next = member(node, key) else { throw RefError("missing key", path + components[...position]) }
                node = next
            case (.index(let index), .array(let items, _)):
                guard index < items.count else { throw RefError("missing key", path + components[...position]) }
                node = items[index]
            case (_, .null):
                throw RefError("null", current)
            default:
                throw RefError("type mismatch", current)
            }
            current.append(component)
        }
        return (node, current)
    }

    func field<T>(_ node: RefNode, _ path: Components, _ keys: [String], _ decode: (RefNode, Components) throws -> T) throws -> T? {
        try lookupOptional(node, path, keys).map { try decode($0.0, $0.1) }
    }

    func tree(_ node: RefNode, _ path: Components) throws -> Tree {
        try Tree(
            k: field(node, path, ["k"], string),
            i: field(node, path, ["i"]) { try number($0, $1, oracle.int) },
            d: field(node, path, ["d"]) { try number($0, $1, oracle.double) },
            m: field(node, path, ["m"]) { try number($0, $1, oracle.decimal) },
            s: field(node, path, ["s"]) { try number($0, $1, oracle.int8) },
            u: field(node, path, ["u"]) { try number($0, $1, oracle.uint64) },
            f: field(node, path, ["f"]) { try number($0, $1, oracle.float) },
            b: field(node, path, ["b"], bool),
            c: field(node, path, ["c"]) { try array($0, $1, tree) },
            l: field(node, path, ["l"]) { try array($0, $1) { try optional($0, $1) { try number($0, $1, oracle.int) } } },
            p: field(node, path, ["o", "p"], string),
            t: field(node, path, ["t"]) { try dictionary($0, $1) { try number($0, $1, oracle.double) } })
    }

    func pair(_ node: RefNode, _ path: Components) throws -> Pair {
        let a = try lookupRequired(node, path, [.key("a")])
        let aValue = try number(a.0, a.1, oracle.int)
        let b = try lookupRequired(node, path, [.key("b")])
        let bValue = try array(b.0, b.1) { try number($0, $1, oracle.int8) }
        return Pair(a: aValue, b: bValue, c: try field(node, path, ["c"], bool))
    }

    func probe(_ node: RefNode, _ path: Components) throws -> Probe {
        switch node {
        case .number(let text):
            return .number(
                text, oracle.int(text).value, oracle.int8(text).value, oracle.uint64(text).value, oracle.double(text).value,
                oracle.float(text).value, oracle.decimal(text).value)
        case .array: return .array(try array(node, path, probe))
        case .object: return .object(try dictionary(node, path, probe))
        default: return .scalar(node.jsonValue)
        }
    }
}

extension Converted {
    var value: T? {
        if case .value(let value) = self { return value }
        return nil
    }
}

// MARK: - Comparing

/// What a decode gave (or the reference predicts).
enum Outcome<T: Equatable>: Equatable {
    case value(T)
    case decodeError(RefError)
    case parseError(String)
}

struct Checker {
    let input: FuzzInput
    let reference: RefDocument
    let oracle: NumberOracle
    let rootKeyPath: JSONKeyPath

    /// The four ways Spool decodes: (chunk size, in background, releasing).
    var configurations: [JSONParsingOptions] {
        [
            input.options(chunkSize: 65_536, inBackground: false, releasing: true),
            input.options(chunkSize: 65_536, inBackground: false, releasing: false),
            input.options(chunkSize: input.smallChunk, inBackground: true, releasing: true),
            input.options(chunkSize: input.smallChunk, inBackground: true, releasing: false),
        ]
    }

    func spool<T: JSONDecodable & Equatable>(_ type: T.Type, _ options: JSONParsingOptions) -> (Outcome<T>, String) {
        do {
            let value = try T.decodeValue(from: .bytes(input.bytes), rootKeyPath: rootKeyPath, options: options)
            return (.value(value), "")
        } catch let error as DecodeError {
            return (.decodeError(RefError(error)), "\(error)")
        } catch let error as ParseError {
            return (.parseError("\(error)"), "\(error)")
        } catch {
            fail("decodeValue(\(T.self)) threw neither a DecodeError nor a ParseError", input, "\(Swift.type(of: error)): \(error)")
        }
    }

    func expected<T>(_ reference: Reference, _ decode: (Reference, RefNode, Components) throws -> T) -> Outcome<T> {
        let options = input.oneThread
        let firstIsEnough = options.allowsMultipleValues || options.allowsTrailingGarbage
        guard let root = self.reference.values.first, self.reference.error == nil || firstIsEnough else {
            if let error = self.reference.errorDescription { return .parseError(error) }
            return .decodeError(RefError("no value", []))
        }
        do {
            let (node, path) = try reference.lookupRequired(root, [], rootKeyPath.components)
            return .value(try decode(reference, node, path))
        } catch let error as RefError {
            return .decodeError(error)
        } catch {
            fail("the reference threw \(error)", input)
        }
    }

    func callAsFunction<T: JSONDecodable & Equatable>(
        _ type: T.Type, _ decode: (Reference, RefNode, Components) throws -> T
    ) {
        let runs = configurations.map { spool(T.self, $0) }
        for (index, run) in runs.enumerated().dropFirst() where run != runs[0] {
            let options = configurations[index]
            fail(
                "decodeValue(\(T.self)) at \(rootKeyPath) differs in \(options.chunkSize)-byte chunks, "
                    + "background \(options.parsesInBackground), releasing \(options.releasesDecodedElements)",
                input, "one thread: \(runs[0].0)\n\(runs[0].1)\nthis way: \(run.0)\n\(run.1)")
        }
        let actual = runs[0].0
        // Of duplicate keys, the first counts (Spool's one rule, as JSONDecoder's).
        let new = expected(Reference(oracle: oracle, firstOccurrence: true), decode)
        if actual == new { return }
        let details = "decodeValue(\(T.self)) at \(rootKeyPath)\nexpected: \(new)\nSpool: \(actual)\n\(runs[0].1)"
        fail("decodeValue(\(T.self)) at \(rootKeyPath) differs from the reference", input, details)
    }
}
