/// Keyed containers kept for reuse, one per key type, for the length of one decode call or
/// one stream.
///
/// `decoder.container(keyedBy:)` runs once per object a model reads. Making its answer, a
/// `KeyedDecodingContainer<Key>` around a ``KeyedContainer``, asks the runtime for the
/// metadata of both generic types and the conformance's witness table, and allocates the
/// standard library's box: about 1,000 instructions, 6 % of a decode of citm_catalog.json.
/// Once the box made for a key type is no longer held by anyone but this cache (the
/// `init(from:)` that asked for it has returned), the next object read with the same key
/// type gets the same box, its state (``KeyedContainerState``) moved to the new object.
///
/// A container in use is never moved: the box must be uniquely referenced here. Containers
/// that hold a lease (inside an array that releases its elements) are not kept, so that an idle
/// container never holds an element on the tape. The cache holds its containers, which hold
/// the decoder while it decodes: ``endDecode()`` breaks that cycle at the end of each decode
/// or streamed element, and a stream's elements reuse the containers of the elements before.
///
/// The box is kept as the `KeyedDecodingContainer` value's single reference: the standard
/// library's `KeyedDecodingContainer` is a struct holding only its box. Where its size is not
/// one reference, nothing is kept and every container is made afresh.
struct ReusableContainers {
    private struct Slot {
        var keyType: ObjectIdentifier?
        /// The `KeyedDecodingContainer`'s box.
        var box: AnyObject?
        var state: KeyedContainerState?
    }

    private var slots = [Slot](repeating: Slot(), count: 16)
    private var used = 0

    /// How many decodes of the session are running (``DecodingSession/decode(_:)``). A
    /// container asked for outside one (a model kept its decoder, a `superDecoder` or a
    /// container, and decodes from it after the decode returned) is made afresh and not
    /// kept: nothing would park it, and the session it holds would never be freed.
    var decodes = 0

    /// A `KeyedDecodingContainer` for `Key` at the object `object`, reusing the last one made
    /// for `Key` when nothing holds it any more; `make` makes the state of a new one.
    @inline(__always)
    mutating func container<Key: CodingKey>(
        keyedBy type: Key.Type, decoder: TapeDecoder, object: Int, parent: CodingPathNode?, key: CurrentKey
    ) -> KeyedDecodingContainer<Key> {
        guard decodes > 0 else { return Self.make(Key.self, decoder: decoder, object: object, parent: parent, key: key).container }
        let id = ObjectIdentifier(Key.self)
        let mask = slots.count &- 1
        var slot = Self.hash(id) & mask
        while let found = slots[slot].keyType {
            if found == id {
                if isKnownUniquelyReferenced(&slots[slot].box), let box = slots[slot].box, let state = slots[slot].state {
                    state.move(decoder: decoder, object: object, parent: parent, key: key)
                    return unsafeBitCast(box, to: KeyedDecodingContainer<Key>.self)
                }
                return makeForSlot(slot, Key.self, decoder: decoder, object: object, parent: parent, key: key)
            }
            slot = (slot &+ 1) & mask
        }
        return makeAndKeep(Key.self, decoder: decoder, object: object, parent: parent, key: key)
    }

    /// A new container for `Key`, whose slot is `slot`: kept there if the slot's container was
    /// let go of at the end of a decode; else that container is in use, and the new one is not
    /// kept.
    @inline(never)
    private mutating func makeForSlot<Key: CodingKey>(
        _ slot: Int, _ type: Key.Type, decoder: TapeDecoder, object: Int, parent: CodingPathNode?, key: CurrentKey
    ) -> KeyedDecodingContainer<Key> {
        let made = Self.make(Key.self, decoder: decoder, object: object, parent: parent, key: key)
        if slots[slot].box == nil {
            slots[slot].box = unsafeBitCast(made.container, to: AnyObject.self)
            slots[slot].state = made.state
        }
        return made.container
    }

    /// A new container for `Key`, kept for reuse when its layout allows.
    @inline(never)
    private mutating func makeAndKeep<Key: CodingKey>(
        _ type: Key.Type, decoder: TapeDecoder, object: Int, parent: CodingPathNode?, key: CurrentKey
    ) -> KeyedDecodingContainer<Key> {
        let made = Self.make(Key.self, decoder: decoder, object: object, parent: parent, key: key)
        guard MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<AnyObject>.size else { return made.container }
        if (used &+ 1) &* 2 > slots.count { grow() }
        insert(Slot(keyType: ObjectIdentifier(Key.self), box: unsafeBitCast(made.container, to: AnyObject.self), state: made.state))
        return made.container
    }

    private static func make<Key: CodingKey>(
        _ type: Key.Type, decoder: TapeDecoder, object: Int, parent: CodingPathNode?, key: CurrentKey
    ) -> (container: KeyedDecodingContainer<Key>, state: KeyedContainerState) {
        let state = KeyedContainerState(decoder: decoder, object: object, parent: parent, key: key, lease: nil)
        return (KeyedDecodingContainer(KeyedContainer<Key>(state: state)), state)
    }

    /// At the end of a decode (or a streamed element): a container no one else holds is
    /// parked, holding nothing of the decode (its decoder, path and key), to be moved to an
    /// object of the next one; a container still held (a model kept it) is let go of.
    mutating func endDecode() {
        guard used > 0 else { return }
        for slot in slots.indices where slots[slot].box != nil {
            if isKnownUniquelyReferenced(&slots[slot].box) {
                slots[slot].state?.park()
            } else {
                slots[slot].box = nil
                slots[slot].state = nil
            }
        }
    }

    @inline(__always)
    private static func hash(_ id: ObjectIdentifier) -> Int {
        let bits = UInt(bitPattern: id)
        return Int(truncatingIfNeeded: (bits >> 4) ^ (bits >> 12))
    }

    private mutating func insert(_ entry: Slot) {
        guard let id = entry.keyType else { return }
        let mask = slots.count &- 1
        var slot = Self.hash(id) & mask
        while slots[slot].keyType != nil { slot = (slot &+ 1) & mask }
        slots[slot] = entry
        used &+= 1
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(), count: old.count &* 2)
        used = 0
        for entry in old where entry.keyType != nil { insert(entry) }
    }
}
