import Spool

/// The reference's view of a document: a plain tree built from the token cursor
/// (``JSONReader``), keeping every object member in order, duplicates included.
public indirect enum RefNode: Equatable {
    case null
    case bool(Bool)
    /// A number's source text.
    case number(String)
    case string(String)
    /// `complete` is false for a container still open where the input failed.
    case array([RefNode], complete: Bool)
    case object([RefMember], complete: Bool)

    public var isComplete: Bool {
        switch self {
        case .array(_, let complete), .object(_, let complete): return complete
        default: return true
        }
    }

    public var isNull: Bool { self == .null }

    /// The value as a ``JSONValue``: with duplicate keys, the first one counts.
    public var jsonValue: JSONValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let text): return .number(text)
        case .string(let text): return .string(text)
        case .array(let items, _): return .array(items.map(\.jsonValue))
        case .object(let members, _):
            var object: [String: JSONValue] = [:]
            for member in members where object[member.key] == nil { object[member.key] = member.value.jsonValue }
            return .object(object)
        }
    }

    /// The elements of an array or the values of an object (complete ones only).
    public var completeChildren: [RefNode] {
        switch self {
        case .array(let items, _): return items.filter(\.isComplete)
        case .object(let members, _): return members.map(\.value).filter(\.isComplete)
        default: return []
        }
    }

    /// The value of member `key`: its last occurrence, or with `first` its first.
    public func member(_ key: String, first: Bool = false) -> RefNode? {
        guard case .object(let members, _) = self else { return nil }
        return first ? members.first { $0.key == key }?.value : members.last { $0.key == key }?.value
    }

    /// Whether some object in the value has a key twice.
    public var hasDuplicateKeys: Bool {
        switch self {
        case .array(let items, _): return items.contains { $0.hasDuplicateKeys }
        case .object(let members, _):
            return Set(members.map(\.key)).count != members.count || members.contains { $0.value.hasDuplicateKeys }
        default: return false
        }
    }

    /// Every number text in the value.
    public func collectNumbers(into texts: inout Set<String>) {
        switch self {
        case .number(let text): texts.insert(text)
        case .array(let items, _): for item in items { item.collectNumbers(into: &texts) }
        case .object(let members, _): for member in members { member.value.collectNumbers(into: &texts) }
        default: break
        }
    }
}

public struct RefMember: Equatable {
    public var key: String
    public var value: RefNode
    public init(key: String, value: RefNode) {
        self.key = key
        self.value = value
    }
}

/// A whole input as the reference reads it: one thread, one big chunk, token by token.
public struct RefDocument {
    /// The complete top-level values, in order.
    public var values: [RefNode] = []
    /// The top-level value still open where reading failed (its open containers marked incomplete).
    public var partial: RefNode?
    /// The reader's error, if reading failed.
    public var error: (any Error)?

    public var parseError: ParseError? { error as? ParseError }
    public var errorDescription: String? { error.map { "\($0)" } }

    /// The first top-level value, complete or not.
    public var first: RefNode? { values.first ?? partial }

    public var hasDuplicateKeys: Bool { values.contains { $0.hasDuplicateKeys } || partial?.hasDuplicateKeys == true }

    public var numberTexts: Set<String> {
        var texts: Set<String> = []
        for value in values { value.collectNumbers(into: &texts) }
        partial?.collectNumbers(into: &texts)
        return texts
    }

    private struct Frame {
        var isObject: Bool
        var items: [RefNode] = []
        var members: [RefMember] = []
        var key: String?
    }

    public init(bytes: [UInt8], options: JSONParsingOptions) {
        let reader = JSONReader(.bytes(bytes), options: options)
        var stack: [Frame] = []
        func add(_ node: RefNode) {
            guard !stack.isEmpty else {
                values.append(node)
                return
            }
            if stack[stack.count - 1].isObject {
                let key = stack[stack.count - 1].key ?? "<no key>"
                stack[stack.count - 1].members.append(RefMember(key: key, value: node))
                stack[stack.count - 1].key = nil
            } else {
                stack[stack.count - 1].items.append(node)
            }
        }
        func close(_ frame: Frame, complete: Bool) -> RefNode {
            frame.isObject ? .object(frame.members, complete: complete) : .array(frame.items, complete: complete)
        }
        do {
            while let token = try reader.next() {
                switch token {
                case .objectStart: stack.append(Frame(isObject: true))
                case .arrayStart: stack.append(Frame(isObject: false))
                case .objectEnd, .arrayEnd: add(close(stack.removeLast(), complete: true))
                case .key: stack[stack.count - 1].key = reader.text ?? ""
                case .string: add(.string(reader.text ?? ""))
                case .number: add(.number(reader.text ?? ""))
                case .bool(let value): add(.bool(value))
                case .null: add(.null)
                }
            }
            if !stack.isEmpty { error = ReferenceError("the reader ended inside a value without an error") }
        } catch {
            self.error = error
        }
        if !stack.isEmpty {
            var node = close(stack.removeLast(), complete: false)
            while !stack.isEmpty {
                var frame = stack.removeLast()
                if frame.isObject {
                    frame.members.append(RefMember(key: frame.key ?? "<no key>", value: node))
                } else {
                    frame.items.append(node)
                }
                node = close(frame, complete: false)
            }
            partial = node
        }
    }
}

/// An inconsistency of the token stream itself, found while building the reference.
public struct ReferenceError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Where a path leads in a reference value.
public enum RefNavigation {
    /// To this value.
    case found(RefNode)
    /// Nowhere: the code a decoder reports (`missing key` or `type mismatch`).
    case notFound(code: String)
    /// Into a part of the input that was never read (reading failed first).
    case unknown
}

extension RefNode {
    /// Follows `path` the way a stream does (the first occurrence of a key, since a stream reads
    /// once) and checks the container kind wanted at its end (`nil`: array or object).
    public func navigate(_ path: JSONKeyPath, wanting kind: ContainerKind?) -> RefNavigation {
        var node = self
        for component in path.components {
            switch (component, node) {
            case (.key(let key), .object(let members, let complete)):
                guard let member = members.first(where: { $0.key == key }) else {
                    return complete ? .notFound(code: "missing key") : .unknown
                }
                node = member.value
            case (.index(let position), .array(let items, let complete)):
                guard position < items.count else { return complete ? .notFound(code: "missing key") : .unknown }
                node = items[position]
            default:
                return .notFound(code: "type mismatch")
            }
        }
        switch (kind, node) {
        case (nil, .array), (nil, .object), (.array?, .array), (.object?, .object): return .found(node)
        default: return .notFound(code: "type mismatch")
        }
    }

    public enum ContainerKind { case array, object }

    /// The value with the container at `path` (first occurrences) emptied: what a stream's
    /// remainder holds after streaming it.
    public func emptying(_ path: ArraySlice<JSONKeyPath.Component>) -> RefNode {
        guard let component = path.first else {
            switch self {
            case .array(_, let complete): return .array([], complete: complete)
            case .object(_, let complete): return .object([], complete: complete)
            default: return self
            }
        }
        switch (component, self) {
        case (.key(let key), .object(var members, let complete)):
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].value = members[index].value.emptying(path.dropFirst())
            }
            return .object(members, complete: complete)
        case (.index(let position), .array(var items, let complete)) where position < items.count:
            items[position] = items[position].emptying(path.dropFirst())
            return .array(items, complete: complete)
        default:
            return self
        }
    }
}
