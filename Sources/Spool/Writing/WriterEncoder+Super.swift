extension WriterEncoder {
    /// An encoder for `superEncoder()` or `superEncoder(forKey:)` of the container of level
    /// `id`: it writes into a small buffer of its own, placed into this writer when the
    /// container ends (keyed) or before its next element (unkeyed). `key` is nil in an unkeyed
    /// container.
    func superEncoder(forLevel id: Int, key: (any CodingKey)?) -> any Encoder {
        do {
            try enter(id)
        } catch {
            return FailingEncoder(error: error, codingPath: path(ofLevel: id))
        }
        let top = levels.count - 1
        let pending = levels[top].supers?.count ?? 0
        let pathKey: any CodingKey = key ?? IndexCodingKey(index: levels[top].count + pending)
        // (Nested: its top-level value ends without the line feed of JSON Lines or jq's layout.)
        let sideWriter = JSONWriter(output: .memory, format: writer.format, initialCapacity: 256, nested: true)
        // Its top level sits inside this container, so pretty output indents to match.
        sideWriter.baseLevel = writer.baseLevel + writer.outer.count
        let side = WriterEncoder(writer: sideWriter, configuration: configuration, basePath: path(through: top) + [pathKey])
        // A model may recurse through super encoders: the stack is counted from this encode's start.
        side.stackLimit = stackLimit
        side.push(Level(id: side.nextID, state: .empty, isFrame: true, key: .none))
        side.nextID &+= 1
        let jsonKey = key.map { self.jsonKey($0) }
        levels[top].supers = (levels[top].supers ?? []) + [PendingSuper(encoder: side, key: jsonKey, codingKey: key)]
        if jsonKey != nil { pendingKeyedSupers += 1 }
        return side
    }

    /// Writes the values of waiting super encoders into the container on top. A super value
    /// for a key written before replaces the earlier member.
    ///
    /// A super value that cannot be placed is lost, and the call that placed it may be one
    /// that cannot throw (a nested container asked for, whose error waits in the container it
    /// returns): the error is also kept in ``lostValueError``, for the encode call to throw.
    func place(_ supers: [PendingSuper]) throws {
        do {
            for pending in supers {
                let bytes = try pending.encoder.finishAsSuper()
                if let key = pending.key {
                    pendingKeyedSupers -= 1
                    if let conflict = try writer.memberKey(key, then: .value) {
                        let codingPath = path(through: levels.count - 1) + (pending.codingKey.map { [$0] } ?? [])
                        throw repeatedKeyError(conflict, name: key, codingPath: codingPath, value: .value)
                    }
                    try writer.appendEncodedValue(bytes)
                } else {
                    try writer.appendEncodedValue(bytes)
                    countElement()
                }
            }
        } catch {
            if lostValueError == nil { lostValueError = error }
            throw error
        }
    }

    /// Ends a super encoder: closes what it left open (`{}` when it encoded nothing), makes
    /// later use throw, and returns its bytes.
    func finishAsSuper() throws -> [UInt8] {
        // Placing a super value places the ones inside it first: one level of recursion each.
        if stackLimit.isExceeded() { throw stackExhausted(at: basePath) }
        while !levels.isEmpty { try closeTop() }
        if let lost = lostValueError { throw lost }
        writer.blocked = WriteError(code: .closed, message: WriterEncoder.superUsedLate)
        isPlaced = true
        return writer.bytes
    }

    static let superUsedLate =
        "a superEncoder() was used after its container moved on: its value was written in place when the "
        + "container wrote its next member or element, or ended (StreamingJSONEncoder writes in order)"

    /// The error for a container or value asked of this encoder when no value is being
    /// encoded: a super encoder already placed, or a use outside `encode(to:)`.
    func noValueError(_ message: String) -> any Error {
        if isPlaced { return misuse(WriterEncoder.superUsedLate, at: basePath) }
        if let blocked = writer.blocked { return blocked }
        return misuse(message)
    }
}
