import Foundation  // precomposedStringWithCanonicalMapping
import Spool

/// An `Encodable` value built from fuzz bytes: scalars of every type the encoders treat
/// specially, arrays and objects written through every container call, repeated keys.
indirect enum Node: Encodable, Sendable {
    case null
    case bool(Bool)
    case int(Int), int8(Int8), int16(Int16), int32(Int32), int64(Int64)
    case uint(UInt), uint8(UInt8), uint16(UInt16), uint32(UInt32), uint64(UInt64)
    case double(Double)
    case float(Float)
    case string(String)
    case date(Date)
    case data(Data)
    case decimal(Decimal)
    /// An unkeyed container's calls, in order.
    case array([Item])
    /// A keyed container's calls, in order (keys may repeat).
    case object([Entry])
    /// A `[String: Node]`, encoded whole.
    case dictionary([String: Node])
    /// A value encoded through `singleValueContainer().encode(_:)`.
    case wrapped(Node)

    /// A call on a keyed container.
    struct Entry: Sendable {
        enum Call: Sendable {
            case value(Node)
            case encodeNil
            /// `encodeIfPresent` of nil: writes nothing.
            case absent
            case nestedKeyed([Entry])
            case nestedUnkeyed([Item])
            /// `superEncoder(forKey:)`, with `key` "super" and `superDefault` `superEncoder()`.
            case superValue(Node, superDefault: Bool)
        }
        var key: String
        var call: Call
    }

    /// A call on an unkeyed container.
    enum Item: Sendable {
        case value(Node)
        case encodeNil
        case nestedKeyed([Entry])
        case nestedUnkeyed([Item])
        case superValue(Node)
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let items):
            var container = encoder.unkeyedContainer()
            try Self.encode(items, into: &container)
        case .object(let entries):
            var container = encoder.container(keyedBy: FuzzKey.self)
            try Self.encode(entries, into: &container)
        default:
            var container = encoder.singleValueContainer()
            try encodeScalar(into: &container)
        }
    }

    func encodeScalar(into container: inout any SingleValueEncodingContainer) throws {
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .int8(let value): try container.encode(value)
        case .int16(let value): try container.encode(value)
        case .int32(let value): try container.encode(value)
        case .int64(let value): try container.encode(value)
        case .uint(let value): try container.encode(value)
        case .uint8(let value): try container.encode(value)
        case .uint16(let value): try container.encode(value)
        case .uint32(let value): try container.encode(value)
        case .uint64(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .float(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .data(let value): try container.encode(value)
        case .decimal(let value): try container.encode(value)
        case .dictionary(let value): try container.encode(value)
        case .wrapped(let value): try container.encode(value)
        case .array, .object: try container.encode(self)
        }
    }

    static func encode(_ entries: [Entry], into container: inout KeyedEncodingContainer<FuzzKey>) throws {
        for entry in entries {
            let key = FuzzKey(entry.key)
            switch entry.call {
            case .value(let node):
                // Scalars through the container's own calls for their type, the rest as Encodable.
                switch node {
                case .null: try container.encodeNil(forKey: key)
                case .bool(let value): try container.encode(value, forKey: key)
                case .int(let value): try container.encode(value, forKey: key)
                case .int8(let value): try container.encode(value, forKey: key)
                case .uint64(let value): try container.encode(value, forKey: key)
                case .double(let value): try container.encode(value, forKey: key)
                case .float(let value): try container.encode(value, forKey: key)
                case .string(let value): try container.encode(value, forKey: key)
                default: try container.encode(node, forKey: key)
                }
            case .encodeNil: try container.encodeNil(forKey: key)
            case .absent: try container.encodeIfPresent(nil as Node?, forKey: key)
            case .nestedKeyed(let inner):
                var nested = container.nestedContainer(keyedBy: FuzzKey.self, forKey: key)
                try encode(inner, into: &nested)
            case .nestedUnkeyed(let items):
                var nested = container.nestedUnkeyedContainer(forKey: key)
                try encode(items, into: &nested)
            case .superValue(let node, let superDefault):
                try node.encode(to: superDefault ? container.superEncoder() : container.superEncoder(forKey: key))
            }
        }
    }

    static func encode(_ items: [Item], into container: inout any UnkeyedEncodingContainer) throws {
        for item in items {
            switch item {
            case .value(let node):
                switch node {
                case .null: try container.encodeNil()
                case .bool(let value): try container.encode(value)
                case .int16(let value): try container.encode(value)
                case .uint(let value): try container.encode(value)
                case .double(let value): try container.encode(value)
                case .float(let value): try container.encode(value)
                case .string(let value): try container.encode(value)
                default: try container.encode(node)
                }
            case .encodeNil: try container.encodeNil()
            case .nestedKeyed(let entries):
                var nested = container.nestedContainer(keyedBy: FuzzKey.self)
                try encode(entries, into: &nested)
            case .nestedUnkeyed(let inner):
                var nested = container.nestedUnkeyedContainer()
                try encode(inner, into: &nested)
            case .superValue(let node):
                try node.encode(to: container.superEncoder())
            }
        }
    }
}

struct FuzzKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

// MARK: - Building a tree from bytes

/// The encoder settings and the tree a recipe describes.
struct Recipe {
    /// Encoder settings, from the recipe's first byte.
    struct Settings: CustomStringConvertible {
        enum Keys: Int { case plain, plain2, snakeCase, lowercased }
        enum Dates: Int { case deferred, seconds, milliseconds, iso8601 }
        var keys: Keys
        var convertsNonConforming: Bool
        var dates: Dates
        var base64: Bool
        var pretty: Bool
        var escapesSlashes: Bool

        init(_ byte: UInt8) {
            keys = Keys(rawValue: Int(byte & 3))!
            convertsNonConforming = byte & 4 != 0
            dates = Dates(rawValue: Int(byte >> 3) & 3)!
            base64 = byte & 0x20 == 0
            pretty = byte & 0x40 != 0
            escapesSlashes = byte & 0x80 == 0
        }

        var description: String {
            "keys \(keys), non-conforming \(convertsNonConforming ? "as strings" : "throw"), dates \(dates), data \(base64 ? "base64" : "deferred"), "
                + "\(pretty ? "pretty" : "compact"), \(escapesSlashes ? "escaping" : "not escaping") slashes"
        }
    }

    static let infinity = "+Infinity", negativeInfinity = "-Infinity", nan = "NaN"

    var bytes: [UInt8]
    var position = 0
    /// Nodes made so far: a bound on the tree's size.
    var nodes = 0
    let settings: Settings

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        settings = Settings(bytes.first ?? 0)
        position = 1
    }

    var atEnd: Bool { position >= bytes.count }

    mutating func next() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T {
        var value: T = 0
        for _ in 0..<(T.bitWidth / 8) { value = value << 8 | T(truncatingIfNeeded: next()) }
        return value
    }

    static let specialDoubles: [Double] = [
        0, -0.0, 0.1, 1.0 / 3, 1e21, 1e-7, 123456789012345683968, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
        -.greatestFiniteMagnitude, 9007199254740992, 0.30000000000000004, 1e22, 100, -1.5, .infinity, -.infinity, .nan,
    ]

    /// Strings that keys and values pick from: key strategies' corner cases, characters that
    /// must be escaped, a key and its other Unicode form, `super`.
    static let specialStrings: [String] = [
        "a", "b", "A", "aB", "a_b", "myURLKey", "my_url_key", "HTTPServer", "h_ttp_server", "_a", "a_", "", "super", "\u{E9}",
        "e\u{301}", "\u{0}", "/", "\"", "\\", "\u{7F}", "\u{1C5}x", "\u{130}a", "\u{DF}", "\u{1F600}", "\u{2028}", "a\u{3A3}",
        "B\u{301}c", "fooBar", "foo_bar", "Foo", "foo", "\u{FEFF}", "\u{10FFFF}", "\t\n", "a/b\"c\u{1}", "Index 0",
    ]

    /// Characters for strings: bytes below 0x80 as ASCII (controls, quotes, slashes included),
    /// others from this list.
    static let specialCharacters: [String] = [
        "\u{E9}", "e\u{301}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{10FFFF}", "\u{1F600}", "\u{1F1FA}\u{1F1F8}", "\u{DF}", "\u{130}",
        "\u{1C5}", "\u{FF21}", "\u{3A3}", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}", "\u{301}", "\u{200D}",
    ]

    mutating func string(maxLength: Int) -> String {
        let selector = next()
        if selector < 0x50 { return Self.specialStrings[Int(selector) % Self.specialStrings.count] }
        let length = Int(selector) % (maxLength + 1)
        var text = ""
        for _ in 0..<length {
            let byte = next()
            if byte < 0x80 {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += Self.specialCharacters[Int(byte) % Self.specialCharacters.count]
            }
        }
        return text
    }

    mutating func key() -> String { string(maxLength: 6) }

    /// A date the chosen strategy writes and reads back exactly: whole seconds (with a binary
    /// fraction, except in ISO 8601, which has none), in years 1 to 9999.
    mutating func date() -> Date {
        let range: Int64 = 253_402_300_799 - -62_135_596_800 + 1
        let raw = Int64(truncatingIfNeeded: integer(UInt64.self) >> 24)
        var seconds = Double(((raw % range) + range) % range + -62_135_596_800)
        if settings.dates != .iso8601 { seconds += Double(next() & 7) / 8 }
        return Date(timeIntervalSince1970: seconds)
    }

    mutating func node(depth: Int) -> Node {
        nodes += 1
        if atEnd || depth >= 12 || nodes > 400 { return .int(Int(depth)) }
        let op = next()
        switch op % 22 {
        case 0: return .null
        case 1: return .bool(op & 0x80 != 0)
        case 2: return .int(integer(Int.self))
        case 3:
            switch op >> 5 {
            case 0: return .int8(integer(Int8.self))
            case 1: return .int16(integer(Int16.self))
            case 2: return .int32(integer(Int32.self))
            case 3: return .int64(integer(Int64.self))
            case 4: return .uint(integer(UInt.self))
            case 5: return .uint8(integer(UInt8.self))
            case 6: return .uint16(integer(UInt16.self))
            default: return .uint32(integer(UInt32.self))
            }
        case 4: return .uint64(integer(UInt64.self))
        case 5: return .double(Double(bitPattern: integer(UInt64.self)))
        case 6: return .double(Self.specialDoubles[Int(next()) % Self.specialDoubles.count])
        case 7: return .double(Double(Int32(truncatingIfNeeded: integer(UInt32.self))) / Double(1 << Int(next() % 20)))
        case 8: return .float(Float(bitPattern: integer(UInt32.self)))
        case 9, 10: return .string(string(maxLength: 12))
        case 11: return .date(date())
        case 12: return .data(Data((0..<Int(next() % 8)).map { _ in next() }))
        case 13:
            let significand = UInt64(integer(UInt32.self)) << (next() % 32)
            let exponent = Int(next() % 48) - 24
            return .decimal(Decimal(sign: op & 0x80 != 0 ? .minus : .plus, exponent: exponent, significand: Decimal(significand)))
        case 14, 15, 16: return .array(items(depth: depth + 1))
        case 17, 18, 19: return .object(entries(depth: depth + 1))
        case 20:
            var members: [String: Node] = [:]
            for _ in 0..<Int(next() % 5) { members[key()] = node(depth: depth + 1) }
            return .dictionary(members)
        default: return .wrapped(node(depth: depth + 1))
        }
    }

    mutating func items(depth: Int) -> [Node.Item] {
        (0..<Int(next() % 6)).map { _ in
            let op = next()
            switch op % 8 {
            case 0, 1, 2, 3: return .value(node(depth: depth))
            case 4: return .encodeNil
            case 5: return .nestedKeyed(entries(depth: depth + 1))
            case 6: return .nestedUnkeyed(items(depth: depth + 1))
            default: return .superValue(node(depth: depth + 1))
            }
        }
    }

    /// A keyed container's calls. Keys repeat often: a value replaces the earlier member, a
    /// nested container continues the earlier one of its kind (``Node/acceptedByJSONEncoder(_:)``
    /// then makes the calls `JSONEncoder` accepts).
    mutating func entries(depth: Int) -> [Node.Entry] {
        var calls: [Node.Entry] = []
        for _ in 0..<Int(next() % 7) {
            let op = next()
            let key = op & 0x80 != 0 && !calls.isEmpty ? calls[Int(next()) % calls.count].key : key()
            let call: Node.Entry.Call
            switch op % 8 {
            case 0, 1, 2: call = .value(node(depth: depth))
            case 3: call = .encodeNil
            case 4: call = .absent
            case 5: call = .nestedKeyed(entries(depth: depth + 1))
            case 6: call = .nestedUnkeyed(items(depth: depth + 1))
            default: call = .superValue(node(depth: depth + 1), superDefault: op & 0x40 != 0)
            }
            calls.append(Node.Entry(key: key, call: call))
        }
        return calls
    }
}

/// The JSON keys a keyed container writes, by the key strategy.
struct KeyConverter {
    let settings: Recipe.Settings

    /// The key written for `entry`.
    func jsonKey(_ entry: Node.Entry) -> String {
        if case .superValue(_, true) = entry.call { return convert("super") }
        return convert(entry.key)
    }

    func convert(_ key: String) -> String {
        switch settings.keys {
        case .plain, .plain2: return key
        case .snakeCase: return snakeCase(key)
        case .lowercased: return key.lowercased()
        }
    }
}

/// What a member holds, as far as a nested container asked for its key cares: an object (and
/// what its members hold), an array, or something else.
indirect enum Shape {
    case object([String: Shape])
    case array
    case other
}

extension Node {
    /// What the node encodes as.
    func shape(_ settings: Recipe.Settings) -> Shape {
        switch self {
        case .object(let entries): return .object(Node.accepted(entries, from: [:], settings).shapes)
        case .dictionary(let members): return .object(members.mapValues { $0.shape(settings) })
        case .array: return .array
        case .data: return settings.base64 ? .other : .array
        case .wrapped(let inner): return inner.shape(settings)
        default: return .other
        }
    }

    /// The tree with the calls `JSONEncoder` stops the program for made values instead: a
    /// nested container for a key whose member (in this container, or in the one it continues)
    /// is not a container of that kind; a super encoder for a key used elsewhere in its object
    /// (when its value is placed depends on when `JSONEncoder` releases the super encoder).
    func acceptedByJSONEncoder(_ settings: Recipe.Settings) -> Node {
        switch self {
        case .array(let items): return .array(Node.accepted(items, settings))
        case .object(let entries): return .object(Node.accepted(entries, from: [:], settings).entries)
        case .dictionary(let members): return .dictionary(members.mapValues { $0.acceptedByJSONEncoder(settings) })
        case .wrapped(let inner): return .wrapped(inner.acceptedByJSONEncoder(settings))
        default: return self
        }
    }

    static func accepted(_ items: [Item], _ settings: Recipe.Settings) -> [Item] {
        items.map { item in
            switch item {
            case .value(let node): return .value(node.acceptedByJSONEncoder(settings))
            case .superValue(let node): return .superValue(node.acceptedByJSONEncoder(settings))
            case .encodeNil: return .encodeNil
            case .nestedKeyed(let entries): return .nestedKeyed(accepted(entries, from: [:], settings).entries)
            case .nestedUnkeyed(let inner): return .nestedUnkeyed(accepted(inner, settings))
            }
        }
    }

    /// `entries` made acceptable in a container whose members hold `start` (a container they
    /// continue), and what its members hold after them.
    static func accepted(_ entries: [Entry], from start: [String: Shape], _ settings: Recipe.Settings)
        -> (entries: [Entry], shapes: [String: Shape])
    {
        let keys = KeyConverter(settings: settings)
        var shapes = start
        var supers: [(String, Shape)] = []
        var result: [Entry] = []
        for (index, entry) in entries.enumerated() {
            let key = keys.jsonKey(entry)
            var call = entry.call
            var rawKey = entry.key
            switch entry.call {
            case .value(let node):
                let node = node.acceptedByJSONEncoder(settings)
                call = .value(node)
                shapes[key] = node.shape(settings)
            case .encodeNil:
                shapes[key] = .other
            case .absent:
                break
            case .nestedKeyed(let inner):
                switch shapes[key] {
                case nil:
                    let (made, members) = accepted(inner, from: [:], settings)
                    call = .nestedKeyed(made)
                    shapes[key] = .object(members)
                case .object(let earlier)?:
                    let (made, members) = accepted(inner, from: earlier, settings)
                    call = .nestedKeyed(made)
                    shapes[key] = .object(members)
                default:
                    let node = Node.object(inner).acceptedByJSONEncoder(settings)
                    call = .value(node)
                    shapes[key] = node.shape(settings)
                }
            case .nestedUnkeyed(let items):
                let made = accepted(items, settings)
                switch shapes[key] {
                case nil, .array?: call = .nestedUnkeyed(made)
                default: call = .value(.array(made))
                }
                shapes[key] = .array
            case .superValue(let node, let superDefault):
                let node = node.acceptedByJSONEncoder(settings)
                let shared = start[key] != nil
                    || entries.indices.contains { $0 != index && keys.jsonKey(entries[$0]) == key }
                if shared {
                    call = .value(node)
                    if superDefault { rawKey = "super" }
                    shapes[key] = node.shape(settings)
                } else {
                    call = .superValue(node, superDefault: superDefault)
                    supers.append((key, node.shape(settings)))
                }
            }
            result.append(Entry(key: rawKey, call: call))
        }
        for (key, shape) in supers { shapes[key] = shape }
        return (result, shapes)
    }
}

/// `camelCase` to `snake_case` as `JSONEncoder` converts keys (swift-foundation's
/// `_convertToSnakeCase`): a word starts at each uppercase letter that follows a lowercase
/// one, and a run of capitals is a word up to its last capital before a lowercase letter.
func snakeCase(_ key: String) -> String {
    guard !key.isEmpty else { return key }
    var words: [Range<String.Index>] = []
    var wordStart = key.startIndex
    var searchRange = key.index(after: wordStart)..<key.endIndex
    func isUpper(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .uppercaseLetter || category == .titlecaseLetter
    }
    func isLower(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .lowercaseLetter }
    while let upper = key.unicodeScalars[searchRange].firstIndex(where: isUpper) {
        words.append(wordStart..<upper)
        searchRange = upper..<searchRange.upperBound
        guard let lower = key.unicodeScalars[searchRange].firstIndex(where: isLower) else {
            wordStart = searchRange.lowerBound
            break
        }
        if lower == key.index(after: upper) {
            wordStart = upper
        } else {
            let lastCapital = key.index(before: lower)
            words.append(upper..<lastCapital)
            wordStart = lastCapital
        }
        searchRange = key.unicodeScalars.index(after: lower)..<searchRange.upperBound
    }
    words.append(wordStart..<searchRange.upperBound)
    return words.map { key[$0].lowercased() }.joined(separator: "_")
}

// MARK: - Keys equal as Swift strings

extension Node {
    /// Every JSON key the tree writes (keyed containers' keys converted by the strategy,
    /// dictionaries' as they are).
    func jsonKeys(_ settings: Recipe.Settings, into keys: inout [String]) {
        let tracker = KeyConverter(settings: settings)
        func walkItems(_ list: [Item]) {
            for item in list {
                switch item {
                case .value(let node), .superValue(let node): node.jsonKeys(settings, into: &keys)
                case .encodeNil: break
                case .nestedKeyed(let inner): walkEntries(inner)
                case .nestedUnkeyed(let inner): walkItems(inner)
                }
            }
        }
        func walkEntries(_ list: [Entry]) {
            for entry in list {
                keys.append(tracker.jsonKey(entry))
                switch entry.call {
                case .value(let node), .superValue(let node, _): node.jsonKeys(settings, into: &keys)
                case .encodeNil, .absent: break
                case .nestedKeyed(let inner): walkEntries(inner)
                case .nestedUnkeyed(let inner): walkItems(inner)
                }
            }
        }
        switch self {
        case .array(let inner): walkItems(inner)
        case .object(let inner): walkEntries(inner)
        case .dictionary(let members):
            for (key, node) in members {
                keys.append(key)
                node.jsonKeys(settings, into: &keys)
            }
        case .wrapped(let node): node.jsonKeys(settings, into: &keys)
        default: break
        }
    }

    /// Whether two of the tree's JSON keys are equal as Swift strings but not byte for byte
    /// (`"\u{E9}"` and `"e\u{301}"`), anywhere in the tree.
    func hasEquivalentKeys(_ settings: Recipe.Settings) -> Bool {
        var keys: [String] = []
        jsonKeys(settings, into: &keys)
        var bytes: [String: [UInt8]] = [:]
        for key in keys {
            let utf8 = Array(key.utf8)
            if let seen = bytes[key], seen != utf8 { return true }
            bytes[key] = utf8
        }
        return false
    }

    /// The tree with every key in Unicode normalization form C.
    func normalizingKeys() -> Node {
        func normalized(_ key: String) -> String { key.precomposedStringWithCanonicalMapping }
        func mapItems(_ list: [Item]) -> [Item] {
            list.map { item in
                switch item {
                case .value(let node): return .value(node.normalizingKeys())
                case .superValue(let node): return .superValue(node.normalizingKeys())
                case .encodeNil: return .encodeNil
                case .nestedKeyed(let inner): return .nestedKeyed(mapEntries(inner))
                case .nestedUnkeyed(let inner): return .nestedUnkeyed(mapItems(inner))
                }
            }
        }
        func mapEntries(_ list: [Entry]) -> [Entry] {
            list.map { entry in
                let call: Entry.Call
                switch entry.call {
                case .value(let node): call = .value(node.normalizingKeys())
                case .superValue(let node, let superDefault): call = .superValue(node.normalizingKeys(), superDefault: superDefault)
                case .encodeNil, .absent: call = entry.call
                case .nestedKeyed(let inner): call = .nestedKeyed(mapEntries(inner))
                case .nestedUnkeyed(let inner): call = .nestedUnkeyed(mapItems(inner))
                }
                return Entry(key: normalized(entry.key), call: call)
            }
        }
        switch self {
        case .array(let inner): return .array(mapItems(inner))
        case .object(let inner): return .object(mapEntries(inner))
        case .dictionary(let members):
            var result: [String: Node] = [:]
            for (key, node) in members { result[normalized(key)] = node.normalizingKeys() }
            return .dictionary(result)
        case .wrapped(let node): return .wrapped(node.normalizingKeys())
        default: return self
        }
    }
}
