/// An input that could not be read: a missing or unreadable file, a failed `read(2)`.
///
/// This is distinct from ``ParseError``: the bytes never arrived, so nothing can be said about
/// the JSON they would have held.
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file path, or a name such as `<stdin>` or `fd 5` for other inputs.
    public var source: String
    /// The operation that failed, e.g. `open` or `read`.
    public var operation: String
    /// The C `errno` value, when the failure came from the system.
    public var errno: Int32?
    /// The system's description of the failure, e.g. `No such file or directory`.
    public var reason: String

    /// Creates an input error.
    public init(source: String, operation: String, errno: Int32? = nil, reason: String) {
        self.source = source
        self.operation = operation
        self.errno = errno
        self.reason = reason
    }

    /// `cannot open 'bands.json': No such file or directory`.
    public var description: String { "cannot \(operation) '\(source)': \(reason)" }
}
