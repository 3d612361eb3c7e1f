/// Any JSON value, for data without a model. Numbers keep their exact source text.
///
/// Decoding builds the value with a stack of its own, not by recursion, so a document nested
/// as deep as ``JSONParsingOptions/maxDepth`` allows decodes on a small thread stack.
public enum JSONValue: Hashable, Sendable, JSONDecodable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, exactly as written (convert with `Int(_:)`, `Double(_:)`, `Decimal(string:)`).
    case number(String)
    /// A string, its escapes decoded.
    case string(String)
    /// An array's elements, in order.
    case array([JSONValue])
    /// An object's members; with duplicate keys, the first one counts.
    case object([String: JSONValue])

    /// Builds the value from the tape.
    public static func decode(_ e: Extractor) throws -> JSONValue {
        let token = try e.checkedToken()
        switch token.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number: return .number(e.tape.text(of: token))
        case .string: return .string(e.tape.text(of: token))
        case .arrayStart, .objectStart:
            // The outermost container's children go through the context's loop, which
            // releases them once built when decoding while parsing; inside them, `build`.
            let context = e.context
            var builder = Builder(isObject: token.kind == .objectStart, capacity: Int(token.length))
            try context.forEachChild(of: e.index, releasing: true) { child in
                if builder.isObject {
                    builder.key = e.tape.text(of: e.tape[child])
                    builder.add(try build(at: child + 1, in: context, of: e))
                } else {
                    builder.add(try build(at: child, in: context, of: e))
                }
            }
            return builder.value
        case .key, .objectEnd, .arrayEnd: throw e.error("not the start of a value")
        }
    }

    /// An array or object being built: its elements or members so far.
    private struct Builder {
        let isObject: Bool
        var elements: [JSONValue] = []
        var members: [String: JSONValue] = [:]
        /// The key of the member whose value comes next.
        var key = ""

        init(isObject: Bool, capacity: Int) {
            self.isObject = isObject
            if isObject { members.reserveCapacity(capacity) } else { elements.reserveCapacity(capacity) }
        }

        mutating func add(_ value: JSONValue) {
            if isObject {
                if members[key] == nil { members[key] = value }  // of duplicate keys, the first counts
            } else {
                elements.append(value)
            }
        }

        var value: JSONValue { isObject ? .object(members) : .array(elements) }
    }

    /// The value starting at `start`, built token by token with an explicit stack of the
    /// containers still open.
    private static func build(at start: Int, in context: DecodingContext, of e: Extractor) throws -> JSONValue {
        let tape = context.tape
        var open: [Builder] = []
        var index = start
        while true {
            try context.ensure(index)
            let token = tape[index]
            index += 1
            let value: JSONValue
            switch token.kind {
            case .null: value = .null
            case .true: value = .bool(true)
            case .false: value = .bool(false)
            case .number: value = .number(tape.text(of: token))
            case .string: value = .string(tape.text(of: token))
            case .arrayStart, .objectStart:
                open.append(Builder(isObject: token.kind == .objectStart, capacity: Int(token.length)))
                continue
            case .key:
                let key = tape.text(of: token)
                guard !open.isEmpty else { throw e.error("not the start of a value") }
                open[open.count - 1].key = key
                continue
            case .arrayEnd, .objectEnd:
                guard let finished = open.popLast() else { throw e.error("not the start of a value") }
                value = finished.value
            }
            guard !open.isEmpty else { return value }
            open[open.count - 1].add(value)
        }
    }
}
