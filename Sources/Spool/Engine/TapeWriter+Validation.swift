/// Lean handlers for validating without recording tokens (``JSONReader/skipToEnd()``).
///
/// They handle the common case, an event inside a container whose text is plain ASCII,
/// verbatim in the current chunk (yajl hands such text as a pointer into it, so it had no
/// escapes) and within the limits, by updating only what an error message would need (element
/// counts, the current key's position, open containers). Everything else goes to the full
/// handlers: top-level values, the depth limit, long text, escaped or non-ASCII text, text
/// split across chunks. Not used when comments are allowed.
extension TapeWriter {
    /// The end of a string or key that needs no checks beyond yajl's, or nil when the full
    /// handler must look at it.
    @inline(__always)
    private func leanStringEnd(_ event: YajlEvent, text bytes: UnsafeRawPointer?) -> Int? {
        let count = event.count
        guard let bytes, let content = plainTextContent(event) else { return nil }
        if validatesUTF8 && !StringChecks.isASCII(UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: UInt8.self), count: count)) {
            return nil
        }
        return content &+ count &+ 1
    }

    @inline(__always)
    func validateString(_ event: YajlEvent, text bytes: UnsafeRawPointer?) -> Bool {
        guard let end = leanStringEnd(event, text: bytes) else { return fullString(event, text: bytes) }
        containedValueDone(end: end)
        return true
    }

    @inline(__always)
    func validateKey(_ event: YajlEvent, text bytes: UnsafeRawPointer?) -> Bool {
        guard let end = leanStringEnd(event, text: bytes) else { return fullKey(event, text: bytes) }
        noteKey(token: -1, sourceLow: scanPos, end: end)
        return true
    }

    @inline(__always)
    func validateNumber(_ event: YajlEvent, text bytes: UnsafeRawPointer?) -> Bool {
        if stack.count == 0 || finishing || event.count > maxNumberLength {
            return fullNumber(event, text: bytes)
        }
        guard let (_, end) = numberBounds(event) else { return false }
        containedValueDone(end: end)
        return true
    }

    @inline(__always)
    func validateLiteral(_ kind: RawToken.Kind, consumed: Int) -> Bool {
        if stack.count == 0 || finishing { return fullLiteral(kind, consumed: consumed) }
        containedValueDone(end: chunkBase &+ consumed)
        return true
    }

    @inline(__always)
    func validateContainerStart(isObject: Bool, consumed: Int) -> Bool {
        if stack.count == 0 || stack.count >= maxDepth || finishing {
            return fullContainerStart(isObject: isObject, consumed: consumed)
        }
        let end = chunkBase &+ consumed
        let start = end &- 1
        let top = stack.top
        if !top.pointee.isObject { top.pointee.children &+= 1 }
        if start > nextNewline { advanceLines(to: start) }
        let location = SourceLocation(byteOffset: start, line: line, column: start &- lineStart &+ 1)
        stack.push(OpenContainer(tokenIndex: -1, isObject: isObject, location: location))
        afterValue = false
        afterKey = false
        separatorSeen = false
        scanPos = end
        return true
    }

    @inline(__always)
    func validateContainerEnd(isObject: Bool, consumed: Int) -> Bool {
        if stack.count <= 1 || finishing { return fullContainerEnd(isObject: isObject, consumed: consumed) }
        _ = leaveLevel()
        afterValue = true
        afterKey = false
        separatorSeen = false
        scanPos = chunkBase &+ consumed
        return true
    }
}
