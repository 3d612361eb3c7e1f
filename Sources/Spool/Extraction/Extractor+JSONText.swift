extension Extractor {
    /// This value as compact JSON text: no whitespace, numbers exactly as written, strings
    /// re-escaped as ``JSONWriter`` escapes them, `/` left as it is (`"`, `\`, control
    /// characters; everything else as UTF-8).
    public func compactJSON() throws -> String {
        var bytes: [UInt8] = []
        try writeCompactJSON(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends this value as compact JSON text to `bytes`.
    public func writeCompactJSON(into bytes: inout [UInt8]) throws {
        try writeCompactJSON(into: &bytes, flushingAt: .max) { _ in }
    }

    /// Writes this value as compact JSON text in pieces, so that a value of many megabytes is
    /// never held twice: appends to `bytes` and, once they have reached `threshold` bytes, calls
    /// `flush`, which writes them out and empties them (the text goes to `bytes` a KiB at a
    /// time, so they hold at most that much beyond `threshold`). The text is the same as
    /// ``writeCompactJSON(into:)``'s.
    ///
    /// Everything that can go wrong with the value itself (a stale extractor, input that ends
    /// or fails inside the value, released elements) throws before `flush` is first called:
    /// the whole value is on the tape before writing starts. After that, only `flush` throws,
    /// and, for input read without ``JSONParsingOptions/validatesUTF8``, the ``WriteError``
    /// for text that is not UTF-8.
    public func writeCompactJSON(
        into bytes: inout [UInt8], flushingAt threshold: Int, _ flush: (inout [UInt8]) throws -> Void
    ) throws {
        _ = try checkedToken()
        let last = try context.lastIndex(ofValueAt: index)
        if tape.gapLength > 0 && tape.gapStart <= last && tape.gapStart &+ tape.gapLength > index {
            throw context.releasedError()
        }
        // One serializer: a compact JSONWriter that leaves `/` alone, its bytes moved out a
        // KiB at a time.
        let writer = JSONWriter(format: JSONWriter.Format(.compact, escapesSlashes: false))
        var index = self.index
        func moveOut(_ writer: JSONWriter) throws {
            writer.moveOut(into: &bytes)
            if bytes.count >= threshold { try flush(&bytes) }
        }
        while index <= last {
            let token = tape[index]
            if token.length > 1024 && (token.kind == .string || token.kind == .key) {
                try writer.writeText(token, of: tape, slice: 1024, between: moveOut)
            } else {
                try writer.write(token, of: tape)
            }
            index &+= 1
            if writer.count >= 1024 { try moveOut(writer) }
        }
        try moveOut(writer)
    }
}
