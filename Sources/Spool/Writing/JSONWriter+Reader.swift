extension JSONWriter {
    /// Writes every remaining value of `reader`, token by token, in this writer's format:
    /// re-formatting JSON in constant memory (what `spool fmt` does). Numbers keep their exact
    /// text, strings are re-escaped, keys keep their order. With several top-level values
    /// (``JSONParsingOptions/allowsMultipleValues``), the writer must be in ``Format/lines``.
    ///
    /// ```swift
    /// let reader = JSONReader(.file("bands.json"))
    /// let writer = try JSONWriter(toFile: "bands-indented.json", format: .pretty(indent: 4))
    /// try writer.copy(from: reader)
    /// try writer.finish()
    /// ```
    ///
    /// - Throws: ``ParseError`` or ``InputError`` from the reader (what was written before
    ///   stays, up to the last complete token: ``finishAtLineBoundary()`` then ends it with
    ///   the last whole line), ``WriteError`` from the writer.
    public func copy(from reader: JSONReader) throws {
        while try reader.next() != nil {
            guard let token = reader.currentToken else { continue }
            try write(token, of: reader.tape)
        }
    }
}
