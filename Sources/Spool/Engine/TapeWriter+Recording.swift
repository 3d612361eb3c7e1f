/// The recording handlers' common case, kept small: a key or string verbatim in the current
/// chunk (yajl hands such text as a pointer into it, so it had no escapes) inside a container,
/// within the length limit. It copies the text, checks it only when it is not ASCII, and
/// appends the token. Everything else (escapes, text split across chunks, top-level values,
/// limits, comments) goes to the full handlers, out of line, so the common case saves and
/// restores few registers.
extension TapeWriter {
    /// Where plain text handed by yajl starts in the input (its opening quote), or nil when the
    /// full handler must look at it. (Only called while values are recorded: ``consume(_:text:)``.)
    @inline(__always)
    private func plainTextStart(_ event: YajlEvent) -> Int? {
        guard let content = plainTextContent(event) else { return nil }
        return content &- 1
    }

    /// Copies plain text to the arena and checks it: its arena offset, or nil on an error.
    @inline(__always)
    private func appendPlainText(_ bytes: UnsafeRawPointer?, count: Int, start: Int) -> Int? {
        let (payload, isASCII) = tape.appendText(bytes, count: count)
        if !isASCII && validatesUTF8 && !checkRawText(start: start, end: start &+ count &+ 2) { return nil }
        return payload
    }

    @inline(__always)
    func recordKey(_ event: YajlEvent, text bytes: UnsafeRawPointer?) -> Bool {
        let count = event.count
        guard let start = plainTextStart(event) else { return fullKey(event, text: bytes) }
        guard let payload = appendPlainText(bytes, count: count, start: start) else { return false }
        let index = record(.key, at: start, payload: payload, length: count)
        noteKey(token: index, sourceLow: start, end: start &+ count &+ 2)
        return true
    }

    @inline(__always)
    func recordString(_ event: YajlEvent, text bytes: UnsafeRawPointer?) -> Bool {
        let count = event.count
        guard let start = plainTextStart(event) else { return fullString(event, text: bytes) }
        guard let payload = appendPlainText(bytes, count: count, start: start) else { return false }
        record(.string, at: start, payload: payload, length: count)
        containedValueDone(end: start &+ count &+ 2)
        return true
    }
}
