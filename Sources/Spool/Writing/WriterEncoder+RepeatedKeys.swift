extension WriterEncoder {
    /// Writes the JSON key for `key` (by the key strategy) in the keyed container on top, then
    /// opens the container `value` asks for. As in `JSONEncoder`, a key written before in the
    /// same object replaces the earlier member (a value, or a super encoder's value), or
    /// continues its container (a nested container of the same kind); JSONWriter+Members.swift
    /// does it on the bytes. A `superEncoder(forKey:)` waiting for the same key is placed first,
    /// so what is written later wins.
    /// - Throws: `EncodingError.invalidValue` when the key cannot be written again (see
    ///   ``repeatedKeyError(_:name:codingPath:value:)``), or the writer's error.
    @inline(__always)
    func writeKey<Key: CodingKey>(_ key: Key, then value: JSONWriter.MemberValue) throws {
        let name = jsonKey(key)
        if pendingKeyedSupers > 0 { try placeSupers(forKey: name) }
        if let conflict = try writer.memberKey(name, then: value) {
            throw repeatedKeyError(conflict, name: name, codingPath: path(through: levels.count - 1) + [key], value: value)
        }
    }

    /// Places the super encoders of the container on top that wait for the key `name`.
    @inline(never)
    func placeSupers(forKey name: String) throws {
        let top = levels.count - 1
        guard top >= 0, let supers = levels[top].supers, supers.contains(where: { $0.key == name }) else { return }
        let waiting = supers.filter { $0.key != name }
        levels[top].supers = waiting.isEmpty ? nil : waiting
        try place(supers.filter { $0.key == name })
    }

    /// Continues the single value that frame `frame` encoded as the container of `kind` that
    /// `call` asks for (`JSONEncoder` amends an object or array a single value wrote).
    /// - Returns: nil, or the error for a value that is not such a container, or no longer in
    ///   the buffer.
    func reopenSingleValue(_ frame: Int, as kind: JSONWriter.Frame.Kind, call: String) -> (any Error)? {
        let conflict: JSONWriter.KeyConflict?
        do {
            conflict = try writer.reopenLastValue(after: levels[frame].valueStart, as: kind, sorted: sortsKeys)
        } catch {
            return error
        }
        switch conflict {
        case nil:
            return nil
        case .flushed:
            return misuse(
                "\(call) after a single value that was flushed to the output already: StreamingJSONEncoder streams its "
                    + "output, so it cannot continue a value once flushed",
                at: path(through: frame))
        case .notAContainer:
            return misuse(
                "\(call) for a value that already encoded a single value that is not \(kind == .object ? "an object" : "an array")",
                at: path(through: frame))
        }
    }

    /// The error for a key written again that cannot be: its earlier member was flushed, or a
    /// nested container was asked for a key whose earlier member is not a container of its kind
    /// (`JSONEncoder` stops the program there).
    func repeatedKeyError(
        _ conflict: JSONWriter.KeyConflict, name: String, codingPath: [any CodingKey], value: JSONWriter.MemberValue
    ) -> EncodingError {
        let message: String
        switch (conflict, value) {
        case (.flushed, .value):
            message =
                "the key \"\(name)\" is written again, and its earlier member was flushed to the output already: "
                + "StreamingJSONEncoder streams its output, so it cannot replace a member once flushed "
                + "(encode each key once, or encode to Data)"
        case (.flushed, _):
            message =
                "a nested container for the key \"\(name)\" continues its earlier container, which was flushed to the output "
                + "already: StreamingJSONEncoder streams its output, so it cannot continue a container once flushed "
                + "(encode each key once, or encode to Data)"
        case (.notAContainer(let found), _):
            let asked = if case .array = value { "an unkeyed container" } else { "a keyed container" }
            let held =
                switch found {
                case .object: "an object"
                case .array: "an array"
                default: "a value that is not a container"
                }
            message =
                "\(asked) for the key \"\(name)\", which already holds \(held) in this object: a nested container can continue "
                + "only an earlier container of its kind (JSONEncoder stops the program here)"
        }
        return EncodingError.invalidValue(name, EncodingError.Context(codingPath: codingPath, debugDescription: message))
    }
}
