/// A position in the JSON input.
///
/// Spool counts positions itself while it feeds yajl (which reports none), so every token
/// and every error has an exact location, whatever the chunk size.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The number of bytes before this position, counted from the start of the input (0-based).
    public var byteOffset: Int
    /// The line number, starting at 1. Lines end at `\n` (so `\r\n` counts once).
    public var line: Int
    /// The column number, starting at 1, counted in UTF-8 bytes from the start of the line,
    /// as compilers such as clang count them.
    public var column: Int

    /// Creates a location from its three coordinates.
    public init(byteOffset: Int, line: Int, column: Int) {
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
    }

    /// `LINE:COLUMN`, the form compilers use in diagnostics.
    public var description: String { "\(line):\(column)" }
}
