/// An array or object that yajl has opened and not yet closed, as the ``TapeWriter`` tracks it.
struct OpenContainer {
    /// Absolute tape index of its start token.
    var tokenIndex: Int
    var isObject: Bool
    var location: SourceLocation
    /// Elements (array) or members (object) begun so far.
    var children: Int = 0
    /// Absolute tape index of the current member's key token, or -1.
    var keyToken: Int = -1
    /// The current member's key, copied once its token has left the tape.
    var keyBytes: [UInt8]? = nil

    var name: String { isObject ? "object" : "array" }
}
