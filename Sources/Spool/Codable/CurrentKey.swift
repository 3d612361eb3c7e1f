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
    /// A copied borrowed key of a plain type of at most eight bytes (a synthesized
    /// `CodingKeys` enum is one byte), held by value: a container kept for a model's object
    /// then needs no allocation for its key.
    case inline(UInt64, any CodingKey.Type)

    /// A key of its own.
    static func owned(_ key: any CodingKey) -> CurrentKey { .boxed(KeyBox(key)) }

    /// A dictionary's key, as written.
    static func string(_ key: String) -> CurrentKey { .boxed(KeyBox(JSONCodingKey(stringValue: key))) }

    /// The bytes of `key`, when its type is plain data (no references) of at most eight
    /// bytes; else nil.
    ///
    /// (The common sizes are cast, not copied through `withUnsafePointer(to:)`: in code
    /// generic over the key, as a container's is, that closure is a real call that copies the
    /// key, about 60 instructions.)
    @inline(__always)
    static func plainBits<Key: CodingKey>(of key: Key) -> UInt64? {
        guard _isPOD(Key.self) else { return nil }
        switch MemoryLayout<Key>.size {
        case 1: return UInt64(unsafeBitCast(key, to: UInt8.self))
        case 2: return UInt64(unsafeBitCast(key, to: UInt16.self))
        case 4: return UInt64(unsafeBitCast(key, to: UInt32.self))
        case 8: return unsafeBitCast(key, to: UInt64.self)
        case 0, 3, 5, 6, 7: return withUnsafePointer(to: key) { Key.plainBits(at: UnsafeRawPointer($0)) }
        default: return nil
        }
    }

    /// The key as a coding path holds it, or nil for ``none``.
    var codingKey: (any CodingKey)? {
        switch self {
        case .none: nil
        case .index(let index): JSONCodingKey(intValue: index)
        case .borrowed(let pointer, let type): type.load(from: pointer)
        case .boxed(let box): box.key
        case .inline(let bits, let type): withUnsafeBytes(of: bits) { raw in raw.baseAddress.map { type.load(from: $0) } }
        }
    }

    /// Whether `key` is of the type this key would have in a coding path.
    func isSameType(as key: any CodingKey) -> Bool {
        let type: Any.Type
        switch self {
        case .none: return false
        case .index: type = JSONCodingKey.self
        case .borrowed(_, let keyType), .inline(_, let keyType): type = keyType
        case .boxed(let box): type = Swift.type(of: box.key)
        }
        return ObjectIdentifier(type) == ObjectIdentifier(Swift.type(of: key))
    }

    /// The same key, safe to keep after the current call returns.
    var owned: CurrentKey {
        guard case .borrowed(let pointer, let type) = self else { return self }
        if let bits = type.plainBits(at: pointer) { return .inline(bits, type) }
        guard let key = codingKey else { return self }
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

    /// The bytes of the key at `pointer`, when this type is plain data (no references) of at
    /// most eight bytes; else nil.
    /// (The common sizes are loaded as one integer: a copy of a size known only at run time
    /// is a call to `memcpy`.)
    @inline(__always)
    fileprivate static func plainBits(at pointer: UnsafeRawPointer) -> UInt64? {
        guard _isPOD(Self.self) else { return nil }
        switch MemoryLayout<Self>.size {
        case 0: return 0
        case 1: return UInt64(pointer.load(as: UInt8.self))
        case 2: return UInt64(pointer.loadUnaligned(as: UInt16.self))
        case 4: return UInt64(pointer.loadUnaligned(as: UInt32.self))
        case 8: return pointer.loadUnaligned(as: UInt64.self)
        case let size where size < 8:
            var bits: UInt64 = 0
            withUnsafeMutableBytes(of: &bits) { $0.baseAddress?.copyMemory(from: pointer, byteCount: size) }
            return bits
        default: return nil
        }
    }
}
