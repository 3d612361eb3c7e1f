/// JSON text that Spool cannot read: a syntax error, a truncated input, invalid UTF-8, a bad
/// escape, or a limit of ``JSONParsingOptions`` exceeded.
///
/// It says what went wrong (``message``), where (``location``, ``path``) and shows the line
/// with a caret under the offending token:
///
/// ```text
/// 2:14: error: expected a value, found ',' (at a[2])
///   "a": [1, 2,, 3]
///              ^
/// ```
///
/// Reading the same input gives the same error whatever the chunk size.
public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A broad category of parse error, for callers that react differently to each.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// A token that JSON's grammar does not allow here, or bytes that are no JSON token.
        public static let syntax = Kind(name: "syntax")
        /// The input ended inside a value.
        public static let unexpectedEndOfInput = Kind(name: "unexpected end of input")
        /// A string that is not valid UTF-8, or a `\u` escape that is not a valid UTF-16 sequence.
        public static let invalidString = Kind(name: "invalid string")
        /// Nesting, string length or number length beyond the configured limit.
        public static let limitExceeded = Kind(name: "limit exceeded")
        /// The name of the kind.
        public var description: String { name }
    }

    /// The category of the error.
    public var kind: Kind
    /// What is wrong, in one sentence without the location, e.g. `expected a value, found ','`.
    public var message: String
    /// Where the offending token starts (or the end of input, for a truncated input).
    public var location: SourceLocation
    /// The logical path of the value being read when the error occurred, from the document
    /// root (e.g. `objects[12].members[3]`); empty at the top level.
    public var path: JSONKeyPath
    /// The line of input around ``location``, clipped to about 70 characters, with control
    /// characters shown as spaces. Empty when the input has nothing to show.
    public var excerpt: String
    /// The character index in ``excerpt`` that the caret points at.
    public var excerptCaret: Int

    /// Creates a parse error.
    public init(
        kind: Kind,
        message: String,
        location: SourceLocation,
        path: JSONKeyPath = .root,
        excerpt: String = "",
        excerptCaret: Int = 0
    ) {
        self.kind = kind
        self.message = message
        self.location = location
        self.path = path
        self.excerpt = excerpt
        self.excerptCaret = excerptCaret
    }

    /// The first line of ``description``: `LINE:COLUMN: error: MESSAGE (at PATH)`, a very deep
    /// PATH clipped in the middle (``JSONKeyPath/clippedDescription``).
    public var summary: String {
        let at = path.isEmpty ? "" : " (at \(path.clippedDescription))"
        return "\(location): error: \(message)\(at)"
    }

    /// The excerpt and a caret line under it, or an empty string when there is no excerpt.
    public var excerptWithCaret: String {
        guard !excerpt.isEmpty else { return "" }
        return excerpt + "\n" + String(repeating: " ", count: max(0, excerptCaret)) + "^"
    }

    /// ``summary``, then the excerpt and its caret on two more lines.
    public var description: String {
        let context = excerptWithCaret
        return context.isEmpty ? summary : summary + "\n" + context
    }
}
