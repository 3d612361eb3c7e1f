/// Lean callbacks for validating without recording tokens (``JSONReader/skipToEnd()``).
///
/// They handle the common case, an event inside a container whose text is plain ASCII
/// without `?` and well within the limits, by updating only what an error message would need
/// (element counts, the current key's position, open containers). Everything else goes to the
/// full handlers: top-level values, the depth limit, long text, and any string with a byte
/// above 0x7F or a `?` (yajl's output for a bad surrogate escape always has one of them).
/// Not used when comments are allowed.
extension TapeWriter {
    /// Whether a string needs the full handler's checks.
    @inline(__always)
    private func needsFullStringCheck(_ bytes: UnsafeRawPointer?, count: Int) -> Bool {
        if stack.count == 0 || count &* 6 &+ 12 > maxStringLength { return true }
        guard let bytes else { return false }
        return !StringChecks.isPlainASCII(UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: UInt8.self), count: count))
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
        if needsFullStringCheck(bytes, count: count) {
            return didParseString(bytes, count: count)
        }
        guard let (_, end, _) = stringBounds(bytes, count: count) else { return false }
        leanValueDone(end: end)
        return true
    }

    @inline(__always)
    func validateKey(_ bytes: UnsafeRawPointer?, count: Int) -> Bool {
        if needsFullStringCheck(bytes, count: count) {
            return didParseKey(bytes, count: count)
        }
        guard let (_, end, _) = stringBounds(bytes, count: count) else { return false }
        let top = stack.top
        top.pointee.keyToken = -1
        top.pointee.keySourceLow = scanPos
        top.pointee.keySourceEnd = end
        top.pointee.children &+= 1
        if top.pointee.keyPreserved {
            top.pointee.keyPreserved = false
            preservedKeys[stack.count &- 1] = nil
        }
        separatorSeen = false
        afterValue = false
        afterKey = true
        scanPos = end
        return true
    }

    @inline(__always)
    func validateNumber(_ bytes: UnsafeRawPointer?, count: Int) -> Bool {
        if stack.count == 0 || finishing || count > maxNumberLength {
            return didParseNumber(bytes, count: count)
        }
        guard let (_, end) = numberBounds(bytes, count: count) else { return false }
        leanValueDone(end: end)
        return true
    }

    @inline(__always)
    func validateLiteral(_ kind: RawToken.Kind, consumed: Int) -> Bool {
        if stack.count == 0 || finishing { return didParseLiteral(kind, consumed: consumed) }
        leanValueDone(end: chunkBase &+ consumed)
        return true
    }

    @inline(__always)
    func validateContainerStart(isObject: Bool, consumed: Int) -> Bool {
        if stack.count == 0 || stack.count >= maxDepth || finishing {
            return didStartContainer(isObject: isObject, consumed: consumed)
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
        if stack.count <= 1 || finishing { return didEndContainer(isObject: isObject, consumed: consumed) }
        guard let open = stack.pop() else { return false }
        if open.keyPreserved { preservedKeys[stack.count] = nil }
        afterValue = true
        afterKey = false
        separatorSeen = false
        scanPos = chunkBase &+ consumed
        return true
    }
}
