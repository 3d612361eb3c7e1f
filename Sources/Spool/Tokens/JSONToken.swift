/// The kind of one token of JSON text, as a ``JSONReader`` hands it out.
///
/// Keys, strings and numbers carry text; read it from the reader while the token is current
/// (``JSONReader/text``, ``JSONReader/textEquals(_:)``, ``JSONReader/withUTF8(_:)``).
public enum JSONToken: Hashable, Sendable, CustomStringConvertible {
    /// `{`
    case objectStart
    /// `}`
    case objectEnd
    /// `[`
    case arrayStart
    /// `]`
    case arrayEnd
    /// An object key (the reader's text is the decoded key).
    case key
    /// A string value (the reader's text is the decoded string).
    case string
    /// A number (the reader's text is the number exactly as written in the input).
    case number
    /// `true` or `false`.
    case bool(Bool)
    /// `null`
    case null

    /// Whether this token begins a value: a scalar or the start of a container.
    public var startsValue: Bool {
        switch self {
        case .objectEnd, .arrayEnd, .key: return false
        default: return true
        }
    }

    /// How the token changes the nesting depth: +1 for `{` and `[`, -1 for `}` and `]`, else 0.
    var depthChange: Int {
        switch self {
        case .objectStart, .arrayStart: return 1
        case .objectEnd, .arrayEnd: return -1
        default: return 0
        }
    }

    /// A short name for messages: `'{'`, `key`, `string`, `true`...
    public var description: String {
        switch self {
        case .objectStart: return "'{'"
        case .objectEnd: return "'}'"
        case .arrayStart: return "'['"
        case .arrayEnd: return "']'"
        case .key: return "key"
        case .string: return "string"
        case .number: return "number"
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }
}
