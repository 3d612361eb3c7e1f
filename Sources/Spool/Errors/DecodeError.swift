/// A JSON value that is valid JSON but not what a decoder asked for: a missing key, a `null`,
/// the wrong type, an unknown raw value, or an error thrown by a model's own `decode`.
///
/// It carries the full key path from the document root, with array indices, and the source
/// location of the offending value:
///
/// ```text
/// 4:38: error: expected String at objects[1].members[0].birth_date, found number 1943
/// ```
public struct DecodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of mismatch this is. New codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// The key path leads nowhere: a key is not in its object, or an index is past the end.
        public static let missingKey = Code(name: "missing key")
        /// The value is `null` where a non-optional value was asked for.
        public static let null = Code(name: "null")
        /// The value has another JSON type, or a number does not fit the asked type exactly.
        public static let typeMismatch = Code(name: "type mismatch")
        /// The value is not the raw value of any case of the asked enum.
        public static let badRawValue = Code(name: "bad raw value")
        /// A value of the right JSON kind that the asked type refuses: a date that does not
        /// match the date strategy, Base64 that does not decode, a string `URL` does not accept.
        public static let invalidValue = Code(name: "invalid value")
        /// An error thrown by a model's `decode` or a transformer.
        public static let custom = Code(name: "custom")
        /// The input holds no JSON value: it is empty, or only whitespace (and comments).
        public static let noValue = Code(name: "no value")
        /// The value's tokens are gone: an element released once decoded
        /// (``JSONParsingOptions/releasesDecodedElements``) was read again, or an ``Extractor``
        /// or a decoder was used after its stream moved on.
        public static let released = Code(name: "released")
        /// The value could not be read to its end: the input ended inside it, or an array's
        /// elements were not all decoded. (A safety net: the parser reports a truncated
        /// document as a ``ParseError`` first.)
        public static let incomplete = Code(name: "incomplete")
        /// The value is nested too deep for a recursive model to decode on the current
        /// thread's stack: decoding it would overflow the stack.
        public static let tooDeep = Code(name: "too deep")
        /// The name of the code.
        public var description: String { name }
    }

    /// The kind of mismatch.
    public var code: Code
    /// The path of the offending value from the document root, e.g. `objects[1].members[0].birth_date`.
    /// For a missing key, the path of the key that is missing.
    public var keyPath: JSONKeyPath
    /// Where the offending value starts in the input (for a missing key: the object it is
    /// missing from); `nil` when unknown.
    public var location: SourceLocation?
    /// The type that was asked for, e.g. `String`, `[Band]`, `Int?` (spelled as Swift code spells it).
    public var expected: String?
    /// The JSON kind found: `string`, `number`, `true`, `false`, `null`, `object`, `array`;
    /// `nil` for a missing key.
    public var actual: String?
    /// The offending value's text, clipped to about 40 characters (strings in quotes), or nil
    /// for containers and missing keys.
    public var excerpt: String?
    /// What went wrong, in one sentence without the location.
    public var message: String

    /// Creates a decode error.
    public init(
        code: Code, keyPath: JSONKeyPath, location: SourceLocation? = nil, expected: String? = nil,
        actual: String? = nil, excerpt: String? = nil, message: String
    ) {
        self.code = code
        self.keyPath = keyPath
        self.location = location
        self.expected = expected
        self.actual = actual
        self.excerpt = excerpt
        self.message = message
    }

    /// `LINE:COLUMN: error: MESSAGE`, or `error: MESSAGE` without a location.
    public var description: String {
        guard let location else { return "error: \(message)" }
        return "\(location): error: \(message)"
    }
}
