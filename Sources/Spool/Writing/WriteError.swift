/// Why a ``JSONWriter`` refused to write, or could not.
///
/// Misuse is refused before a byte is written, so the output stays well-formed JSON up to the
/// last complete value: a value where an object key is due, a key where a value is due, an end
/// that matches no open container, a second top-level value outside JSON Lines, a write after
/// ``JSONWriter/finish()``. Values JSON cannot hold (infinity, NaN, invalid UTF-8, malformed
/// number text) are refused the same way.
///
/// A failed `write(2)` (a full disk, a closed pipe, a bad descriptor) is an ``Code/output``
/// error carrying the C `errno`. The writer keeps that error: every later call throws it again,
/// so no output is lost without an error being thrown.
///
/// ```text
/// error: cannot write to 'out.json': No space left on device (ENOSPC)
/// error: a value where a key is due: write key(_:) first (in an object, after 2 members)
/// ```
public struct WriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// The calls were out of order: a value where a key is due, a key where a value is due,
        /// an unbalanced end, a second top-level value, an unfinished document at `finish()`.
        public static let misuse = Code(name: "misuse")
        /// A value JSON cannot hold: a non-finite number, invalid UTF-8, malformed number text.
        public static let invalidValue = Code(name: "invalid value")
        /// The output failed: opening the file or a `write(2)`; ``WriteError/errno`` says why.
        public static let output = Code(name: "output")
        /// Nothing more can be written: the writer was used after ``JSONWriter/finish()``;
        /// or its output ends inside a value it could not take back (a refused value or a
        /// repeated key whose earlier bytes were already flushed); or, inside
        /// ``StreamingJSONEncoder``, a `superEncoder()` was used after its container moved on
        /// and wrote its value in place.
        public static let closed = Code(name: "closed")
        /// The name of the code.
        public var description: String { name }
    }

    /// The kind of failure.
    public var code: Code
    /// The C `errno` value for an ``Code/output`` failure (`ENOSPC`, `EPIPE`, `EBADF`...),
    /// otherwise `nil`.
    public var errno: Int32?
    /// What went wrong, in one sentence.
    public var message: String

    /// Creates a write error.
    public init(code: Code, errno: Int32? = nil, message: String) {
        self.code = code
        self.errno = errno
        self.message = message
    }

    /// `error: MESSAGE`.
    public var description: String { "error: \(message)" }
}
