extension JSONWriter {
    /// Writes the value `extractor` points at (an object, an array or a scalar) as it was read:
    /// numbers keep their exact text (`1E400`, `0.10`), strings are re-escaped, keys keep their
    /// order.
    ///
    /// ```swift
    /// let catalog = try Extractor.decodeValue(from: .file("bands.json"))
    /// try writer.value(try catalog.value(["objects", 0]))   // the first band, as read
    /// ```
    ///
    /// - Throws: ``DecodeError`` when the extractor's tokens are gone (used after its stream
    ///   moved on), ``WriteError`` when the value cannot be written here. On an error, the
    ///   writer is back where it was, if none of the value's bytes were flushed yet.
    public func value(_ extractor: Extractor) throws {
        let context = extractor.context
        let tape = context.tape
        _ = try extractor.checkedToken()
        let last = try context.lastIndex(ofValueAt: extractor.index)
        let mark = checkpoint()
        do {
            var index = extractor.index
            while index <= last {
                try context.ensure(index)  // throws for released tokens
                try write(tape[index], of: tape)
                index += 1
            }
        } catch {
            rewind(to: mark, reason: JSONWriter.summary(of: error))
            throw error
        }
    }
}
