/// A path from one JSON value to a value inside it: object keys and array indices.
///
/// A string literal is exactly one key, dots included (`"first.name"` is one key). An array
/// literal is a path whose components are string or integer literals:
///
/// ```swift
/// let name: JSONKeyPath = ["location", "name"]
/// let first: JSONKeyPath = ["tree_names", "colloquial", 0]
/// let joined = name + ["extra"]
/// let everyMember: JSONKeyPath = ["objects", .wildcard, "members"]   // objects[*].members
/// ```
///
/// Its `description` is the path as Spool prints it in errors: `objects[12].members[3].name`.
/// Keys that are not plain identifiers are quoted: `objects[0]["first.name"]`.
public struct JSONKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Hashable, Sendable, CustomStringConvertible {
        /// A member of an object, by its key.
        case key(String)
        /// An element of an array, by its 0-based index.
        case index(Int)
        /// Every element of an array, or every member's value of an object, in document order:
        /// `[*]`, as in `objects[*].members`. Only the streams take it (they stream the
        /// elements of every container the path matches); a path that must lead to one value
        /// (an ``Extractor``'s, `rootKeyPath`) refuses it.
        case wildcard

        /// The component as it appears in a path: `name`, `[3]` or `["a.b"]`.
        public var description: String {
            var text = MessageText(capacity: 16)
            append(to: &text)
            return text.text
        }

        /// Appends ``description`` to `text` (messages about refused values are built often,
        /// e.g. by `try?` fallbacks).
        func append(to text: inout MessageText) {
            switch self {
            case .wildcard:
                text.append("[*]")
            case .index(let index):
                text.append("[")
                text.append(index)
                text.append("]")
            case .key(let key):
                if JSONKeyPath.isPlainKey(key) {
                    text.append(key)
                } else {
                    text.append("[")
                    text.append(JSONKeyPath.quoted(key))
                    text.append("]")
                }
            }
        }
    }

    /// Zero or one component inline (the common `e <| "name"` allocates nothing), more in an array.
    enum Storage: Hashable, Sendable {
        case empty
        case one(Component)
        case many([Component])
    }

    var storage: Storage

    /// The steps of the path, outermost first.
    public var components: [Component] {
        get {
            switch storage {
            case .empty: return []
            case .one(let component): return [component]
            case .many(let components): return components
            }
        }
        set { self = JSONKeyPath(newValue) }
    }

    /// Creates a path from its components.
    public init(_ components: [Component]) {
        switch components.count {
        case 0: storage = .empty
        case 1: storage = .one(components[0])
        default: storage = .many(components)
        }
    }

    /// Adds `component` at the end. A path of one component takes no array (a refused value's
    /// path is often one index: a `try?` fallback over an array builds one per element).
    mutating func append(_ component: Component) {
        switch storage {
        case .empty: storage = .one(component)
        case .one(let first): storage = .many([first, component])
        case .many(var components):
            storage = .empty  // (the array uniquely held while it grows)
            components.append(component)
            storage = .many(components)
        }
    }

    /// The empty path, which designates the value itself (the document root, for a whole document).
    public static let root = JSONKeyPath([])

    /// Whether the path has no components.
    public var isEmpty: Bool {
        if case .empty = storage { return true }
        return false
    }

    /// A path that continues `lhs` with the components of `rhs`.
    public static func + (lhs: JSONKeyPath, rhs: JSONKeyPath) -> JSONKeyPath {
        JSONKeyPath(lhs.components + rhs.components)
    }

    /// The path in Spool's notation: keys joined by dots, `[N]` for indices, quoted keys in
    /// brackets when they are not identifiers, and `.` for the empty path.
    public var description: String {
        var text = MessageText(capacity: 32)
        appendDescription(to: &text)
        return text.text
    }

    /// Appends ``description`` to `text`.
    func appendDescription(to text: inout MessageText) {
        func append(_ component: Component, first: Bool) {
            if case .key(let key) = component, JSONKeyPath.isPlainKey(key) {
                if !first { text.append(".") }
                text.append(key)
            } else {
                component.append(to: &text)
            }
        }
        // (By storage: `components` would make an array for a path of one.)
        switch storage {
        case .empty:
            text.append(".")
        case .one(let component):
            append(component, first: true)
        case .many(let components):
            for (position, component) in components.enumerated() { append(component, first: position == 0) }
        }
    }

    /// Calls `body` with each component, outermost first (no array for a path of one).
    func forEachComponent(_ body: (Component) -> Void) {
        switch storage {
        case .empty: break
        case .one(let component): body(component)
        case .many(let components): components.forEach(body)
        }
    }

    /// Whether a component is ``Component/wildcard``.
    var hasWildcard: Bool {
        switch storage {
        case .empty: false
        case .one(let component): component == .wildcard
        case .many(let components): components.contains(.wildcard)
        }
    }

    /// The number of components.
    var count: Int {
        switch storage {
        case .empty: 0
        case .one: 1
        case .many(let components): components.count
        }
    }

    static func isPlainKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
    }

    /// ``description``, with a path deeper than 16 components clipped in the middle so that
    /// messages stay short: `[0][0][0][0][0][0][0][0]…(999984 more)…[0][0][0][0][0][0][0][0]`.
    public var clippedDescription: String {
        var text = MessageText(capacity: 32)
        appendClippedDescription(to: &text)
        return text.text
    }

    /// Appends ``clippedDescription`` to `text`.
    func appendClippedDescription(to text: inout MessageText) {
        guard count > 16 else { return appendDescription(to: &text) }
        text.append(clipped)
    }

    /// ``clippedDescription`` of a path deeper than 16 components.
    private var clipped: String {
        let all = components
        guard all.count > 16 else { return description }
        let head = JSONKeyPath(Array(all.prefix(8))).description
        let tail = JSONKeyPath(Array(all.suffix(8)))
        // The tail starts with a key: print it as it would follow another component.
        let tailText = tail.description.hasPrefix("[") ? tail.description : "." + tail.description
        return "\(head)…(\(all.count - 16) more)…\(tailText)"
    }

    /// Whether `key` has no byte that ``quoted(_:)`` escapes.
    private static func needsNoEscape(_ key: String) -> Bool {
        let plain = key.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            return true
        }
        return plain ?? key.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    static func quoted(_ key: String) -> String {
        // Most keys and excerpts need no escape: quoted as they are.
        if needsNoEscape(key) {
            var text = MessageText(capacity: key.utf8.count + 2)
            text.append("\"")
            text.append(key)
            text.append("\"")
            return text.text
        }
        var text = "\""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            default:
                if scalar.value < 0x20 {
                    text += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }
}

extension JSONKeyPath: ExpressibleByStringLiteral {
    /// A path of exactly one key; dots are part of the key.
    public init(stringLiteral key: String) {
        storage = .one(.key(key))
    }
}

extension JSONKeyPath: ExpressibleByArrayLiteral {
    /// A path from string keys and integer indices, outermost first.
    public init(arrayLiteral elements: JSONKeyPath.Component...) {
        self.init(elements)
    }
}

extension JSONKeyPath.Component: ExpressibleByStringLiteral {
    /// A key component.
    public init(stringLiteral key: String) {
        self = .key(key)
    }
}

extension JSONKeyPath.Component: ExpressibleByIntegerLiteral {
    /// An index component.
    public init(integerLiteral index: Int) {
        self = .index(index)
    }
}
