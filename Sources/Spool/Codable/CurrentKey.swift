/// The key of the value a ``TapeDecoder`` is at, in the container holding it, held as cheaply
/// as it can be while the value is decoded: most keys are never looked at (only errors and
/// `codingPath` read them), so none is copied into an `any CodingKey` until one is. No case
/// holds an existential, so copying a key costs at most a retain.
enum CurrentKey {
    /// The container's own value (or the root).
    case none
    /// An array element's index.
    case index(Int)
    /// A keyed container's key, borrowed from the caller's frame: valid only while the
    /// ``TapeDecoder/at(_:parent:key:_:)`` call that set it runs, which restores the previous
    /// key before it returns. Whatever outlives that call copies it (``owned``).
    case borrowed(UnsafeRawPointer, any CodingKey.Type)
    /// A key of its own (a dictionary's key, a `super` decoder's, a copied borrowed one).
    case boxed(KeyBox)

    /// A key of its own.
    static func owned(_ key: any CodingKey) -> CurrentKey { .boxed(KeyBox(key)) }

    /// A dictionary's key, as written.
    static func string(_ key: String) -> CurrentKey { .boxed(KeyBox(JSONCodingKey(stringValue: key))) }

    /// The key as a coding path holds it, or nil for ``none``.
    var codingKey: (any CodingKey)? {
        switch self {
        case .none: nil
        case .index(let index): JSONCodingKey(intValue: index)
        case .borrowed(let pointer, let type): type.load(from: pointer)
        case .boxed(let box): box.key
        }
    }

    /// Whether `key` is of the type this key would have in a coding path.
    func isSameType(as key: any CodingKey) -> Bool {
        let type: Any.Type
        switch self {
        case .none: return false
        case .index: type = JSONCodingKey.self
        case .borrowed(_, let keyType): type = keyType
        case .boxed(let box): type = Swift.type(of: box.key)
        }
        return ObjectIdentifier(type) == ObjectIdentifier(Swift.type(of: key))
    }

    /// The same key, safe to keep after the current call returns.
    var owned: CurrentKey {
        guard case .borrowed = self, let key = codingKey else { return self }
        return .owned(key)
    }
}

/// A coding key held by reference, so that ``CurrentKey`` copies without an existential.
final class KeyBox {
    let key: any CodingKey

    init(_ key: any CodingKey) {
        self.key = key
    }
}

extension CodingKey {
    /// A copy of the key of this type at `pointer`.
    fileprivate static func load(from pointer: UnsafeRawPointer) -> any CodingKey {
        pointer.assumingMemoryBound(to: Self.self).pointee
    }
}
