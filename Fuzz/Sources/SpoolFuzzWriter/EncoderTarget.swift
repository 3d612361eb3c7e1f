import Foundation  // JSONEncoder, JSONSerialization
import FuzzSupport
import Spool

/// The tree a recipe describes, encoded by ``StreamingJSONEncoder`` (see Fuzz/README.md):
///
/// - with `.sortedKeys` (and the recipe's layout and slash escaping), byte for byte what
///   `JSONEncoder` writes with the same strategies, or an error where it throws one (the tree's
///   only errors are infinities and NaN under `.throw`);
/// - without `.sortedKeys`: the same value (keys in the order encoded), accepted by
///   `JSONSerialization`, no key twice in an object (keys compared as Swift strings, as
///   `JSONEncoder` compares them); pretty output relaid compact is the compact output; the
///   same bytes into a memory `JSONWriter`, and twice through `writeArray` and `writeLines`;
/// - both outputs decode back through ``StreamingJSONDecoder`` (same strategies) to the value
///   the tree's calls make by `JSONEncoder`'s rules (``Expect``), exactly: numbers to the bit,
///   strings to the byte, dates and data equal.
func checkEncoder(_ input: FuzzInput) {
    var recipe = Recipe(input.bytes)
    let settings = recipe.settings
    var tree = recipe.node(depth: 0).acceptedByJSONEncoder(settings)
    if tree.hasEquivalentKeys(settings) {
        // TODO: drop once StreamingJSONEncoder writes such keys once (Fuzz/README.md, "Bugs
        // found"). Noted when Spool shows the bug; then the tree is checked with its keys in
        // normalization form C, where every check applies.
        if let data = try? spoolEncoder(settings, []).encode(tree), let key = keyWrittenTwice(data) {
            KnownOldBehaviour.equivalentKeysWrittenTwice.note(input, "key \(key.debugDescription) twice in \(text(data))")
        }
        tree = tree.normalizingKeys().acceptedByJSONEncoder(settings)
        if tree.hasEquivalentKeys(settings) { return }  // a key strategy undid the normalization
    }
    if printsTree { printError("tree (\(settings)): \(tree)") }
    let expected = Expect.of(tree, settings)
    func disagree(_ what: String, _ details: @autoclosure () -> String = "") -> Never {
        fail("StreamingJSONEncoder: \(what) (\(settings))", input, "tree: \(tree)\n\(details())")
    }

    // Sorted: JSONEncoder's bytes.
    var sorted: JSONEncoder.OutputFormatting = [.sortedKeys]
    if settings.pretty { sorted.insert(.prettyPrinted) }
    if !settings.escapesSlashes { sorted.insert(.withoutEscapingSlashes) }
    let spoolSorted = Result { try spoolEncoder(settings, sorted).encode(tree) }
    let foundationSorted = Result { try foundationEncoder(settings).encode(tree) }
    switch (spoolSorted, foundationSorted) {
    case (.success(let spool), .success(let foundation)):
        if spool != foundation {
            disagree("sorted output differs from JSONEncoder's", "JSONEncoder: \(text(foundation))\nSpool:       \(text(spool))")
        }
    case (.failure(let error), .failure):
        if !(error is EncodingError) { disagree("threw \(type(of: error))", "\(error)") }
    case (.success(let spool), .failure(let error)):
        disagree("encoded what JSONEncoder refuses", "JSONEncoder: \(error)\nSpool: \(text(spool))")
    case (.failure(let error), .success(let foundation)):
        disagree("refused what JSONEncoder encodes", "Spool: \(error)\nJSONEncoder: \(text(foundation))")
    }
    guard case .success(let sortedData) = spoolSorted, let expected else {
        if case .success(let data) = spoolSorted { disagree("encoded a tree with a non-conforming float under .throw", text(data)) }
        return
    }

    // Unsorted: the same value, in the order encoded.
    var compactFormatting: JSONEncoder.OutputFormatting = []
    if !settings.escapesSlashes { compactFormatting.insert(.withoutEscapingSlashes) }
    let compact: Data
    do {
        compact = try spoolEncoder(settings, compactFormatting).encode(tree)
    } catch {
        disagree("unsorted encode failed where sorted worked", "\(error)")
    }
    for (name, data) in [("sorted", sortedData), ("unsorted", compact)] {
        if (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) == nil {
            disagree("JSONSerialization refuses the \(name) output", text(data))
        }
        if let key = keyWrittenTwice(data) { disagree("the \(name) output has the key \(key.debugDescription) twice in an object", text(data)) }
        checkDecode(data, expected, settings) { disagree("\(name) output decodes to another value: \($0)", text(data)) }
    }
    guard let sortedValue = try? JSONValue.decodeValue(from: .data(sortedData)), let compactValue = try? JSONValue.decodeValue(from: .data(compact)),
        sortedValue == compactValue
    else { disagree("the unsorted output holds another value than the sorted one", "sorted: \(text(sortedData))\nunsorted: \(text(compact))") }
    if settings.pretty {
        let pretty: Data
        do {
            pretty = try spoolEncoder(settings, compactFormatting.union(.prettyPrinted)).encode(tree)
        } catch {
            disagree("unsorted pretty encode failed", "\(error)")
        }
        let relaid = JSONWriter(format: JSONWriter.Format(.compact, escapesSlashes: settings.escapesSlashes))
        do {
            try relaid.copy(from: JSONReader(.data(pretty)))
        } catch {
            disagree("the pretty output does not read", "\(error)\n\(text(pretty))")
        }
        if Data(relaid.bytes) != compact { disagree("the pretty output is not the compact one laid out", "pretty: \(text(pretty))\ncompact: \(text(compact))") }
    }

    // Into writers: the same bytes, and twice through writeArray and writeLines.
    let encoder = spoolEncoder(settings, [])
    let bytes = Array(compact)
    let single = JSONWriter(format: JSONWriter.Format(.compact, escapesSlashes: settings.escapesSlashes))
    let array = JSONWriter(format: JSONWriter.Format(.compact, escapesSlashes: settings.escapesSlashes))
    let lines = JSONWriter(format: JSONWriter.Format(.lines, escapesSlashes: settings.escapesSlashes))
    do {
        try encoder.encode(tree, to: single)
        try single.finish()
        try array.writeArray([tree, tree], encoder: encoder)
        try array.finish()
        try lines.writeLines([tree, tree], encoder: encoder)
        try lines.finish()
    } catch {
        disagree("encoding into a writer failed", "\(error)")
    }
    if single.bytes != bytes { disagree("encode(_:to:) wrote other bytes", "\(text(Data(single.bytes)))\n\(text(compact))") }
    if array.bytes != Array("[".utf8) + bytes + Array(",".utf8) + bytes + Array("]".utf8) {
        disagree("writeArray wrote other bytes", text(Data(array.bytes)))
    }
    if lines.bytes != bytes + [0x0A] + bytes + [0x0A] { disagree("writeLines wrote other bytes", text(Data(lines.bytes))) }
}

/// `SPOOL_FUZZ_PRINT_TREE=1`: print each input's tree before encoding it (to see the tree of
/// an input that crashes JSONEncoder).
let printsTree = getenv("SPOOL_FUZZ_PRINT_TREE").map { String(cString: $0) == "1" } ?? false

func text(_ data: Data) -> String { FuzzInput.show(Array(data), limit: 1500) }

func spoolEncoder(_ settings: Recipe.Settings, _ formatting: JSONEncoder.OutputFormatting) -> StreamingJSONEncoder {
    let encoder = StreamingJSONEncoder()
    encoder.outputFormatting = formatting
    switch settings.keys {
    case .plain, .plain2: break
    case .snakeCase: encoder.keyEncodingStrategy = .convertToSnakeCase
    case .lowercased: encoder.keyEncodingStrategy = .custom { FuzzKey(($0.last?.stringValue ?? "").lowercased()) }
    }
    if settings.convertsNonConforming {
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: Recipe.infinity, negativeInfinity: Recipe.negativeInfinity, nan: Recipe.nan)
    }
    switch settings.dates {
    case .deferred: break
    case .seconds: encoder.dateEncodingStrategy = .secondsSince1970
    case .milliseconds: encoder.dateEncodingStrategy = .millisecondsSince1970
    case .iso8601: encoder.dateEncodingStrategy = .iso8601
    }
    if !settings.base64 { encoder.dataEncodingStrategy = .deferredToData }
    return encoder
}

func foundationEncoder(_ settings: Recipe.Settings) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    if settings.pretty { encoder.outputFormatting.insert(.prettyPrinted) }
    if !settings.escapesSlashes { encoder.outputFormatting.insert(.withoutEscapingSlashes) }
    switch settings.keys {
    case .plain, .plain2: break
    case .snakeCase: encoder.keyEncodingStrategy = .convertToSnakeCase
    case .lowercased: encoder.keyEncodingStrategy = .custom { FuzzKey(($0.last?.stringValue ?? "").lowercased()) }
    }
    if settings.convertsNonConforming {
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: Recipe.infinity, negativeInfinity: Recipe.negativeInfinity, nan: Recipe.nan)
    }
    switch settings.dates {
    case .deferred: break
    case .seconds: encoder.dateEncodingStrategy = .secondsSince1970
    case .milliseconds: encoder.dateEncodingStrategy = .millisecondsSince1970
    case .iso8601: encoder.dateEncodingStrategy = .iso8601
    }
    if !settings.base64 { encoder.dataEncodingStrategy = .deferredToData }
    return encoder
}

/// A key that appears twice in one object (compared as Swift strings), read with Spool's reader.
func keyWrittenTwice(_ data: Data) -> String? {
    let reader = JSONReader(.data(data))
    var open: [Set<String>?] = []
    do {
        while let token = try reader.next() {
            switch token {
            case .objectStart: open.append([])
            case .arrayStart: open.append(nil)
            case .objectEnd, .arrayEnd: open.removeLast()
            case .key:
                let key = reader.text ?? ""
                if open[open.count - 1]?.insert(key).inserted == false { return key }
            default: break
            }
        }
    } catch {
        return "(unreadable: \(error))"
    }
    return nil
}

// MARK: - The expected value

/// The value a tree's calls make, by `JSONEncoder`'s rules: a value for a key replaces the
/// earlier member; a nested container for a key continues the earlier container of its kind
/// (an object or array written as a value included); a super encoder's value is placed when its
/// container ends; keys are converted by the key strategy (not a dictionary's) and compared as
/// Swift strings.
indirect enum Expect: Sendable, CustomStringConvertible {
    /// A scalar, decoded as its own type.
    case leaf(Node)
    case array([Expect])
    case object([String: Expect])

    /// nil when encoding throws (a non-conforming float under `.throw`).
    static func of(_ node: Node, _ settings: Recipe.Settings) -> Expect? {
        var failed = false
        let value = build(node, settings, &failed)
        return failed ? nil : value
    }

    static func build(_ node: Node, _ settings: Recipe.Settings, _ failed: inout Bool) -> Expect {
        switch node {
        case .double(let value) where !value.isFinite && !settings.convertsNonConforming: failed = true
        case .float(let value) where !value.isFinite && !settings.convertsNonConforming: failed = true
        default: break
        }
        switch node {
        case .array(let items): return .array(items.map { build($0, settings, &failed) })
        case .object(let entries): return .object(apply(entries, to: [:], settings, &failed))
        case .dictionary(let members): return .object(members.mapValues { build($0, settings, &failed) })
        case .wrapped(let inner): return build(inner, settings, &failed)
        default: return .leaf(node)
        }
    }

    static func build(_ item: Node.Item, _ settings: Recipe.Settings, _ failed: inout Bool) -> Expect {
        switch item {
        case .value(let node), .superValue(let node): return build(node, settings, &failed)
        case .encodeNil: return .leaf(.null)
        case .nestedKeyed(let entries): return .object(apply(entries, to: [:], settings, &failed))
        case .nestedUnkeyed(let items): return .array(items.map { build($0, settings, &failed) })
        }
    }

    static func apply(_ entries: [Node.Entry], to start: [String: Expect], _ settings: Recipe.Settings, _ failed: inout Bool) -> [String: Expect] {
        var members = start
        var supers: [(String, Expect)] = []
        let keys = KeyConverter(settings: settings)
        for entry in entries {
            let key = keys.jsonKey(entry)
            switch entry.call {
            case .value(let node): members[key] = build(node, settings, &failed)
            case .encodeNil: members[key] = .leaf(.null)
            case .absent: break
            case .nestedKeyed(let inner):
                let earlier: [String: Expect]
                if case .object(let object)? = members[key]?.structural { earlier = object } else { earlier = [:] }
                members[key] = .object(apply(inner, to: earlier, settings, &failed))
            case .nestedUnkeyed(let items):
                let earlier: [Expect]
                if case .array(let array)? = members[key]?.structural { earlier = array } else { earlier = [] }
                members[key] = .array(earlier + items.map { build($0, settings, &failed) })
            case .superValue(let node, _):
                supers.append((key, build(node, settings, &failed)))
            }
        }
        for (key, value) in supers { members[key] = value }
        return members
    }

    /// The value as an array or object a nested container continues: data written as an array
    /// of bytes becomes that array.
    var structural: Expect {
        if case .leaf(.data(let data)) = self { return .array(data.map { .leaf(.uint8($0)) }) }
        return self
    }

    var description: String {
        switch self {
        case .leaf(let node): return "\(node)"
        case .array(let elements): return "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.sorted { Array($0.key.utf8).lexicographicallyPrecedes($1.key.utf8) }
                .map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }

    /// Exact equality: floats to the bit (NaN to any NaN), strings to the byte.
    func same(as other: Expect) -> Bool {
        switch (self, other) {
        case (.leaf(let a), .leaf(let b)): return a.same(as: b)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.same(as: $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { value.same(as: $0) } ?? false }
        default: return false
        }
    }
}

extension Node {
    /// Exact equality of scalars.
    func same(as other: Node) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.int8(let a), .int8(let b)): return a == b
        case (.int16(let a), .int16(let b)): return a == b
        case (.int32(let a), .int32(let b)): return a == b
        case (.int64(let a), .int64(let b)): return a == b
        case (.uint(let a), .uint(let b)): return a == b
        case (.uint8(let a), .uint8(let b)): return a == b
        case (.uint16(let a), .uint16(let b)): return a == b
        case (.uint32(let a), .uint32(let b)): return a == b
        case (.uint64(let a), .uint64(let b)): return a == b
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case (.float(let a), .float(let b)): return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): return Array(a.utf8) == Array(b.utf8)
        case (.date(let a), .date(let b)): return a.timeIntervalSinceReferenceDate == b.timeIntervalSinceReferenceDate
        case (.data(let a), .data(let b)): return a == b
        case (.decimal(let a), .decimal(let b)): return a == b
        default: return false
        }
    }
}

// MARK: - Decoding back

/// Decodes `data` as the value `expected` describes, each scalar as its own type, through
/// every container kind; calls `mismatch` when it differs.
func checkDecode(_ data: Data, _ expected: Expect, _ settings: Recipe.Settings, mismatch: (String) -> Never) {
    let decoder = StreamingJSONDecoder()
    decoder.options.parsesInBackground = false
    if settings.convertsNonConforming {
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: Recipe.infinity, negativeInfinity: Recipe.negativeInfinity, nan: Recipe.nan)
    }
    switch settings.dates {
    case .deferred: break
    case .seconds: decoder.dateDecodingStrategy = .secondsSince1970
    case .milliseconds: decoder.dateDecodingStrategy = .millisecondsSince1970
    case .iso8601: decoder.dateDecodingStrategy = .iso8601
    }
    if !settings.base64 { decoder.dataDecodingStrategy = .deferredToData }
    Echo.expectations = [expected]
    let decoded: Expect
    do {
        decoded = try decoder.decode(Echo.self, from: data).value
    } catch {
        mismatch("\(error)\nexpected: \(expected)")
    }
    if !decoded.same(as: expected) { mismatch("decoded: \(decoded)\nexpected: \(expected)") }
}

/// A value decoded as the expectation on top of ``expectations`` says.
struct Echo: Decodable {
    /// The expectation for the next `Echo` to decode (decoding is synchronous, on one thread).
    nonisolated(unsafe) static var expectations: [Expect] = []

    var value: Expect

    init(from decoder: any Decoder) throws {
        let expected = Echo.expectations.removeLast()
        value = try Echo.decode(expected, decoder)
    }

    static func decode(_ expected: Expect, _ decoder: any Decoder) throws -> Expect {
        switch expected {
        case .leaf(let node):
            let container = try decoder.singleValueContainer()
            if case .null = node {
                guard container.decodeNil() else { throw FuzzDecodeError("not null") }
                return .leaf(.null)
            }
            return .leaf(try node.decodeSame { try container.decode($0) })
        case .array(let elements):
            var container = try decoder.unkeyedContainer()
            var decoded: [Expect] = []
            for (index, element) in elements.enumerated() {
                if case .leaf(let node) = element, index % 2 == 0 {
                    if case .null = node {
                        guard try container.decodeNil() else { throw FuzzDecodeError("element \(index) is not null") }
                        decoded.append(.leaf(.null))
                    } else {
                        decoded.append(.leaf(try node.decodeSame { try container.decode($0) }))
                    }
                } else {
                    expectations.append(element)
                    decoded.append(try container.decode(Echo.self).value)
                }
            }
            if !container.isAtEnd { throw FuzzDecodeError("more than \(elements.count) elements") }
            return .array(decoded)
        case .object(let members):
            let container = try decoder.container(keyedBy: FuzzKey.self)
            if container.allKeys.count != members.count {
                throw FuzzDecodeError("keys \(container.allKeys.map(\.stringValue)), expected \(members.count)")
            }
            var decoded: [String: Expect] = [:]
            for (index, (key, member)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                let codingKey = FuzzKey(key)
                if case .leaf(let node) = member, index % 2 == 0 {
                    if case .null = node {
                        guard try container.decodeNil(forKey: codingKey) else { throw FuzzDecodeError("\(key) is not null") }
                        decoded[key] = .leaf(.null)
                    } else {
                        decoded[key] = .leaf(try node.decodeSame { try container.decode($0, forKey: codingKey) })
                    }
                } else {
                    expectations.append(member)
                    decoded[key] = try container.decode(Echo.self, forKey: codingKey).value
                }
            }
            return .object(decoded)
        }
    }
}

extension Node {
    /// Decodes a value of this scalar's type with `decode`, as a node.
    func decodeSame(_ decode: (any Decodable.Type) throws -> any Decodable) throws -> Node {
        func get<T: Decodable>(_ type: T.Type) throws -> T {
            guard let value = try decode(type) as? T else { throw FuzzDecodeError("not a \(T.self)") }
            return value
        }
        switch self {
        case .bool: return .bool(try get(Bool.self))
        case .int: return .int(try get(Int.self))
        case .int8: return .int8(try get(Int8.self))
        case .int16: return .int16(try get(Int16.self))
        case .int32: return .int32(try get(Int32.self))
        case .int64: return .int64(try get(Int64.self))
        case .uint: return .uint(try get(UInt.self))
        case .uint8: return .uint8(try get(UInt8.self))
        case .uint16: return .uint16(try get(UInt16.self))
        case .uint32: return .uint32(try get(UInt32.self))
        case .uint64: return .uint64(try get(UInt64.self))
        case .double: return .double(try get(Double.self))
        case .float: return .float(try get(Float.self))
        case .string: return .string(try get(String.self))
        case .date: return .date(try get(Date.self))
        case .data: return .data(try get(Data.self))
        case .decimal: return .decimal(try get(Decimal.self))
        default: throw FuzzDecodeError("not a scalar: \(self)")
        }
    }
}

struct FuzzDecodeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
