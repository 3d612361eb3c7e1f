extension JSONWriter {
    /// Writes every remaining value of `reader`, token by token, in this writer's format:
    /// re-formatting JSON in constant memory (what `spool fmt` does). Numbers keep their exact
    /// text, strings are re-escaped, keys keep their order. With several top-level values
    /// (``JSONParsingOptions/allowsMultipleValues``), the writer must be in ``Format/lines``.
    ///
    /// ```swift
    /// let reader = JSONReader(.file("catalog.json"))
    /// let writer = JSONWriter.standardOutput(format: .pretty(indent: 4))
    /// try writer.copy(from: reader)
    /// try writer.finish()
    /// ```
    ///
    /// - Throws: ``ParseError`` or ``InputError`` from the reader (what was written before
    ///   stays, up to the last complete token: ``finishAtLineBoundary()`` then ends it with
    ///   the last whole line), ``WriteError`` from the writer.
    public func copy(from reader: JSONReader) throws {
        while let token = try reader.next() {
            switch token {
            case .objectStart: try beginObject()
            case .objectEnd: try endObject()
            case .arrayStart: try beginArray()
            case .arrayEnd: try endArray()
            case .key: try key(utf8: reader.currentBytes)
            case .string: try string(utf8: reader.currentBytes)
            case .number: try number(utf8: reader.currentBytes)
            case .bool(let value): try bool(value)
            case .null: try null()
            }
        }
    }
}

extension JSONReader {
    /// The current key's, string's or number's bytes on the tape (empty for other tokens).
    var currentBytes: UnsafeBufferPointer<UInt8> {
        guard let token = currentToken, token.hasText else { return UnsafeBufferPointer(start: nil, count: 0) }
        return tape.bytes(of: token)
    }
}
