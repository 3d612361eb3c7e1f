extension JSONWriter {
    /// Writes `token` of `tape`: the one place where parsed JSON is written back, for
    /// ``value(_:)``, ``copy(from:)`` and ``Extractor/writeCompactJSON(into:flushingAt:_:)``.
    /// Number text is the parser's (a JSON number); key and string text is checked as UTF-8
    /// only when the parser did not check it (``TokenTape/textIsValidUTF8``).
    @inline(__always)
    func write(_ token: RawToken, of tape: TokenTape) throws(WriteError) {
        switch token.kind {
        case .objectStart: try beginObject()
        case .objectEnd: try endObject()
        case .arrayStart: try beginArray()
        case .arrayEnd: try endArray()
        case .key:
            let text = tape.bytes(of: token)
            if !tape.textIsValidUTF8 { try Self.validateUTF8(text, what: "key") }
            try writeKey(text)
        case .string:
            let text = tape.bytes(of: token)
            if !tape.textIsValidUTF8 { try Self.validateUTF8(text, what: "string") }
            try writeString(text)
        case .number: try writeParsedNumber(tape.bytes(of: token))
        case .true: try bool(true)
        case .false: try bool(false)
        case .null: try null()
        }
    }

    /// ``write(_:of:)`` for a key or string token whose text goes into the buffer a slice of
    /// `slice` bytes at a time, `between(self)` called after each slice (to move the bytes
    /// out): a string of many megabytes is never held whole in the buffer.
    func writeText(
        _ token: RawToken, of tape: TokenTape, slice: Int, between: (JSONWriter) throws -> Void
    ) throws {
        let text = tape.bytes(of: token)
        let isKey = token.kind == .key
        if !tape.textIsValidUTF8 { try Self.validateUTF8(text, what: isKey ? "key" : "string") }
        if isKey { try beginKey() } else { try beginValue() }
        let start = count
        try reserve(1)
        append(UInt8(ascii: "\""))
        var offset = 0
        repeat {
            let piece = UnsafeBufferPointer(rebasing: text[offset..<min(text.count, offset &+ max(slice, 1))])
            try reserve(piece.count &+ 1)
            try appendEscaped(piece, keepingRoom: 1)
            offset &+= piece.count
            if offset < text.count { try between(self) }
        } while offset < text.count
        append(UInt8(ascii: "\""))
        if isKey {
            if current.memberBase >= 0 { recordKey(start: start, escaped: count &- start &- 2 != text.count) }
            try writeColon()
        } else {
            try endValue()
        }
    }

    /// For a memory writer with nothing held back (no sorted or checked members): moves the
    /// bytes written so far to the end of `bytes`, as a descriptor writer writes them out.
    func moveOut(into bytes: inout [UInt8]) {
        guard case .memory = output, flushHolds == 0, keysInBufferFrom >= members.count, count > 0 else { return }
        bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: count))
        bytesFlushed &+= count
        count = 0
    }
}
