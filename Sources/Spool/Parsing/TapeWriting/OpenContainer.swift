/// An array or object that yajl has opened and not yet closed, as the ``TapeWriter`` tracks it.
struct OpenContainer {
    /// Absolute tape index of its start token.
    var tokenIndex: Int
    var isObject: Bool
    var location: SourceLocation
    /// Elements (array) or members (object) begun so far.
    var children: Int = 0
    /// Absolute tape index of the current member's key token, or -1. Once that token has left
    /// the tape, the writer keeps a copy of the key in `preservedKeys`.
    var keyToken: Int = -1
    /// Where the current member's key ends in the input (past its closing quote) when keys are
    /// not being recorded on the tape, else -1; its opening quote lies between `keySourceLow`
    /// (the end of the token before it) and that end.
    var keySourceLow: Int = -1
    var keySourceEnd: Int = -1
    /// Whether the writer holds a copy of the current key in `preservedKeys`.
    var keyPreserved = false

    var name: String { isObject ? "object" : "array" }
}
