
extension Extractor {
    /// The index of the value of member `key` in the object at `object`, or nil. With
    /// duplicate keys, the first member counts (as in `JSONDecoder` and for streamed paths),
    /// whatever the order of lookups. The scan ends at the member it finds, so it reads no
    /// further into the object than that.
    ///
    /// Models usually ask for fields in document order, so a lookup starts after the member the
    /// previous lookup in the same object found. A member found that way is the first with its
    /// key unless an earlier member had the same key: the context keeps a filter of the keys
    /// passed in the object (``DecodingContext/KeysPassed``) to rule that out without looking
    /// back, and looks back only when the filter cannot. A key not found by the end of the
    /// object is looked for among the members before the start the same way, so that lookups
    /// in any order stay linear in a wide object.
    @inline(__always)
    func member(_ key: String, ofObjectAt object: Int) throws -> Int? {
        var key = key
        return try key.withUTF8 { try member(utf8: $0, ofObjectAt: object) }
    }

    /// ``member(_:ofObjectAt:)`` for a key given as its UTF-8 bytes.
    @inline(__always)
    func member(utf8 wanted: UnsafeBufferPointer<UInt8>, ofObjectAt object: Int) throws -> Int? {
        try context.member(utf8: wanted, ofObjectAt: object, keys: KeysAsWritten())
    }

    /// ``member(_:ofObjectAt:)`` for a key given as its UTF-8 bytes, compared with each
    /// member's key as `keys` sees it (converted by a key decoding strategy).
    @inline(__always)
    func member<Keys: MemberKeys>(utf8 wanted: UnsafeBufferPointer<UInt8>, ofObjectAt object: Int, keys: Keys) throws -> Int? {
        try context.member(utf8: wanted, ofObjectAt: object, keys: keys)
    }
}
