/// Where an ``ElementScanner`` stopped trusting its input, and why.
///
/// The scanner vouches only for the structure it tracks (strings, escapes, brackets, and on the
/// path's own levels the keys, colons and commas); a doubt says that from ``offset`` on it can
/// vouch for nothing: every boundary it reported lies before the doubt and is one the serial
/// parser agrees with (or, for invalid JSON, one whose element holds the serial parser's first
/// error), and none is reported after it. A caller reads the input from the last trusted
/// boundary on with the serial parser, which gives the input's own value or error.
///
/// A doubt is not an error message: valid JSON that the scanner cannot vouch for (a key on the
/// path written with an escape) is doubted too, and the serial parser then reads it as usual.
struct ScanDoubt: Hashable, Sendable, CustomStringConvertible {
    /// What the scanner could not vouch for.
    enum Reason: String, Hashable, Sendable {
        /// A key in an object on the path holds a backslash: its bytes are not the key's text.
        case escapedKey
        /// A `]` closes an object or a `}` an array, or a bracket closes nothing.
        case mismatchedBracket
        /// A byte where the structure wants another one (a value where a key goes, a missing
        /// colon or comma, a quote right after a number).
        case unexpectedByte
        /// A backslash outside any string.
        case strayBackslash
        /// An element of the array at the path with nothing in it: `[1,,2]`, `[1,]`, `[,1]`.
        case emptyElement
        /// The path leads nowhere: a key or index that is not there, or a value that is not
        /// the object or array the path goes through (or, at its end, not an array).
        case notFound
        /// Deeper than the scanner's depth limit.
        case tooDeep
        /// Bytes after the end of the top-level value.
        case trailingBytes
        /// The input ends inside a string.
        case endInsideString
        /// The input ends before the top-level value does.
        case endOfInput
    }

    /// The byte offset (from the input's start) of the byte that raised the doubt, or the
    /// input's length when its end did.
    let offset: Int
    let reason: Reason

    var description: String { "\(reason.rawValue) at byte \(offset)" }
}
