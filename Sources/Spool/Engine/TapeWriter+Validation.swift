/// Lean callbacks for validating without recording tokens (``JSONReader/skipToEnd()``).
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
    private func leanStringEnd(_ bytes: UnsafeRawPointer?, count: Int) -> Int? {
        guard stack.count > 0, count <= maxStringLength, let bytes, let offset = chunkOffset(of: bytes) else {
            return nil
        }
        if validatesUTF8 && !StringChecks.isASCII(UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: UInt8.self), count: count)) {
            return nil
        }
        return chunkBase &+ offset &+ count &+ 1
    }

    @inline(__always)
    private func leanValueDone(end: Int) {
        let top = stack.top
        if !top.pointee.isObject { top.pointee.children &+= 1 }
        afterValue = true
        afterKey = false
        separatorSeen = false
        scanPos = end
    }

    @inline(__always)
    func validateString(_ bytes: UnsafeRawPointer?, count: Int) -> Bool {
        guard let end = leanStringEnd(bytes, count: count) else { return fullString(bytes, count: count) }
        leanValueDone(end: end)
        return true
    }

    @inline(__always)
    func validateKey(_ bytes: UnsafeRawPointer?, count: Int) -> Bool {
        guard let end = leanStringEnd(bytes, count: count) else { return fullKey(bytes, count: count) }
        noteKey(token: -1, sourceLow: scanPos, end: end)
        return true
    }

    @inline(__always)
    func validateNumber(_ bytes: UnsafeRawPointer?, count: Int) -> Bool {
        if stack.count == 0 || finishing || count > maxNumberLength {
            return fullNumber(bytes, count: count)
        }
        guard let (_, end) = numberBounds(bytes, count: count) else { return false }
        leanValueDone(end: end)
        return true
    }

    @inline(__always)
    func validateLiteral(_ kind: RawToken.Kind, consumed: Int) -> Bool {
        if stack.count == 0 || finishing { return fullLiteral(kind, consumed: consumed) }
        leanValueDone(end: chunkBase &+ consumed)
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
        guard let open = stack.pop() else { return false }
        if open.keyPreserved { preservedKeys[stack.count] = nil }
        afterValue = true
        afterKey = false
        separatorSeen = false
        scanPos = chunkBase &+ consumed
        return true
    }

    // The full handlers, out of line: the lean callbacks (and the recording ones in
    // TapeWriter+Recording.swift) stay small, so the common case saves and restores few registers.

    @inline(never)
    func fullString(_ bytes: UnsafeRawPointer?, count: Int) -> Bool { didParseString(bytes, count: count) }

    @inline(never)
    func fullKey(_ bytes: UnsafeRawPointer?, count: Int) -> Bool { didParseKey(bytes, count: count) }

    @inline(never)
    private func fullNumber(_ bytes: UnsafeRawPointer?, count: Int) -> Bool { didParseNumber(bytes, count: count) }

    @inline(never)
    private func fullLiteral(_ kind: RawToken.Kind, consumed: Int) -> Bool { didParseLiteral(kind, consumed: consumed) }

    @inline(never)
    private func fullContainerStart(isObject: Bool, consumed: Int) -> Bool {
        didStartContainer(isObject: isObject, consumed: consumed)
    }

    @inline(never)
    private func fullContainerEnd(isObject: Bool, consumed: Int) -> Bool {
        didEndContainer(isObject: isObject, consumed: consumed)
    }
}
