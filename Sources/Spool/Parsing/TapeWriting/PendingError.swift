/// A parse error found but not yet rendered.
///
/// Errors are found inside yajl's callbacks, while yajl reads from the input window, so the
/// window cannot grow then. The tape builder renders the error (message, excerpt) after yajl has
/// returned, once it has read a little past the offending token, so the message and excerpt
/// are the same whatever the chunk size.
struct PendingError {
    var kind: ParseError.Kind
    var offset: Int
    /// The message, from the input the window holds once the error is rendered.
    var message: (InputWindow) -> String

    init(_ kind: ParseError.Kind, at offset: Int, message: @escaping (InputWindow) -> String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    init(_ kind: ParseError.Kind, _ message: String, at offset: Int) {
        self.init(kind, at: offset) { _ in message }
    }

    /// `expected WHAT, found TOKEN`, describing the token at `offset` once it is rendered.
    static func expected(_ what: String, at offset: Int) -> PendingError {
        PendingError(.syntax, at: offset) { window in "expected \(what), found \(ErrorContext.describeToken(at: offset, in: window))" }
    }

    /// Something after the only top-level value. When it starts a value, the message says that
    /// several top-level values need ``JSONParsingOptions/allowsMultipleValues``.
    static func afterTopLevelValue(at offset: Int) -> PendingError {
        PendingError(.syntax, at: offset) { window in
            let found = ErrorContext.describeToken(at: offset, in: window)
            let hint = ErrorContext.startsValue(at: offset, in: window)
                ? " (several top-level values, as in NDJSON, need JSONParsingOptions.allowsMultipleValues)" : ""
            return "expected end of input after the top-level value, found \(found)\(hint)"
        }
    }

    /// A comment where comments are not allowed.
    static func commentsNotAllowed(at offset: Int) -> PendingError {
        PendingError(.syntax, "comments are not allowed (JSONParsingOptions.allowsComments)", at: offset)
    }
}
