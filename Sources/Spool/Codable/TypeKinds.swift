/// How each type met so far is read (``DecodingSession/ValueKind``), by type: an
/// open-addressed table keyed by the type's metadata address (linear probing; it grows at
/// half full).
///
/// (Not a `Dictionary`: the metadata of `[ObjectIdentifier: ValueKind]` is found by its
/// mangled name, and the runtime checks `ObjectIdentifier: Hashable` by scanning every
/// conformance record the first time in a process, about 300,000 instructions.)
struct TypeKinds: Sendable {
    private var slots: [Slot]
    /// `slots.count - 1` (a power of two less one), kept: the lookup of every value reads it.
    private var mask: Int
    private var used = 0

    private struct Slot: Sendable {
        var type: ObjectIdentifier?
        var kind = DecodingSession.ValueKind.model
    }

    /// An empty table with room for `capacity / 2` types before it grows (`capacity` rounded
    /// up to a power of two, as the probing needs).
    init(capacity: Int = 64) {
        var count = 2
        while count < capacity { count &*= 2 }
        slots = [Slot](repeating: Slot(), count: count)
        mask = count &- 1
    }

    /// The number of types in the table.
    var count: Int { used }

    /// The kind of `id`, if it is in the table.
    @inline(__always)
    func kind(of id: ObjectIdentifier) -> DecodingSession.ValueKind? {
        var slot = Self.hash(id) & mask
        while true {
            guard let found = slots[slot].type else { return nil }
            if found == id { return slots[slot].kind }
            slot = (slot &+ 1) & mask
        }
    }

    /// Sets the kind of `id`, in the table or not.
    mutating func set(_ id: ObjectIdentifier, _ kind: DecodingSession.ValueKind) {
        var slot = Self.hash(id) & mask
        while let found = slots[slot].type {
            if found == id {
                slots[slot].kind = kind
                return
            }
            slot = (slot &+ 1) & mask
        }
        if (used &+ 1) &* 2 > slots.count {
            let old = slots
            slots = [Slot](repeating: Slot(), count: old.count &* 2)
            mask = slots.count &- 1
            used = 0
            for entry in old { if let type = entry.type { set(type, entry.kind) } }
            set(id, kind)
            return
        }
        slots[slot] = Slot(type: id, kind: kind)
        used &+= 1
    }

    /// A slot number from a metadata address (its low bits are alignment).
    @inline(__always)
    private static func hash(_ id: ObjectIdentifier) -> Int {
        let bits = UInt(bitPattern: id)
        return Int(truncatingIfNeeded: (bits >> 4) ^ (bits >> 12))
    }
}
